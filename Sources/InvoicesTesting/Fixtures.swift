public import Foundation
internal import GRDB
public import InvoicesStore
internal import InvoicesCore

/// A fresh temporary folder, removed by ``remove()``.
public struct TemporaryFolder: Sendable {
    public let url: URL

    public init(_ name: String = "invoices-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    public func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Builds stores for tests from SQL text a reviewer can read.
public enum StoreFixture {
    /// The v1 schema's statements (the fixtures' SQL is written for it; a v1 store reads as it always did).
    public static var schema: String { Schema.createStatements(version: 1) }

    /// Creates a store at `path` from `sql` (run as one script), after the schema of `version` (v1 by default)
    /// unless `withSchema` is false.
    public static func make(at path: String, sql: String, withSchema: Bool = true, version: Int = 1) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            if withSchema { try db.execute(sql: Schema.createStatements(version: version)) }
            try db.execute(sql: sql)
        }
        try queue.close()
    }

    /// Runs `sql` (one or more statements) against an existing store, writing to it.
    public static func execute(_ path: String, _ sql: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: sql) }
        try queue.close()
    }

    /// Runs `sql` through a connection in write-ahead-log mode and calls `body` while that connection is still open:
    /// the change is then in the store's `-wal` file, not yet in the store file, as while an app has the store open.
    public static func withChangeInWriteAheadLog(_ path: String, _ sql: String, _ body: () throws -> Void) throws {
        let pool = try DatabasePool(path: path)
        try pool.write { db in try db.execute(sql: sql) }
        try body()
        try pool.close()
    }

    /// Migrates a v1 store to v2 with ``InvoicesStore/Schema/migrationFromV1`` (its own transaction).
    public static func migrateToV2(_ path: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: Schema.migrationFromV1) }
        try queue.close()
    }

    /// Migrates a v1 or v2 store to the current version with ``InvoicesStore/Schema/migrations(from:)`` (each its own
    /// transaction), as docs/store.md tells users to.
    public static func migrate(_ path: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
            for migration in Schema.migrations(from: version) { try db.execute(sql: migration) }
        }
        try queue.close()
    }

    /// Runs `sql` against an existing store and returns the rows as dictionaries (for independent checks).
    public static func query(_ path: String, _ sql: String) throws -> [[String: String]] {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        return try queue.read { db in
            try Row.fetchAll(db, sql: sql).map { row in
                var result: [String: String] = [:]
                for column in row.columnNames { result[column] = row[column].map { "\($0)" } ?? "NULL" }
                return result
            }
        }
    }

    /// A small hand-written store: two clients, invoices in EUR, JPY and KWD.
    public static let small = """
        INSERT INTO client (id, number, name, email, street, city, zip, country) VALUES
          (1, 'C-001', 'Acme *Corp*', 'ap@acme.example', 'Main St 1', 'Springfield', '12345', 'US'),
          (2, 'C-002', 'Müller & Söhne', 'info@mueller.example', 'Hauptstraße 5', 'München', '80331', 'DE');
        INSERT INTO invoice (id, identifier, clientId, amount, currency, notes, issuedOn, dueOn, paidOn) VALUES
          (1, 'INV-1', 1, 123450, 'EUR', 'Design', '2025-01-31', '2025-02-14', '2025-02-10'),
          (2, 'INV-2', 1, 50000, 'EUR', '', '2025-02-01', '2025-03-01', NULL),
          (3, 'INV-3', 2, 1500000, 'JPY', 'Yen <b>job</b>', '2025-01-15', '2025-01-31', NULL),
          (4, 'INV-4', 2, 12345, 'KWD', '', '2025-02-20', '2025-03-20', '2025-02-25');
        """

    /// A v2 store (``make(at:sql:withSchema:version:)`` with version 2), one hand-computed case per client:
    /// a deposit, a credit note applied after the due date, a refund, an overpayment, a write-off, a void after a
    /// payment, a taxed invoice paid in part, a draft.
    public static let v2Cases = """
        INSERT INTO client (id, number, name) VALUES
          (1, 'C-1', 'Deposit'), (2, 'C-2', 'Credit note'), (3, 'C-3', 'Refund'), (4, 'C-4', 'Overpaid'),
          (5, 'C-5', 'Write-off'), (6, 'C-6', 'Void'), (7, 'C-7', 'Taxed'), (8, 'C-8', 'Draft');
        INSERT INTO invoice (id, identifier, clientId, amount, net, currency, issuedOn, dueOn, status, kind, correctsId, appliedOn) VALUES
          (1, 'INV-1', 1, 100000, NULL, 'EUR', '2025-01-20', '2025-02-19', 'sent', 'invoice', NULL, NULL),
          (2, 'INV-2', 2, 50000, NULL, 'EUR', '2025-03-01', '2025-03-15', 'sent', 'invoice', NULL, NULL),
          (3, 'CN-1', 2, 10000, NULL, 'EUR', '2025-03-10', '2025-03-10', 'sent', 'credit', 2, '2025-04-10'),
          (4, 'INV-4', 3, 20000, NULL, 'EUR', '2025-05-01', '2025-05-31', 'sent', 'invoice', NULL, NULL),
          (5, 'INV-5', 4, 30000, NULL, 'EUR', '2025-06-01', '2025-06-30', 'sent', 'invoice', NULL, NULL),
          (6, 'INV-6', 5, 10000, NULL, 'EUR', '2025-07-01', '2025-07-31', 'sent', 'invoice', NULL, NULL),
          (7, 'INV-7', 6, 25000, NULL, 'EUR', '2025-08-01', '2025-08-31', 'void', 'invoice', NULL, NULL),
          (8, 'INV-8', 7, 107700, 100000, 'CHF', '2025-09-01', '2025-09-30', 'sent', 'invoice', NULL, NULL),
          (9, 'INV-9', 8, 99900, NULL, 'EUR', '2025-09-01', '2025-09-30', 'draft', 'invoice', NULL, NULL);
        INSERT INTO payment (invoiceId, paidOn, amount, method, reference) VALUES
          (1, '2025-01-25', 40000, 'bank transfer', 'DEP-1'), (1, '2025-02-03', 60000, 'bank transfer', ''),
          (2, '2025-04-20', 40000, 'card', ''),
          (4, '2025-05-05', 20000, '', ''), (4, '2025-05-20', -5000, 'bank transfer', 'REFUND-4'),
          (5, '2025-06-10', 35000, '', ''),
          (6, '2025-07-15', 3000, '', ''),
          (7, '2025-08-05', 10000, '', ''),
          (8, '2025-09-10', 50000, '', '');
        INSERT INTO writeOff (invoiceId, writtenOffOn, amount, reason) VALUES (6, '2025-09-30', 7000, 'uncollectable');
        INSERT INTO taxLine (invoiceId, name, rate, net, amount) VALUES (8, 'MWST', '7.7', NULL, 7700);
        """
}

/// Runs the built `invoices` binary.
public enum CLI {
    /// The `invoices` executable next to the test runner.
    public static var executable: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("invoices").path), directory.path != "/" {
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent("invoices")
    }

    /// The result of a run.
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String

        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    /// Runs `invoices` with `arguments` in `directory` and waits for it.
    public static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil) throws -> Result {
        try runProcess(executable, arguments, in: directory, environment: environment)
    }

    /// Runs `command` with `/bin/sh -c` and waits for it.
    public static func shell(_ command: String) throws -> Result {
        try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", command])
    }

    /// Runs a program, reading its standard output and error concurrently so neither pipe can fill up and block it.
    static func runProcess(
        _ program: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil
    ) throws -> Result {
        let output = try ProcessRunner.run(program, arguments, in: directory, environment: environment)
        return Result(status: output.status, stdout: output.stdout, stderr: output.stderr)
    }
}

/// The seeded generator tests schedule random moments with: the sample generator's SplitMix64.
public typealias SeededRandom = SplitMix64

/// A built site's files, for comparing builds byte for byte.
public enum SiteFiles {
    /// Every regular file under `folder`, by path relative to it, with its bytes.
    public static func read(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder) {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + path))
            }
        }
        return files
    }
}
