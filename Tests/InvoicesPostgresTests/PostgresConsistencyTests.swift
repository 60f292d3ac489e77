import Foundation
import InvoicesApp
import InvoicesCore
import InvoicesStore
import InvoicesTesting
import Testing

/// The one-transaction read against a server that others write to, and a server that goes away mid-read.
@Suite(.serialized)
struct PostgresConsistencyTests {
    @Test(.temporaryFolder) func buildsWhileAWriterInsertsSeeOnePointInTimeEach() async throws {
        let folder = try TemporaryFolder.current
        let (server, database) = try PostgresStoreTests.serverWithSmallStore(in: folder)
        defer { server.stop() }
        // The writer: each transaction adds a client and its three invoices, about 50 a second (slow enough that it is
        // still writing when a loaded machine gets to the last build), until the test ends the server.
        try server.psql(
            "SELECT setval(pg_get_serial_sequence('client', 'id'), 1000); SELECT setval(pg_get_serial_sequence('invoice', 'id'), 1000);",
            database: database)
        let writer = """
            DO $$ BEGIN FOR i IN 1..1000000 LOOP
              INSERT INTO client (number, name) VALUES ('W-' || i, 'Writer ' || i);
              INSERT INTO invoice (identifier, client_id, amount, currency, issued_on, due_on)
                SELECT 'W-' || i || '-' || k, currval(pg_get_serial_sequence('client', 'id')), 100, 'EUR', '2025-01-15', '2025-02-15'
                FROM generate_series(1, 3) k;
              COMMIT;
              PERFORM pg_sleep(0.02);
            END LOOP; END $$;
            """
        let started = system(
            "PGPASSWORD='\(server.password)' \(server.bin)/psql -X -q -h 127.0.0.1 -p \(server.port) -U postgres -d \(database) "
                + "-c \"\(writer.replacingOccurrences(of: "$", with: "\\$"))\" > \(server.folder)/writer.log 2>&1 &")
        #expect(started == 0)
        let address = server.url(database).replacingOccurrences(of: "postgres@", with: "postgres:\(server.password)@")
        var writerClients: Set<Int> = []
        for _ in 0..<6 {
            try await Task.sleep(for: .milliseconds(150))
            let read = try await BuildPipeline(configuration: .init(store: address)).books()
            let books = read.books
            let added = books.clients.indices.filter { books.clients[$0].number.hasPrefix("W-") }
            var invoicesPerClient: [Int32: Int] = [:]
            for invoice in books.invoices { invoicesPerClient[invoice.clientIndex, default: 0] += 1 }
            // Every client the build saw has exactly the invoices its transaction committed with it.
            for index in added { #expect(invoicesPerClient[Int32(index)] == 3, "\(books.clients[index].number)") }
            #expect(books.invoices.count == 4 + 3 * added.count)
            let eur = books.currencies.firstIndex { $0.code == "EUR" }.map(Int16.init)
            let total = books.invoices.filter { $0.currencyIndex == eur }.reduce(Int64(0)) { $0 + $1.amount }
            #expect(total == 123450 + 50000 + 300 * Int64(added.count))
            writerClients.insert(added.count)
        }
        // The writer was writing during the builds: they saw different points in time.
        #expect(writerClients.count > 1, "\(writerClients)")
    }

    @Test(.temporaryFolder) func aServerThatGoesAwayMidBuildExits69AndKeepsTheSite() async throws {
        let folder = try TemporaryFolder.current
        let (server, database) = try PostgresStoreTests.serverWithSmallStore(in: folder)
        defer { server.stop() }
        let site = folder.url.appendingPathComponent("site")
        let first = try CLI.run(["build", "--store", server.url(database), "--output", site.path], environment: server.environment)
        #expect(first.status == 0, "\(first.stderr)")
        let before = try PostgresStoreTests.files(site)

        // Another session holds a lock the build's read of the invoices waits for; the server is killed while it waits.
        // The lock is held far longer than the wait below can take on a loaded machine, so the build is still waiting
        // when the server goes.
        let locked = system(
            "PGPASSWORD='\(server.password)' \(server.bin)/psql -X -q -h 127.0.0.1 -p \(server.port) -U postgres -d \(database) "
                + "-c 'BEGIN; LOCK TABLE invoice IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(900);' > /dev/null 2>&1 &")
        #expect(locked == 0)
        let environment = server.environment, url = server.url(database)
        let build = Task.detached { try CLI.run(["build", "--store", url, "--output", site.path], environment: environment) }
        var waiting = false
        let deadline = ContinuousClock.now + .seconds(300)
        while !waiting, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            let count = try server.psql("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = '\(database)';")
            waiting = count.trimmingCharacters(in: .whitespacesAndNewlines) == "1"
        }
        #expect(waiting, "the build never waited for the lock")
        try server.kill()
        let result = try await build.value
        #expect(result.status == 69)
        #expect(result.stderr.contains("closed the connection while the store was read"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        #expect(try PostgresStoreTests.files(site) == before)
    }
}
