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
