import Foundation
public import InvoicesCore
public import InvoicesStore
internal import PostgresNIO

/// Reads a PostgreSQL store into the same typed tables as a SQLite store, in one `REPEATABLE READ, READ ONLY`
/// transaction: every figure of the report is from one point in time while other clients write, and the build
/// writes nothing. Rows come as binary values and go straight into ``InvoicesStore/BooksTables`` (no object per
/// row), which checks them with the model's rules as for a SQLite store.
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

    /// Reads every table at `address` (clients, invoices, payments, write-offs, tax lines) in one transaction.
    public static func fetch(_ address: PostgresAddress, issueLimit: Int = 100) async throws(StoreIssues) -> Books {
        let session = try await PostgresSession.connect(address)
        return try await session.run { connection in
            _ = try await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: PostgresSession.logger).collect()
            let books = try await read(connection, address: address, issueLimit: issueLimit)
            _ = try await connection.query("COMMIT", logger: PostgresSession.logger).collect()
            return books
        }
    }

    /// Reads and checks every table in the connection's open transaction: the version row, then the clients
    /// (`ORDER BY number COLLATE "C", id`: SQLite's byte order, so both stores list clients the same way), then the
    /// invoices, payments, write-offs and tax lines (`ORDER BY id`).
    static func read(_ connection: PostgresConnection, address: PostgresAddress, issueLimit: Int) async throws -> Books {
        let logger = PostgresSession.logger
        try await checkVersion(connection, address: address)
        var tables = BooksTables(path: address.description, version: Schema.version, storeName: Schema.snakeCase, issueLimit: issueLimit)
        tables.checkClientNumbers = try await !hasUniqueIndex(connection, table: "client", column: "number")
        tables.checkInvoiceIdentifiers = try await !hasUniqueIndex(connection, table: "invoice", column: "identifier")
        func select(_ table: String, orderBy: String = "id") async throws -> PostgresRowSequence {
            try await connection.query(
                PostgresQuery(unsafeSQL: "SELECT \(PostgresSchema.selection(table)) FROM \(Schema.snakeCase(table)) ORDER BY \(orderBy)"),
                logger: logger)
        }
        // Each row's cells are read once into one reused array (no random-access row per row).
        var cells: [PostgresCell] = []
        func columns(_ row: PostgresRow) -> BinaryColumns {
            cells.removeAll(keepingCapacity: true)
            cells.append(contentsOf: row)
            return BinaryColumns(cells)
        }
        for try await row in try await select("client", orderBy: "number COLLATE \"C\", id") { tables.addClient(columns(row)) }
        for try await count in try await connection.query("SELECT count(*) FROM invoice", logger: logger).decode(Int64.self) {
            tables.reserveInvoices(Int(count))
        }
        for try await row in try await select("invoice") { tables.addInvoice(columns(row)) }
        for try await row in try await select("payment") { tables.addPayment(columns(row)) }
        for try await row in try await select("writeOff") { tables.addWriteOff(columns(row)) }
        for try await row in try await select("taxLine") { tables.addTaxLine(columns(row)) }
        return try tables.books()
    }

    static func checkVersion(_ connection: PostgresConnection, address: PostgresAddress) async throws {
        var versions: [Int32] = []
        let rows = try await connection.query(
            PostgresQuery(unsafeSQL: "SELECT version FROM \(PostgresSchema.versionTable)"), logger: PostgresSession.logger)
        for try await version in rows.decode(Int32.self) { versions.append(version) }
        guard versions == [Int32(Schema.version)] else {
            let found = versions.isEmpty ? "no version row" : "version \(versions.map(String.init).joined(separator: ", "))"
            throw StoreIssues([
                StoreIssue(
                    kind: .wrongSchema, path: address.description,
                    message: "schema \(found) in \(PostgresSchema.versionTable), expected \(Schema.version); "
                        + "this build of invoices reads version \(Schema.version) stores")
            ])
        }
    }

    /// Whether `table` has a UNIQUE index on exactly `column`.
    static func hasUniqueIndex(_ connection: PostgresConnection, table: String, column: String) async throws -> Bool {
        let rows = try await connection.query(
            """
            SELECT count(*) FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
            WHERE i.indrelid = to_regclass(\(table)) AND i.indisunique AND i.indnatts = 1 AND a.attname = \(column)
            """, logger: PostgresSession.logger)
        var found = false
        for try await count in rows.decode(Int64.self) { found = count > 0 }
        return found
    }
}

/// A binary data row's columns: integers, text and dates read from their wire bytes.
struct BinaryColumns: StoreRowColumns {
    let row: [PostgresCell]

    init(_ cells: [PostgresCell]) { row = cells }

    /// Days from 1970-01-01 (``InvoicesCore/CalendarDate/dayNumber``) to PostgreSQL's epoch, 2000-01-01.
    static let epochOffset: Int32 = 10957

    func isNull(_ column: Int32) -> Bool { row[Int(column)].bytes == nil }

    func isInteger(_ column: Int32) -> Bool {
        let type = row[Int(column)].dataType
        return type == .int8 || type == .int4 || type == .int2
    }

    func int64(_ column: Int32) -> Int64 {
        guard let bytes = row[Int(column)].bytes else { return 0 }
        switch bytes.readableBytes {
        case 8: return bytes.getInteger(at: bytes.readerIndex, as: Int64.self) ?? 0
        case 4: return Int64(bytes.getInteger(at: bytes.readerIndex, as: Int32.self) ?? 0)
        case 2: return Int64(bytes.getInteger(at: bytes.readerIndex, as: Int16.self) ?? 0)
        default: return 0
        }
    }

    func text(_ column: Int32) -> String? {
        let cell = row[Int(column)]
        guard let bytes = cell.bytes else { return "" }
        switch cell.dataType {
        case .text, .varchar, .bpchar, .name:
            return bytes.withUnsafeReadableBytes { String(validating: $0, as: UTF8.self) }
        case .date:
            return date(column)?.description ?? "(out of range)"
        default:
            return nil
        }
    }

    func withBytes<R>(_ column: Int32, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        guard let bytes = row[Int(column)].bytes else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return bytes.withUnsafeReadableBytes(body)
    }

    func date(_ column: Int32) -> CalendarDate? {
        let cell = row[Int(column)]
        guard cell.dataType == .date, let bytes = cell.bytes, bytes.readableBytes == 4,
            let days = bytes.getInteger(at: bytes.readerIndex, as: Int32.self),
            // Years 1 to 9999 (and not 'infinity'): what a YYYY-MM-DD date can say.
            (-730119...2921939).contains(days)
        else { return nil }
        return CalendarDate(dayNumber: days + Self.epochOffset)
    }
}
