import Foundation
import InvoicesTesting
import Testing

/// Issue 43: the changes page of a German report is in German (what changed, the record and the values' names),
/// and an English one keeps the trail's words; changes.csv keeps them in every language.
struct ChangesPageLanguageTests {
    /// Builds the sample twice in `language`, an invoice's due date changed and a payment deleted in between;
    /// returns changes.html and changes.csv.
    static func changes(language: String, in folder: TemporaryFolder) throws -> (html: String, csv: String) {
        let store = folder.path("books.sqlite")
        let sample = try CLI.run(["sample", "--clients", "6", "--invoices", "60", "--seed", "4", "--output", store])
        #expect(sample.status == 0, "\(sample.stderr)")
        try "store: books.sqlite\noutput: site\nlanguage: \(language)\n".write(toFile: folder.path("invoices.yaml"), atomically: true, encoding: .utf8)
        #expect(try CLI.run(["build", "--quiet"], in: folder.url).status == 0)
        let edit = try CLI.shell(
            "sqlite3 '\(store)' \"UPDATE invoice SET dueOn = '2030-01-31' WHERE id = (SELECT min(id) FROM invoice); "
                + "DELETE FROM payment WHERE id = (SELECT min(id) FROM payment)\" </dev/null")
        #expect(edit.status == 0, "\(edit.stderr)")
        let build = try CLI.run(["build", "--quiet"], in: folder.url)
        #expect(build.status == 0, "\(build.stderr)")
        return (
            try String(contentsOfFile: folder.path("site/changes.html"), encoding: .utf8),
            try String(contentsOfFile: folder.path("site/changes.csv"), encoding: .utf8)
        )
    }

    @Test(.temporaryFolder) func aGermanChangesPageIsInGerman() throws {
        let (html, csv) = try Self.changes(language: "de", in: try TemporaryFolder.current)
        #expect(html.contains("<td>geändert<td>fällig<td>"), "\(html)")
        #expect(html.contains(/\sZahlung [0-9]+<td>entfernt<td><td>Datum\s/), "\(html)")
        #expect(html.contains(", Betrag "))
        #expect(html.contains(">Rechnung "))
        for english in ["<td>changed", "<td>removed", "<td>due", " payment ", "date 20", ", amount ", ">invoice ", ">figures "] {
            #expect(!html.contains(english), "\(english)")
        }
        // The CSV is the trail's, in every language.
        #expect(csv.contains(",changed,due,") && csv.contains(/\spayment [0-9]+,removed,,"?date\s/), "\(csv)")
    }

    @Test(.temporaryFolder) func anEnglishChangesPageKeepsTheTrailsWords() throws {
        let (html, _) = try Self.changes(language: "en", in: try TemporaryFolder.current)
        #expect(html.contains("<td>changed<td>due<td>"), "\(html)")
        #expect(html.contains(/\spayment [0-9]+<td>removed<td><td>date\s/), "\(html)")
        #expect(html.contains(">invoice ") && html.contains(">figures "))
    }
}
