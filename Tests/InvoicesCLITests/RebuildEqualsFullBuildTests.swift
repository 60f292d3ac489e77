import Foundation
import InvoicesTesting
import Testing

/// Issue 46's "Done when": an incremental build equals a full build after each kind of change. The kinds
/// IncrementalBuildTests and UpToDateBuildTests leave out are here: a store edited outside the tool while the trail
/// is missing, and the DATEV files (written only with `datev:` set) after an invoice, a payment, a client's address,
/// a tax line and a deleted client. Each compares every file of the rebuilt site and its trail with a full build's,
/// byte for byte (``TestProject/expectSameAsFullBuild(_:sourceLocation:)``); docs/performance.md lists which test
/// holds each kind.
@Suite(.serialized)
struct RebuildEqualsFullBuildTests {
    /// The trail deleted (a CI cache lost, a folder cleaned by hand) and the store edited with sqlite3 meanwhile: the
    /// rebuild still has the manifest and the trail's index, so it may take pages and pieces from the previous build,
    /// but nothing made from the missing trail (its runs, the changes page) and nothing the edit moved.
    @Test(.temporaryFolder) func aStoreEditedOutsideTheToolWhileTheTrailIsMissing() throws {
        let project = try TestProject.initialized()
        #expect(FileManager.default.fileExists(atPath: project.folder.path(".site.trail-pieces")))
        try FileManager.default.removeItem(atPath: project.trail)
        try project.sql(
            "UPDATE invoice SET amount = amount + 500, net = net + 500 WHERE id = (SELECT id FROM invoice ORDER BY issuedOn DESC, id DESC LIMIT 1)")
        try project.sql("UPDATE client SET street = 'Neue Straße 5', zip = '10115' WHERE id = (SELECT MIN(clientId) FROM invoice)")
        let summary = try project.expectSameAsFullBuild()
        #expect((TestProject.reused(summary) ?? 0) > 0, "a rebuild, not a full build: \(summary)")
        #expect(FileManager.default.fileExists(atPath: project.trail))
        // Once more with the trail missing and the store, templates and options as the last build read them: the trail
        // is that build's output too, so the build is not "up to date" (it once was, and left the trail missing); it
        // writes the trail again, and the site is a full build's.
        try FileManager.default.removeItem(atPath: project.trail)
        let again = try project.expectSameAsFullBuild()
        #expect(again.hasPrefix("Wrote "), "\(again)")
        #expect(FileManager.default.fileExists(atPath: project.trail))
    }

    /// With `datev:` set the site holds `datev/EXTF_Buchungsstapel_<year>.csv`; after each kind of change to the books
    /// the rebuild's DATEV files, exports, journals, print packs, pages and trail are a full build's.
    @Test(.temporaryFolder) func withDATEVEachKindOfChangeGivesAFullBuildsFiles() throws {
        let project = try TestProject.initialized()
        try Self.makeDATEVReady(project)
        let options = ["--config", try Self.writeDATEVConfig(project), "--rates", project.path("rates.csv"), "--base-currency", "EUR"]
        // An option: DATEV switched on.
        try project.expectSameAsFullBuild(options)
        let datev = try project.files().keys.filter { $0.hasPrefix("datev/") }
        #expect(datev.count >= 2, "\(datev.sorted())")
        // An invoice and a payment.
        try project.sql(
            "UPDATE invoice SET amount = amount + 1234, net = net + 1234 WHERE id = (SELECT id FROM invoice WHERE currency = 'EUR' ORDER BY issuedOn DESC, id DESC LIMIT 1)")
        try project.sql("UPDATE payment SET amount = amount - 100, paidOn = date(paidOn, '+1 day') WHERE id = (SELECT MIN(id) FROM payment)")
        try project.expectSameAsFullBuild(options)
        // A client's address and a tax line.
        try project.sql("UPDATE client SET street = 'Rue Neuve 2', city = 'Lyon', zip = '69001', country = 'FR' WHERE id = (SELECT MAX(clientId) FROM invoice)")
        let line = try #require(project.rows("SELECT id, invoiceId FROM taxLine WHERE rate = '20' ORDER BY id LIMIT 1").first)
        try project.sql("UPDATE taxLine SET amount = amount + 200 WHERE id = \(try #require(line["id"]))")
        try project.sql("UPDATE invoice SET amount = amount + 200 WHERE id = \(try #require(line["invoiceId"]))")
        try project.expectSameAsFullBuild(options)
        // A deleted client, with its invoices and what hangs on them.
        let client = try #require(project.rows("SELECT MIN(clientId) AS id FROM invoice")[0]["id"])
        let invoices = "(SELECT id FROM invoice WHERE clientId = \(client))"
        for table in ["payment", "writeOff", "taxLine"] { try project.sql("DELETE FROM \(table) WHERE invoiceId IN \(invoices)") }
        try project.sql("DELETE FROM invoice WHERE clientId = \(client) AND correctsId IS NOT NULL")
        try project.sql("DELETE FROM invoice WHERE clientId = \(client)")
        try project.sql("DELETE FROM client WHERE id = \(client)")
        try project.expectSameAsFullBuild(options)
    }

    /// The initialized project's books as DATEV can hold them: no KWD (three decimals), and every client name in
    /// Windows-1252; `rates.csv` converts the other currencies to EUR.
    static func makeDATEVReady(_ project: TestProject) throws {
        let kwd = "(SELECT id FROM invoice WHERE currency = 'KWD')"
        for table in ["payment", "writeOff", "taxLine"] { try project.sql("DELETE FROM \(table) WHERE invoiceId IN \(kwd)") }
        try project.sql("DELETE FROM invoice WHERE currency = 'KWD' AND correctsId IS NOT NULL")
        try project.sql("DELETE FROM invoice WHERE currency = 'KWD'")
        for row in try project.rows("SELECT id, name FROM client") {
            guard let id = row["id"], let name = row["name"], name.data(using: .windowsCP1252) == nil else { continue }
            try project.sql("UPDATE client SET name = 'Latin \(id)' WHERE id = \(id)")
        }
        try project.write("rates.csv", DATEVExportTests.rates)
    }

    /// A settings file that sets `datev:` alone (the tests give the store, templates and output as flags).
    static func writeDATEVConfig(_ project: TestProject) throws -> String {
        try project.write("datev.yaml", "datev:\n  adviser: 1001\n  client: 42\n  chart: SKR04\n  revenue:\n    20: 4400\n    7.7: 4300\n    0: 4120\n")
    }
}
