import Foundation
import InvoicesStore
import InvoicesTesting
import Testing

/// `invoices import --store postgres://…` against a real server: one SERIALIZABLE transaction, all or nothing,
/// concurrent imports retried until both land.
@Suite(.serialized)
struct PostgresImportTests {
    /// Native CSV files: `clients` clients numbered `prefix-N`, each with `perClient` invoices.
    static func files(in folder: TemporaryFolder, prefix: String, clients: Int, perClient: Int) throws -> [String] {
        var clientRows = ["number,name,email,street,city,zip,country"]
        var invoiceRows = ["identifier,clientNumber,amount,currency,issuedOn,dueOn,paidOn,notes"]
        for client in 1...clients {
            clientRows.append("\(prefix)-\(client),Client \(prefix) \(client),,,,,")
            for invoice in 1...perClient {
                let paid = invoice % 2 == 0 ? "2025-03-10" : ""
                invoiceRows.append("\(prefix)-\(client)-\(invoice),\(prefix)-\(client),\(100 * invoice).25,EUR,2025-03-01,2025-03-31,\(paid),")
            }
        }
        let clientsFile = folder.path("\(prefix)-clients.csv"), invoicesFile = folder.path("\(prefix)-invoices.csv")
        try (clientRows.joined(separator: "\n") + "\n").write(toFile: clientsFile, atomically: true, encoding: .utf8)
        try (invoiceRows.joined(separator: "\n") + "\n").write(toFile: invoicesFile, atomically: true, encoding: .utf8)
        return [clientsFile, invoicesFile]
    }

    /// Every row of every store table, as psql prints it: what "unchanged" means on the server.
    static func dump(_ server: LoopbackPostgres, _ database: String) throws -> String {
        try Schema.tables(version: Schema.version).map { table in
            try server.psql("SELECT * FROM \(Schema.snakeCase(table.name)) ORDER BY id;", database: database)
        }.joined(separator: "--\n")
    }

    static func count(_ server: LoopbackPostgres, _ database: String, _ table: String) throws -> Int {
        Int(try server.psql("SELECT count(*) FROM \(table);", database: database).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    @Test(.temporaryFolder) func twoConcurrentImportsBothLandAndAnotherRunChangesNothing() async throws {
        let folder = try TemporaryFolder.current
        let (server, database) = try PostgresStoreTests.serverWithStore()
        defer { server.stop() }
        let a = try Self.files(in: folder, prefix: "A", clients: 150, perClient: 4)
        let b = try Self.files(in: folder, prefix: "B", clients: 150, perClient: 4)
        let url = server.url(database), environment = server.environment
        let first = Task.detached { try CLI.run(["import", "--store", url] + a, environment: environment) }
        let second = Task.detached { try CLI.run(["import", "--store", url] + b, environment: environment) }
        let (resultA, resultB) = (try await first.value, try await second.value)
        for result in [resultA, resultB] {
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("clients: 150 added, 0 updated, 0 unchanged; invoices: 600 added, 0 updated, 0 unchanged"), "\(result.stdout)")
            #expect(!(result.stdout + result.stderr).contains(server.password))
        }
        #expect(try Self.count(server, database, "client") == 300)
        #expect(try Self.count(server, database, "invoice") == 1200)
        // A paid date is one payment of the whole amount, as in a SQLite store.
        #expect(try Self.count(server, database, "payment") == 600)

        let before = try Self.dump(server, database)
        let again = try CLI.run(["import", "--store", url] + a, environment: environment)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("clients: 0 added, 0 updated, 150 unchanged; invoices: 0 added, 0 updated, 600 unchanged"), "\(again.stdout)")
        #expect(try Self.dump(server, database) == before)

        // The server's books build.
        let build = try CLI.run(["build", "--store", url, "--output", folder.path("site"), "--quiet"], environment: environment)
        #expect(build.status == 0, "\(build.stderr)")
    }

    /// Runs `body` with a temporary folder and a server whose store holds ``StoreFixture/small`` (its database
    /// named), then stops the server and removes the folder.
    static func withSmallStore(_ body: (TemporaryFolder, LoopbackPostgres, String) throws -> Void) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (server, database) = try PostgresStoreTests.serverWithSmallStore(in: folder)
        defer { server.stop() }
        try body(folder, server, database)
    }

    /// Makes the server abort the first `times` attempts of an import of client `R-1`. At each attempt's first
    /// client (after the import read the tables), a trigger runs another SERIALIZABLE transaction on a second
    /// connection (dblink): it reads the invoices, which the import writes next, adds a client `X-n` to the table the
    /// import read, and commits first, so PostgreSQL aborts the import (SQLSTATE 40001). The sequence `attempts`,
    /// which rollbacks do not undo, counts the attempts.
    static func conflict(_ server: LoopbackPostgres, _ database: String, times: Int) throws {
        try server.psql(
            """
            CREATE EXTENSION dblink;
            CREATE SEQUENCE attempts;
            CREATE FUNCTION conflict() RETURNS trigger AS $$ BEGIN
              IF NEW.number = 'R-1' THEN
                IF nextval('attempts') <= \(times) THEN
                  PERFORM dblink_exec(
                    'host=127.0.0.1 port=\(server.port) dbname=\(database) user=postgres password=\(server.password)',
                    'BEGIN ISOLATION LEVEL SERIALIZABLE; SELECT count(*) FROM invoice; '
                      || format('INSERT INTO client (number, name) VALUES (%L, %L); ', 'X-' || currval('attempts'), 'Another writer')
                      || 'COMMIT;');
                END IF;
              END IF;
              RETURN NEW;
            END $$ LANGUAGE plpgsql;
            CREATE TRIGGER conflict BEFORE INSERT ON client FOR EACH ROW EXECUTE FUNCTION conflict();
            """, database: database)
    }

    static func attempts(_ server: LoopbackPostgres, _ database: String) throws -> String {
        try server.psql("SELECT last_value FROM attempts;", database: database).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func anImportAbortedByAConcurrentWriterRunsAgainAndLands() throws {
        try Self.withSmallStore { folder, server, database in
            try Self.conflict(server, database, times: 1)
            let files = try Self.files(in: folder, prefix: "R", clients: 5, perClient: 2)
            let result = try CLI.run(["import", "--store", server.url(database)] + files, environment: server.environment)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("clients: 5 added"), "\(result.stdout)")
            #expect(!(result.stdout + result.stderr).contains(server.password))
            #expect(try Self.attempts(server, database) == "2")
            #expect(try Self.count(server, database, "client") == 2 + 1 + 5)
            #expect(try Self.count(server, database, "invoice") == 4 + 10)
        }
    }

    @Test func anImportAbortedAtEveryAttemptStopsWithExit75AndWritesNothing() throws {
        try Self.withSmallStore { folder, server, database in
            try Self.conflict(server, database, times: 1000)
            let files = try Self.files(in: folder, prefix: "R", clients: 5, perClient: 2)
            let url = server.url(database)
            let result = try CLI.run(["import", "--store", url] + files, environment: server.environment)
            #expect(result.status == 75, "\(result.stdout)\(result.stderr)")
            #expect(
                result.stderr == "Error: \(url): concurrent writers aborted all 5 attempts (serialization failures), run the import again; "
                    + "nothing was written\n", "\(result.stderr)")
            #expect(!(result.stdout + result.stderr).contains(server.password))
            #expect(try Self.attempts(server, database) == "5")
            // Only the other writer's five clients landed.
            #expect(try server.psql("SELECT string_agg(number, ',' ORDER BY number) FROM client;", database: database)
                .trimmingCharacters(in: .whitespacesAndNewlines) == "C-001,C-002,X-1,X-2,X-3,X-4,X-5")
            #expect(try Self.count(server, database, "invoice") == 4)
        }
    }

    @Test func anImportThatFailsMidwayLeavesTheServerAsItWas() throws {
        try Self.withSmallStore { folder, server, database in
            // The server refuses one invoice of the batch, after its clients and earlier invoices were inserted.
            try server.psql(
                """
                CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN
                  IF NEW.identifier = 'C-7-2' THEN RAISE EXCEPTION 'refused by the test''s trigger'; END IF;
                  RETURN NEW;
                END $$ LANGUAGE plpgsql;
                CREATE TRIGGER refuse BEFORE INSERT ON invoice FOR EACH ROW EXECUTE FUNCTION refuse();
                """, database: database)
            let before = try Self.dump(server, database)
            let files = try Self.files(in: folder, prefix: "C", clients: 10, perClient: 3)
            let address = server.url(database).replacingOccurrences(of: "postgres@", with: "postgres:\(server.password)@")
            let result = try CLI.run(["import", "--store", address] + files, environment: ProcessInfo.processInfo.environment)
            #expect(result.status == 65, "\(result.stderr)")
            #expect(result.stderr.contains("refused by the test's trigger"), "\(result.stderr)")
            #expect(result.stderr.contains("nothing was written"), "\(result.stderr)")
            #expect(!(result.stdout + result.stderr).contains(server.password))
            #expect(try Self.dump(server, database) == before)
            #expect(try Self.count(server, database, "client") == 2)
        }
    }

    @Test(.temporaryFolder) func aSQLiteStoreIsCopiedWithItsIdsAndASecondCopyChangesNothing() throws {
        let folder = try TemporaryFolder.current
        let sample = folder.path("sample.sqlite")
        #expect(try CLI.run(["sample", "--clients", "30", "--invoices", "700", "--seed", "3", "--output", sample]).status == 0)
        let (server, database) = try PostgresStoreTests.serverWithStore()
        defer { server.stop() }
        let url = server.url(database)
        let first = try CLI.run(["import", "--store", url, sample], environment: server.environment)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("Copied \(sample) into \(url): client: 30 added, 0 updated, 0 unchanged; invoice: "), "\(first.stdout)")
        try PostgresStoreTests.expectSameSites(from: sample, and: url, server: server, in: folder)

        let before = try Self.dump(server, database)
        let again = try CLI.run(["import", "--store", url, sample], environment: server.environment)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("client: 0 added, 0 updated, 30 unchanged; invoice: 0 added, 0 updated, "), "\(again.stdout)")
        #expect(!again.stdout.contains("1 added") && !again.stdout.contains(" updated, 0 unchanged"), "\(again.stdout)")
        #expect(try Self.dump(server, database) == before)
        // The sequences are past the copied ids: a row added on the server gets a new id.
        try server.psql("INSERT INTO client (number, name) VALUES ('NEW-1', 'Added later');", database: database)

        // A version 1 store is copied as its migration to version 2 would read.
        let v1 = folder.path("v1.sqlite"), migrated = folder.path("migrated.sqlite")
        try StoreFixture.make(at: v1, sql: StoreFixture.small)
        try FileManager.default.copyItem(atPath: v1, toPath: migrated)
        try StoreFixture.migrateToV2(migrated)
        let other = try server.makeDatabase()
        try server.psql(try CLI.run(["schema", "--postgres"]).stdout, database: other)
        let copied = try CLI.run(["import", "--store", server.url(other), v1], environment: server.environment)
        #expect(copied.status == 0, "\(copied.stderr)")
        try PostgresStoreTests.expectSameSites(from: migrated, and: server.url(other), server: server, in: folder)

        // A store with invalid rows is not copied.
        let broken = folder.path("broken.sqlite")
        try StoreFixture.make(at: broken, sql: "INSERT INTO client (id, number, name) VALUES (1, 'C-1', 'A');\n"
            + "INSERT INTO invoice (id, identifier, clientId, amount, currency, issuedOn, dueOn) VALUES (1, 'I-1', 1, 100, 'XYZ', '2025-01-01', '2025-01-31');")
        let refused = try CLI.run(["import", "--store", server.url(other), broken], environment: server.environment)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("nothing was copied"), "\(refused.stderr)")
    }
}
