import Foundation
public import InvoicesCore
public import InvoicesStore

/// Reads a PostgreSQL store into the same typed tables as a SQLite store, in one `REPEATABLE READ, READ ONLY`
/// transaction: every figure of the report is from one point in time while other clients write, and the build
/// writes nothing. Each table comes as one `COPY … TO STDOUT (FORMAT binary)`: rows in PostgreSQL's binary form,
/// straight into ``InvoicesStore/BooksTables`` (no object per row), which checks them with the model's rules as for
/// a SQLite store.
///
/// ```swift
/// let store = try await PostgresBooks.store(try PostgresAddress("postgres://report@db/books"))
/// ```
public enum PostgresBooks {
    /// Opens the store at `address`: its fetch, then a read-only ``InvoicesStore/BooksStore`` over the tables.
    /// - Throws: ``InvoicesStore/StoreIssues``: unreachable or gone mid-read (69), login or rights refused (77), no
    ///   database or no store tables (66), another schema version or invalid rows (65).
    public static func store(_ address: PostgresAddress, issueLimit: Int = 100) async throws(StoreIssues) -> BooksStore {
        BooksStore(books: try await fetch(address, issueLimit: issueLimit), format: .postgres)
    }

    /// Reads every table at `address` (clients, invoices, payments, write-offs, tax lines) in one transaction, on a
    /// thread of its own (libpq waits for the server).
    public static func fetch(_ address: PostgresAddress, issueLimit: Int = 100) async throws(StoreIssues) -> Books {
        try await onOwnThread { () throws(StoreIssues) in
            let connection = try PostgresConnection(address)
            do {
                try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                let books = try read(connection, issueLimit: issueLimit)
                try connection.execute("COMMIT")
                return books
            } catch let issues as StoreIssues {
                throw issues
            } catch {
                throw StoreIssues([connection.issue(for: error)])
            }
        }
    }

    /// Reads and checks every table in the connection's open transaction: the version row, then the clients
    /// (`ORDER BY number COLLATE "C", id`: SQLite's byte order, so both stores list clients the same way), then the
    /// invoices, payments, write-offs and tax lines (`ORDER BY id`).
    static func read(_ connection: PostgresConnection, issueLimit: Int) throws -> Books {
        let version = try checkVersion(connection)
        var tables = BooksTables(
            path: connection.address.description, version: version, storeName: Schema.snakeCase, issueLimit: issueLimit)
        tables.checkClientNumbers = try !hasUniqueIndex(connection, table: "client", column: "number")
        tables.checkInvoiceIdentifiers = try !hasUniqueIndex(connection, table: "invoice", column: "identifier")
        func copy(_ table: String, orderBy: String = "id", _ add: (BinaryColumns) -> Void) throws {
            let select = "SELECT \(PostgresSchema.selection(table, version: version)) FROM \(Schema.snakeCase(table)) ORDER BY \(orderBy)"
            // The columns' types, so that each cell's bytes are read as what they are (a text amount is reported, not
            // read as a number).
            var columns = BinaryColumns(types: try connection.columnTypes(of: select))
            try connection.copyOut(select) { bytes in
                try columns.load(bytes)
                add(columns)
            }
        }
        try copy("client", orderBy: "number COLLATE \"C\", id") { tables.addClient($0) }
        if let count = try connection.execute("SELECT count(*) FROM invoice").values.first?.first.flatMap({ $0 }).flatMap(Int.init) {
            tables.reserveInvoices(count)
        }
        try copy("invoice") { tables.addInvoice($0) }
        try copy("payment") { tables.addPayment($0) }
        try copy("writeOff") { tables.addWriteOff($0) }
        try copy("taxLine") { tables.addTaxLine($0) }
        return try tables.books()
    }

    /// The store's schema version: one of ``PostgresSchema/readableVersions`` (a v2 store reads with every client
    /// in the report's language; `PostgresSchema.migrationFromV2` makes it a v3 store).
    @discardableResult
    static func checkVersion(_ connection: PostgresConnection) throws -> Int {
        let versions = try connection.execute("SELECT version FROM \(PostgresSchema.versionTable)").values.compactMap { $0.first ?? nil }
        guard versions.count == 1, let version = Int(versions[0]), PostgresSchema.readableVersions.contains(version) else {
            let found = versions.isEmpty ? "no version row" : "version \(versions.joined(separator: ", "))"
            let all = PostgresSchema.readableVersions.map(String.init)
            let readable = all.dropLast().joined(separator: ", ") + " or " + (all.last ?? "")
            throw StoreIssues([
                StoreIssue(
                    kind: .wrongSchema, path: connection.address.description,
                    message: "schema \(found) in \(PostgresSchema.versionTable), expected \(readable); "
                        + "this build of invoices reads version \(readable) stores")
            ])
        }
        return version
    }

    /// Whether `table` has a UNIQUE index on exactly `column`.
    static func hasUniqueIndex(_ connection: PostgresConnection, table: String, column: String) throws -> Bool {
        let rows = try connection.execute(
            """
            SELECT count(*) FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
            WHERE i.indrelid = to_regclass($1) AND i.indisunique AND i.indnatts = 1 AND a.attname = $2
            """, [table, column])
        return (rows.values.first?.first ?? nil).flatMap(Int.init).map { $0 > 0 } ?? false
    }
}

/// One row of a binary `COPY`: each column's bytes (offset and length in the row, -1 for NULL) and its type.
struct BinaryColumns: StoreRowColumns {
    /// PostgreSQL's type OIDs of the columns read here.
    enum OID {
        static let int8: UInt32 = 20, int2: UInt32 = 21, int4: UInt32 = 23, text: UInt32 = 25, name: UInt32 = 19
        static let bpchar: UInt32 = 1042, varchar: UInt32 = 1043, date: UInt32 = 1082
    }

    let types: [UInt32]
    private var row = UnsafeRawBufferPointer(start: nil, count: 0)
    private var offsets: [Int]
    private var lengths: [Int]

    init(types: [UInt32]) {
        self.types = types
        offsets = Array(repeating: 0, count: types.count)
        lengths = Array(repeating: -1, count: types.count)
    }

    struct Malformed: Error, CustomStringConvertible {
        var description: String { "the server sent a row this build cannot read (binary COPY)" }
    }

    /// Points at the fields of `bytes` (a field count, then each field's length and bytes), valid until the next load.
    mutating func load(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count >= 2, Int(PostgresConnection.int16(bytes, at: 0)) == types.count else { throw Malformed() }
        var offset = 2
        for column in types.indices {
            guard offset + 4 <= bytes.count else { throw Malformed() }
            let length = Int(PostgresConnection.int32(bytes, at: offset))
            offset += 4
            offsets[column] = offset
            lengths[column] = length
            if length > 0 { offset += length }
            guard offset <= bytes.count else { throw Malformed() }
        }
        row = bytes
    }

    /// Days from 1970-01-01 (``InvoicesCore/CalendarDate/dayNumber``) to PostgreSQL's epoch, 2000-01-01.
    static let epochOffset: Int32 = 10957

    private func bytes(_ column: Int32) -> UnsafeRawBufferPointer? {
        let length = lengths[Int(column)]
        guard length >= 0 else { return nil }
        return UnsafeRawBufferPointer(rebasing: row[offsets[Int(column)]..<(offsets[Int(column)] + length)])
    }

    func isNull(_ column: Int32) -> Bool { lengths[Int(column)] < 0 }

    func isInteger(_ column: Int32) -> Bool {
        let type = types[Int(column)]
        return type == OID.int8 || type == OID.int4 || type == OID.int2
    }

    func int64(_ column: Int32) -> Int64 {
        guard let bytes = bytes(column) else { return 0 }
        switch bytes.count {
        case 8: return PostgresConnection.int64(bytes, at: 0)
        case 4: return Int64(PostgresConnection.int32(bytes, at: 0))
        case 2: return Int64(PostgresConnection.int16(bytes, at: 0))
        default: return 0
        }
    }

    func text(_ column: Int32) -> String? {
        guard let bytes = bytes(column) else { return "" }
        switch types[Int(column)] {
        case OID.text, OID.varchar, OID.bpchar, OID.name:
            return String(validating: bytes, as: UTF8.self)
        case OID.date:
            return date(column)?.description ?? "(out of range)"
        default:
            return nil
        }
    }

    func withBytes<R>(_ column: Int32, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        body(bytes(column) ?? UnsafeRawBufferPointer(start: nil, count: 0))
    }

    func date(_ column: Int32) -> CalendarDate? {
        guard types[Int(column)] == OID.date, let bytes = bytes(column), bytes.count == 4 else { return nil }
        let days = PostgresConnection.int32(bytes, at: 0)
        // Years 1 to 9999 (and not 'infinity'): what a YYYY-MM-DD date can say.
        guard (-730119...2921939).contains(days) else { return nil }
        return CalendarDate(dayNumber: days + Self.epochOffset)
    }
}
