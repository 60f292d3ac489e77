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

/// What the second connection read: the invoices above a row id when the loader asked for them, and each detail
/// table's rows, or nil when it could not prove it read the loader's snapshot (a writer committed between the two
/// starts) or could not read at all; the loader then reads them itself.
///
/// The loader and the reading thread take turns: the thread proves the snapshot (`proved`), the loader hands it the
/// tables its clients are in and the row id to read the invoices above, or nothing (``start(_:)``), the thread
/// reads those invoices (`invoicesDone`), then the detail tables (`done`). With the invoices split, the loader hands
/// it every invoice once joined (``handOver(_:)``), and the thread checks the payments and write-offs against them
/// itself (``checked``) instead of copying their rows for the loader to check.
final class DetailRead: @unchecked Sendable {
    // @unchecked Sendable: each field is written by one side before it signals the semaphore the other side waits
    // for, and read only after that wait.
    var tables: [String: BufferedRows]?
    let done = DispatchSemaphore(value: 0)
    /// Whether the second connection proved it sees the loader's snapshot (set before `proved` is signalled).
    var sameSnapshot = false
    let proved = DispatchSemaphore(value: 0)
    /// The invoice rows to read on the second connection: the row id they are above, and the tables to check them
    /// against (the loader's after its clients, ``BooksTables/forMoreInvoices()``).
    var invoiceRequest: (above: Int64, tables: BooksTables)?
    private var started = false
    private let go = DispatchSemaphore(value: 0)
    /// What the second connection checked of ``invoiceRequest``: the tables (their problems and currencies) and the
    /// invoices in parts, in row order; nil when it could not read them (set before `invoicesDone` is signalled).
    var invoices: (tables: BooksTables, parts: [BooksTables.InvoicePart])?
    let invoicesDone = DispatchSemaphore(value: 0)
    /// The detail tables the second connection read, in order (set before `done` is signalled): without the tax
    /// lines when it read invoices too, which the loader then checks itself meanwhile.
    var tablesRead: [String] = []
    /// The payments and write-offs the second connection checked against the tables handed over, their problems
    /// apart (set before `done` is signalled; nil when it copied them into ``tables`` or read nothing).
    var checked: BooksTables?
    /// Whether the second connection checked the payments and write-offs itself (set before `done` is signalled).
    var checkedThere = false
    /// How often the thread looks for the hand-over while it copies payment rows (``StoreLoader/paymentRowsBeforeHandOver``).
    static let handOverLookRows = 1024
    private var handed: BooksTables?
    private var handedOver = false
    private let handedSignal = DispatchSemaphore(value: 0)

    /// Lets the thread go on once it proved the snapshot, with `request` (nil: only the detail tables). Only the
    /// first call counts; the loader calls it on every path, so a proved thread never waits for ever.
    func start(_ request: (above: Int64, tables: BooksTables)?) {
        guard !started else { return }
        started = true
        invoiceRequest = request
        go.signal()
    }

    /// Called by the thread after `proved`: waits for ``start(_:)``.
    fileprivate func waitForStart() { go.wait() }

    /// Gives the thread the loader's tables with every invoice joined and resolved (``BooksTables/forDetails()``)
    /// to check the payments and write-offs against, or nil (it then copies them for the loader). Only the first
    /// call counts; the loader calls it on every path, so the thread never waits for ever.
    func handOver(_ tables: BooksTables?) {
        guard !handedOver else { return }
        handedOver = true
        handed = tables
        handedSignal.signal()
    }

    /// Called by the thread: nil while the loader has not handed its tables over (waiting for them with `wait`),
    /// else what it handed (the tables, or nil), taken once.
    fileprivate func takeHandOver(wait: Bool) -> BooksTables?? {
        if wait { handedSignal.wait() } else if handedSignal.wait(timeout: .now()) != .success { return nil }
        defer { handed = nil }
        return .some(handed)
    }

    /// Called by the loader once the thread is done: lets go of tables it never took (they share the invoices,
    /// which the books then change).
    func dropHandOver() { handed = nil }
}

extension StoreLoader {
    /// The tables read on the second connection.
    static let detailTables = ["payment", "writeOff", "taxLine"]

    /// Starts reading the detail tables of a version 2 or 3 store on a second read-only connection, on a thread of
    /// its own. Call it inside the loader's read transaction, after its first read (which started its snapshot),
    /// with the ``StoreFile/commitState()`` taken before that transaction began; then ``loadBooks(_:version:details:)``
    /// with it, which tells the thread what to read once it proved the snapshot.
    func startDetailRead(version: Int, stateBefore: [UInt8]?) -> DetailRead {
        let read = DetailRead()
        guard let stateBefore else {
            read.proved.signal()
            read.invoicesDone.signal()
            read.done.signal()
            return read
        }
        let thread = Thread { [self] in
            defer { read.done.signal() }
            readSecond(read, version: version, stateBefore: stateBefore)
        }
        thread.stackSize = 1 << 20
        thread.start()
        return read
    }

    private func readSecond(_ read: DetailRead, version: Int, stateBefore: [UInt8]) {
        var proved = false
        var invoicesTold = false
        defer {
            if !proved { read.proved.signal() }
            if !invoicesTold { read.invoicesDone.signal() }
        }
        guard let queue = try? file.openReadOnly(label: "store-details") else { return }
        defer { try? queue.close() }
        try? queue.read { db in
            // Starts this connection's snapshot; then the proof that no commit came between the two starts.
            _ = try Int.fetchOne(db, sql: "PRAGMA user_version")
            guard file.commitState() == stateBefore else { return }
            read.sameSnapshot = true
            proved = true
            read.proved.signal()
            read.waitForStart()
            if let request = read.invoiceRequest {
                read.invoices = try? readInvoices(db, above: request.above, into: request.tables, version: version)
            }
            invoicesTold = true
            read.invoicesDone.signal()
            // With the invoices split, the loader checks the tax lines itself meanwhile (after the join), and this
            // connection checks the payments and write-offs against the invoices it hands over.
            if read.invoiceRequest != nil {
                try checkPaymentsAndWriteOffs(db, read, version: version)
                return
            }
            var tables: [String: BufferedRows] = [:]
            for table in Self.detailTables {
                read.tablesRead.append(table)
                let statement = try select(db, table, version: version)
                var rows = BufferedRows(columnCount: Int(sqlite3_column_count(statement.sqliteStatement)))
                try step(statement) { rows.append($0) }
                tables[table] = rows
            }
            read.tables = tables
        }
    }

    /// With the invoices split: the payments, then the write-offs, checked on this connection against the loader's
    /// tables with every invoice (``DetailRead/handOver(_:)``, right after the join), so the loader does not replay
    /// them (docs/performance.md, "The payments checked on the second connection"). The payment rows stepped before
    /// the hand-over are copied meanwhile (``BufferedRows``) and checked first once it comes: the rows in the order
    /// one scan checks them. When the loader hands nothing over, both tables are copied for it, as unsplit.
    private func checkPaymentsAndWriteOffs(_ db: Database, _ read: DetailRead, version: Int) throws {
        let payments = try select(db, "payment", version: version)
        var pending = BufferedRows(columnCount: Int(sqlite3_column_count(payments.sqliteStatement)))
        var tables: BooksTables?
        var handed = false
        func receive(_ received: BooksTables?) {
            handed = true
            guard var received else { return }
            pending.forEach { received.addPayment($0) }
            pending = BufferedRows(columnCount: pending.columnCount)
            tables = received
        }
        let before = paymentRowsBeforeHandOver
        var rows = 0
        read.tablesRead.append("payment")
        try step(payments) { row in
            if !handed {
                if let before {
                    if rows == before, let received = read.takeHandOver(wait: true) { receive(received) }
                } else if rows % DetailRead.handOverLookRows == 0, let received = read.takeHandOver(wait: false) {
                    receive(received)
                }
                rows += 1
            }
            if tables != nil { tables!.addPayment(row) } else { pending.append(row) }
        }
        if !handed, let received = read.takeHandOver(wait: true) { receive(received) }
        read.tablesRead.append("writeOff")
        let writeOffs = try select(db, "writeOff", version: version)
        if tables != nil {
            try step(writeOffs) { tables!.addWriteOff($0) }
            read.checkedThere = true
            read.checked = tables
        } else {
            var copied = BufferedRows(columnCount: Int(sqlite3_column_count(writeOffs.sqliteStatement)))
            try step(writeOffs) { copied.append($0) }
            read.tables = ["payment": pending, "writeOff": copied]
        }
    }

    /// The invoice rows above row id `above`, checked into `tables` and taken out in parts of ``invoicePartRows``.
    private func readInvoices(
        _ db: Database, above: Int64, into tables: BooksTables, version: Int
    ) throws -> (tables: BooksTables, parts: [BooksTables.InvoicePart]) {
        var tables = tables
        var parts: [BooksTables.InvoicePart] = []
        tables.reserveInvoices(invoicePartRows)
        let statement = try select(db, "invoice", version: version, where: "id > \(above)")
        try step(statement) { row in
            tables.addInvoice(row)
            if tables.invoiceCount == invoicePartRows { parts.append(tables.takeInvoices(reserving: invoicePartRows)) }
        }
        parts.append(tables.takeInvoices(reserving: 0))
        return (tables, parts)
    }

    /// The row id to read the invoices above on the second connection, or nil when the table is not split: fewer
    /// than `minimum` rows, identifiers the loader must check against each other (no UNIQUE index), or an `id`
    /// that is not the table's row id (`INTEGER PRIMARY KEY` of a rowid table: never NULL, unique, and what
    /// `ORDER BY id` walks), so the two parts are exactly the rows one scan reads, in its order.
    func invoiceSplit(_ db: Database, count: Int, minimum: Int, checkIdentifiers: Bool) throws -> Int64? {
        guard count >= max(minimum, 2), !checkIdentifiers else { return nil }
        let keys = try Row.fetchAll(db, sql: "SELECT name, type FROM pragma_table_info('invoice') WHERE pk > 0")
        guard keys.count == 1, (keys[0]["name"] as String?) == "id", (keys[0]["type"] as String?)?.uppercased() == "INTEGER" else { return nil }
        let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'invoice'") ?? ""
        guard !sql.uppercased().contains("WITHOUT ROWID") else { return nil }
        guard let range = try Row.fetchOne(db, sql: "SELECT min(id), max(id) FROM invoice"),
            let low = range[0] as Int64?, let high = range[1] as Int64?, low < high
        else { return nil }
        // The middle of the ids (which a sample store and most apps write densely), without overflow.
        return low + Int64(UInt64(bitPattern: high &- low) / 2)
    }

    /// The statement that reads `table`'s columns as ``BooksTables`` takes them, in `orderBy` order.
    func select(_ db: Database, _ table: String, version: Int, where condition: String? = nil, orderBy: String = "id") throws -> Statement {
        let columns = BooksTables.columns(of: table, version: version).map { $0 ?? "NULL" }.joined(separator: ", ")
        let filter = condition.map { " WHERE \($0)" } ?? ""
        return try db.makeStatement(sql: "SELECT \(columns) FROM \(table)\(filter) ORDER BY \(orderBy)")
    }
}
