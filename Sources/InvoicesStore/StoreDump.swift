import Foundation
internal import GRDB
public import ObjectContexts

/// Every row of a native SQLite store in the shape of the current schema (``Schema/version``): what copying a store
/// to another one (`invoices import --store postgres://… books.sqlite`) moves, ids kept. A version 1 store is read as
/// ``Schema/migrationFromV1`` would turn it into version 2 (every invoice sent, each paid date one payment of the
/// whole amount), and a version 1 or 2 store's clients have no language (NULL), without changing the file.
public struct StoreDump: Sendable {
    /// One table's rows, in id order; each row's values follow ``table``'s columns.
    public struct Rows: Sendable {
        public var table: Schema.Table
        public var rows: [[Value]]
    }

    /// The tables, in creation order (a table after those it refers to).
    public var tables: [Rows]

    /// Reads the store at `path`, after checking its books as a build does.
    /// - Throws: ``StoreIssues``: no such file (66), not a store, another version or invalid rows (65). A Core Data
    ///   store is refused: copy from the native store it imports into.
    public init(path: String) throws(StoreIssues) {
        let store = try BooksStore(path: path)
        guard store.format == .native else {
            throw StoreIssues([StoreIssue(kind: .wrongSchema, path: path, message: "a Core Data store cannot be copied; import it into a native store first")])
        }
        let version = store.books.schemaVersion
        let database = try StoreFile(path: path).openReadOnly(label: "copy")
        defer { try? database.close() }
        do {
            tables = try database.read { db in
                try Schema.tables(version: Schema.version).map { table in
                    Rows(table: table, rows: try Row.fetchAll(db, sql: Self.select(table, version: version)).map { row in
                        row.databaseValues.map { value in
                            switch value.storage {
                            case .null, .blob: .null
                            case .int64(let number): .integer(number)
                            case .double(let number): .double(number)
                            case .string(let text): .text(text)
                            }
                        }
                    })
                }
            }
        } catch {
            throw StoreIssues([StoreIssue(kind: .unreadable, path: path, message: "\(error)")])
        }
    }

    /// The SELECT that reads `table` (of the current schema) from a store of `version`.
    static func select(_ table: Schema.Table, version: Int) -> String {
        // The columns `version` lacks (a v1 or v2 client's language) read as NULL.
        let present = Set(Schema.tables(version: version).first { $0.name == table.name }?.columns.map(\.name) ?? [])
        let columns = table.columns.map { present.contains($0.name) ? $0.name : "NULL" }.joined(separator: ", ")
        guard version == 1 else { return "SELECT \(columns) FROM \(table.name) ORDER BY id" }
        switch table.name {
        case "invoice":
            return "SELECT id, identifier, clientId, amount, NULL, currency, notes, issuedOn, dueOn, 'sent', 'invoice', NULL, NULL FROM invoice ORDER BY id"
        case "payment":
            // As the migration numbers them: one payment per paid invoice, in invoice order.
            return "SELECT row_number() OVER (ORDER BY id), id, paidOn, amount, NULL, '', '' FROM invoice WHERE paidOn IS NOT NULL AND amount > 0 ORDER BY id"
        case "client":
            return "SELECT \(columns) FROM client ORDER BY id"
        default:
            return "SELECT " + table.columns.map { _ in "NULL" }.joined(separator: ", ") + " WHERE 0"
        }
    }
}
