internal import InvoicesCore

/// FreshBooks' clients and invoices CSV exports (docs/import.md).
extension RowContext {
    /// A FreshBooks client: named by its organization, or by first and last name when it has none.
    mutating func freshBooksClient(_ row: CSVTable.Row) -> ImportedClient? {
        guard let name = RowContext.freshBooksName(row) else {
            problem(row.location, "Organization", "is empty, and so are 'First Name' and 'Last Name'; every client needs a name")
            return nil
        }
        return ImportedClient(
            number: nil, name: name, email: row.optional("Email"), street: row.optional("Street"),
            city: row.optional("City"), zip: row.optional("Postal Code"), country: row.optional("Country"),
            source: row.location)
    }

    static func freshBooksName(_ row: CSVTable.Row) -> String? {
        let organization = row["Organization"]
        if !organization.isEmpty { return organization }
        let person = [row["First Name"], row["Last Name"]].filter { !$0.isEmpty }.joined(separator: " ")
        return person.isEmpty ? nil : person
    }

    /// FreshBooks invoices, one row per line item: the amount is the sum of the lines' `Line Total`; the
    /// invoice-level columns must agree across its lines. The due date is `Date Due` when the export has that
    /// column and the invoice a value in it; otherwise it is the issue date plus ``defaultTerms`` days.
    mutating func freshBooksInvoices(_ rows: [CSVTable.Row]) -> [ImportedInvoice] {
        var order: [String] = []
        var lines: [String: [CSVTable.Row]] = [:]
        for row in rows {
            guard let number = required(row["Invoice #"], row.location, "Invoice #", what: "line item") else { continue }
            if lines[number] == nil { order.append(number) }
            lines[number, default: []].append(row)
        }
        var invoices: [ImportedInvoice] = []
        for number in order {
            let rows = lines[number]!
            let first = rows[0]
            var valid = true
            for column in ["Client Name", "Date Issued", "Date Due", "Invoice Status", "Date Paid", "Currency"] {
                for row in rows.dropFirst() where row[column] != first[column] {
                    problem(row.location, column, "'\(row[column])' differs from '\(first[column])' on line \(first.record.line) of invoice '\(number)'")
                    valid = false
                }
            }
            let location = first.location
            let client = required(first["Client Name"], location, "Client Name", what: "invoice")
            let currency = currency(first["Currency"], location, "Currency")
            var total: Money? = currency.map { Money.zero($0) }
            for row in rows {
                guard let currency else { break }
                guard let line = money(row["Line Total"], currency, row.location, "Line Total") else {
                    total = nil
                    continue
                }
                do {
                    total = try total?.adding(line)
                } catch {
                    problem(row.location, "Line Total", error.description)
                    total = nil
                }
            }
            let issued = date(first["Date Issued"], location, "Date Issued", required: true)
            let status = first["Invoice Status"].lowercased()
            // `auto-paid` is FreshBooks' status for an invoice paid by automatic billing: paid like `paid`.
            let isPaid = status == "paid" || status == "auto-paid"
            let paid = date(first["Date Paid"], location, "Date Paid", required: isPaid)
            // `Date Due` when the export has it; an invoice without one gets the default terms.
            let stated = date(first["Date Due"], location, "Date Due", required: false)
            guard valid, let client, let total, let issued = issued ?? nil, var paid, let stated else {
                rejectedInvoice(naming: client.map(ClientReference.name), column: "Client Name", at: location)
                continue
            }
            // Only status 'paid' means paid in full; a partial payment's date is not a paid date.
            if !isPaid { paid = nil }
            let due = stated ?? issued.adding(days: defaultTerms)
            let dueColumn = stated == nil ? nil : "Date Due"
            guard checkOrder(issued: issued, due: due, paid: paid, location, dueColumn: dueColumn, paidColumn: "Date Paid") else {
                rejectedInvoice(naming: .name(client), column: "Client Name", at: location)
                continue
            }
            guard let tax = freshBooksTax(rows, total: total) else {
                rejectedInvoice(naming: .name(client), column: "Client Name", at: location)
                continue
            }
            let items = rows.map { $0["Item Name"] }.filter { !$0.isEmpty }
            // Drafts and voids keep their status (a v1 store leaves them out); every other status is sent.
            let state: InvoiceStatus = ["draft": .draft, "void": .void, "voided": .void][status] ?? .sent
            invoices.append(
                ImportedInvoice(
                    identifier: number, client: .name(client), clientColumn: "Client Name", amount: total, issued: issued,
                    due: due, dueIsDerived: stated == nil,
                    paid: paid, notes: items.joined(separator: ", "), source: location, status: state, tax: tax.tax))
        }
        return invoices
    }

    /// The net and tax lines of a FreshBooks invoice: on each line `Line Subtotal` + `Tax 1 Amount` + `Tax 2 Amount`
    /// = `Line Total` exactly; the net is the sum of the subtotals, and each tax (by `Tax N Type`) one tax line with
    /// the sum of its amounts, levied on the subtotals of the lines that carry it, at the rate tax / net (to
    /// 0.001 %, half to even: the export has no rate). `tax` is nil for an export without the tax columns; the
    /// whole is nil after a problem.
    mutating func freshBooksTax(_ rows: [CSVTable.Row], total: Money) -> (tax: ImportedTax?, Void)? {
        guard let first = rows.first, first.optional("Line Subtotal") != nil else { return (nil, ()) }
        let currency = total.currency
        var net: Int64 = 0
        var order: [String] = []
        var taxes: [String: (net: Int64, amount: Int64)] = [:]
        var valid = true
        for row in rows {
            guard let subtotal = money(row["Line Subtotal"], currency, row.location, "Line Subtotal"),
                let lineTotal = money(row["Line Total"], currency, row.location, "Line Total")
            else {
                valid = false
                continue
            }
            var sum = subtotal.minorUnits
            for slot in ["Tax 1", "Tax 2"] {
                let name = row.optional(slot + " Type") ?? ""
                let text = row.optional(slot + " Amount") ?? ""
                guard let amount = text.isEmpty ? Money.zero(currency) : money(text, currency, row.location, slot + " Amount") else {
                    valid = false
                    continue
                }
                if amount.minorUnits == 0 && name.isEmpty { continue }
                if name.isEmpty {
                    problem(row.location, slot + " Type", "is empty, but '\(slot) Amount' is \(text); every tax needs its name")
                    valid = false
                    continue
                }
                if taxes[name] == nil { order.append(name) }
                let (taxNet, taxAmount) = taxes[name] ?? (0, 0)
                guard let lineNet = MinorUnits.add(taxNet, subtotal.minorUnits), let lineTax = MinorUnits.add(taxAmount, amount.minorUnits),
                    let lineSum = MinorUnits.add(sum, amount.minorUnits)
                else {
                    problem(row.location, slot + " Amount", "added to the invoice's other amounts \(MinorUnits.tooLarge)")
                    valid = false
                    continue
                }
                taxes[name] = (lineNet, lineTax)
                sum = lineSum
            }
            guard let netSum = MinorUnits.add(net, subtotal.minorUnits) else {
                problem(row.location, "Line Subtotal", "added to the other lines \(MinorUnits.tooLarge)")
                valid = false
                continue
            }
            net = netSum
            if valid, sum != lineTotal.minorUnits {
                problem(
                    row.location, "Line Total",
                    "'\(row["Line Total"])' is not 'Line Subtotal' plus the taxes (\(Money(minorUnits: sum, currency: currency).decimalString)); the gross must be net plus taxes exactly")
                valid = false
            }
        }
        guard valid else { return nil }
        let lines = order.compactMap { name -> ImportedTax.Line? in
            guard let tax = taxes[name] else { return nil }
            let rate = TaxRate(name: name, milliPercent: Int32(clamping: tax.net > 0 ? proportionalMilli(tax.amount, tax.net) : 0))
            return ImportedTax.Line(name: name, rate: rate.percent, net: tax.net == net ? nil : tax.net, amount: tax.amount)
        }
        return (ImportedTax(net: net, lines: lines), ())
    }

    /// FreshBooks' Payments Collected report (`Date, Client, Invoice #, Method, Notes, Amount, Currency`), one row per
    /// payment. A row without an invoice number is a payment recorded as the client's credit: the store keeps
    /// payments of invoices only, so it is left out and counted. An amount marked `*` was applied from a credit; it
    /// is a payment of the invoice like the others.
    mutating func freshBooksPayments(_ rows: [CSVTable.Row]) -> [ImportedPayment] {
        var payments: [ImportedPayment] = []
        for row in rows {
            let location = row.location
            guard !row["Invoice #"].isEmpty else {
                skippedPayments += 1
                continue
            }
            let currency = currency(row["Currency"], location, "Currency")
            var text = row["Amount"]
            if text.hasSuffix("*") { text.removeLast() }
            let amount = currency.flatMap { money(text.trimmingCharacters(in: .whitespaces), $0, location, "Amount", allowNegative: true) }
            let paid = date(row["Date"], location, "Date", required: true)
            guard let amount, let paid = paid ?? nil else { continue }
            payments.append(
                ImportedPayment(
                    invoice: row["Invoice #"], date: paid, amount: amount, method: row["Method"],
                    reference: row.optional("Notes") ?? row.optional("Description") ?? "", source: location,
                    columns: ["invoice": "Invoice #", "paidOn": "Date", "amount": "Amount", "currency": "Currency"]))
        }
        return payments
    }
}
