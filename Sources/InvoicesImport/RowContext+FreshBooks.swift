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
            if RowContext.skippedStatuses.contains(first["Invoice Status"].lowercased()) {
                skipped += 1
                continue
            }
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
            let isPaid = status == "paid"
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
            let items = rows.map { $0["Item Name"] }.filter { !$0.isEmpty }
            invoices.append(
                ImportedInvoice(
                    identifier: number, client: .name(client), clientColumn: "Client Name", amount: total, issued: issued,
                    due: due, dueIsDerived: stated == nil,
                    paid: paid, notes: items.joined(separator: ", "), source: location))
        }
        return invoices
    }
}
