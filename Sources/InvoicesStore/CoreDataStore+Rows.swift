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
    var warnings: [StoreIssue] = []
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

    mutating func warn(_ kind: StoreIssue.Kind, table: String, row: String? = nil, column: String? = nil, _ message: String) {
        totalWarnings += 1
        if warnings.count < limit {
            warnings.append(StoreIssue(kind: kind, path: path, table: table, row: row, column: column, message: message))
        }
    }

    mutating func read(_ db: Database, loader: StoreLoader) throws -> StoreLoader.Fetched {
        // Every entity and attribute problem in one report: a missing entity does not hide a missing attribute.
        var missing: [StoreIssue] = []
        func table(_ entity: String) -> CoreDataTable? {
            do {
                return try CoreDataTable(db, model: model, entity: try model.entity(named: mapping.storeName(entity), as: entity))
            } catch let error as StoreIssues {
                missing += error.issues
            } catch {
                missing.append(StoreIssue(kind: .unreadable, path: path, message: "\(error)"))
            }
            return nil
        }
        let clientTable = table("Client"), invoiceTable = table("Invoice")
        // A Payment entity, when the model has one, is read like the others; without one, the v1 reading applies
        // (one payment of the whole amount on the paid date).
        let hasPayments = (try? model.entity(named: mapping.storeName("Payment"), as: "Payment")) != nil
        let paymentTable = hasPayments ? table("Payment") : nil
        var required = [
            (clientTable, "Client", ["name"]), (invoiceTable, "Invoice", ["identifier", "client", "amount"]),
            (paymentTable, "Payment", ["invoice", "amount", "date"]),
        ]
        if mapping.defaultCurrency == nil { required[1].2.append("currency") }
        for case (let table?, let entity, let attributes) in required {
            for attribute in attributes where table.column(forAttribute: mapping.storeName("\(entity).\(attribute)")) == nil {
                let stored = mapping.storeName("\(entity).\(attribute)")
                var message = "column is missing: the \(entity) entity has no attribute '\(stored)'; if the model calls it "
                    + "something else, name it with --core-data-name \(entity).\(attribute)=NAME"
                if attribute == "currency" { message += ", or give every invoice one currency with --default-currency CODE" }
                missing.append(
                    StoreIssue(
                        kind: .wrongSchema, path: path, table: table.name, column: "Z" + stored.uppercased(),
                        message: message + " (its attribute columns are \(table.attributeColumns.joined(separator: ", ")))"))
            }
        }
        // The date attributes too: a missing issue date is reported with the missing names, not after them.
        var dates: (issue: String, due: String?, paid: String?)?
        if let invoiceTable {
            do {
                dates = try dateColumns(invoiceTable, hasPayments: hasPayments)
            } catch {
                missing += error.issues
            }
        }
        guard missing.isEmpty, let clientTable, let invoiceTable, let dates else { throw StoreIssues(missing) }

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
        var books = Books(clients: clients, invoices: invoices, currencies: currencies)
        if let paymentTable {
            let (payments, details) = try loadPayments(db, table: paymentTable, invoices: invoices, currencies: currencies, loader: loader)
            if problems.total > 0 { throw problems.error }
            books.payments = payments
            books.paymentDetails = details
            books.settle()
        }
        return StoreLoader.Fetched(books: books, warnings: warnings, totalWarnings: totalWarnings, format: .coreData)
    }

    // MARK: - Dates

    /// The columns of the issue, due and paid dates, after ``mapping`` and its defaults.
    /// With a Payment entity the paid dates come from the payments, so a missing paid-date attribute is no warning.
    mutating func dateColumns(_ table: CoreDataTable, hasPayments: Bool = false) throws(StoreIssues) -> (issue: String, due: String?, paid: String?) {
        func find(_ given: String?, _ defaults: [String], option: String) throws(StoreIssues) -> String? {
            guard let given else { return defaults.lazy.compactMap(table.column(forAttribute:)).first }
            if let column = table.column(forAttribute: given) { return column }
            throw StoreIssues([
                StoreIssue(
                    kind: .wrongSchema, path: path, table: table.name, column: "Z" + given.uppercased(),
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
            throw StoreIssues([
                StoreIssue(
                    kind: .wrongSchema, path: path, table: table.name,
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
        if paid == nil, !hasPayments {
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

    /// A floating-point amount as minor units of a currency with `digits` decimals, rounded half to even.
    ///
    /// The `Double` is read as the shortest decimal that converts back to it (what Swift prints: `10.005`, not
    /// the binary value 10.004999…), and that decimal is scaled and rounded exactly, in integers. The amount is
    /// exact when it is within 1e-6 of a whole number of minor units; above 10^8 minor units the tolerance widens to
    /// 1e-14 of the amount, the limit of a `Double`'s 15–17 significant digits (sums such as 0.1 + 0.2 =
    /// 0.30000000000000004 are exact 0.30 either way).
    /// - Returns: nil when the value is not finite or does not fit in 64-bit minor units.
    static func minorUnits(of value: Double, digits: Int) -> (minorUnits: Int64, exact: Bool)? {
        guard value.isFinite, let decimal = shortestDecimal(value) else { return nil }
        func power(_ exponent: Int) -> UInt64? {
            var result: UInt64 = 1
            for _ in 0..<exponent {
                let (next, overflow) = result.multipliedReportingOverflow(by: 10)
                if overflow { return nil }
                result = next
            }
            return result
        }
        let shift = decimal.exponent + digits
        var units: UInt64
        var distance: Double  // From the nearest whole number of minor units, in minor units.
        if shift >= 0 {
            guard let scale = power(shift) else { return nil }
            let (product, overflow) = decimal.significand.multipliedReportingOverflow(by: scale)
            guard !overflow else { return nil }
            units = product
            distance = 0
        } else if let scale = power(-shift) {
            let (quotient, remainder) = decimal.significand.quotientAndRemainder(dividingBy: scale)
            units = quotient
            distance = Double(remainder) / Double(scale)
            // remainder < scale <= 10^19, so twice it fits in a UInt64.
            if 2 * remainder > scale || (2 * remainder == scale && quotient % 2 == 1) {
                units += 1
                distance = Double(scale - remainder) / Double(scale)
            }
        } else {
            units = 0  // Less than 10^-19 of a minor unit (the significand has at most 19 digits).
            distance = Double(decimal.significand) * pow(10, Double(shift))
        }
        guard units <= UInt64(Int64.max) else { return nil }
        let signed = decimal.negative ? -Int64(units) : Int64(units)
        return (signed, distance <= max(1e-6, Double(units) * 1e-14))
    }

    /// The shortest decimal that converts back to `value`: `significand × 10^exponent`.
    static func shortestDecimal(_ value: Double) -> (negative: Bool, significand: UInt64, exponent: Int)? {
        var negative = false
        var significand: UInt64 = 0
        var exponent = 0
        var afterPoint = false
        let text = value.description  // e.g. "10.005", "-3.0", "1e-05", "1.2345678901234568e+17"
        var bytes = text.utf8[...]
        if bytes.first == UInt8(ascii: "-") {
            negative = true
            bytes = bytes.dropFirst()
        }
        while let byte = bytes.first {
            bytes = bytes.dropFirst()
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let (times10, o1) = significand.multipliedReportingOverflow(by: 10)
                let (next, o2) = times10.addingReportingOverflow(UInt64(byte - 48))
                guard !o1, !o2 else { return nil }
                significand = next
                if afterPoint { exponent -= 1 }
            case UInt8(ascii: "."):
                afterPoint = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard let power = Int(String(decoding: bytes, as: UTF8.self)) else { return nil }
                return (negative, significand, exponent + power)
            default:
                return nil
            }
        }
        return (negative, significand, exponent)
    }
}
