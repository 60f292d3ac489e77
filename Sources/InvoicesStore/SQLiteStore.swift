import Foundation
internal import InvoicesCore
internal import GRDB
public import ObjectContexts

/// A writable ``ObjectContexts/PersistentStore`` on a store file: the root of a context tree that imports write
/// through.
///
/// Rows are read once, when the store opens (through the same checks as a build), and served from memory;
/// ``save(_:)`` writes a root context's changes in ONE SQLite transaction (clients before the invoices that refer
/// to them, payments after their invoices, temporary IDs replaced by the new row ids), so a save lands completely
/// or not at all. Payments are served with their row ids, read from a v2 store's `payment` table. Versions for
/// optimistic locking are kept in memory: the store assumes it is the only writer while it is open, and SQLite's
/// write lock keeps other writers out during the save itself.
public final class SQLiteStore: PersistentStore, @unchecked Sendable {
    // @unchecked Sendable: `versions` is only read or written while holding `lock`; everything else is immutable.
    public let path: String
    public var model: ObjectModel { InvoicesModel.model }
    public var isReadOnly: Bool { false }
    private let rowsStore: BooksStore
    private let paymentRows: StoredPaymentRows
    private let lock = NSLock()
    private var versions: [ObjectID: Int64] = [:]

    /// Opens the store at `path`, creating an empty one with the current schema when the file does not exist.
    /// - Throws: ``StoreIssues`` when the file is not a usable store; a `DatabaseError` when it cannot be created.
    public init(path: String) throws {
        self.path = path
        if !FileManager.default.fileExists(atPath: path) {
            let queue = try DatabaseQueue(path: path)
            try queue.writeWithoutTransaction { db in try db.execute(sql: Schema.createStatements) }
            try queue.close()
        }
        rowsStore = try BooksStore(path: path)
        paymentRows = try StoredPaymentRows(path: path, schemaVersion: rowsStore.books.schemaVersion)
    }

    /// The store's schema version (1 or 2): what its rows can hold.
    public var schemaVersion: Int { rowsStore.books.schemaVersion }

    public func rows(of entity: String) throws -> any RowCollection {
        entity == "Payment" ? paymentRows : try rowsStore.rows(of: entity)
    }

    public func row(for id: ObjectID) throws -> StoredRow? {
        guard var row = try id.entityName == "Payment" ? paymentRows.row(for: id) : rowsStore.row(for: id) else { return nil }
        row.version = lock.withLock { versions[id] ?? 1 }
        return row
    }

    public func primaryKeys(of entity: String, relationship: Int, referencing primaryKey: Int64) throws -> [Int64] {
        if entity == "Payment" { return relationship == InvoicesModel.paymentInvoiceRelationship ? paymentRows.keys(ofInvoice: primaryKey) : [] }
        return try rowsStore.primaryKeys(of: entity, relationship: relationship, referencing: primaryKey)
    }

    public func save(_ changes: StoreChanges) throws -> [ObjectID: ObjectID] {
        // Optimistic locking: an updated or deleted row must still be at the version its context read.
        let stale: [ObjectID] = try lock.withLock {
            try (changes.updated.map { ($0.objectID, $0.expectedVersion) } + changes.deleted.map { ($0.objectID, $0.expectedVersion) })
                .filter { id, expected in try storedRow(for: id) == nil && versions[id] == nil || (versions[id] ?? 1) != expected }
                .map(\.0)
        }
        if !stale.isEmpty { throw StoreConflictError(objectIDs: stale) }
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.label = "store-save"
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        let v2 = rowsStore.books.schemaVersion >= 2
        let permanent = try queue.write { db -> [ObjectID: ObjectID] in
            var permanent: [ObjectID: ObjectID] = [:]
            func clientKey(_ values: RowValues) throws -> Int64 {
                guard let target = values.relationships[InvoicesModel.invoiceClientRelationship],
                    let key = (permanent[target] ?? target).primaryKey
                else { throw ContextError(.typeMismatch, "an invoice without a saved client cannot be written") }
                return key
            }
            func invoiceKey(_ values: RowValues) throws -> Int64 {
                guard let target = values.relationships[InvoicesModel.paymentInvoiceRelationship],
                    let key = (permanent[target] ?? target).primaryKey
                else { throw ContextError(.typeMismatch, "a payment without a saved invoice cannot be written") }
                return key
            }
            // Clients first (invoices refer to them), then invoices, then payments (entity names sort that way),
            // each in insertion order, so the same import gives the same row ids on every run.
            for write in changes.inserted.sorted(by: { $0.objectID < $1.objectID }) {
                let a = write.values.attributes
                switch write.objectID.entityName {
                case "Client":
                    try db.execute(
                        sql: "INSERT INTO client (number, name, email, street, city, zip, country) VALUES (?,?,?,?,?,?,?)",
                        arguments: StatementArguments(a.map(Self.databaseValue)))
                case "Invoice" where v2:
                    try db.execute(
                        sql: "INSERT INTO invoice (identifier, amount, currency, notes, issuedOn, dueOn, status, net, clientId) VALUES (?,?,?,?,?,?,?,?,?)",
                        arguments: StatementArguments(Self.invoiceColumnsV2(a) + [try clientKey(write.values)]))
                    let invoice = db.lastInsertedRowID
                    try Self.writeDetails(db, invoice: invoice, a)
                    permanent[write.objectID] = ObjectID(entityName: "Invoice", primaryKey: invoice)
                    continue
                case "Invoice":
                    try db.execute(
                        sql: "INSERT INTO invoice (identifier, amount, currency, notes, issuedOn, dueOn, paidOn, clientId) VALUES (?,?,?,?,?,?,?,?)",
                        arguments: StatementArguments(Self.invoiceColumns(a).prefix(7) + [try clientKey(write.values)]))
                case "Payment" where v2:
                    try db.execute(
                        sql: "INSERT INTO payment (paidOn, amount, currency, method, reference, invoiceId) VALUES (?,?,?,?,?,?)",
                        arguments: StatementArguments(Self.paymentColumns(a) + [try invoiceKey(write.values)]))
                default:
                    throw ContextError(.unknownEntity, "the store has no entity '\(write.objectID.entityName)'")
                }
                permanent[write.objectID] = ObjectID(entityName: write.objectID.entityName, primaryKey: db.lastInsertedRowID)
            }
            for write in changes.updated.sorted(by: { $0.objectID < $1.objectID }) {
                guard let key = write.objectID.primaryKey else { continue }
                let a = write.values.attributes
                switch write.objectID.entityName {
                case "Client":
                    try db.execute(
                        sql: "UPDATE client SET number = ?, name = ?, email = ?, street = ?, city = ?, zip = ?, country = ? WHERE id = ?",
                        arguments: StatementArguments(a.map(Self.databaseValue) + [key]))
                case "Invoice" where v2:
                    try db.execute(
                        sql: "UPDATE invoice SET identifier = ?, amount = ?, currency = ?, notes = ?, issuedOn = ?, dueOn = ?, status = ?, net = ?, clientId = ? WHERE id = ?",
                        arguments: StatementArguments(Self.invoiceColumnsV2(a) + [try clientKey(write.values), key]))
                    // Payments are rows of their own; the write-off and tax line are the invoice's attributes.
                    for child in ["writeOff", "taxLine"] {
                        try db.execute(sql: "DELETE FROM \(child) WHERE invoiceId = ?", arguments: [key])
                    }
                    try Self.writeDetails(db, invoice: key, a)
                case "Invoice":
                    try db.execute(
                        sql: "UPDATE invoice SET identifier = ?, amount = ?, currency = ?, notes = ?, issuedOn = ?, dueOn = ?, paidOn = ?, clientId = ? WHERE id = ?",
                        arguments: StatementArguments(Self.invoiceColumns(a).prefix(7) + [try clientKey(write.values), key]))
                case "Payment" where v2:
                    try db.execute(
                        sql: "UPDATE payment SET paidOn = ?, amount = ?, currency = ?, method = ?, reference = ?, invoiceId = ? WHERE id = ?",
                        arguments: StatementArguments(Self.paymentColumns(a) + [try invoiceKey(write.values), key]))
                default:
                    throw ContextError(.unknownEntity, "the store has no entity '\(write.objectID.entityName)'")
                }
            }
            // Payments before their invoices, invoices before the clients they refer to.
            for deletion in changes.deleted.sorted(by: { $0.objectID.entityName > $1.objectID.entityName }) {
                guard let key = deletion.objectID.primaryKey else { continue }
                let table = ["Client": "client", "Invoice": "invoice", "Payment": "payment"][deletion.objectID.entityName] ?? ""
                guard !table.isEmpty, v2 || table != "payment" else {
                    throw ContextError(.unknownEntity, "the store has no entity '\(deletion.objectID.entityName)'")
                }
                if v2, table == "invoice" {
                    for child in ["payment", "writeOff", "taxLine"] {
                        try db.execute(sql: "DELETE FROM \(child) WHERE invoiceId = ?", arguments: [key])
                    }
                }
                try db.execute(sql: "DELETE FROM \(table) WHERE id = ?", arguments: [key])
            }
            return permanent
        }
        lock.withLock {
            for write in changes.updated { versions[write.objectID] = write.expectedVersion + 1 }
            for id in permanent.values { versions[id] = 1 }
        }
        return permanent
    }

    /// A row as this store holds it, without the version: payments from their table, the rest from the books.
    private func storedRow(for id: ObjectID) throws -> StoredRow? {
        try id.entityName == "Payment" ? paymentRows.row(for: id) : rowsStore.row(for: id)
    }

    /// A payment's columns in the order `paidOn, amount, currency, method, reference`.
    static func paymentColumns(_ attributes: [Value]) -> [(any DatabaseValueConvertible)?] {
        typealias Attribute = InvoicesModel.PaymentAttribute
        return attributes.enumerated().map { index, value in
            if Attribute(rawValue: index) == .paidOn, case .integer(let day) = value {
                return CalendarDate(dayNumber: Int32(clamping: day)).description
            }
            return databaseValue(value)
        }
    }

    /// The invoice columns a v2 store keeps in the invoice table: identifier ... dueOn, status, net.
    static func invoiceColumnsV2(_ attributes: [Value]) -> [(any DatabaseValueConvertible)?] {
        typealias Attribute = InvoicesModel.InvoiceAttribute
        let columns = invoiceColumns(attributes)
        return Array(columns.prefix(6)) + [columns[Attribute.status.rawValue] ?? "sent", columns[Attribute.net.rawValue]]
    }

    /// A v2 store keeps write-offs and tax lines apart; the model's attributes state them as an import does
    /// (docs/import.md): `writtenOff` on `writtenOffOn`; one tax line. Payments are ``Payment`` objects.
    static func writeDetails(_ db: Database, invoice: Int64, _ attributes: [Value]) throws {
        typealias Attribute = InvoicesModel.InvoiceAttribute
        func integer(_ attribute: Attribute) -> Int64? {
            if case .integer(let value) = attributes[attribute.rawValue] { return value }
            return nil
        }
        func text(_ attribute: Attribute) -> String {
            if case .text(let value) = attributes[attribute.rawValue] { return value }
            return ""
        }
        func day(_ value: Int64) -> String { CalendarDate(dayNumber: Int32(clamping: value)).description }
        if let writtenOff = integer(.writtenOff), let on = integer(.writtenOffOn) {
            try db.execute(
                sql: "INSERT INTO writeOff (invoiceId, writtenOffOn, amount) VALUES (?, ?, ?)", arguments: [invoice, day(on), writtenOff])
        }
        if let tax = integer(.taxAmount) {
            try db.execute(
                sql: "INSERT INTO taxLine (invoiceId, name, rate, amount) VALUES (?, ?, ?, ?)",
                arguments: [invoice, text(.taxName), text(.taxRate), tax])
        }
    }

    /// An attribute as a database value: text and integers as they are.
    static func databaseValue(_ value: Value) -> (any DatabaseValueConvertible)? {
        switch value {
        case .null: nil
        case .integer(let number): number
        case .double(let number): number
        case .text(let text): text
        }
    }

    /// The invoice's attributes as the `invoice` table stores them: day numbers become `YYYY-MM-DD`.
    static func invoiceColumns(_ attributes: [Value]) -> [(any DatabaseValueConvertible)?] {
        typealias Attribute = InvoicesModel.InvoiceAttribute
        return attributes.enumerated().map { index, value in
            switch Attribute(rawValue: index) {
            case .issuedOn, .dueOn, .paidOn, .writtenOffOn:
                if case .integer(let day) = value { return CalendarDate(dayNumber: Int32(clamping: day)).description }
                return nil
            default:
                return databaseValue(value)
            }
        }
    }
}

/// The `payment` rows of a v2 store with their row ids, read once when the store opens (a v1 store has none).
final class StoredPaymentRows: RowCollection, @unchecked Sendable {
    // @unchecked Sendable: immutable after init.
    private let ids: [Int64]
    private let invoiceIDs: [Int64]
    private let values: [[Value]]
    private let indexByID: [Int64: Int]
    private let indexesByInvoice: [Int64: [Int]]

    init(path: String, schemaVersion: Int) throws {
        var ids: [Int64] = []
        var invoiceIDs: [Int64] = []
        var values: [[Value]] = []
        if schemaVersion >= 2 {
            let queue = try DatabaseQueue(path: path)
            defer { try? queue.close() }
            try queue.read { db in
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT id, invoiceId, paidOn, amount, currency, method, reference FROM payment ORDER BY id")
                while let row = try rows.next() {
                    ids.append(row[0])
                    invoiceIDs.append(row[1])
                    let day = (row[2] as String?).flatMap(CalendarDate.init(iso:)).map { Value.integer(Int64($0.dayNumber)) } ?? .null
                    let currency: String? = row[4]
                    values.append([day, .integer(row[3]), currency.map(Value.text) ?? .null, .text(row[5]), .text(row[6])])
                }
            }
        }
        self.ids = ids
        self.invoiceIDs = invoiceIDs
        self.values = values
        indexByID = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        indexesByInvoice = Dictionary(grouping: ids.indices, by: { invoiceIDs[$0] })
    }

    var count: Int { ids.count }
    func primaryKey(at index: Int) -> Int64 { ids[index] }
    func version(at index: Int) -> Int64 { 1 }
    func value(attribute: Int, at index: Int) -> Value { values[index][attribute] }
    func relatedPrimaryKey(relationship: Int, at index: Int) -> Int64? {
        relationship == InvoicesModel.paymentInvoiceRelationship ? invoiceIDs[index] : nil
    }

    func row(for id: ObjectID) -> StoredRow? {
        guard let key = id.primaryKey, let index = indexByID[key] else { return nil }
        return StoredRow(attributes: values[index], relationships: [invoiceIDs[index]], version: 1)
    }

    func keys(ofInvoice invoice: Int64) -> [Int64] { (indexesByInvoice[invoice] ?? []).map { ids[$0] } }
}
