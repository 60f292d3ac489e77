internal import Foundation
internal import InvoicesCore

/// Zoho Invoice's invoices CSV export, one row per line item (docs/import.md).
extension RowContext {
    /// Zoho invoices and the clients they name. The amount is `Total`; `Total − Balance − WriteOff Amount` was
    /// received, as one payment on `Last Payment Date`; an invoice is paid when `Balance` is zero. `Invoice Status`
    /// Draft and Void keep their status; `SubTotal` and the tax columns give the net and a tax line. Clients are
    /// named by `Customer Name`, with the billing address.
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
            let status: InvoiceStatus = switch first["Invoice Status"].lowercased() {
            case "draft": .draft
            case "void": .void
            default: .sent
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
            // Zoho writes `0.00` (and an empty `WriteOff Date`) on every invoice that has no write-off.
            let writtenOff = currency.flatMap { code in first.filled("WriteOff Amount").flatMap { money($0, code, location, "WriteOff Amount") } }
                .flatMap { $0.minorUnits == 0 ? nil : $0 }
            let writtenOffOn = writtenOff == nil
                ? .some(nil) : date(first["WriteOff Date"], location, "WriteOff Date", required: true)
            // A void invoice shows `Balance` 0.00 whatever was received, and Zoho voids only invoices without
            // payments: nothing was received.
            let received = status == .void ? 0 : total.flatMap { total in
                balance.flatMap { MinorUnits.subtract(MinorUnits.subtract(total.minorUnits, $0.minorUnits), writtenOff?.minorUnits ?? 0) }
            }
            if status != .void, total != nil, balance != nil, received == nil {
                problem(location, "Balance", "'Total' − 'Balance' − 'WriteOff Amount' \(MinorUnits.tooLarge)")
                continue
            }
            let isPaid = balance.map { $0.minorUnits <= 0 } ?? false
            let paid = date(first["Last Payment Date"], location, "Last Payment Date", required: (received ?? 0) > 0)
            let tax = currency.flatMap { zohoTax(first, $0, total: total, location) }
            guard valid, let customer, let total, balance != nil, let issued = issued ?? nil, let due = due ?? nil,
                let paid, let writtenOffOn, let tax
            else { continue }
            // Settled when the balance reached zero: on the last payment, or on the write-off if later.
            let settledOn = [paid, writtenOffOn].compactMap { $0 }.max()
            let paidOn = isPaid && status == .sent ? settledOn : nil
            if isPaid, paidOn == nil, status == .sent {
                problem(location, "Last Payment Date", "is empty, but the balance is zero; a paid invoice needs the day it was paid")
                continue
            }
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
                    notes: first.optional("Notes"), source: location, status: status,
                    receipts: ImportedReceipts(
                        received: (received ?? 0) == 0 ? nil : received, receivedOn: (received ?? 0) == 0 ? nil : paid,
                        writtenOff: writtenOff?.minorUnits, writtenOffOn: writtenOffOn),
                    tax: tax.tax))
        }
        return (clients, invoices)
    }

    /// The net and tax line of a Zoho invoice: `SubTotal` (plus `Shipping Charge`, `Adjustment` and `Round Off`) is
    /// the net, `Tax Amount` (or `Total` less those) the tax,
    /// `Tax Name` (or `Item Tax`) and `Tax Percentage` (or `Item Tax %`) name it; without a rate column the rate is
    /// the tax over the net, to three decimals of a percent, rounded half to even. Nil (in `tax`) without tax; nil
    /// overall after a problem.
    mutating func zohoTax(_ row: CSVTable.Row, _ currency: CurrencyCode, total: Money?, _ location: SourceLocation) -> (tax: ImportedTax?, Void)? {
        guard let total else { return (nil, ()) }
        var taxAmount: Int64?
        if let text = row.filled("Tax Amount") {
            guard let money = money(text, currency, location, "Tax Amount") else { return nil }
            taxAmount = money.minorUnits
        }
        var net: Int64?
        if let text = row.filled("SubTotal"), taxAmount == nil {
            guard let money = money(text, currency, location, "SubTotal") else { return nil }
            // `Total` is `SubTotal` plus the tax, the shipping charge, the adjustment and the rounding.
            var charges: Int64 = 0
            for column in ["Shipping Charge", "Adjustment", "Round Off"] {
                guard let text = row.filled(column) else { continue }
                guard let charge = self.money(text, currency, location, column, allowNegative: true) else { return nil }
                guard let sum = MinorUnits.add(charges, charge.minorUnits) else {
                    problem(location, column, "added to the other charges \(MinorUnits.tooLarge)")
                    return nil
                }
                charges = sum
            }
            guard let sum = MinorUnits.add(money.minorUnits, charges), let rest = MinorUnits.subtract(MinorUnits.subtract(total.minorUnits, money.minorUnits), charges)
            else {
                problem(location, "SubTotal", "with the charges and 'Total' \(MinorUnits.tooLarge)")
                return nil
            }
            net = sum
            taxAmount = rest
        }
        guard let tax = taxAmount, tax != 0 || row.filled("Tax Name") != nil else { return (nil, ()) }
        guard let netAmount = net ?? MinorUnits.subtract(total.minorUnits, tax) else {
            problem(location, "Tax Amount", "subtracted from 'Total' \(MinorUnits.tooLarge)")
            return nil
        }
        guard tax >= 0, netAmount > 0 else {
            problem(location, "SubTotal", "gives a tax of \(tax) minor units on a net of \(netAmount); expected a tax that is not negative on a positive net")
            return nil
        }
        let name = row.filled("Tax Name") ?? row.filled("Item Tax") ?? "Tax"
        let rateColumn = row.filled("Tax Percentage") != nil ? "Tax Percentage" : "Item Tax %"
        var rate: TaxRate
        if let text = row.filled(rateColumn) {
            guard let parsed = TaxRate(name: name, percent: text.replacingOccurrences(of: "%", with: "").trimmingCharacters(in: .whitespaces)) else {
                problem(location, rateColumn, "'\(text)' is not a percentage (expected a decimal such as 7.7 or 20)")
                return nil
            }
            rate = parsed
        } else {
            rate = TaxRate(name: name, milliPercent: Int32(clamping: proportionalMilli(tax, netAmount)))
        }
        return (ImportedTax(net: netAmount, name: name, rate: rate.percent, amount: tax), ())
    }

    /// `tax / net` in thousandths of a percent, rounded half to even.
    /// `tax` not negative, `net` positive. Computed in 128 bits: `tax * 100_000` overflowed (a trap) for a tax past
    /// 92 trillion minor units. A rate past `Int32.max` thousandths, which the callers clamp to, is `Int64.max`.
    func proportionalMilli(_ tax: Int64, _ net: Int64) -> Int64 {
        guard tax / net < Int64(Int32.max) else { return .max }
        let (quotient, remainder) = net.dividingFullWidth(tax.multipliedFullWidth(by: 100_000))
        let twice = remainder.magnitude * 2
        if twice > net.magnitude || (twice == net.magnitude && quotient % 2 == 1) { return quotient + 1 }
        return quotient
    }
}

extension CSVTable.Row {
    /// The value in `column`, or nil when the file has no such column or the field is empty.
    func filled(_ column: String) -> String? {
        let value = self[column]
        return value.isEmpty ? nil : value
    }
}
