import Foundation
internal import InvoicesCore
internal import InvoicesReport

extension SiteBuilder {
    /// The relative path of a client's statement of account.
    public func statementPath(_ clientIndex: Int) -> String { "statements/\(slugs[clientIndex]).html" }

    /// A client's statement of account over the report's period (``Report/statements(of:invoices:in:)``).
    func statementPage(_ totals: Report.ClientTotals, invoices: [Int]) -> File {
        let registry = RowListRegistry(marker: TemplateSet.rowMarker)
        let context = statementContext(totals, invoices: invoices, registry: registry)
        let name = books.clients[totals.clientIndex].name
        return page(statementPath(totals.clientIndex), template: "statement", title: "Statement · \(name)", context, rows: registry)
    }

    func statementContext(_ totals: Report.ClientTotals, invoices: [Int], registry: RowListRegistry? = nil) -> [String: Any] {
        var context = addressContext(totals.clientIndex)
        context["clientHref"] = "../" + clientPath(totals.clientIndex)
        if let (from, to) = report.statementPeriod {
            context["from"] = from.description
            context["to"] = to.description
        }
        let statements: [ClientStatement]
        do {
            statements = try report.statements(of: totals, invoices: invoices, in: books)
        } catch {
            context["problem"] = "No statement: \(error)."
            statements = []
        }
        let agingByCurrency = Dictionary(uniqueKeysWithValues: totals.currencies.map { ($0.currency, $0.aging) })
        context["currencies"] = statements.map { statement -> [String: Any] in
            let currency = statement.currency
            let lines = RowList(columns: TemplateVariables.statementLineColumns, count: statement.lines.count, registry: registry) {
                row, column in
                statementCell(statement.lines[row], currency, TemplateVariables.StatementLineColumn(rawValue: column) ?? .date)
            }
            var entry = agingRow(agingByCurrency[currency] ?? Aging(), currency)
            entry["opening"] = money(statement.opening, currency)
            entry["closing"] = money(statement.closing, currency)
            entry["charges"] = money(statement.charges, currency)
            entry["credits"] = money(statement.credits, currency)
            entry["lines"] = lines
            if let pay = payContext(clientIndex: totals.clientIndex, invoice: nil, minorUnits: statement.closing, currency: currency) {
                entry["pay"] = pay
            }
            return entry
        }
        return context
    }

    /// One cell of a statement line.
    func statementCell(_ line: ClientStatement.Line, _ currency: CurrencyCode, _ column: TemplateVariables.StatementLineColumn) -> String {
        // Fields read in place: a copy of the invoice per cell costs a retain and release of each of its strings.
        switch column {
        case .date: return line.day.description
        case .kind:
            switch line.kind {
            case .invoice: return "invoice"
            case .creditNote: return "credit-note"
            case .payment: return "payment"
            case .refund: return "refund"
            case .writeOff: return "write-off"
            }
        case .type:
            switch line.kind {
            case .invoice: return "Invoice"
            case .creditNote: return "Credit note"
            case .payment: return "Payment"
            case .refund: return "Refund"
            case .writeOff: return "Write-off"
            }
        case .document: return books.invoices[line.invoiceIndex].identifier
        case .detail:
            switch line.kind {
            case .invoice: return "due \(books.invoices[line.invoiceIndex].due)"
            case .creditNote:
                let target = Int(books.invoices[line.invoiceIndex].corrects)
                return target >= 0 && target < books.invoices.count ? "for \(books.invoices[target].identifier)" : ""
            case .payment, .refund:
                let details = books.payments[line.source].details
                guard details >= 0, Int(details) < books.paymentDetails.count else { return "" }
                let entry = books.paymentDetails[Int(details)]
                return [entry.method, entry.reference].filter { !$0.isEmpty }.joined(separator: " ")
            case .writeOff: return books.writeOffs[line.source].reason
            }
        case .charge: return line.delta >= 0 && line.kind != .payment ? money(line.delta, currency) : ""
        case .credit: return line.delta < 0 || line.kind == .payment ? money(0 &- line.delta, currency) : ""
        case .balance: return line.balance.map { money($0, currency) } ?? "does not fit in 64 bits"
        }
    }

    /// The client's name, number and address lines, and `hasAddress`: the address block of its pages.
    func addressContext(_ clientIndex: Int) -> [String: Any] {
        let client = books.clients[clientIndex]
        let hasAddress = !(client.street.isEmpty && client.city.isEmpty && client.zip.isEmpty && client.country.isEmpty)
        return [
            "name": client.name, "number": client.number, "street": client.street, "city": client.city, "zip": client.zip,
            "country": client.country, "hasAddress": hasAddress,
        ]
    }
}
