import Foundation
import InvoicesTesting
import Testing

/// `invoices serve --store postgres://…`: the served site follows the rows on the server.
@Suite(.serialized)
struct PostgresServeTests {
    @Test(.temporaryFolder) func serveRebuildsWhenRowsAreAddedOnTheServerAndOnlyThen() async throws {
        let folder = try TemporaryFolder.current
        let (server, database) = try PostgresStoreTests.serverWithSmallStore(in: folder)
        defer { server.stop() }
        // The build's role, with the rights docs/store.md gives it (SELECT only). VACUUM ANALYZE leaves the server's
        // own maintenance nothing to do on these tables while the test watches.
        let password = "report-" + UUID().uuidString
        try server.psql(
            """
            CREATE ROLE report LOGIN PASSWORD '\(password)';
            GRANT USAGE ON SCHEMA public TO report;
            GRANT SELECT ON client, invoice, payment, write_off, tax_line, invoices_schema TO report;
            VACUUM ANALYZE;
            """, database: database)
        var environment = server.environment
        environment["PGPASSWORD"] = password
        let serve = try await ServeProcess.start(
            ["--store", server.url(database, user: "report"), "--output", folder.path("site"), "--interval", "100"],
            environment: environment)
        defer { serve.terminate() }
        let (_, before) = try await serve.fetch()
        #expect(before.contains("Acme"), "\(serve.output)")
        #expect(!before.contains("Served Later"))

        // Nothing changes on the server: no rebuild.
        try await Task.sleep(for: .seconds(2))
        #expect(!serve.stdout.text.contains("Changed:"), "\(serve.output)")

        // Another client commits a new client and its invoice: the served overview shows them.
        try server.psql(
            """
            BEGIN;
            INSERT INTO client (number, name) VALUES ('C-003', 'Served Later GmbH');
            INSERT INTO invoice (identifier, client_id, amount, currency, issued_on, due_on)
              SELECT 'INV-5', id, 990000, 'EUR', '2025-02-10', '2025-03-10' FROM client WHERE number = 'C-003';
            COMMIT;
            """, database: database)
        let shown = try await eventually(30) { try await serve.fetch().1.contains("Served Later GmbH") }
        #expect(shown, "\(serve.output)")
        #expect(serve.stdout.text.contains("Changed: \(server.url(database, user: "report")); rebuilding"), "\(serve.output)")
        #expect(!serve.output.contains(password) && !serve.output.contains(server.password))
        #expect(!serve.stderr.text.contains("cannot look for changes"), "\(serve.output)")
    }
}
