import Foundation
import InvoicesCore
import InvoicesPostgres
import InvoicesStore
import InvoicesTesting
import Testing

/// Schema 3 on a PostgreSQL server (issue 43): the client's language is imported, read back, and a v2 store reads as
/// before until `invoices schema --postgres --migrate-from 2` migrates it, keeping every row.
@Suite(.serialized)
struct PostgresLanguageTests {
    /// The store's address with the superuser's password, for the library's own reads.
    static func address(_ server: LoopbackPostgres, _ database: String) throws -> PostgresAddress {
        try PostgresAddress(server.url(database).replacingOccurrences(of: "postgres@", with: "postgres:\(server.password)@"))
    }

    static let clientsCSV = "number,name,language\nC-1,Bistro Lyon,fr\nC-2,Zürich AG,de-CH\nC-3,Plain Ltd,\n"

    @Test(.temporaryFolder) func aLanguageRoundTripsThroughTheServer() async throws {
        let folder = try TemporaryFolder.current
        let (server, database) = try PostgresStoreTests.serverWithStore()
        defer { server.stop() }
        let csv = folder.path("clients.csv")
        try Data(Self.clientsCSV.utf8).write(to: URL(fileURLWithPath: csv))
        let url = server.url(database)
        let result = try CLI.run(["import", "--store", url, csv], environment: server.environment)
        #expect(result.status == 0, "\(result.stderr)")
        let books = try await PostgresBooks.fetch(try Self.address(server, database))
        #expect(books.schemaVersion == 3)
        #expect(Dictionary(uniqueKeysWithValues: books.clients.map { ($0.number, $0.language) }) == ["C-1": "fr", "C-2": "de-CH", "C-3": ""])
        // A malformed tag written on the server is a row error naming the column.
        _ = try server.psql("UPDATE client SET language = 'fr_FR' WHERE number = 'C-1';", database: database)
        do {
            _ = try await PostgresBooks.fetch(try Self.address(server, database))
            Issue.record("a malformed language was read")
        } catch {
            #expect("\(error)".contains("client 'C-1' column language: 'fr_FR' is not a well-formed BCP 47 language tag"), "\(error)")
        }
    }

    @Test(.temporaryFolder) func aV2StoreReadsAsBeforeAndItsMigrationKeepsEveryRow() async throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("cases.sqlite")
        try StoreFixture.make(at: store, sql: StoreFixture.v2Cases, version: 2)
        let (server, database) = try PostgresStoreTests.serverWithStore(store)
        defer { server.stop() }
        // Make it a v2 store: no language column, version 2.
        _ = try server.psql("ALTER TABLE client DROP COLUMN language; UPDATE invoices_schema SET version = 2;", database: database)
        let url = server.url(database)
        let v2 = try await PostgresBooks.fetch(try Self.address(server, database))
        #expect(v2.schemaVersion == 2)
        let sqlite = try BooksStore(path: store).books
        #expect(v2.clients == sqlite.clients && v2.invoices == sqlite.invoices && v2.payments == sqlite.payments)
        // An import into it writes v2 rows and warns; a copy of a SQLite file is refused until it is migrated.
        let csv = folder.path("clients.csv")
        try Data(Self.clientsCSV.utf8).write(to: URL(fileURLWithPath: csv))
        let imported = try CLI.run(["import", "--store", url, csv], environment: server.environment)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect((imported.stdout + imported.stderr).contains("2 client language(s) not stored: the store is schema version 2"))
        let copy = try CLI.run(["import", "--store", url, store], environment: server.environment)
        #expect(copy.status == 65)
        #expect(copy.stderr.contains("the store is schema version 2 and a copy writes version 3 rows; migrate it first"), "\(copy.stderr)")

        let before = try PostgresImportTests.dumpV2(server, database)
        let migration = try CLI.run(["schema", "--postgres", "--migrate-from", "2"])
        #expect(migration.status == 0)
        _ = try server.psql(migration.stdout, database: database)
        let v3 = try await PostgresBooks.fetch(try Self.address(server, database))
        #expect(v3.schemaVersion == 3)
        let after = try PostgresImportTests.dumpV2(server, database)
        #expect(before == after && before.count > 500)
        _ = try server.psql("UPDATE client SET language = 'fr' WHERE number = 'C-1';", database: database)
        #expect(try await PostgresBooks.fetch(try Self.address(server, database)).clients.first { $0.number == "C-1" }?.language == "fr")
    }
}

extension PostgresImportTests {
    /// Every row of the v2 tables, the v2 columns only, as psql prints them.
    static func dumpV2(_ server: LoopbackPostgres, _ database: String) throws -> String {
        try Schema.tables(version: 2).map { table in
            let columns = table.columns.map(\.snakeName).joined(separator: ", ")
            return try server.psql("SELECT \(columns) FROM \(Schema.snakeCase(table.name)) ORDER BY id;", database: database)
        }.joined(separator: "--\n")
    }
}
