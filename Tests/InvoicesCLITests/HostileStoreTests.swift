import Foundation
import InvoicesTesting
import Testing

/// Bad stores, each built for its problem and run through the built `invoices` binary (issue 10): one line per
/// problem naming the file, table, row and column; exit 65 (66 for a missing file); no output written.
@Suite(.serialized)
struct HostileStoreTests {
    /// One client, so invoices have someone to belong to.
    static let client = "INSERT INTO client (id, number, name) VALUES (1, 'C-1', 'Acme');\n"

    /// An invoice row with good values, except for the ones given.
    static func invoice(
        _ id: Int, identifier: String? = nil, clientId: String = "1", amount: String = "100", currency: String = "'EUR'",
        notes: String = "''", issuedOn: String = "'2025-01-10'", dueOn: String = "'2025-02-10'"
    ) -> String {
        let identifier = identifier ?? "'INV-\(id)'"
        return """
            INSERT INTO invoice (id, identifier, clientId, amount, currency, notes, issuedOn, dueOn) VALUES
              (\(id), \(identifier), \(clientId), \(amount), \(currency), \(notes), \(issuedOn), \(dueOn));

            """
    }

    /// The current schema without constraints, so a test can store what the real schema would refuse.
    static let looseSchema = """
        CREATE TABLE client (id INTEGER PRIMARY KEY, number TEXT, name TEXT, email TEXT NOT NULL DEFAULT '',
          street TEXT NOT NULL DEFAULT '', city TEXT NOT NULL DEFAULT '', zip TEXT NOT NULL DEFAULT '',
          country TEXT NOT NULL DEFAULT '');
        CREATE TABLE invoice (id INTEGER PRIMARY KEY, identifier TEXT, clientId INTEGER, amount, currency TEXT,
          notes TEXT, issuedOn TEXT, dueOn TEXT, paidOn TEXT);
        PRAGMA user_version = 1;

        """

    /// The result of building `store` into a fresh output folder that must not appear.
    func build(_ store: String, in folder: TemporaryFolder) throws -> CLI.Result {
        let output = folder.path("site")
        let result = try CLI.run(["build", "--store", store, "--output", output])
        #expect(!FileManager.default.fileExists(atPath: output), "output was written for a bad store")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix(".site.") }
        #expect(leftovers == [], "staging folders left behind")
        #expect(result.stdout == "")
        return result
    }

    /// The `Error:` lines of a failed run.
    func errorLines(_ result: CLI.Result) -> [String] {
        // Progress lines (one per phase on a pipe) are not problems; every problem line starts with "Error: ".
        result.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("Error: ") }
    }

    /// Builds a loose-schema store from `sql` and checks the one error line: file, table, row, column, exit 65.
    func expectOneProblem(
        _ sql: String, table: String, row: String, column: String, saying words: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = folder.path("books.sqlite")
        try StoreFixture.make(at: store, sql: Self.looseSchema + sql, withSchema: false)
        let result = try build(store, in: folder)
        #expect(result.status == 65, "\(result.stderr)", sourceLocation: sourceLocation)
        let lines = errorLines(result)
        #expect(lines.count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        let expected = "Error: \(store): \(table) \(row) column \(column): "
        #expect(lines.first?.hasPrefix(expected) == true, "expected '\(expected)…', got \(lines)", sourceLocation: sourceLocation)
        #expect(lines.first?.contains(words) == true, "\(lines)", sourceLocation: sourceLocation)
    }

    @Test(.temporaryFolder) func aMissingFileExits66() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("none.sqlite")
        let result = try build(store, in: folder)
        #expect(result.status == 66)
        #expect(errorLines(result) == ["Error: \(store): no such file; create one with 'invoices sample' or 'invoices import'"])
        #expect(!FileManager.default.fileExists(atPath: store), "the missing store was created")
    }

    @Test(.temporaryFolder) func aFileThatIsNotSQLite() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let bytes = Data("id,name\n1,Acme\n".utf8)
        try bytes.write(to: URL(fileURLWithPath: store))
        let result = try build(store, in: folder)
        #expect(result.status == 65)
        #expect(errorLines(result) == ["Error: \(store): not a SQLite database (the file does not start with the SQLite header)"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == bytes)
    }

    @Test(.temporaryFolder) func aMissingColumnIsNamedWithItsTable() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        try StoreFixture.make(
            at: store,
            sql: Self.looseSchema.replacingOccurrences(of: "currency TEXT,\n  notes", with: "notes"), withSchema: false)
        let result = try build(store, in: folder)
        #expect(result.status == 65)
        #expect(errorLines(result) == ["Error: \(store): invoice column currency: column is missing"])
    }

    @Test(.temporaryFolder) func aStoreOfAnotherSchemaVersion() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        try StoreFixture.make(at: store, sql: "PRAGMA user_version = 4;")
        let result = try build(store, in: folder)
        #expect(result.status == 65)
        let lines = errorLines(result)
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("Error: \(store): schema version 4, expected 1, 2 or 3") == true, "\(lines)")
    }

    @Test func aNullInARequiredField() throws {
        try expectOneProblem(
            Self.client + Self.invoice(1, issuedOn: "NULL"), table: "invoice", row: "'INV-1'", column: "issuedOn",
            saying: "is NULL")
        try expectOneProblem(
            "INSERT INTO client (id, number, name) VALUES (1, 'C-1', NULL);", table: "client", row: "'C-1'", column: "name",
            saying: "is NULL")
    }

    @Test func anUnknownCurrencyCode() throws {
        try expectOneProblem(
            Self.client + Self.invoice(1, currency: "'EUX'"), table: "invoice", row: "'INV-1'", column: "currency",
            saying: "'EUX'")
        try expectOneProblem(
            Self.client + Self.invoice(1, currency: "'EURO'"), table: "invoice", row: "'INV-1'", column: "currency",
            saying: "'EURO'")
    }

    @Test func aNegativeAmount() throws {
        try expectOneProblem(
            Self.client + Self.invoice(1, amount: "-5"), table: "invoice", row: "'INV-1'", column: "amount",
            saying: "is negative (-5)")
    }

    @Test func amountsThatAreNotIntegersOrOverflow() throws {
        for amount in ["1e30", "'12.50'", "'9223372036854775808'", "x'00'"] {
            try expectOneProblem(
                Self.client + Self.invoice(1, amount: amount), table: "invoice", row: "'INV-1'", column: "amount",
                saying: "is not an integer count of minor units")
        }
    }

    @Test(.temporaryFolder) func aSumThatOverflowsAcrossTwoRowsNamesTheClientAndCurrency() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let half = Int64.max / 2 + 1
        try StoreFixture.make(
            at: store, sql: Self.client + Self.invoice(1, amount: "\(half)") + Self.invoice(2, amount: "\(half)"))
        let result = try build(store, in: folder)
        #expect(result.status == 65)
        let lines = errorLines(result)
        #expect(lines == ["Error: \(store): the EUR total of client C-1 'Acme' does not fit in 64-bit minor units; check the store's amounts"])
        // Two clients whose own totals fit, but whose grand total does not.
        try StoreFixture.make(
            at: folder.path("grand.sqlite"),
            sql: Self.client + "INSERT INTO client (id, number, name) VALUES (2, 'C-2', 'Beta');\n"
                + Self.invoice(1, amount: "\(half)") + Self.invoice(2, clientId: "2", amount: "\(half)"))
        let grand = try build(folder.path("grand.sqlite"), in: folder)
        #expect(grand.status == 65)
        #expect(errorLines(grand) == ["Error: \(folder.path("grand.sqlite")): the EUR grand total does not fit in 64-bit minor units; check the store's amounts"])
    }

    @Test func anInvoiceWhoseClientDoesNotExist() throws {
        try expectOneProblem(
            Self.client + Self.invoice(1, clientId: "42"), table: "invoice", row: "'INV-1'", column: "clientId",
            saying: "client id 42, which does not exist")
    }

    @Test func duplicateInvoiceIdentifiersInAStoreWithoutTheUniqueIndex() throws {
        try expectOneProblem(
            Self.client + Self.invoice(1, identifier: "'INV-9'") + Self.invoice(2, identifier: "'INV-9'"),
            table: "invoice", row: "'INV-9'", column: "identifier", saying: "more than one invoice")
    }

    @Test func datesThatAreNotDates() throws {
        for date in ["'2025-02-30'", "'2025-13-01'", "'25-01-01'", "'2025/01/01'", "'2025-01-01T10:00:00Z'", "20250101", "''"] {
            try expectOneProblem(
                Self.client + Self.invoice(1, issuedOn: date, dueOn: "'2026-01-01'"), table: "invoice", row: "'INV-1'",
                column: "issuedOn", saying: "is not a date")
        }
    }

    @Test func invalidUTF8InText() throws {
        // 0xC3 0x28 is an invalid two-byte sequence; 0xFF never appears in UTF-8.
        try expectOneProblem(
            Self.client + Self.invoice(1, notes: "CAST(x'4fc328ff' AS TEXT)"), table: "invoice", row: "'INV-1'",
            column: "notes", saying: "is not valid UTF-8")
        try expectOneProblem(
            "INSERT INTO client (id, number, name) VALUES (1, 'C-1', CAST(x'41ff' AS TEXT));", table: "client",
            row: "'C-1'", column: "name", saying: "is not valid UTF-8")
    }

    @Test(.temporaryFolder) func aStoreWithEveryProblemListsThemAllInOneRun() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let sql = Self.client
            + "INSERT INTO client (id, number, name) VALUES (2, 'C-2', NULL), (3, 'C-3', CAST(x'41ff' AS TEXT));\n"
            + Self.invoice(1, issuedOn: "NULL")
            + Self.invoice(2, currency: "'EUX'")
            + Self.invoice(3, amount: "-5")
            + Self.invoice(4, amount: "1e30")
            + Self.invoice(5, amount: "'12.50'")
            + Self.invoice(6, clientId: "42")
            + Self.invoice(7, identifier: "'INV-DUP'") + Self.invoice(8, identifier: "'INV-DUP'")
            + Self.invoice(9, issuedOn: "'2025-02-30'")
            + Self.invoice(10, notes: "CAST(x'4fc328ff' AS TEXT)")
        try StoreFixture.make(at: store, sql: Self.looseSchema + sql, withSchema: false)
        let result = try build(store, in: folder)
        #expect(result.status == 65)
        let expected = [
            "client 'C-2' column name: is NULL",
            "client 'C-3' column name: is not valid UTF-8",
            "invoice 'INV-1' column issuedOn: is NULL",
            "invoice 'INV-2' column currency: 'EUX'",
            "invoice 'INV-3' column amount: is negative",
            "invoice 'INV-4' column amount: is not an integer",
            "invoice 'INV-5' column amount: is not an integer",
            "invoice 'INV-6' column clientId: refers to client id 42",
            "invoice 'INV-DUP' column identifier: is used by more than one invoice",
            "invoice 'INV-9' column issuedOn: '2025-02-30' is not a date",
            "invoice 'INV-10' column notes: is not valid UTF-8",
        ]
        let lines = errorLines(result)
        #expect(lines.count == expected.count, "\(result.stderr)")
        for (line, start) in zip(lines, expected) {
            #expect(line.hasPrefix("Error: \(store): \(start)"), "expected '\(start)…', got '\(line)'")
        }
    }
}
