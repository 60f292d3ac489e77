import Foundation
import InvoicesTesting
import Testing

/// Closed periods and the changes page (issue 32), through the built binary on a real SQLite store: the v2 cases
/// (payments, a write-off, a tax line, a credit note), closed through the end of Q3 2025.
@Suite(.serialized)
struct ClosedPeriodTests {
    /// A change to a document of Q3 2025, its undoing, and what the message must name.
    struct Edit: Sendable, CustomStringConvertible {
        var change: String
        var undo: String
        var expected: String
        var description: String { expected }
    }

    static let edits: [Edit] = [
        Edit(
            change: "UPDATE invoice SET amount = 51000 WHERE identifier = 'INV-2'",
            undo: "UPDATE invoice SET amount = 50000 WHERE identifier = 'INV-2'",
            expected: "invoice INV-2 amount: 500.00 → 510.00"),
        Edit(
            change: "UPDATE payment SET paidOn = '2025-05-06' WHERE paidOn = '2025-05-05'",
            undo: "UPDATE payment SET paidOn = '2025-05-05' WHERE paidOn = '2025-05-06'",
            expected: "INV-4 payment 1 date: 2025-05-05 → 2025-05-06"),
        Edit(
            change: "UPDATE writeOff SET amount = 6000", undo: "UPDATE writeOff SET amount = 7000",
            expected: "INV-6 write-off 1 amount: 70.00 → 60.00"),
        Edit(
            change: "UPDATE taxLine SET name = 'VAT'", undo: "UPDATE taxLine SET name = 'MWST'",
            expected: "INV-8 tax line 1 tax: MWST → VAT"),
    ]

    @Test(.temporaryFolder) func aClosedPeriodWithoutARecordOfThePreviousBuildIsRefused() throws {
        let project = try TestProject.v2Cases()
        let result = try project.build(["--closed-through", "2025-09-30"])
        #expect(result.status == 66, "\(result.stderr)")
        #expect(result.stderr.contains(".site.trail") && result.stderr.contains("--allow-closed-changes"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: project.site))
        // A first build without closing anything starts the record, and says there is nothing to compare with.
        #expect(try project.build().status == 0)
        #expect(try project.text("changes.html").contains("This is the first report built here"))
        #expect(try project.text("index.html").contains("changes.html"))
        #expect(FileManager.default.fileExists(atPath: project.trail))
    }

    @Test(.temporaryFolder, arguments: edits)
    func aChangeInTheClosedPeriodStopsTheBuildNamingTheDocumentFieldAndBothValues(edit: Edit) throws {
        let project = try TestProject.v2Cases()
        #expect(try project.build().status == 0)
        #expect(try project.build(["--closed-through", "2025-09-30"]).status == 0, "nothing changed: the closed check passes")
        let before = try project.files()
        try project.sql(edit.change)
        let refused = try project.build(["--closed-through", "2025-09-30"])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("closed period (through 2025-09-30) changed: \(edit.expected)"), "\(refused.stderr)")
        #expect(try project.files() == before, "the previous site is kept")
        // The same change with the period open (closed through February): built, and listed with both values.
        let open = try project.build(["--closed-through", "2025-02-28"])
        #expect(open.status == 0, "\(open.stderr)")
        let csv = try project.text("changes.csv")
        let parts = edit.expected.components(separatedBy: ": ")
        let values = parts[1].components(separatedBy: " → ")
        #expect(csv.contains(",changed,") && csv.contains(values[0]) && csv.contains(values[1]), "\(csv)")
        let page = try project.text("changes.html")
        #expect(page.contains("<td>\(values[0])<td>\(values[1])"), "\(page)")
        #expect(!page.contains("class=\"closed\""), "only January and February are closed; the change is later")
        // Allowed on purpose: built, and the change is marked as one in the closed period.
        try project.sql(edit.undo)
        let allowed = try project.build(["--closed-through", "2025-09-30", "--allow-closed-changes"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(try project.text("changes.html").contains("<tr class=\"closed\">"))
        #expect(try project.text("changes.csv").contains(",yes\r\n"))
    }

    @Test(.temporaryFolder) func deletingAnInvoiceAndImportingItAgainWithTheSameFieldsIsNoChange() throws {
        let project = try TestProject.v2Cases()
        #expect(try project.build().status == 0)
        // INV-2 and its payment, deleted and inserted again under new row ids, with the same fields.
        try project.sql("""
            DELETE FROM payment WHERE invoiceId = 2;
            UPDATE invoice SET correctsId = NULL WHERE correctsId = 2;
            DELETE FROM invoice WHERE id = 2;
            INSERT INTO invoice (id, identifier, clientId, amount, net, currency, issuedOn, dueOn, status, kind, correctsId, appliedOn)
              VALUES (20, 'INV-2', 2, 50000, NULL, 'EUR', '2025-03-01', '2025-03-15', 'sent', 'invoice', NULL, NULL);
            UPDATE invoice SET correctsId = 20 WHERE identifier = 'CN-1';
            INSERT INTO payment (invoiceId, paidOn, amount, method, reference) VALUES (20, '2025-04-20', 40000, 'card', '');
            """)
        let result = try project.build(["--closed-through", "2025-09-30"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try project.text("changes.csv") == "record,name,change,field,before,after,closed_period\r\n")
        #expect(try project.text("changes.html").contains("Nothing changed"))
    }

    @Test(.temporaryFolder) func incrementalAndFullBuildsWriteTheSameChangesAndTheRecordOutlivesTheOutput() throws {
        let project = try TestProject.v2Cases()
        #expect(try project.build().status == 0)
        // A copy of the output and its record, to build the same change in full.
        let copy = project.folder.path("copy")
        #expect(try CLI.shell("cp -a '\(project.site)' '\(copy)' && cp '\(project.trail)' '\(project.folder.path(".copy.trail"))'").status == 0)
        try project.sql("UPDATE payment SET amount = 30000 WHERE paidOn = '2025-04-20'")
        #expect(try project.build().status == 0)
        #expect(try project.build(["--full"], output: copy).status == 0)
        for name in ["changes.html", "changes.csv"] {
            #expect(try project.text(name) == String(contentsOfFile: copy + "/" + name, encoding: .utf8), "\(name)")
        }
        #expect(try project.text("changes.csv").contains("INV-2 payment 1,changed,amount,400.00,300.00,"))
        // The output is deleted (as after a publish from CI): the record beside it still guards the closed period.
        try FileManager.default.removeItem(atPath: project.site)
        try project.sql("UPDATE invoice SET dueOn = '2025-03-20' WHERE identifier = 'INV-2'")
        let refused = try project.build(["--closed-through", "2025-09-30"])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("invoice INV-2 due: 2025-03-15 → 2025-03-20"), "\(refused.stderr)")
    }

    @Test(.temporaryFolder) func hostileIdentifiersOnTheChangesPageStayText() throws {
        let project = try TestProject.v2Cases()
        #expect(try project.build().status == 0)
        try project.sql("UPDATE invoice SET identifier = '<script>alert(1)</script>', notes = '\u{202E}evil' WHERE identifier = 'INV-2'")
        #expect(try project.build().status == 0)
        let page = try project.text("changes.html")
        #expect(!page.contains("<script>"))
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(page.contains("\u{202E}evil\u{202C}"), "the override is closed within the value")
    }

    /// An output folder whose parent does not exist yet gets its trail beside it on the first build: the trail is
    /// written before the site's folder is made, so it makes the parent itself (it once warned "cannot write the
    /// trail" and the next build had nothing to compare with).
    @Test(.temporaryFolder) func aFirstBuildIntoANewFolderKeepsItsTrail() throws {
        let project = try TestProject.v2Cases()
        let output = project.folder.path("new/nested/site")
        let first = try project.build(output: output)
        #expect(first.status == 0 && first.stderr.isEmpty, "\(first.stderr)")
        #expect(FileManager.default.fileExists(atPath: project.folder.path("new/nested/.site.trail")))
        try project.sql("UPDATE invoice SET amount = 51000 WHERE identifier = 'INV-2'")
        #expect(try project.build(output: output).status == 0)
        let changes = try String(contentsOfFile: output + "/changes.csv", encoding: .utf8)
        #expect(changes.contains("INV-2") && changes.contains("510.00"), "\(changes)")
    }

    /// A rebuild of the same books reads only the trail's first line (their fingerprint) and leaves the file as it
    /// was; a change after such a rebuild is still found, and a trail whose fingerprint line was edited is compared
    /// in full.
    @Test(.temporaryFolder) func aRebuildOfTheSameBooksKeepsTheTrailAndStillFindsTheNextChange() throws {
        let project = try TestProject.v2Cases()
        #expect(try project.build().status == 0)
        let first = try FileManager.default.attributesOfItem(atPath: project.trail)
        let firstBytes = try Data(contentsOf: URL(fileURLWithPath: project.trail))
        #expect(String(decoding: firstBytes.prefix(while: { $0 != 0x0A }), as: UTF8.self).hasPrefix("invoices-trail 1 "))
        #expect(try project.build(["--closed-through", "2025-09-30"]).status == 0)
        let second = try FileManager.default.attributesOfItem(atPath: project.trail)
        #expect(second[.systemFileNumber] as? Int == first[.systemFileNumber] as? Int, "the trail was not rewritten")
        #expect(try project.text("changes.csv") == "record,name,change,field,before,after,closed_period\r\n")

        try project.sql("UPDATE invoice SET amount = 51000 WHERE identifier = 'INV-2'")
        let refused = try project.build(["--closed-through", "2025-09-30"])
        #expect(refused.status == 65 && refused.stderr.contains("invoice INV-2 amount: 500.00 → 510.00"), "\(refused.stderr)")
        try project.sql("UPDATE invoice SET amount = 50000 WHERE identifier = 'INV-2'")

        // The same records under another fingerprint (an older file, or one edited by hand): compared line by line.
        var edited = firstBytes
        let end = try #require(edited.firstIndex(of: 0x0A))
        edited.replaceSubrange(0..<end, with: Data("invoices-trail 1 0".utf8))
        try edited.write(to: URL(fileURLWithPath: project.trail))
        #expect(try project.build(["--closed-through", "2025-09-30"]).status == 0)
        #expect(try project.text("changes.csv") == "record,name,change,field,before,after,closed_period\r\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: project.trail)) == firstBytes, "rewritten with the books' fingerprint")
    }
}
