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

    /// A statement's lines and a client's invoice rows carry a class only where the stylesheet uses it: a line none
    /// (its kind is in its document cell, `Invoice INV-1`; the opening and closing balances keep theirs), an invoice
    /// row `overdue` exactly when its status is (before, `class="invoice"`, `class="payment"`, `class="paid"` on
    /// every row: 16 and 13 bytes a row, nearly 7 % of the HTML at S).
    @Test(.temporaryFolder) func statementLinesAndInvoiceRowsCarryAClassOnlyWhereTheStylesheetUsesIt() throws {
        let folder = try TemporaryFolder.current
        let site = try Self.site(folder, "site")
        var lines = 0, overdue = 0, others = 0
        for page in try Self.pages(site) where page.hasPrefix("statements/") {
            let html = try String(contentsOfFile: site + "/" + page, encoding: .utf8)
            for row in html.split(separator: "\n") where row.hasPrefix("<tr") {
                if row.hasPrefix("<tr><td>") {
                    lines += 1
                } else {
                    #expect(row.hasPrefix("<tr class=\"opening\">") || row.hasPrefix("<tr class=\"closing\">"), "\(page): \(row)")
                }
            }
        }
        for page in try Self.pages(site) where page.hasPrefix("clients/") {
            let html = try String(contentsOfFile: site + "/" + page, encoding: .utf8)
            guard let table = html.components(separatedBy: "<table class=\"figures invoices\">").dropFirst().first else { continue }
            for row in table.components(separatedBy: "</table>")[0].split(separator: "\n") where row.hasPrefix("<tr") && !row.hasPrefix("<tr><th scope") {
                let cells = row.components(separatedBy: "<td>")
                #expect(cells.count == 7, "\(page): \(row)")
                let isOverdue = cells.count > 5 && cells[5] == "overdue"
                #expect(row.hasPrefix(isOverdue ? "<tr class=overdue><th>" : "<tr><th>"), "\(page): \(row)")
                if isOverdue { overdue += 1 } else { others += 1 }
            }
        }
        #expect(lines > 300 && overdue > 0 && others > 100, "\(lines) statement lines, \(overdue) overdue and \(others) other invoice rows")
    }

    /// Each cell's look as headless Chromium computes it from the default stylesheet (text-align, white-space,
    /// direction), with its contents, in document order, for each of `pages` (paths under `folder`), from one Chromium
    /// run (one run per page was most of this suite's time; docs/performance.md). Each page is copied with a probe
    /// script; a driver page loads the copies in turn into a frame of Chromium's headless window size (800 × 600) and
    /// writes what each probe found into its own DOM, which Chromium dumps.
    static func looks(_ browser: String, _ folder: String, _ pages: [String]) throws -> [String: [(look: String, text: String)]] {
        let script = """
            <script>for (const c of document.querySelectorAll('table.figures td, table.figures th')) { const s = getComputedStyle(c); \
            c.setAttribute('data-look', s.textAlign + ' ' + s.whiteSpace + ' ' + s.direction); }</script>
            """
        var probes: [String] = []
        defer { for probe in probes { try? FileManager.default.removeItem(atPath: folder + "/" + probe) } }
        for page in pages {
            var html = try String(contentsOfFile: folder + "/" + page, encoding: .utf8)
            // The probe runs inline: the page's Content-Security-Policy (scripts from files only) is left out of the copy.
            html = html.replacing(#/<meta http-equiv="Content-Security-Policy"[^>]*>/#, with: "").replacingOccurrences(of: "</body>", with: script + "</body>")
            let probe = page.replacingOccurrences(of: ".html", with: ".probe.html")
            try html.write(toFile: folder + "/" + probe, atomically: true, encoding: .utf8)
            probes.append(probe)
        }
        let list = String(decoding: try JSONSerialization.data(withJSONObject: probes), as: UTF8.self)
        let driver = """
            <!DOCTYPE html><html><body><script>
            (async () => {
              for (const page of \(list)) {
                const frame = document.createElement('iframe');
                frame.style.cssText = 'width:800px;height:600px;border:0';
                const loaded = new Promise(resolve => { frame.onload = resolve; });
                frame.src = page;
                document.body.append(frame);
                await loaded;
                const cells = [...frame.contentDocument.querySelectorAll('[data-look]')].map(c => [c.getAttribute('data-look'), c.innerHTML]);
                const out = document.createElement('pre');
                out.textContent = JSON.stringify(cells);
                document.body.append(out);
                frame.remove();
              }
            })();
            </script></body></html>
            """
        let path = folder + "/probe-driver.html"
        try driver.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        // The frames' documents are read by the driver: file pages are one origin only with this flag.
        let dom = try ClientSearchTests.dom(browser, "file://" + path, extra: "--allow-file-access-from-files")
        var looks: [String: [(look: String, text: String)]] = [:]
        for (page, match) in zip(pages, dom.matches(of: /<pre>(.*?)<\/pre>/)) {
            let json = String(match.output.1).replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&nbsp;", with: "\u{A0}").replacingOccurrences(of: "&amp;", with: "&")
            let cells = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String]], "\(page)")
            looks[page] = cells.map { ($0[0], $0[1]) }
        }
        return looks
    }

    /// Figures (an amount, a count) right-aligned on one line, words and dates left-aligned, as the `num` class on
    /// each cell gave; with `--language he` every cell mirrored (figures left-aligned, left to right). Seen through a
    /// browser, so a selector that misses a column fails here.
    @Test(.temporaryFolder) func figuresStayRightAlignedAndMirrorRightToLeftWithoutTheirClass() throws {
        let browser = try #require(ClientSearchTests.chromium(), "headless Chromium is needed: make test installs Debian's chromium")
        let folder = try TemporaryFolder.current
        let english = try Self.site(folder, "en")
        _ = try Self.site(folder, "he", language: "he")
        let all = try Self.pages(english)
        func first(_ prefix: String) throws -> String { try #require(all.first { $0.hasPrefix(prefix) && !$0.dropFirst(prefix.count).contains("/") }) }
        let quarter = try first("quarters/")
        let pages = ["index.html", "collections.html", "clients.html", try first("clients/"), try first("statements/"), try first("months/"),
                     quarter, quarter.replacingOccurrences(of: ".html", with: "/print.html")]
        var figures = 0
        var words = 0
        let looks = try Self.looks(browser, folder.url.path, pages.map { "en/" + $0 } + pages.map { "he/" + $0 })
        for page in pages {
            let en = looks["en/" + page] ?? [], he = looks["he/" + page] ?? []
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
