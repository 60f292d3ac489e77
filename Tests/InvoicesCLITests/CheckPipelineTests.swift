import Foundation
import InvoicesTesting
import Testing

/// `check` is the build's pipeline as a dry run: the same options, the same store reading, the same warnings.
struct CheckPipelineTests {
    /// A Core Data store of the Invoices app whose model keeps the issue date in `sentOn`, a name the tool does not
    /// guess, and has no due or paid dates (so reading it gives warnings).
    static func coreDataStore(in folder: TemporaryFolder) throws -> String {
        let path = folder.path("App.sqlite")
        try StoreFixture.make(
            at: path,
            sql: """
                    CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                    CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                    INSERT INTO Z_METADATA VALUES (1, '8A6F2C1E-3B7D-4E59-9C0A-5D2B7F1E4A63', X'62706C6973743030');
                    CREATE TABLE ZCLIENT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR,
                        ZNUMBER VARCHAR, ZEMAIL VARCHAR, ZSTREET VARCHAR, ZCITY VARCHAR, ZZIP VARCHAR, ZCOUNTRY VARCHAR);
                    CREATE TABLE ZINVOICE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCLIENT INTEGER,
                        ZAMOUNT FLOAT, ZSENTON TIMESTAMP, ZCURRENCY VARCHAR, ZIDENTIFIER VARCHAR, ZNOTES VARCHAR);
                    INSERT INTO Z_PRIMARYKEY VALUES (1, 'Client', 0, 1), (2, 'Invoice', 0, 2);
                    INSERT INTO ZCLIENT VALUES (1, 1, 1, 'Acme', 'C-1', NULL, NULL, NULL, NULL, NULL);
                    -- 760060800 is 2025-02-01 00:00 UTC
                    INSERT INTO ZINVOICE VALUES (1, 2, 1, 1, 120.5, 760060800, 'EUR', 'INV-1', NULL),
                                                (2, 2, 1, 1, 80, 760060800, 'EUR', 'INV-2', NULL);
                    """, withSchema: false)
        return path
    }

    @Test(.temporaryFolder("check-pipeline")) func checkHonoursTheCoreDataDateOptionsAndListsTheWarningsBuildPrints() throws {
        let folder = try TemporaryFolder.current
        let store = try Self.coreDataStore(in: folder)

        // Without the option the store has no issue date the tool knows of: both commands say which option to use.
        let unmapped = try CLI.run(["check", "--store", store])
        #expect(unmapped.status == 65, "\(unmapped.stdout)\(unmapped.stderr)")
        #expect(unmapped.stdout.contains("--issue-date-attribute"), "\(unmapped.stdout)")

        let check = try CLI.run(["check", "--store", store, "--issue-date-attribute", "sentOn"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("OK: store \(store) (1 clients, 2 invoices)"), "\(check.stdout)")
        let checkWarnings = check.stdout.split(separator: "\n").filter { $0.hasPrefix("warning: ") }.map { $0.dropFirst(9) }
        #expect(checkWarnings.count == 2, "\(check.stdout)")

        let build = try CLI.run(["build", "--store", store, "--issue-date-attribute", "sentOn", "--output", folder.path("Output"), "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        let buildWarnings = build.stderr.split(separator: "\n").filter { $0.hasPrefix("Warning: ") }.map { $0.dropFirst(9) }
        // The same lines, in the same order: one pipeline.
        #expect(buildWarnings == checkWarnings, "\(build.stderr)")
        #expect(buildWarnings.contains { $0.contains("ZINVOICE") && $0.contains("--due-date-attribute") })

        let json = try CLI.run(["check", "--store", store, "--issue-date-attribute", "sentOn", "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["ok"] as? Bool == true)
        let problems = try #require(object["problems"] as? [[String: Any]])
        #expect(problems.map { $0["severity"] as? String } == ["warning", "warning"])
        #expect(problems.compactMap { $0["kind"] as? String }.sorted() == ["assumedDueDate", "noPaidDates"])
    }
}

extension CheckPipelineTests {
    @Test(.temporaryFolder("locale")) func anUnknownLocaleIsAUsageErrorNamingCloseMatches() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("s.sqlite")
        try StoreFixture.make(at: store, sql: "INSERT INTO client (id, number, name) VALUES (1, 'C-1', 'Acme');")
        let typo = try CLI.run(["build", "--store", store, "--output", folder.path("Output"), "--locale", "de_DX"])
        #expect(typo.status == 64, "\(typo.stderr)")
        #expect(typo.stderr.contains("'de_DX' is not a locale this system knows; did you mean"), "\(typo.stderr)")
        #expect(typo.stderr.contains("'de_DE'"), "\(typo.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("Output")))
        let unknown = try CLI.run(["check", "--store", store, "--locale", "xx_YY"])
        #expect(unknown.status == 64, "\(unknown.stderr)")
        let known = try CLI.run(["check", "--store", store, "--locale", "de-DE"])
        #expect(known.status == 0, "\(known.stdout)\(known.stderr)")
    }
}
