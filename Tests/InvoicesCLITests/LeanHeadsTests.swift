import Foundation
import InvoicesTesting
import Testing

extension LeanTablesTests {
    /// The default pages leave out what the HTML table model and the optional-tag rules give anyway (issue 46 item 5,
    /// docs/templates.md): a column heading's `scope="col"` (a `th` in a row without data cells is a column header in
    /// the auto state), `</thead>`, `</tbody>` and `</tfoot>`, the facts list's `</dt>` and `</dd>`, and a status class
    /// the stylesheet never reads on the balances' and set-aside rows; the quarters' tax list rows and the months'
    /// client list rows write their client link's address, a path the build makes, without quotes. Each such address
    /// is a plain relative path to a client page that exists. Before this step the demo (`sample --clients 40 --invoices
    /// 1200 --seed 1`, `--page-size 10`) wrote 8,333 `scope="col"`.
    @Test(.temporaryFolder) func theDefaultPagesLeaveOutWhatTheTableModelGives() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        #expect(try CLI.run(["sample", "--clients", "60", "--invoices", "1200", "--seed", "3", "--output", store]).status == 0)
        let site = folder.path("site")
        // Ten rows a page, so the months' client lists have pages of their own, and the quarters' tax lists too
        // (150 invoices a quarter, past the print pack's ten pages, which would take them otherwise).
        let build = try CLI.run(["build", "--store", store, "--output", site, "--page-size", "10", "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        var heads = 0, listLinks = 0, facts = 0
        for page in try Self.pages(site) {
            let html = try String(contentsOfFile: site + "/" + page, encoding: .utf8)
            for tag in ["scope=\"col\"", "</thead>", "</tbody>", "</tfoot>"] {
                #expect(!html.contains(tag), "\(page): \(tag)")
            }
            // A head's row holds headings only, so each is its column's header without `scope`.
            for head in html.matches(of: /<thead><tr>([^\n]*)\n/) {
                heads += 1
                #expect(!head.output.1.contains("<td"), "\(page): \(head.output.0)")
            }
            for list in html.matches(of: /<dl class="facts">([^<]|<(?!\/dl>))*<\/dl>/) {
                facts += 1
                #expect(!list.output.0.contains("</dt>") && !list.output.0.contains("</dd>"), "\(page): \(list.output.0)")
            }
            #expect(!html.contains(#/<tr class="(partial|credit|credit-note|void|draft)"/#), "\(page)")
            let isList = page.wholeMatch(of: /quarters\/[^\/]+\/tax-[^\/]+\/\d+\.html/) != nil
                || page.wholeMatch(of: /months\/[^\/]+\/[^\/]+\/\d+\.html/) != nil
            guard isList, !html.contains("http-equiv=\"refresh\"") else { continue }
            let folderOfPage = (page as NSString).deletingLastPathComponent
            for row in html.split(separator: "\n") where row.hasPrefix("<tr><th>") {
                let link = try #require(row.firstMatch(of: /<a href=([^ >"']+)>/), "\(page): \(row)")
                let href = String(link.output.1)
                #expect(href.wholeMatch(of: /(\.\.\/)+clients\/[a-z0-9-]+\.html/) != nil, "\(page): \(href)")
                let target = ((site + "/" + folderOfPage + "/" + href) as NSString).standardizingPath
                #expect(FileManager.default.fileExists(atPath: target), "\(page): \(href)")
                listLinks += 1
            }
        }
        #expect(heads > 500 && facts >= 24, "the site has its tables and facts")
        #expect(listLinks >= 400, "the quarters' and months' list pages link their clients: \(listLinks)")
    }
}
