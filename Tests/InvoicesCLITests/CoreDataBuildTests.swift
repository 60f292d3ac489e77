import Foundation
import InvoicesTesting
import Testing

/// `invoices build` on a store of the Invoices app's Core Data model.
@Suite(.serialized)
struct CoreDataBuildTests {
    /// The app's seed model (no dates) plus a ZSENTON date column: 760060800 is 2025-02-01 00:00 UTC.
    static let store = """
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
        INSERT INTO Z_METADATA VALUES (1, '8A6F2C1E-3B7D-4E59-9C0A-5D2B7F1E4A63', X'62706C6973743030');
        INSERT INTO Z_PRIMARYKEY VALUES (1, 'Client', 0, 1), (2, 'Invoice', 0, 2);
        CREATE TABLE ZCLIENT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCITY VARCHAR, ZCOUNTRY VARCHAR,
            ZEMAIL VARCHAR, ZNAME VARCHAR, ZNUMBER VARCHAR, ZSTREET VARCHAR, ZZIP VARCHAR);
        CREATE TABLE ZINVOICE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCLIENT INTEGER, ZAMOUNT FLOAT,
            ZCURRENCY VARCHAR, ZIDENTIFIER VARCHAR, ZNOTES VARCHAR, ZSENTON TIMESTAMP);
        INSERT INTO ZCLIENT VALUES (1, 1, 1, 'Springfield', 'US', NULL, 'Acme', NULL, NULL, NULL);
        INSERT INTO ZINVOICE VALUES (1, 2, 1, 1, 99.5, 'USD', 'INV-1', NULL, 760060800),
            (2, 2, 1, 1, 10.005, 'USD', 'INV-2', NULL, 760060800);
        """

    @Test(.temporaryFolder) func withoutAnIssueDateTheBuildExits65NamingTheOption() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("Invoices.sqlite")
        try StoreFixture.make(at: store, sql: Self.store, withSchema: false)
        let result = try CLI.run(["build", "--store", store, "--output", folder.path("site")])
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("Error: \(store): ZINVOICE: the Invoice entity has no issue-date attribute"))
        #expect(result.stderr.contains("--issue-date-attribute NAME"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("site")))
    }

    @Test(.temporaryFolder) func theIssueDateOptionBuildsTheSiteAndWarningsGoToStandardError() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("Invoices.sqlite")
        try StoreFixture.make(at: store, sql: Self.store, withSchema: false)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let result = try CLI.run([
            "build", "--store", store, "--output", folder.path("site"), "--issue-date-attribute", "sentOn",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Wrote "))
        let warnings = result.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("Warning: ") }
        #expect(warnings.count == 3)
        #expect(warnings.allSatisfy { $0.hasPrefix("Warning: \(store): ZINVOICE") })
        #expect(warnings.contains { $0.contains("'INV-2' column ZAMOUNT: 10.005 USD is not a whole number of minor units") })
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        #expect(FileManager.default.fileExists(atPath: folder.path("site/months/2025-02.html")))
    }
}
