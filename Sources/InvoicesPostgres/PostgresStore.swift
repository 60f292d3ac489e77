import Foundation
internal import InvoicesCore
internal import InvoicesStore
public import ObjectContexts

/// A writable ``ObjectContexts/PersistentStore`` on a PostgreSQL store, inside one `SERIALIZABLE` transaction: the
/// root of the context tree an import writes through, as ``InvoicesStore/SQLiteStore`` is for a file.
///
/// ``serializable(_:attempts:_:)`` opens the transaction, reads the books in it (through the same checks as a
/// build), hands the store to its body and commits; ``save(_:)`` writes the root context's changes in that
/// transaction (clients before the invoices that refer to them; `RETURNING id` gives the permanent IDs). Nothing is
/// visible to others before the commit, and a failure rolls everything back. When PostgreSQL aborts the transaction
/// because a concurrent one wrote what it read (SQLSTATE 40001 or 40P01), the whole body runs again on a fresh
/// snapshot, a bounded number of times.
///
/// The store's methods are synchronous (as the contexts call them, and as libpq is); they wait for the server on the
/// calling thread, so call them from a thread of your own (the CLI's main thread, a context's queue), never from
/// Swift concurrency's cooperative pool.
public final class PostgresStore: PersistentStore, @unchecked Sendable {
    // @unchecked Sendable: `saved` is only read or written while holding `lock`, and the connection is used by one
    // thread at a time (the import's, which runs the transaction and the contexts' saves in turn).
    public var model: ObjectModel { InvoicesModel.model }
    public var isReadOnly: Bool { false }
    let address: PostgresAddress
    let connection: PostgresConnection
    private let rowsStore: BooksStore
    private let lock = NSLock()
    private var saved = false

    init(address: PostgresAddress, connection: PostgresConnection, books: Books) {
        self.address = address
        self.connection = connection
        rowsStore = BooksStore(books: books, format: .postgres)
    }

    /// The store's schema version (always the current one on a server).
    public var schemaVersion: Int { rowsStore.books.schemaVersion }

    public func rows(of entity: String) throws -> any RowCollection { try rowsStore.rows(of: entity) }

    public func row(for id: ObjectID) throws -> StoredRow? { try rowsStore.row(for: id) }

    public func primaryKeys(of entity: String, relationship: Int, referencing primaryKey: Int64) throws -> [Int64] {
        try rowsStore.primaryKeys(of: entity, relationship: relationship, referencing: primaryKey)
    }

    /// Writes `changes` in the store's transaction. A store saves once: the rows it serves are the transaction's
    /// snapshot, at version 1.
    public func save(_ changes: StoreChanges) throws -> [ObjectID: ObjectID] {
        let stale = try lock.withLock {
            try (changes.updated.map { ($0.objectID, $0.expectedVersion) } + changes.deleted.map { ($0.objectID, $0.expectedVersion) })
                .filter { id, expected in try saved || expected != 1 || rowsStore.row(for: id) == nil }
                .map(\.0)
        }
        if !stale.isEmpty { throw StoreConflictError(objectIDs: stale) }
        let rewrites = try detailRewrites(changes)
        let permanent = try Self.write(changes, rewrites, on: connection, version: schemaVersion)
        lock.withLock { saved = true }
        return permanent
    }

    /// The rows beside an invoice (payments, tax lines, write-offs) are served with positions for keys (the books
    /// keep no row ids for them), so an invoice whose rows of one table change gets all of them written again:
    /// its stored rows, less those deleted, with those updated, plus those inserted (table, invoice, values).
    private func detailRewrites(_ changes: StoreChanges) throws -> [(table: String, invoice: ObjectID, rows: [[Value]])] {
        var rows: [String: [ObjectID: [(key: Int64?, values: [Value])]]] = [:]
        func stored(_ entity: String, _ invoice: ObjectID) throws -> [(key: Int64?, values: [Value])] {
            guard let key = invoice.primaryKey else { return [] }
            return try rowsStore.primaryKeys(of: entity, relationship: InvoicesModel.detailInvoiceRelationship, referencing: key).compactMap { key in
                try rowsStore.row(for: ObjectID(entityName: entity, primaryKey: key)).map { (key, $0.attributes) }
            }
        }
        func edit(_ entity: String, _ invoice: ObjectID, _ change: (inout [(key: Int64?, values: [Value])]) -> Void) throws {
            if rows[entity]?[invoice] == nil { rows[entity, default: [:]][invoice] = try stored(entity, invoice) }
            change(&rows[entity, default: [:]][invoice, default: []])
        }
        for deletion in changes.deleted where StoreWrites.detail(deletion.objectID.entityName) != nil {
            let entity = deletion.objectID.entityName
            guard let row = try rowsStore.row(for: deletion.objectID), let key = row.relationships.first ?? nil else { continue }
            try edit(entity, ObjectID(entityName: "Invoice", primaryKey: key)) { $0.removeAll { $0.key == deletion.objectID.primaryKey } }
        }
        for write in changes.updated + changes.inserted where StoreWrites.detail(write.objectID.entityName) != nil {
            let entity = write.objectID.entityName
            guard let invoice = write.values.relationships[InvoicesModel.detailInvoiceRelationship] else { continue }
            try edit(entity, invoice) { rows in
                rows.removeAll { $0.key != nil && $0.key == write.objectID.primaryKey }
                rows.append((nil, write.values.attributes))
            }
        }
        return rows.keys.sorted().flatMap { entity in
            (rows[entity] ?? [:]).sorted { $0.key < $1.key }.map { invoice, list in
                (StoreWrites.detail(entity)?.table ?? "", invoice, list.map { StoreWrites.detailValues(entity, $0.values) })
            }
        }
    }

    private static func write(
        _ changes: StoreChanges, _ rewrites: [(table: String, invoice: ObjectID, rows: [[Value]])], on connection: PostgresConnection,
        version: Int
    ) throws -> [ObjectID: ObjectID] {
        var permanent: [ObjectID: ObjectID] = [:]
        func clientKey(_ values: RowValues) throws -> Value {
            guard let target = values.relationships[InvoicesModel.invoiceClientRelationship],
                let key = (permanent[target] ?? target).primaryKey
            else { throw ContextError(.typeMismatch, "an invoice without a saved client cannot be written") }
            return .integer(key)
        }
        // Clients first (invoices refer to them), each in insertion order, so the same import gives the same row
        // ids on every run.
        for write in changes.inserted.sorted(by: { $0.objectID < $1.objectID }) where StoreWrites.detail(write.objectID.entityName) == nil {
            let key: Int64
            switch write.objectID.entityName {
            case "Client":
                let client = StoreWrites.client(write.values.attributes, version: version)
                key = try insert(connection, "client", client.columns, client.values)
            case "Invoice":
                key = try insert(
                    connection, "invoice", StoreWrites.invoiceColumns + ["clientId"],
                    StoreWrites.invoice(write.values.attributes) + [try clientKey(write.values)])
            default:
                throw ContextError(.unknownEntity, "the store has no entity '\(write.objectID.entityName)'")
            }
            permanent[write.objectID] = ObjectID(entityName: write.objectID.entityName, primaryKey: key)
        }
        for write in changes.updated.sorted(by: { $0.objectID < $1.objectID }) where StoreWrites.detail(write.objectID.entityName) == nil {
            guard let key = write.objectID.primaryKey else { continue }
            switch write.objectID.entityName {
            case "Client":
                let client = StoreWrites.client(write.values.attributes, version: version)
                try update(connection, "client", key, client.columns, client.values)
            case "Invoice":
                try update(
                    connection, "invoice", key, StoreWrites.invoiceColumns + ["clientId"],
                    StoreWrites.invoice(write.values.attributes) + [try clientKey(write.values)])
            default:
                throw ContextError(.unknownEntity, "the store has no entity '\(write.objectID.entityName)'")
            }
        }
        // A credit note's corrected invoice, once every invoice has its id.
        for change in changes.inserted + changes.updated where change.objectID.entityName == "Invoice" {
            guard let invoice = (permanent[change.objectID] ?? change.objectID).primaryKey else { continue }
            let target = change.values.relationships[InvoicesModel.invoiceCorrectsRelationship]
            let corrects = target.flatMap { (permanent[$0] ?? $0).primaryKey }.map(Value.integer) ?? .null
            try run(connection, "UPDATE invoice SET corrects_id = $1 WHERE id = $2", [corrects, .integer(invoice)])
        }
        for rewrite in rewrites {
            guard let invoice = (permanent[rewrite.invoice] ?? rewrite.invoice).primaryKey else { continue }
            try run(connection, "DELETE FROM \(Schema.snakeCase(rewrite.table)) WHERE invoice_id = $1", [.integer(invoice)])
            let columns = StoreWrites.detail(InvoicesModel.details.first { $0.table == rewrite.table }?.entity ?? "")?.columns ?? []
            for row in rewrite.rows {
                _ = try insert(connection, rewrite.table, ["invoiceId"] + columns, [.integer(invoice)] + row)
            }
        }
        // Invoices before the clients they refer to.
        for deletion in changes.deleted.sorted(by: { $0.objectID.entityName > $1.objectID.entityName })
        where StoreWrites.detail(deletion.objectID.entityName) == nil {
            guard let key = deletion.objectID.primaryKey else { continue }
            let table = deletion.objectID.entityName == "Client" ? "client" : "invoice"
            if table == "invoice" { try deleteDetails(connection, invoice: key) }
            try run(connection, "DELETE FROM \(table) WHERE id = $1", [.integer(key)])
        }
        return permanent
    }

    private static func deleteDetails(_ connection: PostgresConnection, invoice: Int64) throws {
        for table in ["payment", "writeOff", "taxLine"] {
            try run(connection, "DELETE FROM \(Schema.snakeCase(table)) WHERE invoice_id = $1", [.integer(invoice)])
        }
    }

    /// Inserts one row (SQLite names) and returns its id.
    private static func insert(_ connection: PostgresConnection, _ table: String, _ columns: [String], _ values: [Value]) throws -> Int64 {
        let placeholders = columns.indices.map { parameter(table, columns[$0], $0 + 1) }
        let sql = "INSERT INTO \(Schema.snakeCase(table)) (\(columns.map(Schema.snakeCase).joined(separator: ", "))) "
            + "VALUES (\(placeholders.joined(separator: ", "))) RETURNING id"
        return try connection.execute(sql, values.map(text)).values.first?.first.flatMap { $0 }.flatMap { Int64($0) } ?? 0
    }

    private static func update(
        _ connection: PostgresConnection, _ table: String, _ key: Int64, _ columns: [String], _ values: [Value]
    ) throws {
        let assignments = columns.indices.map { "\(Schema.snakeCase(columns[$0])) = \(parameter(table, columns[$0], $0 + 1))" }
        try run(
            connection, "UPDATE \(Schema.snakeCase(table)) SET \(assignments.joined(separator: ", ")) WHERE id = $\(columns.count + 1)",
            values + [.integer(key)])
    }

    private static func run(_ connection: PostgresConnection, _ sql: String, _ values: [Value]) throws {
        try connection.execute(sql, values.map(text))
    }

    /// `$n`, cast to `date` for a date column (days travel as `YYYY-MM-DD` text).
    private static func parameter(_ table: String, _ column: String, _ number: Int) -> String {
        let type = Schema.tables(version: Schema.version).first { $0.name == table }?.columns.first { $0.name == column }?.type
        return type == .date ? "$\(number)::date" : "$\(number)"
    }

    /// A value as libpq sends it: text, which the server reads as the column's type; nil for NULL.
    static func text(_ value: Value) -> String? {
        switch value {
        case .null: nil
        case .integer(let number): String(number)
        case .double(let number): "\(number)"
        case .text(let text): text
        }
    }

    // MARK: - The transaction

    /// Runs `body` with the store at `address` inside one `SERIALIZABLE` transaction and commits; on a
    /// serialization failure (SQLSTATE 40001, 40P01) rolls back, waits a little and runs it again on a fresh
    /// snapshot, up to `attempts` times in all.
    /// - Throws: ``InvoicesStore/StoreIssues`` for the server and the store (exit 69, 77, 66, 65; 75 when every
    ///   attempt was aborted), or what `body` throws. Nothing is written unless `body` returns and the commit
    ///   succeeds.
    public static func serializable<T: Sendable>(
        _ address: PostgresAddress, attempts: Int = 5, _ body: (PostgresStore) throws -> T
    ) throws -> T {
        let connection = try PostgresConnection(address)
        for attempt in 1...max(attempts, 1) {
            do {
                try connection.execute("BEGIN ISOLATION LEVEL SERIALIZABLE")
                let books = try PostgresBooks.read(connection, issueLimit: 100)
                let value = try body(PostgresStore(address: address, connection: connection, books: books))
                try connection.execute("COMMIT")
                return value
            } catch {
                _ = try? connection.execute("ROLLBACK")
                guard isSerializationFailure(error) else {
                    if error is PostgresConnection.Failure { throw StoreIssues([connection.issue(for: error)]) }
                    throw error
                }
                if attempt < attempts {
                    // 20, 40, 80 … ms, with jitter so two retrying writers do not meet again.
                    Thread.sleep(forTimeInterval: Double(20 << (attempt - 1)) / 1000 * Double.random(in: 0.5...1.5))
                }
            }
        }
        throw StoreIssues([
            StoreIssue(
                kind: .busy, path: address.description,
                message: "concurrent writers aborted all \(attempts) attempts (serialization failures), run the import again")
        ])
    }

    /// Whether `error` (or the error a context wrapped it in) is PostgreSQL's "could not serialize access" or a
    /// deadlock: the transaction may succeed when run again.
    static func isSerializationFailure(_ error: any Error) -> Bool {
        PostgresConnection.isSerializationFailure(error)
    }
}
