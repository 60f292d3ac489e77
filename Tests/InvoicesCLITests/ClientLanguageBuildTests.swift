import Foundation
import InvoicesTesting
import Testing

/// Issue 43's "done when", end to end through a schema 3 store: a German firm builds its report in German, and its
/// French client's client page, statement and private copy are in French, while every other page is German. The
/// client's language is the store's `client.language` column, as `invoices sample` writes it (schema 3).
struct ClientLanguageBuildTests {
    /// The `lang` of the page at `path` in `site`.
    static func lang(_ site: String, _ path: String) throws -> String? {
        let html = try String(contentsOfFile: site + "/" + path, encoding: .utf8)
        return html.firstMatch(of: /<html lang="([^"]*)"/).map { String($0.output.1) }
    }

    @Test(.temporaryFolder) func aFrenchClientReadsTheirPagesInFrenchInAGermanReport() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let sample = try CLI.run(["sample", "--clients", "12", "--invoices", "300", "--seed", "3", "--output", store])
        #expect(sample.status == 0, "\(sample.stderr)")
        #expect(try CLI.shell("sqlite3 '\(store)' 'PRAGMA user_version' </dev/null").stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "3")
        // The client with the most invoices speaks French.
        let pick = try CLI.shell("sqlite3 '\(store)' 'SELECT c.number FROM client c JOIN invoice i ON i.clientId = c.id GROUP BY c.id ORDER BY count(*) DESC, c.id LIMIT 1' </dev/null")
        let number = pick.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!number.isEmpty, "\(pick.stderr)")
        let update = try CLI.shell("sqlite3 '\(store)' \"UPDATE client SET language = 'fr' WHERE number = '\(number)'\" </dev/null")
        #expect(update.status == 0, "\(update.stderr)")
        try String(repeating: "k3y", count: 16).write(toFile: folder.path("link.key"), atomically: true, encoding: .utf8)
        try "store: books.sqlite\noutput: site\nlanguage: de\nclient_links: link.key\n".write(
            toFile: folder.path("invoices.yaml"), atomically: true, encoding: .utf8)
        let build = try CLI.run(["build", "--quiet"], in: folder.url)
        #expect(build.status == 0, "\(build.stderr)")
        let site = folder.path("site")

        // The French client's private folder, from `invoices links`.
        let links = try CLI.run(["links", "--store", store, "--client-links", folder.path("link.key")])
        #expect(links.status == 0, "\(links.stderr)")
        let line = try #require(links.stdout.split(separator: "\n").first { $0.hasPrefix(number + "\t") })
        let privateFolder = String(line.split(separator: "\t", omittingEmptySubsequences: false)[2])
        let pages = try FileManager.default.subpathsOfDirectory(atPath: site).filter { $0.hasSuffix(".html") }
        var french: [String] = []
        var german = 0
        for page in pages {
            switch try Self.lang(site, page) {
            case "fr": french.append(page)
            case "de": german += 1
            case let other: Issue.record("\(page) has lang \(String(describing: other))")
            }
        }
        // The French pages are the client's own: its client page, statement (and their list pages), and its private
        // copies; every other page is German.
        #expect(french.contains { $0.hasPrefix(privateFolder) && $0.hasSuffix("index.html") }, "\(french)")
        #expect(french.contains { $0.hasPrefix(privateFolder) && $0.hasSuffix("client.html") }, "\(french)")
        #expect(french.contains { $0.hasPrefix("clients/") } && french.contains { $0.hasPrefix("statements/") }, "\(french)")
        for page in french {
            let own = page.hasPrefix(privateFolder) || page.hasPrefix("clients/") || page.hasPrefix("statements/")
            #expect(own, "\(page) is French but not the client's own")
        }
        #expect(try Self.lang(site, "index.html") == "de" && german > 10)
        // The French statement says so in French, the German overview in German.
        let statement = try #require(french.first { $0.hasPrefix("statements/") && !$0.contains("/print") })
        let text = try String(contentsOfFile: site + "/" + statement, encoding: .utf8)
        #expect(text.contains("Relevé de compte"), "\(statement)")
        let overview = try String(contentsOfFile: site + "/index.html", encoding: .utf8)
        #expect(overview.contains("Übersicht") || overview.contains("Überblick"))
        #expect(!overview.contains("Relevé de compte"))
    }
}
