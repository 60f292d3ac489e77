import Foundation
import InvoicesTesting
import Testing

/// clients.html's search box (issue 30): in a real browser (headless Chromium) on the real server (`invoices
/// serve`), under the pages' Content-Security-Policy. `?q=` fills the box, so the filtered DOM can be read back.
@Suite(.serialized)
struct ClientSearchTests {
    /// Chromium (`make test` installs it); nil when it is missing.
    static func chromium() -> String? {
        for name in ["chromium", "chromium-browser"] {
            if let path = try? CLI.shell("command -v \(name)").stdout.trimmingCharacters(in: .whitespacesAndNewlines), !path.isEmpty {
                return path
            }
        }
        return nil
    }

    /// The DOM of `url` after its scripts ran, as Chromium serializes it; `extra` flags are added to Chromium's.
    static func dom(_ browser: String, _ url: String, extra: String = "") throws -> String {
        let flags = "--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --virtual-time-budget=3000 \(extra)"
        let result = try CLI.shell("'\(browser)' \(flags) --dump-dom '\(url)' 2>/dev/null")
        return result.stdout
    }

    /// The DOMs of `pages` (addresses relative to `base`) after their scripts ran, in one Chromium run: a driver page,
    /// written into the served folder `served` so the frames are of its origin, loads them all in frames and writes
    /// their documents, as JSON, as its own text.
    static func doms(_ browser: String, served: String, base: String, pages: [String]) throws -> [String] {
        let name = "driver-\(UUID().uuidString).html"
        let list = String(decoding: try JSONEncoder().encode(pages), as: UTF8.self)
        let driver = """
            <!DOCTYPE html><html><body><script>
            (async () => {
              const frames = \(list).map(page => {
                const frame = document.createElement('iframe');
                const loaded = new Promise(resolve => { frame.onload = resolve; });
                frame.src = page;
                document.body.append(frame);
                return loaded.then(() => frame);
              });
              const loaded = await Promise.all(frames);
              await new Promise(resolve => setTimeout(resolve, 1000));
              document.body.textContent = JSON.stringify(loaded.map(f => f.contentDocument.documentElement.outerHTML));
            })();
            </script></body></html>
            """
        try driver.write(toFile: served + "/" + name, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: served + "/" + name) }
        let dom = try Self.dom(browser, base + name)
        let body = try #require(dom.firstMatch(of: /<body>(.*)<\/body>/.dotMatchesNewlines())).output.1
        let text = body.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&nbsp;", with: "\u{A0}").replacingOccurrences(of: "&amp;", with: "&")
        return try JSONDecoder().decode([String].self, from: Data(text.utf8))
    }

    /// The client rows of a dumped clients.html, or of the page as served (its rows leave out the optional `</td>`):
    /// (number, hidden).
    static func rows(_ dom: String) -> [(number: String, hidden: Bool)] {
        dom.matches(of: /<tr( hidden="")?><td>([^<]*)(?:<\/td>)?<th[ >]/).map { (String($0.output.2), $0.output.1 != nil) }
    }

    @Test(.temporaryFolder) func typingFiltersByNameNumberOrCityAndWithoutJavaScriptTheWholeListShows() async throws {
        let browser = try #require(Self.chromium(), "headless Chromium is needed: make test installs Debian's chromium")
        let folder = try TemporaryFolder.current
        let project = folder.path("report")
        #expect(try CLI.run(["init", project]).status == 0)
        // Three clients of our own, with accents and a city in common.
        try StoreFixture.execute(project + "/books.sqlite", """
            INSERT INTO client (number, name, city) VALUES ('Z-1', 'Müller Atelier', 'Ölbergstadt'), ('Z-2', 'Mueller Bau', 'Basel'),
              ('Z-3', 'Schmidt & Söhne', 'Ölbergstadt');
            """)
        let serve = try await ServeProcess.start(in: URL(fileURLWithPath: project))
        defer { serve.terminate() }
        let page = serve.base.absoluteString + "clients.html"

        // One Chromium run for the six queries: the page with each in a frame of a driver page of the same origin.
        let queries = ["", "olbergstadt", "MÜLLER", "z-2", "ölbergstadt söhne", "nobody-at-all"]
        let doms = try Self.doms(browser, served: project + "/Output", base: serve.base.absoluteString, pages: queries.map {
            "clients.html" + ($0.isEmpty ? "" : "?q=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0))
        })
        try #require(doms.count == queries.count)
        let all = Self.rows(doms[0])
        #expect(all.count > 3 && all.allSatisfy { !$0.hidden }, "no query: every row shows")
        func shown(_ query: String) throws -> [String] {
            Self.rows(doms[queries.firstIndex(of: query)!]).filter { !$0.hidden }.map(\.number)
        }
        let filtered = doms[1]
        #expect(Self.rows(filtered).filter { !$0.hidden }.map(\.number) == ["Z-1", "Z-3"], "by city, without its accent")
        #expect(try shown("MÜLLER") == ["Z-1"], "by name, ignoring case")
        #expect(try shown("z-2") == ["Z-2"], "by number")
        #expect(try shown("ölbergstadt söhne") == ["Z-3"], "every word must match")
        #expect(try shown("nobody-at-all") == [])
        #expect(filtered.contains("2 of \(all.count) clients"))
        #expect(!filtered.contains("id=\"client-search-box\" hidden"), "the box shows once the script runs")

        // Without JavaScript the page is what the server sends: the box hidden, every row shown.
        let plain = try CLI.shell("curl -s '\(page)?q=olbergstadt'").stdout
        #expect(plain.contains("id=\"client-search-box\" hidden"))
        #expect(Self.rows(plain).count == all.count && Self.rows(plain).allSatisfy { !$0.hidden })
    }

    /// More clients than a page (`--page-size 10`): clients.html lists none itself but links the pages of the list,
    /// and the box searches every client through clients-index.js, pages or not.
    @Test(.temporaryFolder) func withMoreClientsThanAPageTheBoxSearchesEveryClientThroughTheIndex() async throws {
        let browser = try #require(Self.chromium(), "headless Chromium is needed: make test installs Debian's chromium")
        let folder = try TemporaryFolder.current
        let project = folder.path("report")
        #expect(try CLI.run(["init", project]).status == 0)
        // Thirty clients of our own after the sample's, one of them hostile, so the list spans several pages.
        var values = (1...30).map { "('Z-\($0)', 'Zebra \($0)', 'Ölbergstadt')" }
        values.append("('Z-99', '<img src=x onerror=alert(1)>Hostile', 'Ölbergstadt')")
        try StoreFixture.execute(project + "/books.sqlite", "INSERT INTO client (number, name, city) VALUES \(values.joined(separator: ", "));")
        let serve = try await ServeProcess.start(["--page-size", "10"], in: URL(fileURLWithPath: project))
        defer { serve.terminate() }
        let page = serve.base.absoluteString + "clients.html"
        let plain = try CLI.shell("curl -s '\(page)'").stdout
        #expect(Self.rows(plain).isEmpty, "clients.html lists no client itself")
        #expect(plain.contains("<a href=\"clients/pages/2.html\">2</a>"))
        // Every client is on exactly one page of the list.
        var listed: [String] = []
        var number = 1
        while case let text = try CLI.shell("curl -s -f '\(serve.base.absoluteString)clients/pages/\(number).html'").stdout, !text.isEmpty {
            listed += Self.rows(text).map(\.number)
            number += 1
        }
        #expect(number > 3 && listed.count == Set(listed).count && Set(listed).isSuperset(of: (1...30).map { "Z-\($0)" }))

        // One Chromium run for the three queries.
        let doms = try Self.doms(browser, served: project + "/Output", base: serve.base.absoluteString, pages: [
            "clients.html?q=olbergstadt", "clients.html?q=zebra%2017", "clients.html?q=hostile",
        ])
        try #require(doms.count == 3)
        let found = doms[0]
        let rows = Self.rows(found)
        #expect(rows.count == 31 && rows.allSatisfy { !$0.hidden }, "every match, from every page")
        #expect(found.contains("31 of \(listed.count) clients"))
        #expect(Self.rows(doms[1]).map(\.number) == ["Z-17"])
        // The hostile name is text, not markup.
        let hostile = doms[2]
        #expect(hostile.contains("&lt;img src=x onerror=alert(1)&gt;Hostile") && !hostile.contains("<img src=\"x\""))
    }

    /// In another language (issue 43): the counter's words come from the page, in German, the figures filled in by
    /// clients.js (the same file in every language); past the 200 matches the index shows, it says so in German.
    @Test(.temporaryFolder) func theCounterIsInThePagesLanguage() async throws {
        let browser = try #require(Self.chromium(), "headless Chromium is needed: make test installs Debian's chromium")
        let folder = try TemporaryFolder.current
        let project = folder.path("report")
        #expect(try CLI.run(["init", project]).status == 0)
        let values = (1...210).map { "('Z-\($0)', 'Zebra \($0)', 'Ölbergstadt')" }
        try StoreFixture.execute(project + "/books.sqlite", "INSERT INTO client (number, name, city) VALUES \(values.joined(separator: ", "));")
        do {
            let serve = try await ServeProcess.start(["--language", "de"], in: URL(fileURLWithPath: project))
            defer { serve.terminate() }
            let page = serve.base.absoluteString + "clients.html"
            let total = Self.rows(try CLI.shell("curl -s '\(page)'").stdout).count
            #expect(total > 210)
            let found = try Self.dom(browser, page + "?q=olbergstadt")
            #expect(found.contains(">210 von \(total) Kunden</output>"), "\(found.suffix(3000))")
            #expect(!found.contains(" of "))
        }
        let serve = try await ServeProcess.start(["--language", "de", "--page-size", "10"], in: URL(fileURLWithPath: project))
        defer { serve.terminate() }
        let page = serve.base.absoluteString + "clients.html"
        let found = try Self.dom(browser, page + "?q=zebra")
        #expect(Self.rows(found).count == 200)
        #expect(found.contains(Regex(/>210 von [0-9]+ Kunden, die ersten 200 angezeigt<\/output>/)), "\(found.suffix(3000))")
    }
}
