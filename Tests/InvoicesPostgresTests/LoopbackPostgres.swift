import Foundation
import InvoicesCore
import InvoicesStore
import InvoicesTesting
import GRDB

/// A PostgreSQL server from Debian's packages on a free 127.0.0.1 port: a cluster made with initdb in a temporary
/// folder, run as the `postgres` user (the server refuses root), password logins only, stopped by ``stop()``.
final class LoopbackPostgres: Sendable {
    struct Failure: Error, CustomStringConvertible { var description: String }

    let folder: String
    let port: Int
    /// The superuser's password (user `postgres`).
    let password: String
    let bin: String

    init() throws {
        guard let version = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql"))?
            .compactMap(Int.init).max()
        else { throw Failure(description: "PostgreSQL is not installed; run 'make test-deps' (Debian's postgresql)") }
        bin = "/usr/lib/postgresql/\(version)/bin"
        folder = NSTemporaryDirectory() + "invoices-pg-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        password = "pw-" + UUID().uuidString
        try password.write(toFile: folder + "/pwfile", atomically: true, encoding: .utf8)
        port = try LoopbackPort.free()
        if getuid() == 0 { try Self.check(CLI.shell("chown -R postgres: '\(folder)'"), "chown") }
        try Self.check(
            CLI.shell(asPostgres("\(bin)/initdb -D \(folder)/data -U postgres --pwfile=\(folder)/pwfile --auth=scram-sha-256 -E UTF8 --locale=C.UTF-8")),
            "initdb")
        try Self.system(
                asPostgres(
                    "\(bin)/pg_ctl -D \(folder)/data -l \(folder)/server.log -w -o \"-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c fsync=off\" start"
                ) + " < /dev/null > \(folder)/pg_ctl.out 2>&1", "pg_ctl start (see \(folder)/pg_ctl.out)")
    }

    private func asPostgres(_ command: String) -> String {
        getuid() == 0 ? "runuser -u postgres -- sh -c '\(command.replacingOccurrences(of: "'", with: "'\\''"))'" : command
    }

    /// Runs a command that starts or stops the server with system(3): Foundation's `Process` waits on a child whose
    /// daemon outlives it far longer than the child itself runs.
    private static func system(_ command: String, _ what: String) throws {
        let status = Glibc.system(command)
        guard status == 0 else { throw Failure(description: "\(what) failed (\(status))") }
    }

    private static func check(_ result: CLI.Result, _ what: String) throws {
        guard result.status == 0 else { throw Failure(description: "\(what) failed (\(result.status)): \(result.stderr)\(result.stdout)") }
    }

    /// The address of `database` as user `user` (no password in it).
    func url(_ database: String, user: String = "postgres", sslmode: String = "disable") -> String {
        "postgres://\(user)@127.0.0.1:\(port)/\(database)?sslmode=\(sslmode)"
    }

    /// The environment `invoices` runs with to log in as the superuser: the password in PGPASSWORD only.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PGPASSWORD"] = password
        environment["TZ"] = "Pacific/Kiritimati"
        return environment
    }

    /// Runs SQL with psql as the superuser, stopping at the first error; returns the output (unaligned, tuples only).
    @discardableResult
    func psql(_ sql: String, database: String = "postgres") throws -> String {
        let output = try ProcessRunner.run(
            URL(fileURLWithPath: bin + "/psql"),
            ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", "-d", database, "-f", "-"],
            input: sql, environment: environment)
        guard output.status == 0 else { throw Failure(description: "psql failed: \(output.stderr)") }
        return output.stdout
    }

    /// A new, empty database.
    func makeDatabase(_ prefix: String = "books") throws -> String {
        let name = prefix + "_" + UUID().uuidString.prefix(8).lowercased()
        try psql("CREATE DATABASE \(name);")
        return name
    }

    // The server keeps running after pg_ctl exits: its output goes to a file, so no pipe of ours stays open in it.

    /// Stops the server at once, as a crash or a lost machine would (`pg_ctl stop -m immediate`).
    func kill() throws {
        try Self.system(asPostgres("\(bin)/pg_ctl -D \(folder)/data -m immediate -w stop") + " > /dev/null 2>&1", "pg_ctl stop")
    }

    /// Stops the server and removes its folder.
    func stop() {
        try? Self.system(asPostgres("\(bin)/pg_ctl -D \(folder)/data -m fast -w stop") + " > /dev/null 2>&1", "pg_ctl stop")
        try? FileManager.default.removeItem(atPath: folder)
    }
}

/// SQL that copies every row of a SQLite store of the current schema into the PostgreSQL tables, ids kept, the
/// identity sequences moved past them.
enum BooksSQL {
    static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }

    static func inserts(from path: String) throws -> String {
        var sql = "BEGIN;\n"
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try queue.read { db in
            for table in Schema.tables(version: Schema.version) {
                let name = Schema.snakeCase(table.name)
                // A column the file's schema lacks (a v2 file's client language) is NULL.
                let present = Set(try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('\(table.name)')"))
                let columns = table.columns.map { present.contains($0.name) ? $0.name : "NULL" }
                let rows = try Row.fetchAll(db, sql: "SELECT \(columns.joined(separator: ", ")) FROM \(table.name) ORDER BY id")
                for chunk in stride(from: 0, to: rows.count, by: 1000) {
                    let values = rows[chunk..<min(chunk + 1000, rows.count)].map { row in
                        "(" + row.databaseValues.map { value -> String in
                            switch value.storage {
                            case .null: "NULL"
                            case .int64(let number): String(number)
                            case .string(let text): quote(text)
                            case .double(let number): String(number)
                            case .blob: "NULL"
                            }
                        }.joined(separator: ", ") + ")"
                    }
                    sql += "INSERT INTO \(name) (\(table.columns.map(\.snakeName).joined(separator: ", "))) VALUES\n"
                        + values.joined(separator: ",\n") + ";\n"
                }
                sql += "SELECT setval(pg_get_serial_sequence('\(name)', 'id'), (SELECT coalesce(max(id), 0) + 1 FROM \(name)), false);\n"
            }
        }
        return sql + "COMMIT;\n"
    }
}
