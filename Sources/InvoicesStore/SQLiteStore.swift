import Foundation
internal import InvoicesCore
internal import GRDB
public import ObjectContexts

/// A writable ``ObjectContexts/PersistentStore`` on a store file: the root of a context tree that imports write
/// through.
///
/// Rows are read once, when the store opens (through the same checks as a build), and served from memory;
/// ``save(_:)`` writes a root context's changes in ONE SQLite transaction (clients before the invoices that refer
/// to them, an invoice's payments, tax lines and write-offs after it, temporary IDs replaced by the new row ids), so
/// a save lands completely or not at all. Those rows beside the invoice are served with their row ids, read from a
/// v2 store's `payment`, `taxLine` and `writeOff` tables. Versions for
/// optimistic locking are kept in memory: the store assumes it is the only writer while it is open, and SQLite's
/// write lock keeps other writers out during the save itself.
public final class SQLiteStore: PersistentStore, @unchecked Sendable {
    // @unchecked Sendable: `versions` is only read or written while holding `lock`; everything else is immutable.
    public let path: String
    public var model: ObjectModel { InvoicesModel.model }
    public var isReadOnly: Bool { false }
    private let rowsStore: BooksStore
    /// `Payment`, `TaxLine` and `WriteOff` rows with their row ids, by entity name (empty in a v1 store).
    private let detailRows: [String: StoredDetailRows]
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
        var detailRows: [String: StoredDetailRows] = [:]
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        let v2 = rowsStore.books.schemaVersion >= 2
        for detail in InvoicesModel.details {
            guard let entity = InvoicesModel.model.entity(named: detail.entity) else { continue }
            detailRows[detail.entity] = try queue.read { db in
                try StoredDetailRows(db, table: v2 ? detail.table : nil, attributes: entity.attributes)
            }
        }
        self.detailRows = detailRows
    }

    /// The store's schema version (1, 2 or 3): what its rows can hold.
    public var schemaVersion: Int { rowsStore.books.schemaVersion }

    public func rows(of entity: String) throws -> any RowCollection {
        try detailRows[entity] ?? rowsStore.rows(of: entity)
    }

    public func row(for id: ObjectID) throws -> StoredRow? {
        guard var row = try storedRow(for: id) else { return nil }
        row.version = lock.withLock { versions[id] ?? 1 }
        return row
    }

    public func primaryKeys(of entity: String, relationship: Int, referencing primaryKey: Int64) throws -> [Int64] {
        if let rows = detailRows[entity] {
            return relationship == InvoicesModel.detailInvoiceRelationship ? rows.keys(ofInvoice: primaryKey) : []
        }
        return try rowsStore.primaryKeys(of: entity, relationship: relationship, referencing: primaryKey)
    }

    /// A row as this store holds it, without the version.
    private func storedRow(for id: ObjectID) throws -> StoredRow? {
        if let rows = detailRows[id.entityName] { return rows.row(for: id) }
        return try rowsStore.row(for: id)
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
        let version = rowsStore.books.schemaVersion
        let v2 = version >= 2
        let tables = Dictionary(uniqueKeysWithValues: InvoicesModel.details.map { ($0.entity, $0.table) })
        let permanent = try queue.write { db -> [ObjectID: ObjectID] in
            var permanent: [ObjectID: ObjectID] = [:]
            func rowKey(_ values: RowValues, _ relationship: Int, _ what: String) throws -> Int64? {
                guard let target = values.relationships[relationship] else { return nil }
                guard let key = (permanent[target] ?? target).primaryKey else {
                    throw ContextError(.typeMismatch, "\(what) refers to a row that was not saved")
                }
                return key
            }
            func write(_ write: StoreWrite, update key: Int64?) throws {
                let a = write.values.attributes
                let entity = write.objectID.entityName
                let (sql, arguments): (String, [(any DatabaseValueConvertible)?])
                switch entity {
                case "Client":
                    let client = StoreWrites.client(a, version: version)
                    sql = "client (" + client.columns.joined(separator: ", ") + ")"
                    arguments = client.values.map(Self.databaseValue)
                case "Invoice" where v2:
                    // correctsId after every insert (a credit note may come before the invoice it corrects).
                    sql = "invoice (" + (StoreWrites.invoiceColumns + ["clientId"]).joined(separator: ", ") + ")"
                    arguments = StoreWrites.invoice(a).map(Self.databaseValue) + [try self.clientKey(write.values, key: rowKey)]
                case "Invoice":
                    sql = "invoice (identifier, amount, currency, notes, issuedOn, dueOn, paidOn, clientId)"
                    arguments = Array(Self.invoiceColumns(a).prefix(7)) + [try self.clientKey(write.values, key: rowKey)]
                case let entity where v2 && StoreWrites.detail(entity) != nil:
                    let detail = StoreWrites.detail(entity) ?? (table: "", columns: [])
                    sql = detail.table + " (" + (detail.columns + ["invoiceId"]).joined(separator: ", ") + ")"
                    arguments = StoreWrites.detailValues(entity, a).map(Self.databaseValue)
                        + [try rowKey(write.values, InvoicesModel.detailInvoiceRelationship, entity)]
                default:
                    throw ContextError(.unknownEntity, "the store has no entity '\(entity)'")
                }
                let table = String(sql.prefix { $0 != " " })
                let columns = sql.drop { $0 != "(" }.dropFirst().dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                if let key {
                    try db.execute(
                        sql: "UPDATE \(table) SET " + columns.map { "\($0) = ?" }.joined(separator: ", ") + " WHERE id = ?",
                        arguments: StatementArguments(arguments + [key]))
                } else {
                    try db.execute(
                        sql: "INSERT INTO \(sql) VALUES (" + columns.map { _ in "?" }.joined(separator: ",") + ")",
                        arguments: StatementArguments(arguments))
                    permanent[write.objectID] = ObjectID(entityName: entity, primaryKey: db.lastInsertedRowID)
                }
            }
            // Clients first (invoices refer to them), then invoices, then the rows beside them: each after the
            // rows it refers to, each kind in insertion order, so the same import gives the same row ids every run.
            let order = ["Client", "Invoice"] + InvoicesModel.details.map(\.entity)
            let rank = { (id: ObjectID) in order.firstIndex(of: id.entityName) ?? order.count }
            for insert in changes.inserted.sorted(by: { (rank($0.objectID), $0.objectID) < (rank($1.objectID), $1.objectID) }) {
                try write(insert, update: nil)
            }
            for update in changes.updated.sorted(by: { $0.objectID < $1.objectID }) {
                guard let key = update.objectID.primaryKey else { continue }
                try write(update, update: key)
            }
            if v2 {
                for change in changes.inserted + changes.updated where change.objectID.entityName == "Invoice" {
                    guard let invoice = (permanent[change.objectID] ?? change.objectID).primaryKey else { continue }
                    let corrects = try rowKey(change.values, InvoicesModel.invoiceCorrectsRelationship, "a credit note")
                    try db.execute(sql: "UPDATE invoice SET correctsId = ? WHERE id = ?", arguments: [corrects, invoice])
                }
            }
            // The rows beside an invoice before it, invoices before the clients they refer to.
            for deletion in changes.deleted.sorted(by: { rank($0.objectID) > rank($1.objectID) }) {
                guard let key = deletion.objectID.primaryKey else { continue }
                let entity = deletion.objectID.entityName
                let table = ["Client": "client", "Invoice": "invoice"][entity] ?? (v2 ? tables[entity] : nil)
                guard let table else { throw ContextError(.unknownEntity, "the store has no entity '\(entity)'") }
                if v2, table == "invoice" {
                    for child in tables.values.sorted() { try db.execute(sql: "DELETE FROM \(child) WHERE invoiceId = ?", arguments: [key]) }
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

    /// The row id of an invoice's client (inserted in this save, or stored).
    private func clientKey(_ values: RowValues, key: (RowValues, Int, String) throws -> Int64?) throws -> Int64 {
        guard let client = try key(values, InvoicesModel.invoiceClientRelationship, "an invoice") else {
            throw ContextError(.typeMismatch, "an invoice without a saved client cannot be written")
        }
        return client
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
            case .issuedOn, .dueOn, .paidOn, .appliedOn:
                if case .integer(let day) = value { return CalendarDate(dayNumber: Int32(clamping: day)).description }
                return nil
            default:
                return databaseValue(value)
            }
        }
    }
}

/// The rows of one of a v2 store's tables beside the invoice (`payment`, `taxLine`, `writeOff`) with their row ids,
/// read once when the store opens; the columns are the entity's attribute names (a v1 store has none of them).
final class StoredDetailRows: RowCollection, @unchecked Sendable {
    // @unchecked Sendable: immutable after init.
    /// Attributes that hold a day: the column is text `YYYY-MM-DD`, the attribute a day number.
    static var dayAttributes: Set<String> { StoreWrites.dayAttributes }
    private let ids: [Int64]
    private let invoiceIDs: [Int64]
    private let values: [[Value]]
    private let indexByID: [Int64: Int]
    private let indexesByInvoice: [Int64: [Int]]

    /// Reads `table` (nil: no rows) with the columns named like `attributes`.
    init(_ db: Database, table: String?, attributes: [AttributeDescription]) throws {
        var ids: [Int64] = []
        var invoiceIDs: [Int64] = []
        var values: [[Value]] = []
        if let table {
            let rows = try Row.fetchCursor(
                db, sql: "SELECT id, invoiceId, " + attributes.map(\.name).joined(separator: ", ") + " FROM \(table) ORDER BY id")
            while let row = try rows.next() {
                ids.append(row[0])
                invoiceIDs.append(row[1])
                values.append(
                    attributes.enumerated().map { index, attribute in
                        let value: DatabaseValue = row[index + 2]
                        switch value.storage {
                        case .null: return .null
                        case .int64(let number): return .integer(number)
                        case .double(let number): return .double(number)
                        case .string(let text):
                            guard Self.dayAttributes.contains(attribute.name) else { return .text(text) }
                            return CalendarDate(iso: text).map { .integer(Int64($0.dayNumber)) } ?? .text(text)
                        case .blob: return .null
                        }
                    })
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
        relationship == InvoicesModel.detailInvoiceRelationship ? invoiceIDs[index] : nil
    }

    func row(for id: ObjectID) -> StoredRow? {
        guard let key = id.primaryKey, let index = indexByID[key] else { return nil }
        return StoredRow(attributes: values[index], relationships: [invoiceIDs[index]], version: 1)
    }

    func keys(ofInvoice invoice: Int64) -> [Int64] { (indexesByInvoice[invoice] ?? []).map { ids[$0] } }
}
