internal import InvoicesCore

// The native store's rows, read straight from SQLite into ``BooksTables``.
internal import GRDB
internal import GRDBSQLite

/// Reads one row's columns straight from SQLite, without a `Row` or a `String` per repeated value.
struct Columns: StoreRowColumns {
    let statement: OpaquePointer

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

    /// A blob or a number reads as its text, so a text is its bytes.
    var textIsItsBytes: Bool { true }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

    func isInteger(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_INTEGER }

    /// The column's text, or nil when it is not valid UTF-8.
    func text(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(statement, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, column))
        return StoreText.string(UnsafeBufferPointer(start: pointer, count: count))
    }

    /// The column's raw bytes, valid until the next step.
    func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8> {
        guard let pointer = sqlite3_column_text(statement, column) else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(statement, column)))
    }

    func withBytes<R>(_ column: Int32, _ body: (UnsafeRawBufferPointer) -> R) -> R { body(UnsafeRawBufferPointer(bytes(column))) }

    /// The column's `YYYY-MM-DD` text as a date.
    func date(_ column: Int32) -> CalendarDate? { CalendarDate(isoBytes: bytes(column)) }
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

    /// Reads every table of a store of `version` into ``BooksTables``, which checks each row: clients, invoices,
    /// then (schema 2) payments, write-offs and tax lines, each by a plain scan in row-id order.
    ///
    /// With `details` (``startDetailRead(version:stateBefore:)``), a schema 2 store's payments, write-offs and tax
    /// lines are read meanwhile on a second connection (the other core) when it could prove it sees this
    /// transaction's snapshot, and checked here after the invoices, in the same order and with the same messages;
    /// otherwise this connection reads them. With it, and at least ``invoiceSplitMinimum`` invoices whose `id` is the
    /// row id and whose identifiers have a UNIQUE index, the invoices above the middle id are checked there too, into
    /// tables of their own joined after this connection's: the same books and messages as one scan. Then that
    /// connection reads only the payments and write-offs, and this one checks the tax lines meanwhile.
    func loadBooks(_ db: Database, version: Int, details: DetailRead? = nil) throws -> Books {
        // On every path (a throw included), a second connection that proved the snapshot is let go on.
        defer {
            details?.start(nil)
            details?.handOver(nil)
        }
        var tables = BooksTables(path: path, version: version, issueLimit: issueLimit)
        // A UNIQUE index already guarantees distinct values; only a store without one needs the check here.
        tables.checkClientNumbers = try !hasUniqueIndex(db, table: "client", column: "number")
        tables.checkInvoiceIdentifiers = try !hasUniqueIndex(db, table: "invoice", column: "identifier")
        try step(try select(db, "client", version: version, orderBy: "number, id")) { tables.addClient($0) }
        let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM invoice") ?? 0
        tables.reserveInvoices(count)
        // The invoices above the middle row id are checked on the second connection meanwhile, when it proved it
        // sees this snapshot, and joined after this connection's (docs/performance.md, "Load and figures on both cores").
        var split: Int64?
        if let details {
            details.proved.wait()
            if details.sameSnapshot,
                let above = try? invoiceSplit(db, count: count, minimum: invoiceSplitMinimum, checkIdentifiers: tables.checkInvoiceIdentifiers)
            {
                split = above
                details.start((above, tables.forMoreInvoices()))
            } else {
                details.start(nil)
            }
        }
        if let split, let details {
            try step(try select(db, "invoice", version: version, where: "id <= \(split)")) { tables.addInvoice($0) }
            details.invoicesDone.wait()
            if var other = details.invoices {
                details.invoices = nil
                tables.join(&other.parts, checkedBy: other.tables)
            } else {
                try step(try select(db, "invoice", version: version, where: "id > \(split)")) { tables.addInvoice($0) }
            }
        } else {
            try step(try select(db, "invoice", version: version)) { tables.addInvoice($0) }
        }
        if version >= 2 {
            // With the invoices split, the second connection reads the payments and write-offs after its invoices;
            // the loader checks the tax lines on its own connection meanwhile instead of waiting for their copy,
            // their problems kept apart and added after the write-offs', where one scan reports them
            // (docs/performance.md, "Why the two-part load did not shorten the wall").
            var taxLineProblems: Problems?
            if split != nil {
                // The second connection checks the payments and write-offs against every invoice, now joined.
                details?.handOver(tables.forDetails())
                taxLineProblems = try tables.checkingApart { tables in
                    try step(try select(db, "taxLine", version: version)) { tables.addTaxLine($0) }
                }
            }
            defer { if let taxLineProblems { tables.problems.append(taxLineProblems) } }
            details?.done.wait()
            details?.dropHandOver()
            if let details, let checked = details.checked {
                details.checked = nil
                tables.take(paymentsAndWriteOffs: checked)
            } else if let details, var rest = details.tables {
                tables.reserveDetails(payments: rest["payment"]?.count ?? 0, taxLines: rest["taxLine"]?.count ?? 0)
                // Each table's rows are let go once taken, so the three are not all held with the books they make
                // (docs/performance.md, "The peak at L under 1 GB"); what was read stays told apart from nothing.
                details.tables = [:]
                rest.removeValue(forKey: "payment")?.forEach { tables.addPayment($0) }
                rest.removeValue(forKey: "writeOff")?.forEach { tables.addWriteOff($0) }
                rest.removeValue(forKey: "taxLine")?.forEach { tables.addTaxLine($0) }
            } else {
                try step(try select(db, "payment", version: version)) { tables.addPayment($0) }
                try step(try select(db, "writeOff", version: version)) { tables.addWriteOff($0) }
                if taxLineProblems == nil {
                    try step(try select(db, "taxLine", version: version)) { tables.addTaxLine($0) }
                }
            }
        }
        return try tables.books()
    }
}
