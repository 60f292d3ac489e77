import Foundation
import InvoicesCore
import InvoicesStore
import InvoicesTesting
import Testing

/// `invoices` against a real PostgreSQL server on loopback: the schema, the one-transaction read, the errors.
/// Each test starts its own server and stops it.
@Suite(.serialized)
struct PostgresStoreTests {
    /// A server with a database holding the store's tables (`invoices schema --postgres`) and, if given, the rows of
    /// a SQLite store of the current schema.
    static func serverWithStore(_ store: String? = nil) throws -> (LoopbackPostgres, String) {
        let server = try LoopbackPostgres()
        do {
            let database = try server.makeDatabase()
            let schema = try CLI.run(["schema", "--postgres"])
            #expect(schema.status == 0)
            try server.psql(schema.stdout, database: database)
            if let store { try server.psql(BooksSQL.inserts(from: store), database: database) }
            return (server, database)
        } catch {
            server.stop()
            throw error
        }
    }

    /// A server whose store holds the rows of ``StoreFixture/small`` (two clients, four invoices), migrated to the
    /// current schema in `folder`.
    static func serverWithSmallStore(in folder: TemporaryFolder) throws -> (LoopbackPostgres, String) {
        let store = folder.path("small.sqlite")
        try StoreFixture.make(at: store, sql: StoreFixture.small)
        try StoreFixture.migrateToV2(store)
        return try serverWithStore(store)
    }

    /// Every file under `folder`, by relative path, with its bytes.
    static func files(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
            files[String(url.path.dropFirst(folder.path.count))] = try Data(contentsOf: url)
        }
        return files
    }

    @Test(.temporaryFolder) func theSameRowsGiveByteIdenticalSitesAndExports() throws {
        let folder = try TemporaryFolder.current
        let sample = folder.path("sample.sqlite")
        #expect(try CLI.run(["sample", "--clients", "40", "--invoices", "1200", "--seed", "7", "--output", sample]).status == 0)
        let small = folder.path("small.sqlite")
        try StoreFixture.make(at: small, sql: StoreFixture.small)
        try StoreFixture.migrateToV2(small)
        let cases = folder.path("cases.sqlite")
        try StoreFixture.make(at: cases, sql: StoreFixture.v2Cases, version: 2)
        // The sample has payments, refunds, credit notes, voids, drafts, write-offs and taxes; so do the v2 cases.
        let sampleBooks = try BooksStore(path: sample).books
        #expect(sampleBooks.schemaVersion == 3)
        #expect(!sampleBooks.payments.isEmpty && !sampleBooks.writeOffs.isEmpty && !sampleBooks.taxLines.isEmpty)
        #expect(sampleBooks.invoices.contains { $0.kind == .creditNote } && sampleBooks.invoices.contains { $0.status == .void })
        for store in [sample, small, cases] {
            let (server, database) = try Self.serverWithStore(store)
            defer { server.stop() }
            try Self.expectSameSites(from: store, and: server.url(database), server: server, in: folder)
        }
    }

    /// Builds the SQLite store at `store` and the server's store at `url`, and expects the same files, byte for byte,
    /// and no password in any output.
    static func expectSameSites(from store: String, and url: String, server: LoopbackPostgres, in folder: TemporaryFolder) throws {
        let fromSQLite = folder.url.appendingPathComponent("sqlite-site")
        let fromPostgres = folder.url.appendingPathComponent("postgres-site")
        defer {
            try? FileManager.default.removeItem(at: fromSQLite)
            try? FileManager.default.removeItem(at: fromPostgres)
        }
        let a = try CLI.run(["build", "--store", store, "--output", fromSQLite.path, "--base-url", "https://r.example/"], environment: server.environment)
        let b = try CLI.run(["build", "--store", url, "--output", fromPostgres.path, "--base-url", "https://r.example/"], environment: server.environment)
        #expect(a.status == 0, "\(a.stderr)")
        #expect(b.status == 0, "\(b.stderr)")
        let sqliteFiles = try Self.files(fromSQLite), postgresFiles = try Self.files(fromPostgres)
        #expect(sqliteFiles.count > 10)
        #expect(sqliteFiles.keys.sorted() == postgresFiles.keys.sorted())
        for (path, bytes) in sqliteFiles { #expect(postgresFiles[path] == bytes, "\(path) differs") }
        #expect(!(a.stdout + a.stderr + b.stdout + b.stderr).contains(server.password))
    }

    @Test func aStoreOfAnotherVersionOrWithoutTablesOrDatabaseIsRefused() throws {
        let (server, database) = try Self.serverWithStore()
        defer { server.stop() }
        try server.psql("UPDATE invoices_schema SET version = 99;", database: database)
        let wrong = try CLI.run(["build", "--store", server.url(database)], environment: server.environment)
        #expect(wrong.status == 65)
        #expect(wrong.stderr.contains("schema version 99 in invoices_schema, expected 2 or \(Schema.version)"), "\(wrong.stderr)")

        let empty = try server.makeDatabase("empty")
        let noTables = try CLI.run(["build", "--store", server.url(empty)], environment: server.environment)
        #expect(noTables.status == 66)
        #expect(noTables.stderr.contains("has no Invoices store"), "\(noTables.stderr)")

        let noDatabase = try CLI.run(["build", "--store", server.url("nosuchdb")], environment: server.environment)
        #expect(noDatabase.status == 66)
        #expect(noDatabase.stderr.contains("no database 'nosuchdb'"), "\(noDatabase.stderr)")
        for result in [wrong, noTables, noDatabase] {
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
            #expect(!result.stderr.contains(server.password))
        }
    }

    @Test(.temporaryFolder) func loginAndTLSProblemsAreClearAndNeverShowThePassword() throws {
        let (server, database) = try Self.serverWithStore()
        defer { server.stop() }
        let folder = try TemporaryFolder.current
        var wrongPassword = server.environment
        wrongPassword["PGPASSWORD"] = "not-the-password-\(UUID().uuidString)"
        let refused = try CLI.run(["build", "--store", server.url(database), "--output", folder.path("out")], environment: wrongPassword)
        #expect(refused.status == 77)
        #expect(refused.stderr.contains("refused the login of 'postgres'"), "\(refused.stderr)")
        #expect(!refused.stderr.contains(wrongPassword["PGPASSWORD"]!))

        // A password in the URL is used, and never shown.
        let inURL = server.url(database).replacingOccurrences(of: "postgres@", with: "postgres:\(wrongPassword["PGPASSWORD"]!)@")
        let verbose = try CLI.run(["build", "--verbose", "--store", inURL, "--output", folder.path("out")], environment: ProcessInfo.processInfo.environment)
        #expect(verbose.status == 77)
        #expect(!(verbose.stdout + verbose.stderr).contains(wrongPassword["PGPASSWORD"]!), "\(verbose.stderr)")

        let tls = try CLI.run(["build", "--store", server.url(database, sslmode: "require"), "--output", folder.path("out")], environment: server.environment)
        #expect(tls.status == 69)
        #expect(tls.stderr.contains("does not offer TLS, and sslmode=require requires it"), "\(tls.stderr)")

        let closed = try LoopbackPort.free()
        let unreachable = try CLI.run(["build", "--store", "postgres://postgres@127.0.0.1:\(closed)/books"], environment: server.environment)
        #expect(unreachable.status == 69)
        #expect(unreachable.stderr.contains("cannot reach the server at 127.0.0.1:\(closed)"), "\(unreachable.stderr)")
        for result in [refused, tls, unreachable] {
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
            #expect(!(result.stdout + result.stderr).contains(server.password))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("out")))
    }

    /// libpq reads the address (issue 29): a connection string, a service file and a password file work as they do
    /// for psql, and a password given in a connection string is never shown.
    @Test(.temporaryFolder) func connectionStringsServiceFilesAndPasswordFilesWorkAsInPsql() throws {
        let folder = try TemporaryFolder.current
        let (server, database) = try Self.serverWithSmallStore(in: folder)
        defer { server.stop() }
        let reference = try CLI.run(["build", "--store", server.url(database), "--output", folder.path("url")], environment: server.environment)
        #expect(reference.status == 0, "\(reference.stderr)")
        // A service file names the server; a password file (mode 600) holds the password; no PGPASSWORD.
        try "[books]\nhost=127.0.0.1\nport=\(server.port)\ndbname=\(database)\nuser=postgres\nsslmode=disable\n"
            .write(toFile: folder.path("services.conf"), atomically: true, encoding: .utf8)
        try "127.0.0.1:\(server.port):*:postgres:\(server.password)\n".write(toFile: folder.path("pgpass"), atomically: true, encoding: .utf8)
        #expect(chmod(folder.path("pgpass"), 0o600) == 0)
        var environment = server.environment
        environment["PGPASSWORD"] = nil
        environment["PGSERVICEFILE"] = folder.path("services.conf")
        environment["PGPASSFILE"] = folder.path("pgpass")
        let addresses = [
            "host=127.0.0.1 port=\(server.port) dbname=\(database) user=postgres sslmode=disable",
            "service=books",
            "postgresql:///?service=books",
        ]
        for (index, address) in addresses.enumerated() {
            let output = folder.path("site\(index)")
            let result = try CLI.run(["build", "--store", address, "--output", output], environment: environment)
            #expect(result.status == 0, "\(address): \(result.stderr)")
            #expect(try Self.files(URL(fileURLWithPath: output)) == Self.files(URL(fileURLWithPath: folder.path("url"))), "\(address)")
        }
        // A wrong password in a connection string: refused (77), named without the password.
        let secret = "wrong-\(UUID().uuidString)"
        let refused = try CLI.run(
            ["build", "--verbose", "--store", "host=127.0.0.1 port=\(server.port) dbname=\(database) user=postgres password='\(secret)' sslmode=disable",
             "--output", folder.path("refused")], environment: server.environment)
        #expect(refused.status == 77, "\(refused.stderr)")
        #expect(refused.stderr.contains("dbname=\(database)"), "\(refused.stderr)")
        #expect(!(refused.stdout + refused.stderr).contains(secret))
        #expect(!(refused.stdout + refused.stderr).contains(server.password))
        // libpq's parser refuses an unknown parameter before connecting.
        let unknown = try CLI.run(["build", "--store", "host=127.0.0.1 dbname=x colour=blue"], environment: server.environment)
        #expect(unknown.status == 64, "\(unknown.stderr)")
        #expect(unknown.stderr.contains("colour"), "\(unknown.stderr)")
    }
}
