import Foundation
import InvoicesCore
import InvoicesStore
import InvoicesTesting
import Testing

struct BooksStoreTests {
    @Test(.temporaryFolder) func aStoreOfAnotherSchemaVersionIsRefusedNamingBothVersions() throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("old.sqlite")
        try StoreFixture.make(at: path, sql: "PRAGMA user_version = 7;")
        let error = try #require(throws: StoreIssues.self) { try BooksStore(path: path).books }
        #expect(error.description.contains("schema version 7, expected 1, 2 or 3"))
        #expect(error.description.hasPrefix(path))
    }

    @Test(.temporaryFolder) func loadingLeavesTheStoresBytesUnchanged() throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("books.sqlite")
        try StoreFixture.make(at: path, sql: StoreFixture.small)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let books = try BooksStore(path: path).books
        #expect(books.invoices.count == 4)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test(.temporaryFolder) func theSmallStoreLoadsExactly() throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("books.sqlite")
        try StoreFixture.make(at: path, sql: StoreFixture.small)
        let books = try BooksStore(path: path).books
        #expect(books.clients.map(\.number) == ["C-001", "C-002"])
        #expect(books.currencies.map(\.code) == ["EUR", "JPY", "KWD"])
        let kwd = try #require(books.invoices.first { $0.identifier == "INV-4" })
        #expect(books.money(of: kwd).decimalString == "12.345")
        #expect(kwd.paid?.description == "2025-02-25")
        #expect(books.clients[Int(kwd.clientIndex)].name == "Müller & Söhne")
    }

    @Test func aMissingFileIsReportedAsMissing() throws {
        let error = try #require(throws: StoreIssues.self) { try BooksStore(path: "/nonexistent/books.sqlite").books }
        #expect(error.issues.first?.kind == .missing)
        #expect(error.description.contains("/nonexistent/books.sqlite: no such file"))
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent/books.sqlite"))
    }

    @Test(.temporaryFolder) func aFileThatIsNotSQLiteIsNamed() throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("notes.sqlite")
        try Data("just some text, not a database".utf8).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: StoreIssues.self) { try BooksStore(path: path).books }
        #expect(error.description == "\(path): not a SQLite database (the file does not start with the SQLite header)")
    }

    @Test(.temporaryFolder) func aStoreWithoutTheTablesNamesEachMissingTable() throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("empty.sqlite")
        try StoreFixture.make(at: path, sql: "CREATE TABLE other (x); PRAGMA user_version = 1;", withSchema: false)
        let error = try #require(throws: StoreIssues.self) { try BooksStore(path: path).books }
        #expect(error.issues.map(\.description) == ["\(path): client: table is missing", "\(path): invoice: table is missing"])
    }

    @Test(.temporaryFolder) func everyBadRowIsReportedTogether() throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("bad.sqlite")
        // A schema without the CHECK constraints, as a hand-made or foreign store might have.
        try StoreFixture.make(at: path, sql: """
            CREATE TABLE client (id INTEGER PRIMARY KEY, number TEXT, name TEXT, email TEXT, street TEXT, city TEXT, zip TEXT, country TEXT);
            CREATE TABLE invoice (id INTEGER PRIMARY KEY, identifier TEXT, clientId INTEGER, amount, currency TEXT, notes TEXT, issuedOn TEXT, dueOn TEXT, paidOn TEXT);
            PRAGMA user_version = 1;
            INSERT INTO client VALUES (1, 'C-1', 'Good', '', '', '', '', '');
            INSERT INTO invoice VALUES (1, 'A', 1, 100, 'EURO', '', '2025-01-01', '2025-01-31', NULL);
            INSERT INTO invoice VALUES (2, 'B', 1, -5, 'EUR', '', '2025-01-01', '2025-01-31', NULL);
            INSERT INTO invoice VALUES (3, 'C', 9, 100, 'EUR', '', '2025-01-01', '2025-01-31', NULL);
            INSERT INTO invoice VALUES (4, 'D', 1, 100, 'EUR', '', '2025-02-30', '2025-03-31', NULL);
            INSERT INTO invoice VALUES (5, 'A', 1, 100, 'EUR', '', '2025-01-01', '2025-01-31', NULL);
            INSERT INTO invoice VALUES (6, 'E', 1, NULL, 'EUR', '', '2025-01-01', '2025-01-31', NULL);
            """, withSchema: false)
        let error = try #require(throws: StoreIssues.self) { try BooksStore(path: path).books }
        let lines = error.issues.map(\.description)
        #expect(lines == [
            "\(path): invoice 'A' column currency: 'EURO' is not an ISO 4217 currency code (expected three capital letters such as 'EUR', 'USD' or 'JPY')",
            "\(path): invoice 'B' column amount: is negative (-5); amounts are never negative",
            "\(path): invoice 'C' column clientId: refers to client id 9, which does not exist",
            "\(path): invoice 'D' column issuedOn: '2025-02-30' is not a date (expected YYYY-MM-DD, a real day)",
            "\(path): invoice 'A' column identifier: is used by more than one invoice",
            "\(path): invoice 'E' column amount: is NULL; every invoice needs an amount",
        ])
    }
}
