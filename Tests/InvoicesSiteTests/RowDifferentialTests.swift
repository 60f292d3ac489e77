import Foundation
@testable import InvoicesSite
import InvoicesReport
import InvoicesStore
import InvoicesTesting
import Testing

/// The compiled row path against swift-mustache followed by cmark, byte for byte (issue 16).
///
/// Each case renders a client page whose `{{#invoices}}` section holds the row template, once through
/// ``TemplateSet/page(_:_:rows:renderer:)`` (the compiled rows when they can be proven the same, as `build` renders
/// pages) and once through swift-mustache alone, then cmark, then the values put back. The generated cases run
/// with a fixed seed; `make fuzz` sets `INVOICES_ROWS_SEED` to a fresh one (scripts/fuzz.sh).
struct RowDifferentialTests {
    static let renderer = MarkdownRenderer(options: [.allowsRawHTML])
    static let columns = TemplateSet.invoiceColumns

    /// Renders `page` (client.md's text) with `rows` both ways; the fast HTML, the reference, and whether the
    /// compiled path was taken.
    static func render(_ page: String, rows: [[String: String]]) throws -> (fast: String, reference: String, compiled: Bool) {
        let templates = try TemplateSet(texts: ["client.md": (page, "client.md")])
        func context(_ registry: RowListRegistry?) -> [String: Any] {
            let list = RowList(columns: columns, count: rows.count, registry: registry) { row, column in rows[row][columns[column]] ?? "" }
            return ["name": "Acme *Corp* <b>", "number": "C-1", "invoices": list]
        }
        let registry = RowListRegistry(marker: TemplateSet.rowMarker)
        let fast = templates.page("client", context(registry), rows: registry, renderer: renderer)
        let reference = MarkdownValues.decode(renderer.html(from: templates.render("client", context(nil))))
        return (fast.html, reference, fast.compiled)
    }

    static func rows(for row: [String: String]) -> [[String: String]] {
        let values = ["identifier": row["a"] ?? "", "issued": row["b"] ?? "", "due": row["c"] ?? "", "paid": row["yes"] ?? "",
                      "amount": row["no"] ?? "", "status": row["html"] ?? "", "notes": "n"]
        return [values, values.mapValues { $0.isEmpty ? "x" : "" }]
    }

    /// A spec case's template with the spec's names as the invoice columns.
    static func asInvoiceRow(_ template: String) -> String {
        var text = template
        for (from, to) in [("{{a}}", "{{identifier}}"), ("{{b}}", "{{issued}}"), ("{{c}}", "{{due}}"), ("yes}}", "paid}}"),
                           ("no}}", "amount}}"), ("{{html}}", "{{status}}"), ("yes }}", "paid }}"), ("no }}", "amount }}"),
                           ("{{ a }}", "{{ identifier }}"), ("{{#a}}", "{{#identifier}}"), ("{{/a}}", "{{/identifier}}")] {
            text = text.replacingOccurrences(of: from, with: to)
        }
        return text
    }

    @Test(arguments: RowSpecCase.all)
    func specCaseRendersAsTheSpecAndSwiftMustacheSay(_ spec: RowSpecCase) throws {
        // swift-mustache, our reference, follows the spec here.
        let reference = try #require(MustacheReference.render(spec.template, row: spec.row))
        #expect(reference == spec.expected)
        // The compiled row template, wherever it compiles, renders exactly what swift-mustache renders.
        let syntax = try TemplateSyntax(spec.template)
        if let row = RowTemplate(syntax.nodes, columns: RowSpecCase.columns, htmlLines: false) {
            var output = ""
            row.render(into: &output) { spec.row[RowSpecCase.columns[$0]] ?? "" }
            #expect(output == reference)
        } else {
            #expect(spec.template.contains("{{.}}"), "only '.' is outside what a row template compiles")
        }
    }

    @Test(arguments: RowSpecCase.all)
    func specCaseInAPageIsTheSameOnBothPaths(_ spec: RowSpecCase) throws {
        let body = Self.asInvoiceRow(spec.template)
        for page in [
            "# {{name}}\n\n<table>\n{{#invoices}}\n\(body)\(body.hasSuffix("\n") ? "" : "\n"){{/invoices}}\n</table>\n",
            "# {{name}}\n\n{{#invoices}}\n\(body)\n{{/invoices}}\n\nAfter.\n",
        ] {
            let result = try Self.render(page, rows: Self.rows(for: spec.row))
            #expect(result.fast == result.reference, "\(page.debugDescription)")
        }
    }

    /// The issue's cases: each gave different bytes on the compiled path before.
    @Test(arguments: [
        // Standalone section and comment tags inside a row left blank lines.
        "<table>\n{{#invoices}}\n<tr>\n{{#paid}}\n<td>{{paid}}</td>\n{{/paid}}\n{{! no paid date }}\n</tr>\n{{/invoices}}\n</table>\n",
        // A row tag followed by trailing blanks was not treated as standalone.
        "<table>\n{{#invoices}}  \n<tr><td>{{identifier}}</td></tr>\n{{/invoices}}\t\n</table>\n",
        // Markdown in rows that start with an HTML tag (that cannot interrupt a paragraph) was not rendered.
        "Invoices:\n{{#invoices}}\n<span>**{{identifier}}**</span> due {{due}}\n{{/invoices}}\n",
        // Rows indented four spaces did not become a code block.
        "Code:\n\n{{#invoices}}\n    <tr><td>{{identifier}}</td></tr>\n{{/invoices}}\n",
        // A value in a code span, in a fenced code block.
        "{{#invoices}}\n- `{{notes}}`\n{{/invoices}}\n\n```\n{{#invoices}}\n<tr>{{notes}}</tr>\n{{/invoices}}\n```\n",
    ])
    func issueCasesAreTheSameOnBothPaths(_ page: String) throws {
        let rows = [["identifier": "INV-1", "due": "2025-01-01", "paid": "", "notes": "a*b*c <x>"],
                    ["identifier": "INV-2", "due": "2025-02-01", "paid": "2025-02-03", "notes": ""]]
        let result = try Self.render(page, rows: rows)
        #expect(result.fast == result.reference, "\(result.fast)\n---\n\(result.reference)")
    }

    /// The site of the small fixture store, with the default templates.
    static func smallSite() throws -> SiteBuilder {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try StoreFixture.make(at: folder.path("s.sqlite"), sql: StoreFixture.small)
        let books = try BooksStore(path: folder.path("s.sqlite")).books
        return SiteBuilder(books: books, report: try Report(books: books), templates: try TemplateSet(), options: SiteOptions())
    }

    @Test func theDefaultTemplatesStayOnTheCompiledPath() throws {
        let site = try Self.smallSite()
        #expect(site.templates.rowTemplates.count == 17, "one per list of the kinds' fast lists (invoice-list, a partial, once for client and client-list; the quarter pack's invoices, and its linked invoices; the client page's balances and set-aside invoices)")
        let invoices = site.view.invoicesByClient
        var overdueRows = 0, plainRows = 0
        for totals in site.report.clients {
            let pages = ClientPages(site: site.view, totals: totals, invoices: invoices[totals.clientIndex])
            let registry = RowListRegistry(marker: TemplateSet.rowMarker)
            var context = pages.clientContext().mustacheValue(registry: registry)
            context["root"] = "../"
            context["siteTitle"] = "T"
            context["asOf"] = "2025-12-31"
            let fast = site.templates.page("client", context, rows: registry, renderer: Self.renderer)
            #expect(fast.compiled)
            var general = pages.clientContext().mustacheValue()
            general.merge(["root": "../", "siteTitle": "T", "asOf": "2025-12-31"]) { $1 }
            #expect(fast.html == MarkdownValues.decode(Self.renderer.html(from: site.templates.render("client", general))))
            // An invoice row carries a class only when overdue: both kinds of row, the same on both paths.
            overdueRows += fast.html.ranges(of: "\n<tr class=overdue><th>").count
            plainRows += fast.html.ranges(of: "\n<tr><th>").count

            let statementRows = RowListRegistry(marker: TemplateSet.rowMarker)
            let statement = pages.statementContext(pages.statements()).mustacheValue(registry: statementRows)
            let fastStatement = site.templates.page("statement", statement, rows: statementRows, renderer: Self.renderer)
            #expect(fastStatement.compiled)
            let generalStatement = pages.statementContext(pages.statements()).mustacheValue()
            #expect(fastStatement.html == MarkdownValues.decode(Self.renderer.html(from: site.templates.render("statement", generalStatement))))
            #expect(fastStatement.html.contains("\n<tr><td>"), "the statement's lines, which carry no class")
        }
        #expect(overdueRows > 0 && plainRows > 0, "\(overdueRows) overdue invoice rows, \(plainRows) others")
        let collectionsRows = RowListRegistry(marker: TemplateSet.rowMarker)
        let collections = site.templates.page("collections", CollectionsPage(site: site.view).context().mustacheValue(registry: collectionsRows), rows: collectionsRows, renderer: Self.renderer)
        #expect(collections.compiled)
        #expect(collections.html == MarkdownValues.decode(Self.renderer.html(from: site.templates.render("collections", CollectionsPage(site: site.view).context().mustacheValue()))))
        for offset in site.report.months.indices {
            let registry = RowListRegistry(marker: TemplateSet.rowMarker)
            let context = MonthPage(site: site.view, offset: offset).context().mustacheValue(registry: registry)
            let fast = site.templates.page("month", context, rows: registry, renderer: Self.renderer)
            #expect(fast.compiled || registry.isEmpty)
            #expect(fast.html == MarkdownValues.decode(Self.renderer.html(from: site.templates.render("month", MonthPage(site: site.view, offset: offset).context().mustacheValue()))))
        }
    }

    /// A rendered page's row lists and their registry are freed with the page: a reference cycle between them kept
    /// every page's rows alive until the build ended (1.6 GB at 2,000,000 invoices instead of 0.9).
    @Test func aPagesRowsAreFreedWithIt() throws {
        let site = try Self.smallSite()
        let totals = try #require(site.report.clients.first)
        weak var weakRegistry: RowListRegistry?
        weak var weakList: RowList?
        do {
            let registry = RowListRegistry(marker: TemplateSet.rowMarker)
            let context = ClientPages(site: site.view, totals: totals, invoices: site.view.invoicesByClient[totals.clientIndex]).clientContext().mustacheValue(registry: registry)
            let page = site.templates.page("client", context, rows: registry, renderer: Self.renderer)
            #expect(page.compiled && !registry.isEmpty)
            weakRegistry = registry
            weakList = context.values.lazy.compactMap { $0 as? RowList }.first
            #expect(weakList != nil)
        }
        #expect(weakRegistry == nil)
        #expect(weakList == nil)
    }

    /// How many generated cases a run checks, and with which seed (`INVOICES_ROWS_CASES`, `INVOICES_ROWS_SEED`).
    static let environment = ProcessInfo.processInfo.environment
    static let generatedCases = Int(environment["INVOICES_ROWS_CASES"] ?? "") ?? 10_000
    static let seed = UInt64(environment["INVOICES_ROWS_SEED"] ?? "") ?? 16

    @Test func generatedRowTemplatesAreTheSameOnBothPaths() throws {
        var random = SeededRandom(seed: Self.seed)
        var failures = 0, compiled = 0
        for index in 0..<Self.generatedCases {
            let page = RowTemplateGenerator.page(&random)
            let rows = (0..<Int.random(in: 0...3, using: &random)).map { _ in RowTemplateGenerator.row(&random) }
            let result: (fast: String, reference: String, compiled: Bool)
            do {
                result = try Self.render(page, rows: rows)
            } catch {
                Issue.record("case \(index) (seed \(Self.seed)) does not load: \(error)\n\(page.debugDescription)")
                failures += 1
                if failures > 5 { break } else { continue }
            }
            if result.compiled { compiled += 1 }
            if result.fast != result.reference {
                failures += 1
                Issue.record(
                    "case \(index) (seed \(Self.seed)) differs:\n\(page.debugDescription)\nrows: \(rows)\nfast:\n\(result.fast.debugDescription)\nreference:\n\(result.reference.debugDescription)")
                if failures > 5 { break }
            }
        }
        #expect(failures == 0)
        // Not vacuous: a tenth or more of the generated pages (about an eighth with the fixed seed) take the
        // compiled path; the rest check that the general path is taken where the rows could not be proven.
        #expect(compiled * 10 >= Self.generatedCases, "only \(compiled) of \(Self.generatedCases) cases took the compiled path")
    }
}

/// Random client pages with an `{{#invoices}}` section: Markdown, HTML-led rows, indentation, standalone tags,
/// comments, CRLF and trailing blanks, inside and around the rows.
enum RowTemplateGenerator {
    static let columns = TemplateSet.invoiceColumns

    static func pick<T>(_ items: [T], _ random: inout SeededRandom) -> T { items[Int.random(in: 0..<items.count, using: &random)] }
    static func chance(_ percent: Int, _ random: inout SeededRandom) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    static func end(_ random: inout SeededRandom) -> String {
        (chance(15, &random) ? pick([" ", "  ", "\t", " \t "], &random) : "") + (chance(4, &random) ? "\r\n" : "\n")
    }

    /// Leads of rows an HTML block passes through: about half of the pages use only these.
    static let htmlLeads = ["<tr>", "<td>", "<tr class=\"x\">", "</tr>", "<p>", "<div>", "<li>", "<th scope=\"row\">"]

    static let leads = [
        "<tr>", "<td>", "<tr class=\"x\">", "</tr>", "<p>", "<div>", "<li>", "<span>", "<em>", "<a href=\"{{href}}\">", "",
        "- ", "* ", "1. ", "# ", "> ", "```", "    ", "  ", "<!-- c -->", "<pre>", "</pre>", "<!-- open", "-->", "<?x", "| ",
    ]
    static let words = ["text", "**bold**", "_em_", "`code`", "[l](u)", "<b>", "</td><td>", "&amp;", "*", "\\", "x  ", ""]

    static func inline(_ random: inout SeededRandom, depth: Int = 0) -> String {
        var line = ""
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            switch Int.random(in: 0..<10, using: &random) {
            case 0, 1: line += pick(words, &random)
            case 2, 3, 4: line += "{{\(pick(columns, &random))}}"
            case 5: line += "{{ identifier }}"  // unescaped values ({{{notes}}}) are refused by the checker
            case 6 where depth < 2:
                let name = pick(columns, &random)
                line += "{{\(pick(["#", "^"], &random))\(name)}}\(inline(&random, depth: depth + 1)){{/\(name)}}"
            case 7: line += "{{! note }}"
            default: line += " "
            }
        }
        return line
    }

    /// Lines of a section body (balanced, nesting at most `depth` deeper).
    static func body(_ random: inout SeededRandom, depth: Int, htmlRows: Bool) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            switch Int.random(in: 0..<10, using: &random) {
            case 0 where depth < 2:
                let name = pick(columns, &random)
                let indent = pick(["", "", "  ", "\t"], &random)
                text += indent + "{{\(pick(["#", "^"], &random))\(name)}}" + end(&random)
                text += body(&random, depth: depth + 1, htmlRows: htmlRows)
                text += indent + "{{/\(name)}}" + end(&random)
            case 1:
                text += pick(["", "  ", "    "], &random) + "{{! a comment }}" + end(&random)
            case 2 where !htmlRows:
                text += pick(["", "  "], &random) + end(&random)
            default:
                let lead = htmlRows && chance(90, &random) ? pick(htmlLeads, &random) : pick(leads, &random)
                text += (chance(htmlRows ? 3 : 10, &random) ? pick([" ", "    "], &random) : "") + lead.replacingOccurrences(of: "{{href}}", with: "{{notes}}")
                text += inline(&random) + (lead.hasPrefix("<t") && chance(50, &random) ? "</\(lead.dropFirst().prefix(2))>" : "") + end(&random)
            }
        }
        return text
    }

    static let around = [
        "# {{name}}", "", "Some *text* {{number}}", "<table>", "</table>", "<tbody>", "- item", "    code", "```", "> quote",
        "<pre>", "</pre>", "<!--", "-->", "<div>", "</div>", "Para", "===", "<span>{{name}}</span>",
    ]

    static func page(_ random: inout SeededRandom) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 0...4, using: &random) { text += pick(around, &random) + end(&random) }
        let openIndent = chance(15, &random) ? pick([" ", "  ", "\t"], &random) : ""
        let inlineOpen = chance(8, &random)
        text += openIndent + (inlineOpen ? "x " : "") + "{{#invoices}}" + end(&random)
        let htmlRows = chance(50, &random)
        text += body(&random, depth: 0, htmlRows: htmlRows)
        text += (chance(10, &random) ? "  " : "") + "{{/invoices}}" + (chance(15, &random) ? "" : end(&random))
        if htmlRows, chance(70, &random) { text += pick(["</tbody>", "</table>", ""], &random) + end(&random) }
        for _ in 0..<Int.random(in: 0...3, using: &random) { text += pick(around, &random) + end(&random) }
        return text
    }

    static let values = ["", "INV-1", "2025-01-31", "*x*", "<b>", "a & b", "  padded ", "line\nbreak", "`t`", "# h", "- l", "5.",
                         "&amp;", "'q\"", "é", "tab\there", "\u{E000}", "-->", "</pre>", "{{name}}"]

    static func row(_ random: inout SeededRandom) -> [String: String] {
        Dictionary(uniqueKeysWithValues: columns.map { ($0, pick(values, &random)) })
    }
}
