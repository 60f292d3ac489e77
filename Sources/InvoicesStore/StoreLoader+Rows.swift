internal import InvoicesCore

// The native store's rows, read straight from SQLite into ``BooksTables``.
internal import GRDB
internal import GRDBSQLite

/// Reads one row's columns straight from SQLite, without a `Row` or a `String` per repeated value.
struct Columns: StoreRowColumns {
    let statement: OpaquePointer

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

    func isInteger(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_INTEGER }

    /// The column's text, or nil when it is not valid UTF-8.
    func text(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(statement, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(validating: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// The column's raw bytes, valid until the next step.
    func bytes(_ column: Int32) -> UnsafeRawBufferPointer {
        guard let pointer = sqlite3_column_text(statement, column) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(statement, column)))
    }

    func threeByteKey(_ column: Int32) -> UInt32? {
        let code = bytes(column)
        guard code.count == 3 else { return nil }
        return UInt32(code[0]) << 16 | UInt32(code[1]) << 8 | UInt32(code[2])
    }

    /// The column's `YYYY-MM-DD` text as a date.
    func date(_ column: Int32) -> CalendarDate? {
        let raw = bytes(column)
        return CalendarDate(isoBytes: UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: raw.count))
    }
}

extension StoreLoader {
    func step(_ statement: Statement, _ body: (Columns) -> Void) throws {
        let pointer = statement.sqliteStatement
        let columns = Columns(statement: pointer)
        while true {
            let code = sqlite3_step(pointer)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(pointer))))
            }
            body(columns)
        }
        sqlite3_reset(pointer)
    }

    /// Whether `table` has a UNIQUE index on exactly `column`.
    func hasUniqueIndex(_ db: Database, table: String, column: String) throws -> Bool {
        for index in try Row.fetchAll(db, sql: "PRAGMA index_list(\(table))") where (index["unique"] as Int?) == 1 {
            let name: String = index["name"]
            let columns = try Row.fetchAll(db, sql: "PRAGMA index_info(\(name.quotedDatabaseIdentifier))").map { $0["name"] as String? }
            if columns == [column] { return true }
        }
        return false
    }
}

extension StoreLoader {
    /// Reads every client, then every invoice, into ``BooksTables``, which checks each row.
    func loadBooks(_ db: Database) throws -> Books {
        var tables = BooksTables(path: path, issueLimit: issueLimit)
        // A UNIQUE index already guarantees distinct values; only a store without one needs the check here.
        tables.checkClientNumbers = try !hasUniqueIndex(db, table: "client", column: "number")
        tables.checkInvoiceIdentifiers = try !hasUniqueIndex(db, table: "invoice", column: "identifier")
        let clients = try db.makeStatement(sql: "SELECT \(Self.columnList("client")) FROM client ORDER BY number, id")
        try step(clients) { tables.addClient($0) }
        tables.reserveInvoices(try Int.fetchOne(db, sql: "SELECT count(*) FROM invoice") ?? 0)
        let invoices = try db.makeStatement(sql: "SELECT \(Self.columnList("invoice")) FROM invoice ORDER BY id")
        try step(invoices) { tables.addInvoice($0) }
        return try tables.books()
    }

    static func columnList(_ table: String) -> String {
        Schema.table(table)!.columns.map(\.name).joined(separator: ", ")
    }
}
