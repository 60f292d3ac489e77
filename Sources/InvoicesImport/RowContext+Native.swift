internal import InvoicesCore

/// The tool's own CSV formats (docs/import.md): exactly the store's fields, amounts as decimal strings.
extension RowContext {
    mutating func nativeClient(_ row: CSVTable.Row) -> ImportedClient? {
        let location = row.location
        let language = language(row.optional("language"), location, "language")
        guard let number = required(row["number"], location, "number", what: "client"),
            let name = required(row["name"], location, "name", what: "client"), let language
        else {
            rejectedClient(.number(row["number"]))
            return nil
        }
        return ImportedClient(
            number: number, name: name, email: row.optional("email"), street: row.optional("street"),
            city: row.optional("city"), zip: row.optional("zip"), country: row.optional("country"), language: language,
            source: location)
    }

    mutating func nativeInvoice(_ row: CSVTable.Row) -> ImportedInvoice? {
        let location = row.location
        return nativeInvoice(
            location: location, value: { row[$0] }, hasColumn: { row.optional($0) != nil })
    }

    /// One invoice from named values (a CSV row or a JSON object). Besides the store's v1 fields it reads, when
    /// present: `status`, `kind`, `corrects`, `appliedOn` (a credit note), `net` with one tax line `taxName`,
    /// `taxRate`, `taxAmount`, and one write-off `writtenOff`, `writtenOffOn`, `writeOffReason` (JSON: or the
    /// arrays `taxLines` and `writeOffs`, read by the caller and passed in).
    mutating func nativeInvoice(
        location: SourceLocation, value: (String) -> String, hasColumn: (String) -> Bool,
        taxLines: [ImportedTax.Line]? = nil, writeOffs: [ImportedWriteOff]? = nil
    ) -> ImportedInvoice? {
        let identifier = required(value("identifier"), location, "identifier", what: "invoice")
        let client = required(value("clientNumber"), location, "clientNumber", what: "invoice")
        let currency = currency(value("currency"), location, "currency")
        let amount = currency.flatMap { money(value("amount"), $0, location, "amount") }
        let issued = date(value("issuedOn"), location, "issuedOn", required: true)
        let due = date(value("dueOn"), location, "dueOn", required: true)
        let paid = date(value("paidOn"), location, "paidOn", required: false)
        let books = currency.flatMap { currency in
            nativeBooks(location: location, value: value, currency: currency, gross: amount, issued: issued ?? nil, taxLines: taxLines, writeOffs: writeOffs)
        }
        guard let identifier, let client, let amount, let issued = issued ?? nil, let due = due ?? nil, let paid, let books,
            checkOrder(issued: issued, due: due, paid: paid, location, dueColumn: "dueOn", paidColumn: "paidOn")
        else {
            rejectedInvoice(naming: client.map(ClientReference.number), column: "clientNumber", at: location)
            return nil
        }
        var invoice = ImportedInvoice(
            identifier: identifier, client: .number(client), clientColumn: "clientNumber", amount: amount, issued: issued, due: due, paid: paid,
            notes: hasColumn("notes") ? value("notes") : nil, source: location, status: books.status, tax: books.tax)
        invoice.writeOffs = books.writeOffs
        invoice.kind = books.kind
        invoice.corrects = books.corrects
        invoice.applied = books.applied
        return invoice
    }

    /// What schema v2 adds to a native invoice row; nil after a problem. Fields the row leaves empty are nil
    /// (the stored values are kept), except that a `kind` states `corrects` and `appliedOn` too.
    mutating func nativeBooks(
        location: SourceLocation, value: (String) -> String, currency: CurrencyCode, gross: Money?, issued: CalendarDate?,
        taxLines: [ImportedTax.Line]?, writeOffs: [ImportedWriteOff]?
    ) -> (status: InvoiceStatus?, kind: InvoiceKind?, corrects: String?, applied: CalendarDate?, tax: ImportedTax?, writeOffs: [ImportedWriteOff]?)? {
        var valid = true
        var status: InvoiceStatus?
        if !value("status").isEmpty {
            status = InvoiceStatus(name: value("status").lowercased())
            if status == nil {
                problem(location, "status", "'\(value("status"))' is not a status; expected draft, sent or void")
                valid = false
            }
        }
        var kind: InvoiceKind?
        if !value("kind").isEmpty {
            kind = InvoiceKind(name: value("kind").lowercased())
            if kind == nil {
                problem(location, "kind", "'\(value("kind"))' is not a kind; expected invoice or credit (a credit note)")
                valid = false
            }
        }
        let corrects = value("corrects").isEmpty ? nil : value("corrects")
        let applied = date(value("appliedOn"), location, "appliedOn", required: false)
        if let applied {
            for violation in BooksRules.violations(kind: kind ?? .invoice, issued: issued, applied: applied, hasCorrects: corrects != nil) {
                problem(location, violation.attribute == "correctsId" ? "corrects" : violation.attribute, violation.message)
                valid = false
            }
        } else {
            valid = false
        }
        // Tax lines: the JSON array, or one line from the columns.
        var lines = taxLines
        if lines == nil, !value("taxAmount").isEmpty || !value("taxName").isEmpty || !value("taxRate").isEmpty {
            if let tax = money(value("taxAmount"), currency, location, "taxAmount") {
                lines = [ImportedTax.Line(name: value("taxName"), rate: value("taxRate"), amount: tax.minorUnits)]
            } else {
                valid = false
            }
        }
        for line in lines ?? [] {
            for violation in BooksRules.taxLineViolations(rate: line.rate, net: line.net ?? 0, amount: line.amount) {
                problem(location, "tax" + violation.attribute.prefix(1).uppercased() + violation.attribute.dropFirst(), violation.message)
                valid = false
            }
        }
        var tax: ImportedTax?
        let netText = value("net")
        if let gross, lines != nil || !netText.isEmpty {
            let taxes = (lines ?? []).map(\.amount)
            // When the lines cannot be added up, the rules below report the sum that does not fit.
            var net = MinorUnits.subtract(gross.minorUnits, MinorUnits.sum(taxes)) ?? gross.minorUnits
            if !netText.isEmpty {
                if let stated = money(netText, currency, location, "net") { net = stated.minorUnits } else { valid = false }
            }
            for violation in BooksRules.taxViolations(gross: gross.minorUnits, net: net, taxes: taxes) {
                problem(location, "net", violation.message)
                valid = false
            }
            tax = ImportedTax(net: net, lines: lines ?? [])
        }
        // Write-offs: the JSON array, or one from the columns.
        var offs = writeOffs
        if offs == nil, !value("writtenOff").isEmpty {
            let amount = money(value("writtenOff"), currency, location, "writtenOff")
            let day = date(value("writtenOffOn"), location, "writtenOffOn", required: true)
            if let amount, let day = day ?? nil {
                offs = [ImportedWriteOff(date: day, amount: amount.minorUnits, reason: value("writeOffReason"))]
            } else {
                valid = false
            }
        }
        for writeOff in offs ?? [] {
            for violation in BooksRules.writeOffViolations(amount: writeOff.amount, date: writeOff.date, issued: issued) {
                problem(location, violation.attribute == "amount" ? "writtenOff" : violation.attribute, violation.message)
                valid = false
            }
        }
        guard valid else { return nil }
        return (status, kind, kind == nil ? nil : corrects, kind == nil ? nil : applied ?? nil, tax, offs)
    }

    /// One payment from named values (a payments CSV row, or a JSON payment object): `invoice` (its identifier),
    /// `paidOn`, `amount` (negative for a refund) in `currency`, optional `method` and `reference`.
    /// - Parameter invoice: The invoice's identifier when the payment sits inside its invoice (JSON); nil to read
    ///   the `invoice` value.
    mutating func nativePayment(location: SourceLocation, invoice: String? = nil, value: (String) -> String) -> ImportedPayment? {
        let identifier = invoice ?? required(value("invoice"), location, "invoice", what: "payment")
        let currency = currency(value("currency"), location, "currency")
        let amount = currency.flatMap { money(value("amount"), $0, location, "amount", allowNegative: true) }
        let paid = date(value("paidOn"), location, "paidOn", required: true)
        // Whether it is 0, in the invoice's currency and not before its issue date is checked against the invoice.
        guard let identifier, let amount, let paid = paid ?? nil else { return nil }
        return ImportedPayment(
            invoice: identifier, date: paid, amount: amount, method: value("method"), reference: value("reference"),
            source: location, columns: ["invoice": "invoice", "paidOn": "paidOn", "amount": "amount", "currency": "currency"])
    }
}
