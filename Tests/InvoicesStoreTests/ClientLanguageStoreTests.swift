import Foundation
import InvoicesCore
import InvoicesStore
import InvoicesTesting
import ObjectContexts
import Testing

/// Schema 3 (issue 43): the client's `language` column, read by every reader, written by the SQLite store, and the
/// migration from version 2 that keeps every row.
struct ClientLanguageStoreTests {
    /// A v3 store of the v2 cases with a language for two clients.
    static func v3Cases(at path: String) throws {
        try StoreFixture.make(at: path, sql: StoreFixture.v2Cases, version: 2)
        try StoreFixture.migrate(path)
        try StoreFixture.execute(path, "UPDATE client SET language = 'fr' WHERE id = 1; UPDATE client SET language = 'de-CH' WHERE id = 2;")
    }

    @Test(.temporaryFolder) func aV3StoreReadsEachClientsLanguage() throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("books.sqlite")
        try Self.v3Cases(at: path)
        let books = try BooksStore(path: path).books
        #expect(books.schemaVersion == 3)
        let languages = Dictionary(uniqueKeysWithValues: books.clients.map { ($0.id, $0.language) })
        #expect(languages[1] == "fr" && languages[2] == "de-CH")
        #expect(books.clients.filter { $0.id > 2 }.allSatisfy { $0.language.isEmpty })
    }

    /// The migration adds the column and keeps every row: the books read the same, and every row of every table is the
    /// same, column for column (the new one NULL).
    @Test(.temporaryFolder) func migratingAV2StoreKeepsEveryRow() throws {
        let folder = try TemporaryFolder.current
        let v2 = folder.path("v2.sqlite"), v3 = folder.path("v3.sqlite")
        try StoreFixture.make(at: v2, sql: StoreFixture.v2Cases, version: 2)
        try FileManager.default.copyItem(atPath: v2, toPath: v3)
        try StoreFixture.migrate(v3)
        #expect(try StoreFixture.query(v3, "PRAGMA user_version").first?.values.first == "3")
        let old = try BooksStore(path: v2).books, new = try BooksStore(path: v3).books
        #expect(old.schemaVersion == 2 && new.schemaVersion == 3)
        #expect(old.clients == new.clients && old.invoices == new.invoices && old.payments == new.payments)
        #expect(old.writeOffs == new.writeOffs && old.taxLines == new.taxLines && old.paymentDetails == new.paymentDetails)
        let before = try StoreDump(path: v2).tables, after = try StoreDump(path: v3).tables
        #expect(before.map(\.table) == after.map(\.table))
        #expect(before.map(\.rows) == after.map(\.rows))
        #expect(before.reduce(0) { $0 + $1.rows.count } > 20)
        for table in ["client", "invoice", "payment", "writeOff", "taxLine"] {
            #expect(try StoreFixture.query(v2, "SELECT count(*) AS n FROM \(table)") == StoreFixture.query(v3, "SELECT count(*) AS n FROM \(table)"))
        }
        #expect(try StoreFixture.query(v3, "SELECT count(*) AS n FROM client WHERE language IS NOT NULL").first?["n"] == "0")
    }

    /// A v1 store runs both migrations in order and reads the same invoices.
    @Test(.temporaryFolder) func aV1StoreMigratesThroughVersion2() throws {
        let folder = try TemporaryFolder.current
        let v1 = folder.path("v1.sqlite"), v3 = folder.path("v3.sqlite")
        try StoreFixture.make(at: v1, sql: StoreFixture.small)
        try FileManager.default.copyItem(atPath: v1, toPath: v3)
        #expect(Schema.migrations(from: 1).count == 2)
        try StoreFixture.migrate(v3)
        let old = try BooksStore(path: v1).books, new = try BooksStore(path: v3).books
        #expect(new.schemaVersion == 3)
        #expect(old.clients == new.clients && old.invoices == new.invoices && old.payments == new.payments)
    }

    @Test(.temporaryFolder) func aMalformedLanguageInTheStoreIsNamedByTableRowAndColumn() throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("books.sqlite")
        try Self.v3Cases(at: path)
        try StoreFixture.execute(path, "UPDATE client SET language = 'fr_FR' WHERE id = 1")
        let number = try #require(StoreFixture.query(path, "SELECT number FROM client WHERE id = 1").first?["number"])
        #expect(throws: StoreIssues.self) { try BooksStore(path: path) }
        do {
            _ = try BooksStore(path: path)
        } catch {
            #expect("\(error)".contains("client '\(number)' column language: 'fr_FR' is not a well-formed BCP 47 language tag"), "\(error)")
        }
    }

    /// The model's `language` attribute: set through a context, seen by the context's books (the fallback that reads
    /// every field), saved by the SQLite store, and read back.
    @Test(.temporaryFolder) func aLanguageSetThroughAContextIsSavedAndReadBack() async throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("books.sqlite")
        try Self.v3Cases(at: path)
        let store = try SQLiteStore(path: path)
        let context = PrivateContext(store: store)
        let seen = try await context.perform { context in
            let clients = try context.fetch(Client.self)
            #expect(clients.first { $0.objectID.primaryKey == 1 }?.language == "fr")
            try #require(clients.first { $0.objectID.primaryKey == 2 }).setValue(.text("it"), forKey: "language")
            let client = try context.insert(Client.self)
            try client.setValue(.text("C-NEW"), forKey: "number")
            try client.setValue(.text("Rossi SpA"), forKey: "name")
            try client.setValue(.text("it-CH"), forKey: "language")
            let books = try context.books()
            try context.save()
            return books
        }
        let read = try BooksStore(path: path).books
        ContextBooksTests.expectSame(seen, read)
        #expect(read.clients.first { $0.id == 2 }?.language == "it")
        #expect(read.clients.first { $0.number == "C-NEW" }?.language == "it-CH")
        #expect(read.clients.first { $0.id == 1 }?.language == "fr")
    }

    /// The same store read at v2 by a context has no language to write: a save into a v2 store leaves the table as
    /// it is (no column added), and the client keeps the report's language.
    @Test(.temporaryFolder) func aV2StoreSavesClientsWithoutALanguage() async throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("books.sqlite")
        try StoreFixture.make(at: path, sql: StoreFixture.v2Cases, version: 2)
        let context = PrivateContext(store: try SQLiteStore(path: path))
        try await context.perform { context in
            let client = try context.insert(Client.self)
            try client.setValue(.text("C-NEW"), forKey: "number")
            try client.setValue(.text("Rossi SpA"), forKey: "name")
            try client.setValue(.text("it"), forKey: "language")
            try context.save()
        }
        let read = try BooksStore(path: path).books
        #expect(read.schemaVersion == 2)
        #expect(read.clients.first { $0.number == "C-NEW" }?.language == "")
        #expect(try StoreFixture.query(path, "SELECT count(*) AS n FROM pragma_table_info('client') WHERE name = 'language'").first?["n"] == "0")
    }

    @Test(.temporaryFolder) func aCoreDataStoresLanguageAttributeIsRead() throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("App.sqlite")
        try CoreDataFixture.make(at: path, sql: CoreDataFixture.dated + "ALTER TABLE ZCLIENT ADD COLUMN ZLANGUAGE VARCHAR; UPDATE ZCLIENT SET ZLANGUAGE = 'de-DE' WHERE Z_PK = 2;")
        let books = try BooksStore(path: path).books
        #expect(books.clients.map(\.language).sorted() == ["", "de-DE"])
        // Without the attribute every client has the report's language (the seed model).
        let plain = folder.path("Plain.sqlite")
        try CoreDataFixture.make(at: plain, sql: CoreDataFixture.dated)
        #expect(try BooksStore(path: plain).books.clients.allSatisfy { $0.language.isEmpty })
        // A malformed one is a row error naming the Core Data column.
        let bad = folder.path("Bad.sqlite")
        try CoreDataFixture.make(at: bad, sql: CoreDataFixture.dated + "ALTER TABLE ZCLIENT ADD COLUMN ZLANGUAGE VARCHAR; UPDATE ZCLIENT SET ZLANGUAGE = 'de_DE' WHERE Z_PK = 2;")
        do {
            _ = try BooksStore(path: bad)
            Issue.record("a malformed ZLANGUAGE was read")
        } catch {
            #expect("\(error)".contains("ZCLIENT 'Z-2' column ZLANGUAGE: 'de_DE' is not a well-formed BCP 47 language tag"), "\(error)")
        }
    }
}
