import Foundation
internal import GRDB
internal import InvoicesCore

extension CoreDataReader {
    /// The attributes of a Core Data `Payment` entity the tool reads (``CoreDataMapping/names`` maps each, as
    /// `Payment.amount=total`): a to-one `invoice`, the `amount` in the invoice's currency (negative for a
    /// refund), the `date` it was paid, and optionally `method` and `reference`.
    static let paymentAttributes = ["invoice", "amount", "date", "method", "reference"]

    /// Reads the Payment entity's rows into payments of `invoices` (in ``Books`` order, their `id` the Z_PK),
    /// sorted by invoice and day. Each problem names the table, the row and the column.
    mutating func loadPayments(
        _ db: Database, table: CoreDataTable, invoices: [InvoiceSnapshot], currencies: [CurrencyCode], loader: StoreLoader
    ) throws -> (payments: [PaymentSnapshot], details: [PaymentDetails]) {
        let stored = Self.paymentAttributes.map { mapping.storeName("Payment." + $0) }
        let statement = try db.makeStatement(
            sql: "SELECT Z_PK, " + stored.map(table.select).joined(separator: ", ")
                + " FROM \(table.name.quotedDatabaseIdentifier) WHERE \(table.entityFilter) ORDER BY Z_PK")
        let name = table.name
        let columnNames = ["Z_PK"] + stored.map { table.column(forAttribute: $0) ?? "Z" + $0.uppercased() }
        var indexByPK: [Int64: Int] = [:]
        for (index, invoice) in invoices.enumerated() { indexByPK[invoice.id] = index }
        var payments: [PaymentSnapshot] = []
        var details: [PaymentDetails] = []
        var problems = self.problems
        defer { self.problems = problems }
        try loader.step(statement) { row in
            let rowName = "Z_PK \(row.int64(0))"
            var valid = true
            func fail(_ column: Int32, _ message: String) {
                problems.add(table: name, row: rowName, column: columnNames[Int(column)], message)
                valid = false
            }
            guard !row.isNull(1), let index = indexByPK[row.int64(1)] else {
                fail(1, row.isNull(1) ? "is NULL; every payment belongs to an invoice" : "refers to invoice Z_PK \(row.int64(1)), which does not exist or is not valid")
                return
            }
            let invoice = invoices[index]
            let currency = currencies[Int(invoice.currencyIndex)]
            var amount: Int64 = 0
            if row.isNull(2) || !row.isNumber(2) {
                fail(2, row.isNull(2) ? "is NULL; every payment needs an amount" : "'\(row.text(2) ?? "?")' is not a number")
            } else if let converted = CoreDataReader.minorUnits(of: row.double(2), digits: currency.minorUnitDigits), converted.exact {
                amount = converted.minorUnits
            } else {
                fail(2, "\(row.double(2)) is not an exact amount of \(currency) (\(currency.minorUnitDigits) decimals)")
            }
            var date: CalendarDate?
            if row.isNull(3) {
                fail(3, "is NULL; every payment needs the day it was paid")
            } else if row.isNumber(3), let day = CoreDataReader.calendarDate(coreDataSeconds: row.double(3)) {
                date = day
            } else {
                fail(3, "'\(row.text(3) ?? "?")' is not a Core Data date (seconds since 2001-01-01 00:00:00 UTC)")
            }
            let columns: [String: Int32] = ["amount": 2, "paidOn": 3]
            for violation in BooksRules.paymentViolations(amount: amount, date: date, issued: invoice.issued, currency: nil, invoiceCurrency: nil)
            where valid {
                fail(columns[violation.attribute] ?? 2, violation.message)
            }
            guard valid, let date else { return }
            let method = row.isNull(4) ? "" : row.text(4) ?? ""
            let reference = row.isNull(5) ? "" : row.text(5) ?? ""
            var detail: Int32 = -1
            if !method.isEmpty || !reference.isEmpty {
                detail = Int32(details.count)
                details.append(PaymentDetails(method: method, reference: reference))
            }
            payments.append(PaymentSnapshot(invoiceIndex: Int32(index), date: date, amount: amount, details: detail))
        }
        payments.sort { ($0.invoiceIndex, $0.date) < ($1.invoiceIndex, $1.date) }
        return (payments, details)
    }
}
