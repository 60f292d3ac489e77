internal import InvoicesCore

/// Xero's invoices CSV export (Business › Invoices › Export), one row per line item (docs/import.md, "Xero").
extension RowContext {
    /// The invoice-level columns, the same on every line of an invoice.
    static let xeroInvoiceColumns = [
        "ContactName", "InvoiceDate", "DueDate", "Total", "TaxTotal", "InvoiceAmountPaid", "InvoiceAmountDue", "Currency",
        "Type", "Status",
    ]

    /// Xero invoices and credit notes, and the contacts they name. The amount is `Total`; `InvoiceAmountPaid` is one
    /// payment on the issue date (the export has no payment dates; a warning says so); a credit note whose `Reference`
    /// is an invoice of the file corrects it, applied on the credit note's date. The balance the tool computes must be
    /// `InvoiceAmountDue`, or the invoice is a problem. Lines are summed into the net and one tax line per `TaxType`.
    mutating func xeroInvoices(_ rows: [CSVTable.Row]) -> (clients: [ImportedClient], invoices: [ImportedInvoice], warnings: [ImportProblem]) {
        var order: [String] = []
        var lines: [String: [CSVTable.Row]] = [:]
        for row in rows {
            guard let number = required(row["InvoiceNumber"], row.location, "InvoiceNumber", what: "line item") else { continue }
            if lines[number] == nil { order.append(number) }
            lines[number, default: []].append(row)
        }
        let reader = ServiceDates(rows: rows, fallback: dates)
        if let found = reader.problem { problem(found.0, "InvoiceDate", found.1) }
        var documents: [XeroDocument] = []
        for number in order {
            if let document = xeroDocument(number, lines[number]!, reader) { documents.append(document) }
        }
        // Credit notes that name an invoice of the file (same contact and currency) in `Reference` correct it.
        var invoicesByNumber: [String: XeroDocument] = [:]
        for document in documents where !document.isCreditNote { invoicesByNumber[document.number] = document }
        var credited: [String: Int64] = [:]
        var clients: [ImportedClient] = []
        var clientNames: Set<String> = []
        var invoices: [ImportedInvoice] = []
        var creditNotes: [ImportedInvoice] = []
        var paidOnIssue = 0
        for document in documents where document.isCreditNote {
            var invoice = document.imported
            invoice.kind = .creditNote
            let reference = document.row["Reference"]
            if let target = invoicesByNumber[reference], target.contact == document.contact,
                target.total.currency == document.total.currency, document.status == .sent
            {
                guard document.paid == 0, document.due == 0 else {
                    problem(
                        document.row.location, "InvoiceAmountDue",
                        "the credit note corrects invoice '\(reference)' (its Reference), so all of it is applied there; expected InvoiceAmountPaid and "
                            + "InvoiceAmountDue 0.00, not \(document.money(document.paid)) and \(document.money(document.due))")
                    continue
                }
                invoice.corrects = reference
                invoice.applied = document.issued
                credited[reference] = MinorUnits.add(credited[reference] ?? 0, document.total.minorUnits) ?? .max
            } else if document.status == .sent {
                // The client's credit: refunded `InvoiceAmountPaid`, the rest `InvoiceAmountDue`.
                guard MinorUnits.subtract(document.total.minorUnits, document.paid) == document.due else {
                    problem(
                        document.row.location, "InvoiceAmountDue",
                        "\(document.money(document.due)) is not Total less the refunded InvoiceAmountPaid (\(MinorUnits.subtract(document.total.minorUnits, document.paid).map(document.money) ?? "beyond 64 bits")): "
                            + "part of the credit note was allocated to an invoice it does not name; put that invoice's number in Reference")
                    continue
                }
                if document.paid != 0 {
                    invoice.receipts = ImportedReceipts(received: -document.paid, receivedOn: document.issued)
                    paidOnIssue += 1
                }
            }
            creditNotes.append(invoice)
        }
        for document in documents where !document.isCreditNote {
            var invoice = document.imported
            invoice.kind = .invoice
            if document.status == .sent {
                let applied = credited[document.number] ?? 0
                let balance = MinorUnits.subtract(MinorUnits.subtract(document.total.minorUnits, document.paid), applied)
                guard balance == document.due else {
                    problem(
                        document.row.location, "InvoiceAmountDue",
                        "Xero's balance \(document.money(document.due)) is not Total less InvoiceAmountPaid less the credit notes naming it in Reference "
                            + "(\(balance.map(document.money) ?? "beyond 64 bits")); the file does not say what else settled it, so it is not imported")
                    continue
                }
                if document.paid != 0 {
                    invoice.receipts = ImportedReceipts(received: document.paid, receivedOn: document.issued)
                    paidOnIssue += 1
                } else {
                    invoice.receipts = ImportedReceipts(received: nil, receivedOn: nil)
                }
                if document.due <= 0 { invoice.paid = document.issued }
            }
            invoices.append(invoice)
        }
        for document in documents where clientNames.insert(document.contact).inserted {
            let row = document.row
            let street = ["POAddressLine1", "POAddressLine2", "POAddressLine3", "POAddressLine4"].compactMap { row.filled($0) }
            clients.append(
                ImportedClient(
                    number: nil, name: document.contact, email: row.optional("EmailAddress"),
                    street: street.isEmpty ? row.optional("POAddressLine1") : street.joined(separator: "\n"),
                    city: row.optional("POCity"), zip: row.optional("POPostalCode"), country: row.optional("POCountry"),
                    source: row.location))
        }
        var warnings: [ImportProblem] = []
        if paidOnIssue > 0, let first = rows.first {
            warnings.append(
                ImportProblem(
                    location: SourceLocation(file: first.location.file),
                    message: "\(paidOnIssue) invoice(s) and credit note(s) with an InvoiceAmountPaid: each amount is recorded as one payment "
                        + "(a refund for a credit note) on its InvoiceDate; Xero's invoice export does not say when it was paid"))
        }
        return (clients, invoices + creditNotes, warnings)
    }

    /// One Xero invoice or credit note read from its lines, figures in the store's sign (a credit note's positive);
    /// nil after a problem (reported).
    mutating func xeroDocument(_ number: String, _ rows: [CSVTable.Row], _ reader: ServiceDates) -> XeroDocument? {
        let first = rows[0]
        let location = first.location
        var valid = true
        for column in Self.xeroInvoiceColumns {
            for row in rows.dropFirst() where row[column] != first[column] {
                problem(row.location, column, "'\(row[column])' differs from '\(first[column])' on line \(first.record.line) of invoice '\(number)'")
                valid = false
            }
        }
        let isCreditNote: Bool
        switch first["Type"].lowercased() {
        case "sales invoice", "accrec", "": isCreditNote = false
        case "sales credit note", "accreccredit": isCreditNote = true
        default:
            problem(
                location, "Type",
                "'\(first["Type"])' is not a sales document; expected 'Sales invoice' or 'Sales credit note' (bills and purchases are not the books of a client)")
            return nil
        }
        let status: InvoiceStatus
        switch first["Status"].lowercased() {
        case "draft", "awaiting approval", "submitted": status = .draft
        case "awaiting payment", "authorised", "paid", "": status = .sent
        case "voided", "void": status = .void
        default:
            problem(location, "Status", "'\(first["Status"])' is not a Xero status; expected Draft, Awaiting Approval, Awaiting Payment, Paid or Voided")
            return nil
        }
        let contact = required(first["ContactName"], location, "ContactName", what: "invoice")
        let currency = currency(first["Currency"], location, "Currency")
        let issued = serviceDate(first, "InvoiceDate", reader, required: true)
        let due = serviceDate(first, "DueDate", reader, required: true)
        guard let currency else { return nil }
        // The sign of the document: a credit note may be written negative (`-400.00` or `(400.00)`); stored positive.
        let total = xeroMoney(first, "Total", currency)
        let sign: Int64 = (total ?? 0) < 0 && isCreditNote ? -1 : 1
        if let total, total < 0, !isCreditNote {
            problem(location, "Total", "'\(first["Total"])' is negative; an invoice's Total is what the client owes (a credit is a 'Sales credit note')")
            valid = false
        }
        let figures = ["TaxTotal", "InvoiceAmountPaid", "InvoiceAmountDue"].map { xeroMoney(first, $0, currency, empty: 0).map { $0 * sign } }
        var lineSum: Int64 = 0
        var taxSum: Int64 = 0
        var groups: [(name: String, amount: Int64, tax: Int64)] = []
        for row in rows {
            guard let amount = xeroMoney(row, "LineAmount", currency, empty: 0), let tax = xeroMoney(row, "TaxAmount", currency, empty: 0) else {
                valid = false
                continue
            }
            let name = row["TaxType"]
            if name.isEmpty, tax != 0 {
                problem(row.location, "TaxType", "is empty, but 'TaxAmount' is \(row["TaxAmount"]); every tax needs its name")
                valid = false
                continue
            }
            guard let sum = MinorUnits.add(lineSum, amount * sign), let taxes = MinorUnits.add(taxSum, tax * sign) else {
                problem(row.location, "LineAmount", "added to the other lines \(MinorUnits.tooLarge)")
                valid = false
                continue
            }
            (lineSum, taxSum) = (sum, taxes)
            if let index = groups.firstIndex(where: { $0.name == name }) {
                guard let groupAmount = MinorUnits.add(groups[index].amount, amount * sign), let groupTax = MinorUnits.add(groups[index].tax, tax * sign) else {
                    problem(row.location, "LineAmount", "added to the other lines of tax '\(name)' \(MinorUnits.tooLarge)")
                    valid = false
                    continue
                }
                (groups[index].amount, groups[index].tax) = (groupAmount, groupTax)
            } else {
                groups.append((name, amount * sign, tax * sign))
            }
        }
        guard valid, let contact, let total = total.map({ $0 * sign }), let taxTotal = figures[0], let paid = figures[1], let owed = figures[2],
            let issued = issued ?? nil, let due = due ?? nil
        else { return nil }
        let money = { (amount: Int64) in Money(minorUnits: amount, currency: currency).decimalString }
        guard taxSum == taxTotal else {
            problem(location, "TaxTotal", "\(first["TaxTotal"]) is not the sum of the lines' TaxAmount (\(money(taxSum)))")
            return nil
        }
        // Xero's lines are tax exclusive (the lines plus the tax are the total) or tax inclusive (the lines are it).
        let inclusive: Bool
        if MinorUnits.add(lineSum, taxSum) == total {
            inclusive = false
        } else if lineSum == total {
            inclusive = true
        } else {
            problem(
                location, "Total",
                "\(first["Total"]) is neither the lines' LineAmount plus TaxTotal (\(MinorUnits.add(lineSum, taxSum).map(money) ?? "beyond 64 bits")) "
                    + "nor the lines' LineAmount (\(money(lineSum)))")
            return nil
        }
        guard let net = inclusive ? MinorUnits.subtract(lineSum, taxSum) : lineSum,
            groups.allSatisfy({ !inclusive || MinorUnits.subtract($0.amount, $0.tax) != nil })
        else {
            problem(location, "TaxTotal", "subtracted from the lines \(MinorUnits.tooLarge)")
            return nil
        }
        let taxLines = groups.compactMap { group -> ImportedTax.Line? in
            guard !group.name.isEmpty else { return nil }
            let groupNet = inclusive ? MinorUnits.subtract(group.amount, group.tax) ?? 0 : group.amount
            let rate = Self.xeroRate(group.name).flatMap { TaxRate(name: group.name, percent: $0) }
                ?? TaxRate(name: group.name, milliPercent: Int32(clamping: groupNet > 0 && group.tax >= 0 ? proportionalMilli(group.tax, groupNet) : 0))
            return ImportedTax.Line(name: group.name, rate: rate.percent, net: groupNet == net ? nil : groupNet, amount: group.tax)
        }
        guard checkOrder(issued: issued, due: due, paid: nil, location, dueColumn: "DueDate", paidColumn: "InvoiceDate") else { return nil }
        if status == .void, paid != 0 {
            problem(location, "InvoiceAmountPaid", "is \(first["InvoiceAmountPaid"]) on a voided invoice; Xero voids only invoices without payments")
            return nil
        }
        if first["Status"].lowercased() == "paid", owed != 0 {
            problem(location, "InvoiceAmountDue", "is \(first["InvoiceAmountDue"]), but the status is Paid; Xero's balance and status disagree")
            return nil
        }
        let imported = ImportedInvoice(
            identifier: number, client: .name(contact), clientColumn: "ContactName", amount: Money(minorUnits: total, currency: currency),
            issued: issued, due: due, paid: nil, notes: first.optional("Reference"), source: location, status: status,
            tax: ImportedTax(net: net, lines: taxLines))
        return XeroDocument(
            number: number, row: first, contact: contact, isCreditNote: isCreditNote, status: status,
            total: imported.amount, paid: paid, due: owed, issued: issued, imported: imported)
    }

    /// An amount as Xero writes it: `1234.50`, `-400.00` or `(400.00)`, with a currency symbol (`$`, `£`, `€`) or
    /// not; an empty cell is `empty` (nil: a problem).
    mutating func xeroMoney(_ row: CSVTable.Row, _ column: String, _ currency: CurrencyCode, empty: Int64? = nil) -> Int64? {
        var text = Substring(row[column].trimmingCharacters(in: .whitespaces))
        if text.isEmpty, let empty { return empty }
        let (negative, magnitude) = Self.signed(text, symbols: "$£€")
        text = magnitude
        guard let money = money(String(text), currency, row.location, column) else { return nil }
        // Every amount is turned to the store's sign by negation, which the most negative 64-bit value has not.
        guard money.minorUnits != .min else {
            problem(row.location, column, "'\(row[column])' \(MinorUnits.tooLarge)")
            return nil
        }
        return negative ? -money.minorUnits : money.minorUnits
    }

    /// The percentage a Xero tax rate's name states (`20% (VAT on Income)`, `GST 15%`), as a decimal; nil without one.
    static func xeroRate(_ name: String) -> String? {
        guard let percent = name.firstIndex(of: "%") else { return nil }
        let digits = name[..<percent].reversed().prefix { $0.isNumber || $0 == "." }
        guard !digits.isEmpty else { return nil }
        return ImportReader.percent(String(digits.reversed()))
    }
}

/// One Xero invoice or credit note, read (``RowContext/xeroDocument(_:_:_:)``).
struct XeroDocument {
    let number: String
    let row: CSVTable.Row
    let contact: String
    let isCreditNote: Bool
    let status: InvoiceStatus
    let total: Money
    let paid: Int64
    let due: Int64
    let issued: CalendarDate
    let imported: ImportedInvoice

    func money(_ amount: Int64) -> String { Money(minorUnits: amount, currency: total.currency).decimalString }
}
