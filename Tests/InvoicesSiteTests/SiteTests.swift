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
        let page = try #require(files.first { $0.path == site.clientPath(0) })
        let html = String(decoding: page.data, as: UTF8.self)
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(html.contains("<title>Acme *Corp* · Invoices report</title>"))
        #expect(html.contains("<h1>Acme *Corp*</h1>"))
        #expect(!html.contains("<em>Corp</em>"))
        #expect(html.contains("<th scope=\"row\">EUR</th><td class=\"num\">EUR\u{A0}1,734.50</td><td class=\"num\">EUR\u{A0}1,234.50</td><td class=\"num\">EUR\u{A0}500.00</td>"))
        #expect(html.contains("href=\"../style.css\""))
        #expect(site.clientPath(0) == "clients/c-001-acme-corp.html")
    }

    /// Issue 18: an `email` value that is not an address used to become a `mailto:` link.
    @Test func onlyAnAddressBecomesAMailtoLink() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try StoreFixture.make(
            at: folder.path("s.sqlite"), sql: StoreFixture.small + "\nUPDATE client SET email = 'call +49 89 123 (office)' WHERE id = 2;")
        let books = try BooksStore(path: folder.path("s.sqlite")).books
        let site = SiteBuilder(books: books, report: try Report(books: books), templates: try TemplateSet(), options: SiteOptions())
        let files = site.files()
        let page = { (index: Int) throws -> String in
            String(decoding: try #require(files.first { $0.path == site.clientPath(index) }).data, as: UTF8.self)
        }
        #expect(try page(0).contains("<a href=\"mailto:ap@acme.example\">ap@acme.example</a>"))
        let other = try page(1)
        #expect(!other.contains("mailto:"))
        #expect(other.contains("<dd>call +49 89 123 (office)</dd>"))
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

    @Test func aTemplateErrorNamesFileLineAndColumn() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Data("# {{title}}\n\nText\n{{#rows}}\n- {{name}}\n".utf8).write(to: folder.url.appendingPathComponent("month.md"))
        let error = try #require(throws: TemplateError.self) { try TemplateSet(directory: folder.url.path) }
        #expect(error.description.hasPrefix(folder.path("month.md") + ":"))
        #expect(error.line > 0)
        #expect(error.description.contains("unclosed section"))
    }
}
