import Foundation
@testable import InvoicesSite
import InvoicesReport
import InvoicesStore
import InvoicesTesting
import Testing

struct TemplateCheckTests {
    /// `files` written into `folder`, by default the test's `.temporaryFolder`.
    func folder(with files: [String: String], in folder: TemporaryFolder? = nil) throws -> TemporaryFolder {
        let folder = try folder ?? TemporaryFolder.current
        for (name, text) in files { try Data(text.utf8).write(to: folder.url.appendingPathComponent(name)) }
        return folder
    }

    @Test(.temporaryFolder) func anUnknownVariableIsAnErrorWithFileLineAndColumn() throws {
        let folder = try folder(with: ["month.md": "# {{label}}\n\n{{#currencies}}\nTotal: {{totl}}\n{{/currencies}}\n"])
        let error = try #require(throws: TemplateError.self) { try TemplateSet(directory: folder.url.path) }
        #expect(error.code == .unknownVariable)
        #expect(error.description.hasPrefix(folder.path("month.md") + ":4:10: unknown variable 'totl'"))
    }

    /// `{{{notes}}}` would put a value from the books into the Markdown as it is: a blank line and a link in it would
    /// become a link on the page (issue 41). Only the markup the tool draws may be written unescaped.
    @Test func aValueWrittenUnescapedIsRefusedAndTheToolsMarkupIsNot() throws {
        let layout = TemplateSet.defaultFiles["layout.html"]!.replacingOccurrences(of: "{{pageTitle}}", with: "{{{pageTitle}}}")
        // (file, text, the name, its line, the column its tag opens at)
        for (file, text, name, line, tagColumn) in [
            ("client-list.md", "{{#invoices}}\n<tr><td>{{{notes}}}</td></tr>\n{{/invoices}}\n", "notes", 2, 9),
            ("client.md", "# {{& name}}\n", "name", 1, 3),
            ("layout.html", layout, "pageTitle", 14, 8),
        ] {
            let folder = try folder(with: [file: text], in: TemporaryFolder())
            defer { folder.remove() }
            let error = try #require(throws: TemplateError.self) { try TemplateSet(directory: folder.url.path) }
            #expect(error.code == .unescapedValue, "\(file)")
            #expect(error.message.hasPrefix("'\(name)' is written unescaped"), "\(file): \(error.message)")
            #expect(error.path == folder.path(file) && error.line == line, "\(error)")
            #expect((tagColumn...tagColumn + 5).contains(error.column), "\(error)")
        }
        // The defaults write the QR code, the chart, the page's HTML and the stylesheet unescaped, and pass.
        _ = try TemplateSet(directory: nil)
    }

    @Test(.temporaryFolder) func namesResolveFromTheInnermostSectionOutwards() throws {
        // `siteTitle` is found in the page's scope from inside two sections; `rows.name` is a dotted path.
        let text = "{{#currencies}}{{#rows}}{{name}} {{siteTitle}} {{currency}}{{/rows}}{{total.change}}{{/currencies}}"
        let folder = try folder(with: ["month.md": text])
        _ = try TemplateSet(directory: folder.url.path)
    }

    @Test(.temporaryFolder) func aPartialIsCheckedWhereItIsIncluded() throws {
        let folder = try folder(with: ["totals-table.md": "{{#totals}}\n  {{curency}}\n{{/totals}}\n"])
        let error = try #require(throws: TemplateError.self) { try TemplateSet(directory: folder.url.path) }
        #expect(error.description.hasPrefix(folder.path("totals-table.md") + ":2:5: unknown variable 'curency'"))
    }

    @Test(.temporaryFolder) func anUnknownNameInTheLayoutIsFound() throws {
        let layout = TemplateSet.defaultFiles["layout.html"]!.replacingOccurrences(of: "{{#asOf}}", with: "{{#asof}}")
            .replacingOccurrences(of: "{{/asOf}}", with: "{{/asof}}")
        let folder = try folder(with: ["layout.html": layout])
        let error = try #require(throws: TemplateError.self) { try TemplateSet(directory: folder.url.path) }
        #expect(error.code == .unknownVariable)
        #expect(error.message.contains("'asof'"))
    }

    @Test(.temporaryFolder) func aMissingTemplateFallsBackToTheDefault() throws {
        let folder = try folder(with: ["client.md": "# Custom {{name}}\n"])
        let templates = try TemplateSet(directory: folder.url.path)
        #expect(templates.sources["client.md"] == folder.path("client.md"))
        #expect(templates.sources["month.md"] == "(default) month.md")
        #expect(MarkdownValues.decode(templates.render("client", ["name": "X"])) == "# Custom X\n")
        #expect(MarkdownValues.decode(templates.render("month", ["label": "June 2025"])).hasPrefix("# June 2025\n"))
    }

    @Test func everyVariableIsDocumented() throws {
        let docs = try String(contentsOf: Python.repository.appendingPathComponent("docs/templates.md"), encoding: .utf8)
        func names(_ scope: TemplateScope) -> [String] {
            scope.names.flatMap { name, inner in [name] + (inner.map(names) ?? []) }
        }
        for (template, scope) in TemplateVariables.pages {
            #expect(docs.contains("`\(template)"), "docs/templates.md does not describe \(template)")
            for name in Set(names(scope)) {
                #expect(docs.contains("`\(name)`"), "docs/templates.md does not document `\(name)` of \(template)")
            }
        }
    }

    @Test(.temporaryFolder) func theContextsHoldOnlyDocumentedNames() throws {
        let folder = try TemporaryFolder.current
        try StoreFixture.make(at: folder.path("s.sqlite"), sql: StoreFixture.small)
        let books = try BooksStore(path: folder.path("s.sqlite")).books
        let site = SiteBuilder(
            books: books, report: try Report(books: books), templates: try TemplateSet(), options: SiteOptions())
        func check(_ value: Any, _ scope: TemplateScope, _ path: String) {
            if let list = value as? [[String: Any]] {
                for item in list { check(item, scope, path) }
            } else if let dictionary = value as? [String: Any] {
                for (key, inner) in dictionary {
                    guard let entry = scope.names[key] else {
                        Issue.record("\(path).\(key) is not in TemplateVariables")
                        continue
                    }
                    if let innerScope = entry { check(inner, innerScope, "\(path).\(key)") }
                }
            }
        }
        let pages = TemplateVariables.pages
        check(OverviewPage(site: site.view).context().mustacheValue(), pages["overview"]!, "overview")
        check(ClientsPage(site: site.view).context().mustacheValue(), pages["clients"]!, "clients")
        for offset in site.report.months.indices { check(MonthPage(site: site.view, offset: offset).context().mustacheValue(), pages["month"]!, "month") }
        let invoices = site.view.invoicesByClient
        for totals in site.report.clients {
            check(ClientPages(site: site.view, totals: totals, invoices: invoices[totals.clientIndex]).clientContext().mustacheValue(), pages["client"]!, "client")
        }
    }
}

struct SlugTests {
    @Test func hostileNamesGiveSafeDistinctSlugs() {
        var slugger = Slugger()
        let names = [
            "../../etc/passwd", "..", ".", "", "   ", "%$#@!", "/", "\\..\\..", "ACME", "acme", "Acme", "acme-2",
            "Acme", "CON", "Müller & Söhne", "株式会社", "😀😀", "a\u{0}b", String(repeating: "x", count: 500),
        ]
        let slugs = names.map { slugger.slug(for: $0) }
        #expect(Set(slugs).count == slugs.count, "\(slugs)")
        for slug in slugs {
            #expect(!slug.isEmpty)
            #expect(slug.count <= 64)
            #expect(slug.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }, "\(slug)")
            #expect(!slug.hasPrefix("-") && !slug.hasSuffix("-"), "\(slug)")
        }
        #expect(slugs[0] == "etc-passwd")
        #expect(slugs[8] == "acme" && slugs[9] == "acme-2" && slugs[10] == "acme-3" && slugs[11] == "acme-2-2")
        #expect(slugs[14] == "muller-sohne")
    }

    /// The suffix search resumes where it stopped for each name, and gives exactly what trying `-2`, `-3`, ...
    /// from the start gives (issue 28: 20,000 clients with one name took 44 s).
    @Test func manyEqualNamesGiveTheSameSlugsAsTheSearchFromTheStart() {
        func reference(_ names: [String]) -> [String] {
            var used: Set<String> = []
            return names.map { name in
                var base = Slugger.ascii(name)
                if base.isEmpty { base = "client" }
                var candidate = base
                var counter = 2
                while !used.insert(candidate).inserted {
                    candidate = "\(base)-\(counter)"
                    counter += 1
                }
                return candidate
            }
        }
        var random = SeededRandom(seed: 28)
        let pool = ["Acme", "acme 2", "ACME-3", "acme", "Acme 2 2", "b", "B-2", "b 3", ""]
        let names = (0..<5_000).map { _ in pool[random.below(pool.count)] }
        var slugger = Slugger()
        #expect(names.map { slugger.slug(for: $0) } == reference(names))

        var many = Slugger()
        let slugs = (0..<20_000).map { _ in many.slug(for: "Same Name") }
        #expect(slugs.first == "same-name" && slugs[1] == "same-name-2" && slugs.last == "same-name-20000")
        #expect(Set(slugs).count == 20_000)
    }

    @Test func slugsAreStableAcrossRuns() {
        var first = Slugger(), second = Slugger()
        let names = ["B", "b", "Ünal", "..", ""]
        #expect(names.map { first.slug(for: $0) } == names.map { second.slug(for: $0) })
    }
}
