import Foundation
import InvoicesTesting
import Testing

/// A leaner site (issue 46 item 5): the default templates put a class on each table, never on its cells, and the
/// default stylesheet finds the columns of figures by their place, for the same look.
@Suite(.serialized)
struct LeanTablesTests {
    /// A sample site in `language`, built into `folder/name`.
    static func site(_ folder: TemporaryFolder, _ name: String, language: String? = nil) throws -> String {
        let store = folder.path("books.sqlite")
        if !FileManager.default.fileExists(atPath: store) {
            #expect(try CLI.run(["sample", "--clients", "12", "--invoices", "400", "--seed", "3", "--output", store]).status == 0)
        }
        let site = folder.path(name)
        let build = try CLI.run(["build", "--store", store, "--output", site, "--quiet"] + (language.map { ["--language", $0] } ?? []))
        #expect(build.status == 0, "\(build.stderr)")
        return site
    }

    /// The HTML pages of `site`, by path.
    static func pages(_ site: String) throws -> [String] {
        let walker = try #require(FileManager.default.enumerator(atPath: site))
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".html") }.sorted()
    }

    /// No cell of any page carries an attribute other than a row heading's `scope` and a cell's `colspan`: a row is
    /// its values (before, every figure carried `class="num"`, every date `class="date"`, a row about 250 bytes).
    @Test(.temporaryFolder) func noCellOfTheDefaultPagesCarriesAClass() throws {
        let folder = try TemporaryFolder.current
        let site = try Self.site(folder, "site")
        var cells = 0
        for page in try Self.pages(site) {
            let html = try String(contentsOfFile: site + "/" + page, encoding: .utf8)
            for match in html.matches(of: /<t[dh]( [^>]*)?>/) {
                cells += 1
                let attributes = String(match.output.1 ?? "")
                let left = attributes.replacing(#/ scope="(row|col)"| colspan="\d+"/#, with: "")
                #expect(left.isEmpty, "\(page): \(match.output.0)")
            }
        }
        #expect(cells > 10_000, "the site has its tables")
    }

    /// Each cell's look as headless Chromium computes it from the default stylesheet (text-align, white-space,
    /// direction), in document order, for the pages that hold the site's kinds of tables.
    static func looks(_ browser: String, _ site: String, _ page: String) throws -> [(look: String, text: String)] {
        var html = try String(contentsOfFile: site + "/" + page, encoding: .utf8)
        let script = """
            <script>for (const c of document.querySelectorAll('table.figures td, table.figures th')) { const s = getComputedStyle(c); \
            c.setAttribute('data-look', s.textAlign + ' ' + s.whiteSpace + ' ' + s.direction); }</script>
            """
        // The probe runs inline: the page's Content-Security-Policy (scripts from files only) is left out of the copy.
        html = html.replacing(#/<meta http-equiv="Content-Security-Policy"[^>]*>/#, with: "").replacingOccurrences(of: "</body>", with: script + "</body>")
        let probe = (site + "/" + page).replacingOccurrences(of: ".html", with: ".probe.html")
        try html.write(toFile: probe, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: probe) }
        let dom = try ClientSearchTests.dom(browser, "file://" + probe)
        return dom.matches(of: /<t[dh][^>]*? data-look="([^"]*)">(.*?)<\/t[dh]>/).map { (String($0.output.1), String($0.output.2)) }
    }

    /// Figures (an amount, a count) right-aligned on one line, words and dates left-aligned, as the `num` class on
    /// each cell gave; with `--language he` every cell mirrored (figures left-aligned, left to right). Seen through a
    /// browser, so a selector that misses a column fails here.
    @Test(.temporaryFolder) func figuresStayRightAlignedAndMirrorRightToLeftWithoutTheirClass() throws {
        let browser = try #require(ClientSearchTests.chromium(), "headless Chromium is needed: make test installs Debian's chromium")
        let folder = try TemporaryFolder.current
        let english = try Self.site(folder, "en")
        let hebrew = try Self.site(folder, "he", language: "he")
        let all = try Self.pages(english)
        func first(_ prefix: String) throws -> String { try #require(all.first { $0.hasPrefix(prefix) && !$0.dropFirst(prefix.count).contains("/") }) }
        let quarter = try first("quarters/")
        let pages = ["index.html", "collections.html", "clients.html", try first("clients/"), try first("statements/"), try first("months/"),
                     quarter, quarter.replacingOccurrences(of: ".html", with: "/print.html")]
        var figures = 0
        var words = 0
        for page in pages {
            let en = try Self.looks(browser, english, page)
            let he = try Self.looks(browser, hebrew, page)
            #expect(en.count > 5 && en.count == he.count, "\(page): \(en.count) cells, \(he.count) in Hebrew")
            for (index, cell) in en.enumerated() {
                let text = cell.text.replacingOccurrences(of: "&nbsp;", with: " ").replacingOccurrences(of: "\u{A0}", with: " ")
                if text.wholeMatch(of: /-?[A-Z]{3} -?[0-9][0-9,.]*/) != nil {
                    figures += 1
                    #expect(cell.look == "right nowrap ltr", "\(page): \(cell.text)")
                } else if text.wholeMatch(of: /paid|open|overdue|partial|\d{4}-\d\d-\d\d/) != nil {
                    words += 1
                    #expect(cell.look.hasPrefix("left "), "\(page): \(cell.text)")
                }
                guard index < he.count else { continue }
                let mirrored = cell.look.hasPrefix("right ") ? "left " + cell.look.dropFirst(6)
                    : cell.look.hasPrefix("left ") ? "right " + cell.look.dropFirst(5).replacingOccurrences(of: "ltr", with: "rtl") : cell.look
                #expect(he[index].look == mirrored, "\(page) cell \(index): \(cell.text) \(cell.look), in Hebrew \(he[index].text) \(he[index].look)")
            }
        }
        #expect(figures > 200 && words > 20, "\(figures) figures, \(words) words and dates")
    }
}
