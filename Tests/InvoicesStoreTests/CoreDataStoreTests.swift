import Foundation
import GRDB
import InvoicesCore
@testable import InvoicesStore
import InvoicesTesting
import Testing

/// Core Data-layout stores written from SQL, as the Invoices app's model would have Core Data create them.
enum CoreDataFixture {
    /// Z_METADATA, Z_PRIMARYKEY and Z_MODELCACHE as Core Data writes them; the Z_PLIST blob is a placeholder
    /// (the "bplist00" magic only).
    static let metadata = """
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
        CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
        INSERT INTO Z_METADATA VALUES (1, '8A6F2C1E-3B7D-4E59-9C0A-5D2B7F1E4A63', X'62706C6973743030');
        """

    /// The app's Client and Invoice entities (numbers 1 and 2), with date attributes issuedAt, dueAt, paidAt.
    static let datedSchema = metadata + """
        CREATE TABLE ZCLIENT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCITY VARCHAR, ZCOUNTRY VARCHAR,
            ZEMAIL VARCHAR, ZNAME VARCHAR, ZNUMBER VARCHAR, ZSTREET VARCHAR, ZZIP VARCHAR);
        CREATE TABLE ZINVOICE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCLIENT INTEGER, ZAMOUNT FLOAT,
            ZISSUEDAT TIMESTAMP, ZDUEAT TIMESTAMP, ZPAIDAT TIMESTAMP, ZCURRENCY VARCHAR, ZIDENTIFIER VARCHAR, ZNOTES VARCHAR);
        CREATE INDEX ZINVOICE_ZCLIENT_INDEX ON ZINVOICE (ZCLIENT);
        INSERT INTO Z_PRIMARYKEY VALUES (1, 'Client', 0, 2), (2, 'Invoice', 0, 5);
        """

    /// Dates are seconds since 2001-01-01 00:00:00 UTC. 760059000 is 2025-01-31 23:30 UTC: in Pacific/Kiritimati
    /// (UTC+14, the test time zone) that is already February, so a local-time conversion would be caught.
    static let dated = datedSchema + """
        INSERT INTO ZCLIENT VALUES
          (1, 1, 1, 'Springfield', 'US', 'ap@acme.example', 'Acme *Corp*', 'C-001', 'Main St 1', '12345'),
          (2, 1, 1, 'München', 'DE', NULL, 'Müller & Söhne', NULL, NULL, NULL);
        INSERT INTO ZINVOICE VALUES
          -- 1234.50 EUR, issued 2025-01-31 23:30 UTC, due 2025-02-14 12:00, paid 2025-02-10 09:00
          (1, 2, 1, 1, 1234.5, 760059000, 761227200, 760870800, 'EUR', 'INV-1', 'Design'),
          -- 500.00 EUR, issued 2025-02-01 00:00, due 2025-03-03 00:00, unpaid
          (2, 2, 1, 1, 500, 760060800, 762652800, NULL, 'EUR', 'INV-2', NULL),
          -- 15000 JPY, issued 2025-01-15 10:00, due 2025-01-15 + 0 (NULL due: taken as the issue date)
          (3, 2, 1, 2, 15000.0, 758628000, NULL, NULL, 'JPY', 'INV-3', 'Yen <b>job</b>'),
          -- 12.345 KWD, issued 2025-02-20, due 2025-03-20, paid 2025-02-25 18:00
          (4, 2, 1, 2, 12.345, 761702400, 764121600, 762199200, 'KWD', 'INV-4', NULL),
          -- 19.99 EUR: 19.99 * 100 is 1998.9999999999998 in binary, but the amount is exactly 1999 cents
          (5, 2, 1, 2, 19.99, 761702400, 764121600, NULL, 'EUR', 'INV-5', NULL);
        """

    /// Creates a store at `path` from `sql`.
    static func make(at path: String, sql: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: sql) }
        try queue.close()
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }
}

struct CoreDataStoreTests {
    @Test(.temporaryFolder) func aDatedStoreLoadsWithExactAmountsAndUTCDates() throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("Invoices.sqlite")
        try CoreDataFixture.make(at: path, sql: CoreDataFixture.dated)
        let loaded = try BooksStore(path: path)
        let books = loaded.books
        #expect(loaded.format == .coreData)
        #expect(books.clients.map(\.number) == ["C-001", "Z-2"])
        #expect(books.clients[1].name == "Müller & Söhne" && books.clients[1].email == "")
        #expect(books.currencies.map(\.code) == ["EUR", "JPY", "KWD"])
        // Ordered by issue date, then identifier.
        #expect(books.invoices.map(\.identifier) == ["INV-3", "INV-1", "INV-2", "INV-4", "INV-5"])
        func invoice(_ identifier: String) throws -> InvoiceSnapshot {
            try #require(books.invoices.first { $0.identifier == identifier })
        }
        let first = try invoice("INV-1")
        #expect(books.money(of: first) == Money(minorUnits: 123_450, currency: try CurrencyCode("EUR")))
        #expect(first.issued.description == "2025-01-31")
        #expect(first.due.description == "2025-02-14")
        #expect(first.paid?.description == "2025-02-10")
        #expect(first.notes == "Design")
        #expect(books.clients[Int(first.clientIndex)].number == "C-001")
        #expect(try invoice("INV-3").due.description == "2025-01-15")
        #expect(books.money(of: try invoice("INV-4")).decimalString == "12.345")
        #expect(try invoice("INV-4").paid?.description == "2025-02-25")
        #expect(try invoice("INV-5").amount == 1999)
        // Totals by currency, by hand: EUR 1234.50 + 500.00 + 19.99 = 1754.49; JPY 15000; KWD 12.345.
        var totals: [String: Int64] = [:]
        for invoice in books.invoices { totals[books.currencies[Int(invoice.currencyIndex)].code, default: 0] += invoice.amount }
        #expect(totals == ["EUR": 175_449, "JPY": 15_000, "KWD": 12_345])
        // The only warning: INV-3's NULL due date.
        #expect(loaded.warnings.map(\.description) == ["\(path): ZINVOICE 'INV-3' column ZDUEAT: is NULL; the invoice is taken as due on its issue date 2025-01-15"])
        // load() gives the same books.
        #expect(try BooksStore(path: path).books.invoices == books.invoices)
    }

    @Test(.temporaryFolder) func amountsThatAreNotWholeMinorUnitsAreRoundedHalfToEvenWithAWarning() throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("Invoices.sqlite")
        try CoreDataFixture.make(at: path, sql: CoreDataFixture.datedSchema + """
            INSERT INTO ZCLIENT (Z_PK, Z_ENT, Z_OPT, ZNAME, ZNUMBER) VALUES (1, 1, 1, 'Acme', 'C-1');
            INSERT INTO ZINVOICE (Z_PK, Z_ENT, Z_OPT, ZCLIENT, ZAMOUNT, ZISSUEDAT, ZDUEAT, ZCURRENCY, ZIDENTIFIER) VALUES
              (1, 2, 1, 1, 10.005, 0, 0, 'USD', 'A-10.005'),               -- 1000.5 cents: to even, 1000
              (2, 2, 1, 1, 0.125, 0, 0, 'USD', 'B-0.125'),                 -- 12.5 cents: to even, 12
              (3, 2, 1, 1, 0.375, 0, 0, 'USD', 'C-0.375'),                 -- 37.5 cents: to even, 38
              (4, 2, 1, 1, 0.30000000000000004, 0, 0, 'USD', 'D-0.1+0.2'), -- 30 cents, within the tolerance: no warning
              (5, 2, 1, 1, 1234.5, 0, 0, 'JPY', 'E-1234.5'),               -- JPY has no decimals: to even, 1234
              (6, 2, 1, 1, 12.3456, 0, 0, 'KWD', 'F-12.3456'),             -- 12345.6 fils: 12346
              (7, 2, 1, 1, 1000000.01, 0, 0, 'USD', 'G-1000000.01');       -- exact: 100000001 cents
            """)
        let loaded = try BooksStore(path: path)
        let amounts = Dictionary(uniqueKeysWithValues: loaded.books.invoices.map { ($0.identifier, $0.amount) })
        #expect(amounts == [
            "A-10.005": 1000, "B-0.125": 12, "C-0.375": 38, "D-0.1+0.2": 30, "E-1234.5": 1234, "F-12.3456": 12346,
            "G-1000000.01": 100_000_001,
        ])
        let inexact = loaded.warnings.filter { $0.kind == .inexactAmount }
        #expect(inexact.map(\.row) == ["'A-10.005'", "'B-0.125'", "'C-0.375'", "'E-1234.5'", "'F-12.3456'"])
        #expect(inexact.allSatisfy { $0.table == "ZINVOICE" && $0.column == "ZAMOUNT" })
        #expect(inexact.first?.description == "\(path): ZINVOICE 'A-10.005' column ZAMOUNT: 10.005 USD is not a whole number of minor units (USD has 2 decimals); reported as 10.00 USD, rounded half to even")
        // No paid-date column is fine here: ZPAIDAT exists, so no noPaidDates warning.
        #expect(loaded.totalWarnings == 5)
    }

    @Test(arguments: [
        (10.005, 2, Int64(1000), false), (10.015, 2, 1002, false), (0.125, 2, 12, false), (19.99, 2, 1999, true),
        (0.30000000000000004, 2, 30, true), (1e-7, 2, 0, false), (123456789.12, 2, 12_345_678_912, true),
        (1.5, 0, 2, false), (2.5, 0, 2, false), (1e16, 2, 1_000_000_000_000_000_000, true),
    ] as [(Double, Int, Int64, Bool)])
    func roundingRule(value: Double, digits: Int, units: Int64, exact: Bool) throws {
        let loader = try #require(CoreDataReader.minorUnits(of: value, digits: digits))
        #expect(loader.minorUnits == units)
        #expect(loader.exact == exact)
    }

    @Test(.temporaryFolder) func theSeedModelWithoutDatesIsRefusedNamingTheOption() throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("Seed.sqlite")
        try CoreDataFixture.make(at: path, sql: CoreDataFixture.seed)
        let error = try #require(throws: StoreIssues.self) { try BooksStore(path: path).books }
        #expect(error.issues.count == 1)
        #expect(error.issues.first?.kind == .wrongSchema)
        #expect(error.issues.first?.table == "ZINVOICE")
        let message = error.description
        #expect(message.hasPrefix("\(path): ZINVOICE: the Invoice entity has no issue-date attribute"))
        #expect(message.contains("'issuedAt' (ZISSUEDAT), 'issueDate' (ZISSUEDATE), 'date' (ZDATE)"))
        #expect(message.contains("ZAMOUNT, ZCLIENT, ZCURRENCY, ZIDENTIFIER, ZNOTES"))
        #expect(message.contains("--issue-date-attribute NAME"))
    }

    @Test(.temporaryFolder) func aMappingNamesOtherDateAttributesAndMissingOnesAreWarnedAbout() throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("Custom.sqlite")
        try CoreDataFixture.make(at: path, sql: CoreDataFixture.seed + """
            ALTER TABLE ZINVOICE ADD COLUMN ZSENTON TIMESTAMP;
            UPDATE ZINVOICE SET ZSENTON = 760060800;  -- 2025-02-01
            """)
        let loaded = try BooksStore(path: path, coreDataMapping: CoreDataMapping(issueDateAttribute: "sentOn"))
        #expect(loaded.books.invoices.allSatisfy { $0.issued.description == "2025-02-01" && $0.due == $0.issued && $0.paid == nil })
        #expect(loaded.warnings.map(\.kind) == [.assumedDueDate, .noPaidDates])
        #expect(loaded.warnings[0].message.contains("--due-date-attribute NAME"))
        #expect(loaded.warnings[1].message.contains("every invoice is reported as unpaid"))

        let error = try #require(throws: StoreIssues.self) {
            try BooksStore(path: path, coreDataMapping: CoreDataMapping(issueDateAttribute: "sentOn", dueDateAttribute: "payBy"))
        }
        #expect(error.description.hasPrefix("\(path): ZINVOICE column ZPAYBY: the Invoice entity has no attribute 'payBy' (named by --due-date-attribute)"))
    }

    @Test(.temporaryFolder) func invoicesWithoutCurrencyOrIdentifierAreRowErrors() throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("Bad.sqlite")
        try CoreDataFixture.make(at: path, sql: CoreDataFixture.datedSchema + """
            INSERT INTO ZCLIENT (Z_PK, Z_ENT, Z_OPT, ZNAME, ZNUMBER) VALUES (1, 1, 1, 'Acme', 'C-1'), (2, 1, 1, NULL, 'C-2');
            INSERT INTO ZINVOICE (Z_PK, Z_ENT, Z_OPT, ZCLIENT, ZAMOUNT, ZISSUEDAT, ZCURRENCY, ZIDENTIFIER) VALUES
              (1, 2, 1, 1, 10, 0, 'USD', 'OK'),
              (2, 2, 1, 1, 10, 0, NULL, 'NO-CURRENCY'),
              (3, 2, 1, 1, 10, 0, 'USD', NULL),
              (4, 2, 1, 1, 10, 0, 'EURO', 'BAD-CURRENCY'),
              (5, 2, 1, 9, -5, NULL, 'USD', 'MANY');
            """)
        let error = try #require(throws: StoreIssues.self) { try BooksStore(path: path).books }
        #expect(error.issues.allSatisfy { $0.kind == .invalidValue })
        #expect(error.issues.map(\.description) == [
            "\(path): ZCLIENT 'C-2' column ZNAME: is NULL; every client needs a name",
            "\(path): ZINVOICE 'NO-CURRENCY' column ZCURRENCY: is NULL; every invoice needs a currency",
            "\(path): ZINVOICE Z_PK 3 column ZIDENTIFIER: is NULL; every invoice needs an identifier",
            "\(path): ZINVOICE 'BAD-CURRENCY' column ZCURRENCY: 'EURO' is not an ISO 4217 currency code (expected three capital letters such as 'EUR', 'USD' or 'JPY')",
            "\(path): ZINVOICE 'MANY' column ZCLIENT: refers to client Z_PK 9, which does not exist or is not valid",
            "\(path): ZINVOICE 'MANY' column ZISSUEDAT: is NULL; every invoice needs an issue date",
            "\(path): ZINVOICE 'MANY' column ZAMOUNT: is negative (-5.0); amounts are never negative",
        ])
    }

    @Test(.temporaryFolder) func subEntitiesShareTheRootTableAndAreTellApartByZ_ENT() throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("Inherited.sqlite")
        // Document (1) is the root of Invoice (2), whose sub-entity RecurringInvoice (3) has its own
        // sub-entity MonthlyInvoice (4); Quote (5) is Invoice's sibling and is not an invoice. All live in
        // ZDOCUMENT. Client (6) has a sub-entity Company (7), both in ZCLIENT.
        try CoreDataFixture.make(at: path, sql: CoreDataFixture.metadata + """
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Document', 0, 6), (2, 'Invoice', 1, 0), (3, 'RecurringInvoice', 2, 0),
              (4, 'MonthlyInvoice', 3, 0), (5, 'Quote', 1, 0), (6, 'Client', 0, 2), (7, 'Company', 6, 0);
            CREATE TABLE ZCLIENT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR,
                ZNUMBER VARCHAR, ZVATID VARCHAR);
            CREATE TABLE ZDOCUMENT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCLIENT INTEGER,
                ZAMOUNT FLOAT, ZCURRENCY VARCHAR, ZIDENTIFIER VARCHAR, ZNOTES VARCHAR, ZDATE TIMESTAMP,
                ZINTERVAL INTEGER, ZVALIDUNTIL TIMESTAMP);
            INSERT INTO ZCLIENT VALUES (1, 6, 1, 'Jane Doe', 'C-1', NULL), (2, 7, 1, 'Acme GmbH', 'C-2', 'DE123');
            INSERT INTO ZDOCUMENT VALUES
              (1, 2, 1, 1, 100.25, 'EUR', 'INV-1', NULL, 760060800, NULL, NULL),      -- Invoice
              (2, 3, 1, 2, 200.5, 'EUR', 'REC-1', NULL, 760060800, 30, NULL),         -- RecurringInvoice
              (3, 4, 1, 2, 300, 'USD', 'MON-1', NULL, 760060800, 30, NULL),           -- MonthlyInvoice
              (4, 5, 1, 2, 9999, 'EUR', 'Q-1', NULL, 760060800, NULL, 762652800),     -- Quote: not an invoice
              (5, 1, 1, 2, 8888, 'EUR', 'DOC-1', NULL, 760060800, NULL, NULL);        -- Document: not an invoice
            """)
        let loaded = try BooksStore(path: path)
        let books = loaded.books
        #expect(books.clients.map(\.name) == ["Jane Doe", "Acme GmbH"])
        #expect(books.invoices.map(\.identifier) == ["INV-1", "MON-1", "REC-1"])
        var totals: [String: Int64] = [:]
        for invoice in books.invoices { totals[books.currencies[Int(invoice.currencyIndex)].code, default: 0] += invoice.amount }
        // EUR 100.25 + 200.50 = 300.75; USD 300.00. The quote's 9999 and the document's 8888 are not counted.
        #expect(totals == ["EUR": 30_075, "USD": 30_000])
        #expect(loaded.warnings.map(\.kind) == [.assumedDueDate, .noPaidDates])
    }
}

extension CoreDataFixture {
    /// The Invoices app's seed model: no date attributes.
    static let seed = metadata + """
        CREATE TABLE ZCLIENT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCITY VARCHAR, ZCOUNTRY VARCHAR,
            ZEMAIL VARCHAR, ZNAME VARCHAR, ZNUMBER VARCHAR, ZSTREET VARCHAR, ZZIP VARCHAR);
        CREATE TABLE ZINVOICE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCLIENT INTEGER, ZAMOUNT FLOAT,
            ZCURRENCY VARCHAR, ZIDENTIFIER VARCHAR, ZNOTES VARCHAR);
        INSERT INTO Z_PRIMARYKEY VALUES (1, 'Client', 0, 1), (2, 'Invoice', 0, 2);
        INSERT INTO ZCLIENT VALUES (1, 1, 1, 'Springfield', 'US', 'ap@acme.example', 'Acme', 'C-1', 'Main St 1', '12345');
        INSERT INTO ZINVOICE VALUES (1, 2, 1, 1, 99.5, 'USD', 'INV-1', NULL), (2, 2, 1, 1, 0.5, 'USD', 'INV-2', 'Tip');
        """
}

extension CoreDataStoreTests {
    /// A model that calls its clients customers, its amounts totals and has no currency attribute.
    static let renamed = CoreDataFixture.metadata + """
        CREATE TABLE ZCUSTOMER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCUSTOMERID VARCHAR,
            ZDISPLAYNAME VARCHAR);
        CREATE TABLE ZBILL (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCUSTOMER INTEGER, ZTOTAL FLOAT,
            ZISSUEDAT TIMESTAMP, ZBILLNUMBER VARCHAR);
        INSERT INTO Z_PRIMARYKEY VALUES (1, 'Customer', 0, 1), (2, 'Bill', 0, 2);
        INSERT INTO ZCUSTOMER VALUES (1, 1, 1, 'K-7', 'Acme');
        INSERT INTO ZBILL VALUES (1, 2, 1, 1, 99.95, 760060800, 'B-1'), (2, 2, 1, 1, 0.05, 760060800, 'B-2');
        """

    @Test(.temporaryFolder) func everyNameTheToolReadsCanBeMappedAndACurrencyGivenForAModelWithout() throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("Renamed.sqlite")
        try CoreDataFixture.make(at: path, sql: Self.renamed)

        // Unmapped: every missing entity in one report, each naming the option that fixes it.
        let unmapped = try #require(throws: StoreIssues.self) { try BooksStore(path: path) }
        #expect(unmapped.issues.count == 2)
        #expect(unmapped.issues.allSatisfy { $0.kind == .wrongSchema })
        #expect(unmapped.issues[0].message.contains("--core-data-name Client=NAME"))
        #expect(unmapped.issues[1].message.contains("--core-data-name Invoice=NAME"))

        // Entities mapped, attributes not, and a date attribute that does not exist: all of it in one run.
        var partial = CoreDataMapping(issueDateAttribute: "sentOn")
        #expect(partial.addNames(["Client=Customer", "Invoice=Bill"]) == nil)
        let both = try #require(throws: StoreIssues.self) { try BooksStore(path: path, coreDataMapping: partial) }
        #expect(both.issues.contains { $0.column == "ZAMOUNT" && $0.message.contains("--core-data-name Invoice.amount=NAME") })
        #expect(both.issues.contains { $0.column == "ZSENTON" && $0.message.contains("named by --issue-date-attribute") })

        var mapping = CoreDataMapping()
        #expect(mapping.addNames(["Client=Customer", "Invoice=Bill", "Client.number=customerID", "Client.name=displayName",
                                  "Invoice.client=customer", "Invoice.amount=total", "Invoice.identifier=billNumber"]) == nil)
        // Without a currency attribute and no default currency, the message says how to give one.
        let noCurrency = try #require(throws: StoreIssues.self) { try BooksStore(path: path, coreDataMapping: mapping) }
        #expect(noCurrency.issues.map(\.column) == ["ZCURRENCY"])
        #expect(noCurrency.issues[0].message.contains("--default-currency CODE"))

        mapping.defaultCurrency = try CurrencyCode("CHF")
        let store = try BooksStore(path: path, coreDataMapping: mapping)
        #expect(store.books.clients.map(\.number) == ["K-7"])
        #expect(store.books.clients.map(\.name) == ["Acme"])
        #expect(store.books.currencies.map(\.code) == ["CHF"])
        #expect(store.books.invoices.map(\.identifier) == ["B-1", "B-2"])
        #expect(store.books.invoices.map(\.amount) == [9995, 5])

        #expect(mapping.addNames(["Invoice.total=x"])?.contains("is not a name the tool reads") == true)
        #expect(mapping.addNames(["Client"])?.contains("is not KEY=NAME") == true)
    }
}
