import Foundation
import InvoicesTesting
import Testing

/// Issue 43: the changes page of a German report is in German (what changed, the record and the values' names, and
/// the values: dates, amounts with their currency, statuses, tax rates), and an English one keeps the trail's words
/// and values; changes.csv keeps them in every language.
struct ChangesPageLanguageTests {
    /// Builds the sample twice in `language`, in between an invoice's due date changed and its status to void, its
    /// payment (JPY) deleted, another payment's amount (GBP) less by 1.00, and a tax line's rate 8.125 %; returns
    /// changes.html and changes.csv.
    static func changes(language: String, in folder: TemporaryFolder) throws -> (html: String, csv: String) {
        let store = folder.path("books.sqlite")
        let sample = try CLI.run(["sample", "--clients", "6", "--invoices", "60", "--seed", "4", "--output", store])
        #expect(sample.status == 0, "\(sample.stderr)")
        try "store: books.sqlite\noutput: site\nlanguage: \(language)\n".write(toFile: folder.path("invoices.yaml"), atomically: true, encoding: .utf8)
        #expect(try CLI.run(["build", "--quiet"], in: folder.url).status == 0)
        let edit = try CLI.shell(
            "sqlite3 '\(store)' \"UPDATE invoice SET dueOn = '2030-01-31' WHERE id = (SELECT min(id) FROM invoice); "
                + "UPDATE invoice SET status = 'void' WHERE id = (SELECT min(id) FROM invoice); "
                + "UPDATE payment SET amount = amount - 100 WHERE id = (SELECT min(id) FROM payment WHERE invoiceId = 2); "
                + "DELETE FROM payment WHERE id = (SELECT min(id) FROM payment); "
                + "UPDATE taxLine SET rate = '8.125' WHERE id = (SELECT min(id) FROM taxLine)\" </dev/null")
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
        // The values in the page's formats: dates as dd.MM.yyyy, amounts as German money with their currency (the
        // payment's invoice's, the figures' own), the status through the status column's keys.
        #expect(html.contains(/<td>fällig<td>[0-9]{2}\.[0-9]{2}\.[0-9]{4}<td>31\.01\.2030/), "\(html)")
        #expect(html.contains("<td>Status<td>versendet<td>storniert"), "\(html)")
        #expect(html.contains(/Zahlung [0-9]+<td>geändert<td>Betrag<td>[0-9.]+,[0-9]{2}\u{A0}£<td>[0-9.]+,[0-9]{2}\u{A0}£/), "\(html)")
        #expect(html.contains(/<td>entfernt<td><td>Datum [0-9]{2}\.[0-9]{2}\.[0-9]{4}, Betrag [0-9.]+\u{A0}¥,/), "\(html)")
        #expect(html.contains(/Zahlen [^<]* GBP [0-9-]+<td>geändert<td>bezahlt<td>[0-9.]+,[0-9]{2}\u{A0}£/), "\(html)")
        // A tax line's rate in the page's number form: the number and ` %`, as the site's tax rates.
        #expect(html.contains(/Steuerzeile [0-9]+<td>geändert<td>Satz<td>[0-9]+(,[0-9]+)? %<td>8,125 %/), "\(html)")
        // No row cell holds the trail's raw status, date or rate (a cell ends at the next tag or at its row's line end).
        #expect(!html.contains(/<td>(sent|void|2030-01-31|[0-9.]+%)(<|\n)/), "\(html)")
        // The CSV is the trail's, in every language.
        #expect(csv.contains(",changed,due,") && csv.contains(/\spayment [0-9]+,removed,,"?date\s/), "\(csv)")
        #expect(csv.contains(",changed,status,sent,void,") && csv.contains(",2030-01-31,"), "\(csv)")
        #expect(csv.contains(/\spayment [0-9]+,changed,amount,[0-9]+\.[0-9]{2},[0-9]+\.[0-9]{2},/), "\(csv)")
        #expect(csv.contains(/\stax line [0-9]+,changed,rate,[0-9.]+%,8\.125%,/), "\(csv)")
    }

    @Test(.temporaryFolder) func anEnglishChangesPageKeepsTheTrailsWords() throws {
        let (html, _) = try Self.changes(language: "en", in: try TemporaryFolder.current)
        #expect(html.contains("<td>changed<td>due<td>"), "\(html)")
        #expect(html.contains(/\spayment [0-9]+<td>removed<td><td>date\s/), "\(html)")
        #expect(html.contains(">invoice ") && html.contains(">figures "))
        // The trail's values, as before issue 43 (byte-identical English pages).
        #expect(html.contains(/<td>due<td>[0-9]{4}-[0-9]{2}-[0-9]{2}<td>2030-01-31/), "\(html)")
        #expect(html.contains("<td>status<td>sent<td>void"), "\(html)")
        #expect(html.contains(/payment [0-9]+<td>changed<td>amount<td>[0-9]+\.[0-9]{2}<td>[0-9]+\.[0-9]{2}/), "\(html)")
        #expect(html.contains(/<td>removed<td><td>date [0-9]{4}-[0-9]{2}-[0-9]{2}, amount [0-9]+,/), "\(html)")
        #expect(html.contains(/\stax line [0-9]+<td>changed<td>rate<td>[0-9.]+%<td>8\.125%/), "\(html)")
    }
}
