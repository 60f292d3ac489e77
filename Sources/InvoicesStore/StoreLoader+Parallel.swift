import Foundation
internal import InvoicesCore
internal import GRDB
internal import GRDBSQLite

// The native store read on two connections at once: the clients and invoices on the loader's own connection,
// the payments, write-offs and tax lines on a second one, on the other core, in the same snapshot.

extension StoreFile {
    /// What says which commit of the store a reader sees: the main file's 100-byte header (its file change counter,
    /// bumped by every commit in rollback-journal mode, and its journal mode) and, in WAL mode, the two copies of
    /// the WAL-index header at the start of the `-shm` file (every commit writes a new one: its frame count, salts
    /// and change counter; sqlite.org/walformat.html). nil when it cannot be read, or when the two copies differ
    /// (a writer is between them).
    ///
    /// When it is the same before one connection starts its read transaction and after another started its own,
    /// no commit happened in between, so both read the same point in time.
    func commitState() -> [UInt8]? {
        guard var state = Self.prefix(of: path, count: 100), state.count == 100 else { return nil }
        guard state[18] == 2, state[19] == 2 else { return state }
        guard let index = Self.prefix(of: path + "-shm", count: 96) else {
            // No -shm: opened as immutable (an empty -wal), or refused by the open itself.
            return FileManager.default.fileExists(atPath: path + "-shm") ? nil : state
        }
        guard index.count == 96, index[0..<48] == index[48..<96] else { return nil }
        state += index
        return state
    }

    private static func prefix(of path: String, count: Int) -> [UInt8]? {
        guard let file = try? RegularFile(path), let data = try? file.read(upTo: count) else { return nil }
        return [UInt8](data)
    }
}

/// What the second connection read: each detail table's rows, or nil when it could not prove it read the loader's
/// snapshot (a writer committed between the two starts) or could not read at all; the loader then reads them itself.
final class DetailRead: @unchecked Sendable {
    // @unchecked Sendable: written by the reading thread before it signals `done`, read only after waiting for it.
    var tables: [String: BufferedRows]?
    let done = DispatchSemaphore(value: 0)
}

extension StoreLoader {
    /// The tables read on the second connection.
    static let detailTables = ["payment", "writeOff", "taxLine"]

    /// Starts reading the detail tables of a version 2 or 3 store on a second read-only connection, on a thread of
    /// its own. Call it inside the loader's read transaction, after its first read (which started its snapshot),
    /// with the ``StoreFile/commitState()`` taken before that transaction began.
    func startDetailRead(version: Int, stateBefore: [UInt8]?) -> DetailRead {
        let read = DetailRead()
        guard let stateBefore else {
            read.done.signal()
            return read
        }
        let thread = Thread { [self] in
            defer { read.done.signal() }
            read.tables = try? readDetails(version: version, stateBefore: stateBefore)
        }
        thread.stackSize = 1 << 20
        thread.start()
        return read
    }

    private func readDetails(version: Int, stateBefore: [UInt8]) throws -> [String: BufferedRows]? {
        guard let queue = try? file.openReadOnly(label: "store-details") else { return nil }
        defer { try? queue.close() }
        return try queue.read { db -> [String: BufferedRows]? in
            // Starts this connection's snapshot; then the proof that no commit came between the two starts.
            _ = try Int.fetchOne(db, sql: "PRAGMA user_version")
            guard file.commitState() == stateBefore else { return nil }
            var tables: [String: BufferedRows] = [:]
            for table in Self.detailTables {
                let statement = try select(db, table, version: version)
                var rows = BufferedRows(columnCount: Int(sqlite3_column_count(statement.sqliteStatement)))
                try step(statement) { rows.append($0) }
                tables[table] = rows
            }
            return tables
        }
    }

    /// The statement that reads `table`'s columns as ``BooksTables`` takes them, in `orderBy` order.
    func select(_ db: Database, _ table: String, version: Int, orderBy: String = "id") throws -> Statement {
        let columns = BooksTables.columns(of: table, version: version).map { $0 ?? "NULL" }.joined(separator: ", ")
        return try db.makeStatement(sql: "SELECT \(columns) FROM \(table) ORDER BY \(orderBy)")
    }
}
