internal import InvoicesCore
internal import InvoicesReport
internal import InvoicesStore
internal import ObjectContexts

/// Computes the report's totals the way the product's design card says: the books are loaded into a read-only
/// main context, and a private child context of it computes the per-client, per-currency totals off the main
/// actor. Only Sendable values cross back: the ``InvoicesReport/Report``.
enum TotalsContext {
    @MainActor
    static func report(books: Books, period: ReportPeriod) async throws -> Report {
        let main = MainContext(store: BooksStore(books: books), readOnly: true, name: "books")
        let child = PrivateContext(parent: main, readOnly: true, name: "totals")
        let currencies = books.currencies
        return try await child.perform { context in
            // Clients in row order: the order of the books, which the site indexes by.
            var clientIndexByKey: [Int64: Int] = [:]
            var clientNames: [String] = []
            let number = InvoicesModel.ClientAttribute.number.rawValue
            let name = InvoicesModel.ClientAttribute.name.rawValue
            try context.enumerateRows(of: "Client") { row in
                clientIndexByKey[row.primaryKey ?? -1] = clientNames.count
                clientNames.append("\(row.value(number).textValue ?? "") '\(row.value(name).textValue ?? "")'")
            }
            let currencyIndexByCode = Dictionary(uniqueKeysWithValues: currencies.enumerated().map { ($1.code, $0) })
            typealias Attribute = InvoicesModel.InvoiceAttribute
            var failure: (any Error)?
            let report = try Report(
                clientCount: clientNames.count, currencies: currencies, period: period,
                describeClient: { clientNames[$0] },
                invoices: { visit in
                    do {
                        try context.enumerateRows(of: "Invoice") { row in
                            guard let clientKey = row.relatedPrimaryKey(InvoicesModel.invoiceClientRelationship),
                                let clientIndex = clientIndexByKey[clientKey],
                                let currencyIndex = currencyIndexByCode[row.value(Attribute.currency.rawValue).textValue ?? ""],
                                let amount = row.value(Attribute.amount.rawValue).integerValue,
                                let issued = row.value(Attribute.issuedOn.rawValue).integerValue,
                                let due = row.value(Attribute.dueOn.rawValue).integerValue
                            else {
                                throw ContextError(.typeMismatch, "invoice \(row.objectID) does not have the model's values")
                            }
                            visit(InvoiceFacts(
                                clientIndex: clientIndex, currencyIndex: currencyIndex, amount: amount,
                                issued: CalendarDate(dayNumber: Int32(clamping: issued)),
                                due: CalendarDate(dayNumber: Int32(clamping: due)),
                                paid: row.value(Attribute.paidOn.rawValue).integerValue.map { CalendarDate(dayNumber: Int32(clamping: $0)) }))
                        }
                    } catch {
                        failure = error
                    }
                })
            if let failure { throw failure }
            return report
        }
    }
}
