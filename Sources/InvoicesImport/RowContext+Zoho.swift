internal import InvoicesCore

/// Zoho Invoice's invoices CSV export, one row per line item (docs/import.md).
extension RowContext {
    /// Zoho invoices and the clients they name. The amount is `Total`; an invoice is paid when `Balance` is
    /// zero, on `Last Payment Date`. Clients are named by `Customer Name`, with the billing address.
    mutating func zohoInvoices(_ rows: [CSVTable.Row]) -> ([ImportedClient], [ImportedInvoice]) {
        var order: [String] = []
        var lines: [String: [CSVTable.Row]] = [:]
        for row in rows {
            guard let number = required(row["Invoice Number"], row.location, "Invoice Number", what: "line item") else {
                continue
            }
            if lines[number] == nil { order.append(number) }
            lines[number, default: []].append(row)
        }
        var clients: [ImportedClient] = []
        var clientNames: Set<String> = []
        var invoices: [ImportedInvoice] = []
        let invoiceColumns = [
            "Invoice Date", "Customer Name", "Due Date", "Currency Code", "Total", "Balance", "Last Payment Date",
        ]
        for number in order {
            let rows = lines[number]!
            let first = rows[0]
            if RowContext.skippedStatuses.contains(first["Invoice Status"].lowercased()) {
                skipped += 1
                continue
            }
            var valid = true
            for column in invoiceColumns {
                for row in rows.dropFirst() where row[column] != first[column] {
                    problem(row.location, column, "'\(row[column])' differs from '\(first[column])' on line \(first.record.line) of invoice '\(number)'")
                    valid = false
                }
            }
            let location = first.location
            let customer = required(first["Customer Name"], location, "Customer Name", what: "invoice")
            let currency = currency(first["Currency Code"], location, "Currency Code")
            let total = currency.flatMap { money(first["Total"], $0, location, "Total") }
            let balance = currency.flatMap { money(first["Balance"], $0, location, "Balance", allowNegative: true) }
            let issued = date(first["Invoice Date"], location, "Invoice Date", required: true)
            let due = date(first["Due Date"], location, "Due Date", required: true)
            let isPaid = balance.map { $0.minorUnits <= 0 } ?? false
            let paid = date(first["Last Payment Date"], location, "Last Payment Date", required: isPaid)
            guard valid, let customer, let total, balance != nil, let issued = issued ?? nil, let due = due ?? nil,
                let paid
            else { continue }
            let paidOn = isPaid ? paid : nil
            guard checkOrder(issued: issued, due: due, paid: paidOn, location, dueColumn: "Due Date", paidColumn: "Last Payment Date")
            else { continue }
            if clientNames.insert(customer).inserted {
                clients.append(
                    ImportedClient(
                        number: nil, name: customer, street: first.optional("Billing Address"),
                        city: first.optional("Billing City"), zip: first.optional("Billing Code"),
                        country: first.optional("Billing Country"), source: location))
            }
            invoices.append(
                ImportedInvoice(
                    identifier: number, client: .name(customer), clientColumn: "Customer Name", amount: total, issued: issued, due: due, paid: paidOn,
                    notes: first.optional("Notes"), source: location))
        }
        return (clients, invoices)
    }
}
