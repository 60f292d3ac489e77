import Foundation
import InvoicesCore
import InvoicesReport
import InvoicesSite
import InvoicesStore
import InvoicesTesting
import Testing

struct SiteTests {
    func smallSite() throws -> (SiteBuilder, [SiteBuilder.File]) {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try StoreFixture.make(at: folder.path("s.sqlite"), sql: StoreFixture.small)
        let books = try BooksStore(path: folder.path("s.sqlite")).books
        let report = try Report(books: books)
        let site = SiteBuilder(books: books, report: report, templates: try TemplateSet(), options: SiteOptions())
        return (site, site.files())
    }

    @Test func aClientPageIsRenderedEndToEnd() throws {
        let (site, files) = try smallSite()
        let page = try #require(files.first { $0.path == site.paths.client(0) })
        let html = String(decoding: page.data, as: UTF8.self)
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(html.contains("<title>Acme *Corp* · Invoices report</title>"))
        #expect(html.contains("<h1>Acme *Corp*</h1>"))
        #expect(!html.contains("<em>Corp</em>"))
        #expect(html.contains("<th>EUR<td>EUR\u{A0}1,734.50<td>EUR\u{A0}1,234.50<td>EUR\u{A0}500.00"))
        #expect(html.contains("href=\"../style.css\""))
        #expect(site.paths.client(0) == "clients/c-001-acme-corp.html")
    }

    /// The page body goes into the layout's bytes where `{{{content}}}` came out (issue 20). A layout that shows
    /// the content twice, or escaped, gets it as Mustache would give it.
    @Test(.temporaryFolder) func theBodyGoesWhereTheLayoutShowsIt() throws {
        let folder = try TemporaryFolder.current
        try StoreFixture.make(at: folder.path("s.sqlite"), sql: StoreFixture.small)
        let books = try BooksStore(path: folder.path("s.sqlite")).books
        let report = try Report(books: books)
        func page(layout: String) throws -> String {
            let templates = folder.path("templates-\(layout.count)")
            try FileManager.default.createDirectory(atPath: templates, withIntermediateDirectories: true)
            try Data(layout.utf8).write(to: URL(fileURLWithPath: templates + "/layout.html"))
            let site = SiteBuilder(books: books, report: report, templates: try TemplateSet(directory: templates), options: SiteOptions())
            return String(decoding: try #require(site.files().first { $0.path == site.paths.client(0) }).data, as: UTF8.self)
        }
        let once = try page(layout: "<title>{{pageTitle}}</title>\n{{{content}}}\nend\n")
        #expect(once.hasPrefix("<title>Acme *Corp*</title>\n<h1>Acme *Corp*</h1>\n"))
        #expect(once.hasSuffix("\nend\n"))
        let body = String(once.dropFirst("<title>Acme *Corp*</title>\n".count).dropLast("\nend\n".count))
        #expect(body.contains("<td>EUR\u{A0}1,734.50"))
        #expect(try page(layout: "{{{content}}}|{{{content}}}") == body + "|" + body)
        let escaped = try page(layout: "<pre>{{content}}</pre>")
        #expect(escaped.hasPrefix("<pre>&lt;h1&gt;Acme *Corp*&lt;/h1&gt;"))
        #expect(!escaped.contains("<h1>"))
    }

    /// Issue 18: an `email` value that is not an address used to become a `mailto:` link.
    @Test(.temporaryFolder) func onlyAnAddressBecomesAMailtoLink() throws {
        let folder = try TemporaryFolder.current
        try StoreFixture.make(
            at: folder.path("s.sqlite"), sql: StoreFixture.small + "\nUPDATE client SET email = 'call +49 89 123 (office)' WHERE id = 2;")
        let books = try BooksStore(path: folder.path("s.sqlite")).books
        let site = SiteBuilder(books: books, report: try Report(books: books), templates: try TemplateSet(), options: SiteOptions())
        let files = site.files()
        let page = { (index: Int) throws -> String in
            String(decoding: try #require(files.first { $0.path == site.paths.client(index) }).data, as: UTF8.self)
        }
        #expect(try page(0).contains("<a href=\"mailto:ap@acme.example\">ap@acme.example</a>"))
        let other = try page(1)
        #expect(!other.contains("mailto:"))
        #expect(other.contains("<dd>call +49 89 123 (office)\n"))
    }

    @Test func everyLinkedPageExists() throws {
        let (_, files) = try smallSite()
        let paths = Set(files.map(\.path))
        #expect(paths.isSuperset(of: ["index.html", "clients.html", "404.html", "style.css", "months/2025-01.html", "months/2025-02.html"]))
        for file in files where file.path.hasSuffix(".html") && file.path != "404.html" {
            let html = String(decoding: file.data, as: UTF8.self)
            let folder = (file.path as NSString).deletingLastPathComponent
            for match in html.matches(of: /href="([^"#:]+)"/) {
                var parts: [Substring] = []
                for part in ((folder as NSString).appendingPathComponent(String(match.1))).split(separator: "/") {
                    if part == ".." { parts.removeLast() } else if part != "." { parts.append(part) }
                }
                let target = parts.joined(separator: "/")
                #expect(paths.contains(target), "\(file.path) links to \(match.1), which is not in the site")
            }
        }
    }

    @Test func theSameInputGivesTheSameBytes() throws {
        let (_, first) = try smallSite()
        let (_, second) = try smallSite()
        #expect(first.map(\.path) == second.map(\.path))
        #expect(first.map(\.data) == second.map(\.data))
    }

    @Test(.temporaryFolder) func aTemplateErrorNamesFileLineAndColumn() throws {
        let folder = try TemporaryFolder.current
        try Data("# {{title}}\n\nText\n{{#rows}}\n- {{name}}\n".utf8).write(to: folder.url.appendingPathComponent("month.md"))
        let error = try #require(throws: TemplateError.self) { try TemplateSet(directory: folder.url.path) }
        #expect(error.description.hasPrefix(folder.path("month.md") + ":"))
        #expect(error.line > 0)
        #expect(error.description.contains("unclosed section"))
    }
}
