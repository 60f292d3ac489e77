import Foundation
import InvoicesCore
import InvoicesReport
@testable import InvoicesSite
import InvoicesStore
import InvoicesTesting
import Testing

/// The render's page code made cheaper with the same bytes (issue 46, twelfth session): a statement's words looked
/// up once per list, a client page's balances and set-aside invoices on the compiled row path.
struct RenderCellsTests {
    static let renderer = MarkdownRenderer(options: [.allowsRawHTML])

    /// A filler gives what `text(_:_:)` gives with the one value, for every shape of text: no brace, the placeholder
    /// twice, other names, unclosed and doubled braces, an empty text.
    @Test(arguments: [
        "due {date}", "{date}", "", "no braces", "{date} and {date}", "{other} {date}", "{{date}}", "{date", "}{date}{", "{ date }",
        "fällig am {date}.", "{dates}", "{}{date}",
    ])
    func aFillerGivesWhatTextGives(_ text: String) {
        let translation = Translation(tag: .english, table: nil, words: ["key": text], missing: [], english: [:])
        for value in ["2025-03-31", "", "{date}", "a & b"] {
            #expect(translation.filler("key", name: "date")(value) == translation.text("key", ["date": value]), "\(text.debugDescription) with \(value.debugDescription)")
        }
        #expect(translation.filler("missing.key", name: "date")("x") == translation.text("missing.key", ["date": "x"]))
    }

    static func site(templates: TemplateSet? = nil) throws -> SiteBuilder {
        let folder = try TemporaryFolder("render-cells")
        defer { folder.remove() }
        try SampleGenerator(clients: 12, invoices: 400, seed: 5).write(to: folder.path("s.sqlite"))
        let books = try BooksStore(path: folder.path("s.sqlite")).books
        return SiteBuilder(books: books, report: try Report(books: books), templates: try templates ?? TemplateSet(), options: SiteOptions(title: "T"))
    }

    /// The default client page's balances and set-aside rows come out of the compiled row path (a placeholder line
    /// each in the Markdown swift-mustache renders), and the page is the same bytes as on the general path.
    @Test func balancesAndSetAsideRowsTakeTheCompiledPath() throws {
        let site = try Self.site()
        var balancesSeen = 0, setAsideSeen = 0
        for totals in site.report.clients {
            let pages = ClientPages(site: site.view, totals: totals, invoices: site.view.invoicesByClient[totals.clientIndex])
            let fields = pages.clientContext().second
            let registry = RowListRegistry(marker: TemplateSet.rowMarker)
            var context = pages.clientContext().mustacheValue(registry: registry)
            context.merge(["root": "../", "siteTitle": "T", "asOf": "2025-12-31"]) { $1 }
            let markdown = try #require(site.templates.library.render(context, withTemplate: "client"))
            let placeholders = markdown.split(separator: "\n").filter { $0.hasPrefix("<div \(TemplateSet.rowMarker)=") }.count
            let expected = (fields.invoices.map { $0.count > 0 } == true ? 1 : 0) + fields.monthly.filter { $0.months.count > 0 }.count
                + (fields.balances.count > 0 ? 1 : 0) + (fields.setAside.count > 0 ? 1 : 0)
            #expect(placeholders == expected, "client \(totals.clientIndex)")
            balancesSeen += fields.balances.count
            setAsideSeen += fields.setAside.count

            let fastRegistry = RowListRegistry(marker: TemplateSet.rowMarker)
            var fastContext = pages.clientContext().mustacheValue(registry: fastRegistry)
            fastContext.merge(["root": "../", "siteTitle": "T", "asOf": "2025-12-31"]) { $1 }
            let fast = site.templates.page("client", fastContext, rows: fastRegistry, renderer: Self.renderer)
            #expect(fast.compiled)
            var general = pages.clientContext().mustacheValue()
            general.merge(["root": "../", "siteTitle": "T", "asOf": "2025-12-31"]) { $1 }
            #expect(fast.html == MarkdownValues.decode(Self.renderer.html(from: site.templates.render("client", general))))
        }
        #expect(balancesSeen > 0 && setAsideSeen > 0, "\(balancesSeen) balances, \(setAsideSeen) set aside")
    }

    /// A user's client template whose balances and set-aside rows use names that are not their columns (the
    /// client's name, from the enclosing context), sections over a cell and inverted sections: it renders through
    /// swift-mustache, with the enclosing names found as before.
    @Test func aUsersBalancesRowsWithOtherNamesStillRender() throws {
        var texts = TemplateSet.defaultFiles.reduce(into: [String: (text: String, source: String)]()) { $0[$1.key] = ($1.value, "(default)") }
        texts["client.md"] = (
            "# {{name}}\n\n{{#balances}}\n- {{identifier}} of {{name}}: {{balance}}{{#status}} ({{status}}){{/status}}{{^status}} none{{/status}}\n{{/balances}}\n\n"
                + "{{#setAside}}\n* {{identifier}} {{issued}} for {{number}}\n{{/setAside}}\n", "client.md"
        )
        let site = try Self.site(templates: try TemplateSet(texts: texts))
        var seen = 0
        for totals in site.report.clients {
            let pages = ClientPages(site: site.view, totals: totals, invoices: site.view.invoicesByClient[totals.clientIndex])
            let fields = pages.clientContext().second
            guard fields.balances.count > 0, fields.setAside.count > 0 else { continue }
            let name = site.books.clients[totals.clientIndex].name
            let number = site.books.clients[totals.clientIndex].number
            // Texts that come out of either escaping as they are.
            guard (name + number).allSatisfy({ $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" }) else { continue }
            let registry = RowListRegistry(marker: TemplateSet.rowMarker)
            let page = site.templates.page("client", pages.clientContext().mustacheValue(registry: registry), rows: registry, renderer: Self.renderer)
            let first = fields.balances.cell(0, 0)
            let status = fields.balances.cell(0, 3)
            #expect(page.html.contains("<li>\(first) of \(name): \(fields.balances.cell(0, 2)) (\(status))</li>"), "\(page.html)")
            #expect(page.html.contains("<li>\(fields.setAside.cell(0, 0)) \(fields.setAside.cell(0, 1)) for \(number)</li>"))
            seen += 1
        }
        #expect(seen > 0)
    }
}
