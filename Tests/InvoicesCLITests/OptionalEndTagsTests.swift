import Foundation
import InvoicesTesting
import Testing

extension LeanTablesTests {
    /// The default rows leave out the end tags HTML lets a page omit, and a row heading's `scope="row"` where the
    /// table model's auto scope makes it the row's heading: only a heading that spans columns keeps it (the aging
    /// table's rows always hold data cells, at least "not due" and the last bucket's; docs/templates.md).
    @Test(.temporaryFolder) func theDefaultRowsLeaveOutOptionalEndTagsAndTheRowScopeTheTableGives() throws {
        let folder = try TemporaryFolder.current
        let site = try Self.site(folder, "site")
        var rows = 0
        for page in try Self.pages(site) {
            let html = try String(contentsOfFile: site + "/" + page, encoding: .utf8)
            rows += html.matches(of: /<tr[ >]/).count
            for tag in ["</td>", "</th>", "</tr>"] {
                #expect(!html.contains(tag), "\(page): \(tag)")
            }
            for table in html.components(separatedBy: "<table").dropFirst() {
                for match in table.components(separatedBy: "</table>")[0].matches(of: /<th scope="row"([^>]*)>/) {
                    #expect(match.output.1.contains("colspan="), "\(page): \(match.output.0)")
                }
            }
        }
        #expect(rows > 1_000, "the site has its tables")
    }
}

extension LeanTablesTests {
    /// The default templates write their fixed one-word attribute values without quotes (the page shell's, a note's
    /// class, an overdue row's class) and the layout leaves out `</html>`: bytes on every page and every overdue row,
    /// the same tree in the browser (docs/templates.md). `</body>` stays, for `invoices serve`'s reload script.
    @Test(.temporaryFolder) func theDefaultPagesWriteTheirFixedOneWordValuesWithoutQuotes() throws {
        let folder = try TemporaryFolder.current
        let site = try Self.site(folder, "site")
        var notes = 0, overdue = 0
        for page in try Self.pages(site) {
            let html = try String(contentsOfFile: site + "/" + page, encoding: .utf8)
            guard html.hasPrefix("<!DOCTYPE html>") else { continue }
            for quoted in ["charset=\"utf-8\"", "name=\"viewport\"", "name=\"referrer\"", "class=\"site\"", "class=\"home\"",
                           "class=\"note\"", "class=\"overdue\"", "</html>"] {
                #expect(!html.contains(quoted), "\(page): \(quoted)")
            }
            #expect(html.contains("\n<meta charset=utf-8>\n<meta name=viewport content=\"width=device-width, initial-scale=1\">\n"), "\(page)")
            #expect(html.contains("\n<header class=site>\n") && html.hasSuffix("</footer>\n</body>\n"), "\(page)")
            notes += html.ranges(of: "<p class=note>").count
            overdue += html.ranges(of: "<tr class=overdue>").count
        }
        #expect(notes > 10 && overdue > 0, "\(notes) notes, \(overdue) overdue rows")
    }
}
