import Foundation
internal import InvoicesCore
internal import GRDB
public import ObjectContexts

/// A writable ``ObjectContexts/PersistentStore`` on a store file: the root of a context tree that imports write
/// through.
///
/// Rows are read once, when the store opens (through the same checks as a build), and served from memory;
/// ``save(_:)`` writes a root context's changes in ONE SQLite transaction (clients before the invoices that refer
/// to them, temporary IDs replaced by the new row ids), so a save lands completely or not at all. Versions for
/// optimistic locking are kept in memory: the store assumes it is the only writer while it is open, and SQLite's
/// write lock keeps other writers out during the save itself.
public final class SQLiteStore: PersistentStore, @unchecked Sendable {
    // @unchecked Sendable: `versions` is only read or written while holding `lock`; everything else is immutable.
    public let path: String
    public var model: ObjectModel { InvoicesModel.model }
    public var isReadOnly: Bool { false }
    private let rowsStore: BooksStore
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
    }

    /// The store's schema version (1 or 2): what its rows can hold.
    public var schemaVersion: Int { rowsStore.books.schemaVersion }

    public func rows(of entity: String) throws -> any RowCollection { try rowsStore.rows(of: entity) }

    public func row(for id: ObjectID) throws -> StoredRow? {
        guard var row = try rowsStore.row(for: id) else { return nil }
        row.version = lock.withLock { versions[id] ?? 1 }
        return row
    }

    public func primaryKeys(of entity: String, relationship: Int, referencing primaryKey: Int64) throws -> [Int64] {
        try rowsStore.primaryKeys(of: entity, relationship: relationship, referencing: primaryKey)
    }

    public func save(_ changes: StoreChanges) throws -> [ObjectID: ObjectID] {
        // Optimistic locking: an updated or deleted row must still be at the version its context read.
        let stale: [ObjectID] = try lock.withLock {
            try (changes.updated.map { ($0.objectID, $0.expectedVersion) } + changes.deleted.map { ($0.objectID, $0.expectedVersion) })
                .filter { id, expected in try rowsStore.row(for: id) == nil && versions[id] == nil || (versions[id] ?? 1) != expected }
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
            // Clients first (invoices refer to them), each in insertion order, so the same import gives the
            // same row ids on every run.
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
                    try Self.writeDetails(db, invoice: db.lastInsertedRowID, a)
                case "Invoice":
                    try db.execute(
                        sql: "INSERT INTO invoice (identifier, amount, currency, notes, issuedOn, dueOn, paidOn, clientId) VALUES (?,?,?,?,?,?,?,?)",
                        arguments: StatementArguments(Self.invoiceColumns(a).prefix(7) + [try clientKey(write.values)]))
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
                    for child in ["payment", "writeOff", "taxLine"] {
                        try db.execute(sql: "DELETE FROM \(child) WHERE invoiceId = ?", arguments: [key])
                    }
                    try Self.writeDetails(db, invoice: key, a)
                case "Invoice":
                    try db.execute(
                        sql: "UPDATE invoice SET identifier = ?, amount = ?, currency = ?, notes = ?, issuedOn = ?, dueOn = ?, paidOn = ?, clientId = ? WHERE id = ?",
                        arguments: StatementArguments(Self.invoiceColumns(a).prefix(7) + [try clientKey(write.values), key]))
                default:
                    throw ContextError(.unknownEntity, "the store has no entity '\(write.objectID.entityName)'")
                }
            }
            // Invoices before the clients they refer to.
            for deletion in changes.deleted.sorted(by: { $0.objectID.entityName > $1.objectID.entityName }) {
                guard let key = deletion.objectID.primaryKey else { continue }
                let table = deletion.objectID.entityName == "Client" ? "client" : "invoice"
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

    /// The invoice columns a v2 store keeps in the invoice table (``StoreWrites/invoiceColumns``).
    static func invoiceColumnsV2(_ attributes: [Value]) -> [(any DatabaseValueConvertible)?] {
        StoreWrites.invoice(attributes).map(databaseValue)
    }

    /// The invoice's payment, write-off and tax-line rows (``StoreWrites/details(_:)``).
    static func writeDetails(_ db: Database, invoice: Int64, _ attributes: [Value]) throws {
        for row in StoreWrites.details(attributes) {
            try db.execute(
                sql: "INSERT INTO \(row.table) (invoiceId, \(row.columns.joined(separator: ", "))) VALUES (?\(String(repeating: ", ?", count: row.columns.count)))",
                arguments: StatementArguments([invoice] + row.values.map(databaseValue)))
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
            case .issuedOn, .dueOn, .paidOn, .receivedOn, .writtenOffOn:
                if case .integer(let day) = value { return CalendarDate(dayNumber: Int32(clamping: day)).description }
                return nil
            default:
                return databaseValue(value)
            }
        }
    }
}
