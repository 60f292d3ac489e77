import Foundation
internal import CLibPQ
internal import InvoicesStore

/// One connection to a store's server through libpq, the PostgreSQL project's own client library, and what its
/// errors mean for the user: one line each, with the ``InvoicesStore/StoreIssue/Kind`` that decides the exit code.
///
/// libpq reads the address as every PostgreSQL tool does: a URL or a `key=value` connection string, completed from
/// the `PG*` environment variables, the service file and the password file (`~/.pgpass`), with `sslmode`,
/// `sslrootcert`, `verify-full` and the rest meaning what they mean to `psql`. No message ever holds the password:
/// libpq is given the address's options one keyword at a time (`PQconnectdbParams`), the password never inside a
/// connection string; every text read from libpq (its messages, the server's, the host and user it resolved) passes
/// ``PostgresAddress/scrubbed(_:also:)``; and the address is always shown through ``PostgresAddress/description``.
///
/// libpq is synchronous: a connection blocks its caller while it waits for the server. It is used by one thread at
/// a time (a build's loader thread, a context's queue, `serve`'s poller), never from Swift concurrency's pool.
final class PostgresConnection {
    private let handle: OpaquePointer
    let address: PostgresAddress

    /// A failed statement: PostgreSQL's SQLSTATE (empty when the connection failed) and its first line.
    struct Failure: Error {
        var sqlState: String
        var message: String
    }

    /// Connects and logs in.
    /// - Throws: ``InvoicesStore/StoreIssues``: unreachable or TLS refused (69), login refused (77), no such database (66).
    init(_ address: PostgresAddress) throws(StoreIssues) {
        // The encoding the rows come in, whatever PGCLIENTENCODING says: the books are read as UTF-8.
        let options = address.options.sorted { $0.key < $1.key }
        let handle = Self.withParameters(options.map { Optional($0.key) }) { keywords in
            Self.withParameters(options.map { Optional($0.value) }) { values in
                PQconnectdbParams(keywords + [nil], values + [nil], 0)
            }
        }
        guard let handle else {
            throw StoreIssues([StoreIssue(kind: .unreachable, path: address.description, message: "libpq could not allocate a connection")])
        }
        self.handle = handle
        self.address = address
        // (A failed init still runs deinit, which finishes the connection.)
        guard PQstatus(handle) == CONNECTION_OK else { throw StoreIssues([connectionIssue()]) }
        // The server's notices and warnings ("terminating connection due to …") are not printed: the one-line issue
        // a failure becomes says what happened.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        guard PQsetClientEncoding(handle, "UTF8") == 0 else {
            throw StoreIssues([
                StoreIssue(kind: .unreachable, path: address.description, message: "the server cannot send UTF-8 text (\(errorText()))")
            ])
        }
    }

    deinit { PQfinish(handle) }

    /// `host:port` as libpq resolved them (the URL's, else `PGHOST` and `PGPORT`, else its defaults).
    var server: String {
        let host = text(PQhost(handle)), port = text(PQport(handle))
        return "the server at \(host.isEmpty ? "localhost" : host):\(port.isEmpty ? "5432" : port)"
    }

    var user: String { text(PQuser(handle)) }
    var database: String { text(PQdb(handle)) }

    /// A text from libpq (its message, the server's, a value it resolved) as it may be shown: without the address's
    /// password, nor the one libpq found elsewhere (`PGPASSWORD`, `~/.pgpass`).
    private func text(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        let password = PQpass(handle).map { String(cString: $0) }
        return address.scrubbed(String(cString: pointer), also: password.map { [$0] } ?? [])
    }

    /// The first line of libpq's last message, without its `FATAL:` or `ERROR:` label.
    private func errorText() -> String { Self.firstLine(text(PQerrorMessage(handle))) }

    static func firstLine(_ text: String) -> String {
        var line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        for label in ["FATAL:", "ERROR:"] {
            if let range = line.range(of: label) { line = String(line[range.upperBound...]) }
        }
        return line.trimmingCharacters(in: .whitespaces)
    }

    /// What a failed connection attempt means. libpq reports a failed login without its SQLSTATE, so the kind is
    /// read from what libpq knows (it asked for a password and had none) and from its English message.
    private func connectionIssue() -> StoreIssue {
        let path = address.description
        let full = text(PQerrorMessage(handle))
        // "connection to server at "127.0.0.1", port 5432 failed: FATAL:  …": the part after "failed:".
        let text = Self.firstLine(full.range(of: "failed:").map { String(full[$0.upperBound...]) } ?? full)
        if PQconnectionNeedsPassword(handle) != 0 {
            return StoreIssue(
                kind: .accessDenied, path: path,
                message: "\(server) asks '\(user)' for a password and none was given; set PGPASSWORD or add it to ~/.pgpass")
        }
        if full.contains("authentication failed") || full.contains("no pg_hba.conf entry") || full.contains("28P01") {
            return StoreIssue(
                kind: .accessDenied, path: path,
                message: "\(server) refused the login of '\(user)' (\(text)); check the user and its password "
                    + "(PGPASSWORD or ~/.pgpass, never on the command line)")
        }
        if full.contains("database \"\(database)\" does not exist") {
            return StoreIssue(kind: .missing, path: path, message: "no database '\(database)' on \(server) (\(text))")
        }
        if full.contains("does not support SSL") {
            let mode = address.option("sslmode") ?? ProcessInfo.processInfo.environment["PGSSLMODE"] ?? "require"
            return StoreIssue(
                kind: .unreachable, path: path,
                message: "\(server) does not offer TLS, and sslmode=\(mode) requires it; enable ssl on the server, or use sslmode=prefer or disable on a trusted network")
        }
        if full.contains("certificate") || full.contains("SSL") {
            return StoreIssue(kind: .unreachable, path: path, message: "TLS with \(server) failed (\(text))")
        }
        return StoreIssue(
            kind: .unreachable, path: path, message: "cannot reach \(server) (\(text)); check the host and port, and that the server runs")
    }

    /// The issue a failed statement means for the store.
    func issue(for error: any Error) -> StoreIssue {
        let path = address.description
        guard let failure = error as? Failure else {
            if let issues = error as? StoreIssues, let first = issues.issues.first { return first }
            return StoreIssue(kind: .unreadable, path: path, message: "\(error)")
        }
        let text = failure.message
        switch failure.sqlState {
        case "28P01", "28000", "42501":
            return StoreIssue(
                kind: .accessDenied, path: path,
                message: "role '\(user)' may not read the store (\(text)); grant it SELECT on the store's tables (docs/store.md)")
        case "3D000":
            return StoreIssue(kind: .missing, path: path, message: "no database '\(database)' on \(server) (\(text))")
        case "42P01":
            return StoreIssue(
                kind: .missing, path: path,
                message: "the database has no Invoices store (\(text)); create the tables with "
                    + "'invoices schema --postgres | psql -1', or check the search_path")
        case "42703", "42804":
            return StoreIssue(kind: .wrongSchema, path: path, message: "the store's tables are not those of schema version \(Schema.version) (\(text))")
        case let state where state.isEmpty || state.hasPrefix("08") || state.hasPrefix("57P") || state == "53300":
            return StoreIssue(
                kind: .unreachable, path: path,
                message: "\(server) closed the connection while the store was read (\(text)); nothing was built, the previous site is kept")
        default:
            return StoreIssue(kind: .unreadable, path: path, message: "the server reported: \(text) (SQLSTATE \(failure.sqlState))")
        }
    }

    /// Whether `error` is PostgreSQL's "could not serialize access" or a deadlock: the transaction may succeed when
    /// run again.
    static func isSerializationFailure(_ error: any Error) -> Bool {
        guard let failure = error as? Failure else { return false }
        return failure.sqlState == "40001" || failure.sqlState == "40P01"
    }

    // MARK: - Statements

    /// The rows of one statement, as text (libpq's text format: what `psql` shows).
    struct Rows {
        var columns: Int
        var values: [[String?]]
    }

    /// Runs `sql` with `parameters` (sent as text, `$1`, `$2`, ...; nil is NULL) and returns its rows.
    @discardableResult
    func execute(_ sql: String, _ parameters: [String?] = []) throws(Failure) -> Rows {
        let result = Self.withParameters(parameters) { values in
            PQexecParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        }
        defer { PQclear(result) }
        try check(result)
        let rows = Int(PQntuples(result)), columns = Int(PQnfields(result))
        var values: [[String?]] = []
        values.reserveCapacity(rows)
        for row in 0..<rows {
            values.append((0..<columns).map { column in
                PQgetisnull(result, Int32(row), Int32(column)) != 0 ? nil : String(cString: PQgetvalue(result, Int32(row), Int32(column)))
            })
        }
        return Rows(columns: columns, values: values)
    }

    /// The type of each column `sql` returns (PostgreSQL's type OIDs), without running it for rows.
    func columnTypes(of sql: String) throws(Failure) -> [UInt32] {
        let result = PQexec(handle, "SELECT * FROM (\(sql)) AS described LIMIT 0")
        defer { PQclear(result) }
        try check(result)
        return (0..<PQnfields(result)).map { PQftype(result, $0) }
    }

    /// Runs `COPY (sql) TO STDOUT (FORMAT binary)` and hands each row's bytes to `row`, header and trailer removed.
    func copyOut(_ sql: String, row: (UnsafeRawBufferPointer) throws -> Void) throws {
        let start = PQexec(handle, "COPY (\(sql)) TO STDOUT (FORMAT binary)")
        let status = PQresultStatus(start)
        if status != PGRES_COPY_OUT {
            defer { PQclear(start) }
            try check(start)
            throw Failure(sqlState: "", message: "the server did not start the copy")
        }
        PQclear(start)
        var headerRead = false
        var failure: (any Error)?
        while true {
            var buffer: UnsafeMutablePointer<CChar>?
            let count = PQgetCopyData(handle, &buffer, 0)
            if count == -1 { break }
            if count == -2 { throw Failure(sqlState: "08000", message: errorText()) }
            defer { PQfreemem(buffer) }
            guard failure == nil, let buffer else { continue }
            var bytes = UnsafeRawBufferPointer(start: buffer, count: Int(count))
            if !headerRead {
                // PGCOPY\n\377\r\n\0, flags, header extension length and extension.
                guard bytes.count >= 19, bytes.prefix(11).elementsEqual([0x50, 0x47, 0x43, 0x4F, 0x50, 0x59, 0x0A, 0xFF, 0x0D, 0x0A, 0x00])
                else { throw Failure(sqlState: "", message: "the server's copy did not start with the binary header") }
                let extensionLength = Int(Self.int32(bytes, at: 15))
                bytes = UnsafeRawBufferPointer(rebasing: bytes[(19 + extensionLength)...])
                headerRead = true
            }
            // The trailer is a field count of -1.
            guard bytes.count >= 2, Self.int16(bytes, at: 0) != -1 else { continue }
            do { try row(bytes) } catch { failure = error }
        }
        // The copy's own result: an error that stopped it midway (a lost connection, a cancelled statement).
        while let result = PQgetResult(handle) {
            defer { PQclear(result) }
            try check(result)
        }
        if let failure { throw failure }
    }

    /// Sends `data` (COPY's text format) to a `COPY … FROM STDIN` that `sql` starts.
    func copyIn(_ sql: String, _ data: String) throws(Failure) {
        let start = PQexec(handle, sql)
        let status = PQresultStatus(start)
        if status != PGRES_COPY_IN {
            defer { PQclear(start) }
            try check(start)
            throw Failure(sqlState: "", message: "the server did not start the copy")
        }
        PQclear(start)
        var data = data
        let sent = data.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { PQputCopyData(handle, $0.baseAddress, Int32($0.count)) }
        }
        guard sent == 1, PQputCopyEnd(handle, nil) == 1 else { throw Failure(sqlState: "08000", message: errorText()) }
        while let result = PQgetResult(handle) {
            defer { PQclear(result) }
            try check(result)
        }
    }

    private func check(_ result: OpaquePointer?) throws(Failure) {
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_COPY_OUT, PGRES_COPY_IN: return
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            let primary = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { text($0) }
            throw Failure(sqlState: state, message: Self.firstLine(primary ?? errorText()))
        }
    }

    private static func withParameters<R>(_ parameters: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        // Each value is copied into C memory for the call, and freed after it.
        let values: [UnsafeMutablePointer<CChar>?] = parameters.map { $0.map { strdup($0) } }
        defer { values.forEach { free($0) } }
        return body(values.map { $0.map { UnsafePointer($0) } })
    }

    // MARK: - Binary values

    static func int16(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int16 {
        Int16(bitPattern: UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1]))
    }

    static func int32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int32 {
        var value: UInt32 = 0
        for index in 0..<4 { value = value << 8 | UInt32(bytes[offset + index]) }
        return Int32(bitPattern: value)
    }

    static func int64(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int64 {
        var value: UInt64 = 0
        for index in 0..<8 { value = value << 8 | UInt64(bytes[offset + index]) }
        return Int64(bitPattern: value)
    }
}

/// Runs blocking libpq work on a thread of its own and resumes the caller when it is done: an async caller never
/// holds one of Swift concurrency's few threads while the server thinks.
func onOwnThread<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
    let result: Result<T, E> = await withCheckedContinuation { continuation in
        let thread = Thread {
            do throws(E) { continuation.resume(returning: .success(try work())) } catch { continuation.resume(returning: .failure(error)) }
        }
        thread.stackSize = 1 << 22
        thread.start()
    }
    return try result.get()
}
