internal import InvoicesCore

/// The tool's own CSV formats (docs/import.md): exactly the store's fields, amounts as decimal strings.
extension RowContext {
    mutating func nativeClient(_ row: CSVTable.Row) -> ImportedClient? {
        let location = row.location
        guard let number = required(row["number"], location, "number", what: "client"),
            let name = required(row["name"], location, "name", what: "client")
        else {
            rejectedClient(.number(row["number"]))
            return nil
        }
        return ImportedClient(
            number: number, name: name, email: row.optional("email"), street: row.optional("street"),
            city: row.optional("city"), zip: row.optional("zip"), country: row.optional("country"), source: location)
    }

    mutating func nativeInvoice(_ row: CSVTable.Row) -> ImportedInvoice? {
        let location = row.location
        return nativeInvoice(
            location: location, value: { row[$0] }, hasColumn: { row.optional($0) != nil })
    }

    /// One invoice from named values (a CSV row or a JSON object).
    mutating func nativeInvoice(
        location: SourceLocation, value: (String) -> String, hasColumn: (String) -> Bool
    ) -> ImportedInvoice? {
        let identifier = required(value("identifier"), location, "identifier", what: "invoice")
        let client = required(value("clientNumber"), location, "clientNumber", what: "invoice")
        let currency = currency(value("currency"), location, "currency")
        let amount = currency.flatMap { money(value("amount"), $0, location, "amount") }
        let issued = date(value("issuedOn"), location, "issuedOn", required: true)
        let due = date(value("dueOn"), location, "dueOn", required: true)
        let paid = date(value("paidOn"), location, "paidOn", required: false)
        guard let identifier, let client, let amount, let issued = issued ?? nil, let due = due ?? nil, let paid,
            checkOrder(issued: issued, due: due, paid: paid, location, dueColumn: "dueOn", paidColumn: "paidOn")
        else {
            rejectedInvoice(naming: client.map(ClientReference.number), column: "clientNumber", at: location)
            return nil
        }
        return ImportedInvoice(
            identifier: identifier, client: .number(client), clientColumn: "clientNumber", amount: amount, issued: issued, due: due, paid: paid,
            notes: hasColumn("notes") ? value("notes") : nil, source: location)
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
