import Foundation
internal import GRDB
internal import GRDBSQLite
internal import InvoicesCore

extension Columns {
    func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }

    /// Whether the column holds an INTEGER or a REAL.
    func isNumber(_ column: Int32) -> Bool {
        let type = sqlite3_column_type(statement, column)
        return type == SQLITE_INTEGER || type == SQLITE_FLOAT
    }
}

/// Reads the Client and Invoice entities of a Core Data store into ``Books``, collecting errors and warnings.
struct CoreDataReader {
    let path: String
    let model: CoreDataModel
    let mapping: CoreDataMapping
    let limit: Int
    var problems: Problems
    var warnings: [StoreWarning] = []
    var totalWarnings = 0

    /// Seconds from 1970-01-01 to 2001-01-01, Core Data's reference date, both 00:00:00 UTC.
    static let referenceDateOffset: Double = 978_307_200

    init(path: String, model: CoreDataModel, mapping: CoreDataMapping, limit: Int) {
        self.path = path
        self.model = model
        self.mapping = mapping
        self.limit = limit
        problems = Problems(path: path, limit: limit)
    }

    mutating func warn(_ kind: StoreWarning.Kind, table: String, row: String? = nil, column: String? = nil, _ message: String) {
        totalWarnings += 1
        if warnings.count < limit {
            warnings.append(StoreWarning(kind: kind, path: path, table: table, row: row, column: column, message: message))
        }
    }

    mutating func read(_ db: Database, loader: StoreLoader) throws -> LoadedBooks {
        let clientTable = try CoreDataTable(db, model: model, entity: try model.entity(named: "Client"))
        let invoiceTable = try CoreDataTable(db, model: model, entity: try model.entity(named: "Invoice"))
        var missing: [StoreError] = []
        for (table, attributes) in [(clientTable, ["name"]), (invoiceTable, ["identifier", "client", "amount", "currency"])] {
            for attribute in attributes where table.column(forAttribute: attribute) == nil {
                missing.append(
                    StoreError(
                        kind: .unreadable, path: path, table: table.name, column: "Z" + attribute.uppercased(),
                        message: "column is missing (attribute '\(attribute)')"))
            }
        }
        if !missing.isEmpty { throw StoreErrors(errors: missing) }
        let dates = try dateColumns(invoiceTable)

        var (clients, clientIndexByPK) = try loadClients(db, table: clientTable, loader: loader)
        var (invoices, currencies) = try loadInvoices(
            db, table: invoiceTable, dates: dates, clientIndexByPK: clientIndexByPK, loader: loader)
        if problems.total > 0 { throw problems.error }

        // Clients by number, invoices by issue date then identifier (``Books``'s order), byte-wise like SQLite.
        let order = clients.indices.sorted {
            let (a, b) = (clients[$0], clients[$1])
            return a.number == b.number ? a.id < b.id : a.number.utf8.lexicographicallyPrecedes(b.number.utf8)
        }
        var newIndex = [Int32](repeating: 0, count: clients.count)
        for (new, old) in order.enumerated() { newIndex[old] = Int32(new) }
        clients = order.map { clients[$0] }
        clientIndexByPK = [:]
        for index in invoices.indices { invoices[index].clientIndex = newIndex[Int(invoices[index].clientIndex)] }
        invoices.sort {
            $0.issued != $1.issued ? $0.issued < $1.issued : $0.identifier.utf8.lexicographicallyPrecedes($1.identifier.utf8)
        }
        let sorted = currencies.sorted()
        if sorted != currencies {
            var remap: [Int16] = []
            for currency in currencies { remap.append(Int16(sorted.firstIndex(of: currency) ?? 0)) }
            for index in invoices.indices { invoices[index].currencyIndex = remap[Int(invoices[index].currencyIndex)] }
            currencies = sorted
        }
        return LoadedBooks(
            books: Books(clients: clients, invoices: invoices, currencies: currencies),
            warnings: warnings, totalWarnings: totalWarnings, format: .coreData)
    }

    // MARK: - Dates

    /// The columns of the issue, due and paid dates, after ``mapping`` and its defaults.
    mutating func dateColumns(_ table: CoreDataTable) throws(StoreErrors) -> (issue: String, due: String?, paid: String?) {
        func find(_ given: String?, _ defaults: [String], option: String) throws(StoreErrors) -> String? {
            guard let given else { return defaults.lazy.compactMap(table.column(forAttribute:)).first }
            if let column = table.column(forAttribute: given) { return column }
            throw StoreErrors(errors: [
                StoreError(
                    kind: .unreadable, path: path, table: table.name, column: "Z" + given.uppercased(),
                    message: "the Invoice entity has no attribute '\(given)' (named by \(option)); "
                        + "its attribute columns are \(table.attributeColumns.joined(separator: ", "))")
            ])
        }
        func looked(_ defaults: [String]) -> String {
            defaults.map { "'\($0)' (Z\($0.uppercased()))" }.joined(separator: ", ")
        }
        let issue = try find(mapping.issueDateAttribute, CoreDataMapping.defaultIssueDateAttributes, option: "--issue-date-attribute")
        let due = try find(mapping.dueDateAttribute, CoreDataMapping.defaultDueDateAttributes, option: "--due-date-attribute")
        let paid = try find(mapping.paidDateAttribute, CoreDataMapping.defaultPaidDateAttributes, option: "--paid-date-attribute")
        guard let issue else {
            throw StoreErrors(errors: [
                StoreError(
                    kind: .unreadable, path: path, table: table.name,
                    message: "the Invoice entity has no issue-date attribute: none of "
                        + "\(looked(CoreDataMapping.defaultIssueDateAttributes)) exists (its attribute columns are "
                        + "\(table.attributeColumns.joined(separator: ", "))). The report needs the day each invoice was "
                        + "issued; if another date attribute holds it, name it with --issue-date-attribute NAME")
            ])
        }
        if due == nil {
            warn(
                .assumedDueDate, table: table.name,
                "the Invoice entity has no due-date attribute (none of \(looked(CoreDataMapping.defaultDueDateAttributes))); "
                    + "every invoice is taken as due on its issue date. Name the attribute with --due-date-attribute NAME")
        }
        if paid == nil {
            warn(
                .noPaidDates, table: table.name,
                "the Invoice entity has no paid-date attribute (none of \(looked(CoreDataMapping.defaultPaidDateAttributes))); "
                    + "every invoice is reported as unpaid. Name the attribute with --paid-date-attribute NAME")
        }
        return (issue, due, paid)
    }

    /// The calendar day (UTC) of a Core Data date: seconds since 2001-01-01 00:00:00 UTC.
    static func calendarDate(coreDataSeconds seconds: Double) -> CalendarDate? {
        let day = ((seconds + referenceDateOffset) / 86_400).rounded(.down)
        // 0001-01-01 ... 9999-12-31, the years CalendarDate covers.
        guard day.isFinite, day >= -719_162, day <= 2_932_896 else { return nil }
        return CalendarDate(dayNumber: Int32(day))
    }

    // MARK: - Amounts

    /// A floating-point amount as minor units of a currency with `digits` decimals.
    ///
    /// The value is scaled by 10^digits and rounded half to even. It is exact when the scaled value is within
    /// 1e-6 of a whole number, a tolerance widened to 1e-14 of the scaled value above 10^8 minor units, where a
    /// `Double` (about 16 significant digits) can no longer resolve a millionth.
    /// - Returns: nil when the value is not finite, or too large to be exact (2^53 minor units or more).
    static func minorUnits(of value: Double, digits: Int) -> (minorUnits: Int64, scaled: Double, exact: Bool)? {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = value * scale
        guard scaled.isFinite, scaled.magnitude < 9_007_199_254_740_992 else { return nil }
        let rounded = scaled.rounded(.toNearestOrEven)
        let tolerance = max(1e-6, scaled.magnitude * 1e-14)
        return (Int64(rounded), scaled, (scaled - rounded).magnitude <= tolerance)
    }
}
