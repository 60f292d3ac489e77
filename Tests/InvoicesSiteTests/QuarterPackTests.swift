import Foundation
import InvoicesCore
import InvoicesReport
@testable import InvoicesSite
import InvoicesStore
import InvoicesTesting
import Testing

/// The quarter's print pack (issue 45, item 5): `quarters/YYYY-QN/print.html`, the first page kind added to the house.
/// It prints (headless Chromium to PDF, read back by `pdftotext`) with each currency's total as totals.csv has it
/// and "Page n of m" in the page's language on every page; past its row limit it holds no rows and links the quarter's CSV; its template is
/// checked against its scope; an incremental build reuses it while its quarter is unchanged.
@Suite(.serialized) struct QuarterPackTests {
    /// A sample store of 10 clients and 600 invoices over two years, built with the tool.
    struct Project {
        let folder: TemporaryFolder
        var store: String { folder.path("s.sqlite") }
        var site: String { folder.path("site") }

        /// The sample built with `options` (`--language de`); `table` is written as the templates folder's
        /// `i18n/<name>.yaml` and the build reads that folder.
        init(_ options: [String] = [], table: (name: String, text: String)? = nil) throws {
            folder = try TemporaryFolder()
            let sample = try CLI.run(["sample", "--clients", "10", "--invoices", "600", "--seed", "3", "--output", store])
            try #require(sample.status == 0, "\(sample.stderr)")
            var templates: [String] = []
            if let table {
                try FileManager.default.createDirectory(atPath: folder.path("templates/i18n"), withIntermediateDirectories: true)
                try Data(table.text.utf8).write(to: URL(fileURLWithPath: folder.path("templates/i18n/\(table.name).yaml")))
                templates = ["--templates", folder.path("templates")]
            }
            let build = try CLI.run(["build", "--store", store, "--output", site, "--quiet"] + options + templates)
            try #require(build.status == 0, "\(build.stderr)")
        }

        func text(_ path: String) throws -> String { try String(contentsOfFile: site + "/" + path, encoding: .utf8) }

        /// The quarter whose pack is the longest (`2025-Q3`).
        func longestQuarter() throws -> String {
            let quarters = try FileManager.default.contentsOfDirectory(atPath: site + "/quarters").filter { !$0.contains(".") }
            return try #require(quarters.max { (try? text("quarters/\($0)/print.html").utf8.count) ?? 0 < (try? text("quarters/\($1)/print.html").utf8.count) ?? 0 })
        }

        func builder(pageSize: Int = Pagination.defaultPageSize) throws -> SiteBuilder {
            let books = try BooksStore(path: store).books
            var options = SiteOptions()
            options.pageSize = pageSize
            return SiteBuilder(books: books, report: try Report(books: books), templates: try TemplateSet(), options: options)
        }
    }

    /// The pack printed to PDF on `paper` by headless Chromium (a copy beside it asks for the paper size, as
    /// scripts/screenshots.sh does), as `pdftotext -layout` reads it: one string per printed page.
    static func printed(_ project: Project, _ quarter: String, paper: String) throws -> [String] {
        let found = try CLI.shell("command -v chromium || command -v chromium-browser").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let browser = try #require(found.isEmpty ? nil : found, "headless Chromium is needed: make test-deps installs Debian's chromium")
        let folder = project.site + "/quarters/" + quarter
        let copy = folder + "/.print-\(paper).html"
        let page = try project.text("quarters/\(quarter)/print.html")
        try Data(page.replacingOccurrences(of: "</head>", with: "<style>@page { size: \(paper); }</style></head>").utf8).write(to: URL(fileURLWithPath: copy))
        defer { try? FileManager.default.removeItem(atPath: copy) }
        let pdf = project.folder.path("pack-\(paper).pdf")
        let flags = "--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --no-pdf-header-footer"
        let run = try CLI.shell("'\(browser)' \(flags) --user-data-dir='\(project.folder.path("profile"))' --print-to-pdf='\(pdf)' 'file://\(copy)' 2>/dev/null")
        try #require(run.status == 0 && FileManager.default.fileExists(atPath: pdf), "chromium did not print: \(run.stderr)")
        let text = try CLI.shell("pdftotext -layout '\(pdf)' -")
        try #require(text.status == 0, "pdftotext is needed (poppler-utils, make test-deps): \(text.stderr)")
        var pages = text.stdout.components(separatedBy: "\u{0C}")
        if pages.last?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty == true { pages.removeLast() }
        return pages
    }

    /// Each currency's invoiced total over the quarter, from totals.csv's rows (client, currency, month) of its
    /// fiscal year and quarter, as a plain decimal in minor units.
    static func invoicedByCurrency(_ csv: String, year: String, quarter: String) -> [String: Int64] {
        var sums: [String: Int64] = [:]
        let lines = csv.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard let header = lines.first, let currency = header.firstIndex(of: "currency"), let invoiced = header.firstIndex(of: "invoiced"),
            let fiscalYear = header.firstIndex(of: "fiscal_year"), let fiscalQuarter = header.firstIndex(of: "fiscal_quarter")
        else { return [:] }
        for row in lines.dropFirst() where row.count == header.count && row[fiscalYear] == year && row[fiscalQuarter] == quarter {
            sums[row[currency], default: 0] += Int64(row[invoiced].replacingOccurrences(of: ".", with: "")) ?? .min
        }
        return sums
    }

    @Test func itPrintsEachCurrencysTotalAndPageNOfMOnEveryPage() throws {
        let project = try Project()
        defer { project.folder.remove() }
        let quarter = try project.longestQuarter()
        let pack = try project.text("quarters/\(quarter)/print.html")
        #expect(pack.contains("<table class=\"figures tax-invoices\" id=\"tax-"), "the rows are listed")
        #expect(try project.text("quarters/\(quarter).html").contains("<a href=\"\(quarter)/print.html\">"), "the quarter's page links its pack")
        // The quarter's totals as the quarter's page shows them: `<th>EUR<td>EUR 1,234.56`.
        let page = try project.text("quarters/\(quarter).html")
        let totals = page.components(separatedBy: "<tr><th>").dropFirst().compactMap { row -> (String, String)? in
            let parts = row.components(separatedBy: "<td>")
            guard parts.count >= 2, parts[0].count == 3, let cell = parts[1].components(separatedBy: "\n").first else { return nil }
            return (parts[0], cell)
        }
        let fromCSV = Self.invoicedByCurrency(
            try String(contentsOfFile: project.site + "/totals.csv", encoding: .utf8), year: String(quarter.prefix(4)), quarter: String(quarter.suffix(2)))
        #expect(totals.count >= 2 && Set(totals.map(\.0)) == Set(fromCSV.keys), "\(totals) \(fromCSV)")
        for paper in ["A4", "Letter"] {
            let pages = try Self.printed(project, quarter, paper: paper)
            #expect(pages.count >= 2, "the pack of \(quarter) prints on more than one \(paper) page")
            for (index, text) in pages.enumerated() {
                // The page's last line is its margin box, "Page n of m" in the page's language.
                #expect(Self.foot(text) == "Page \(index + 1) of \(pages.count)", "\(paper) page \(index + 1) reads its number of \(pages.count)")
                #expect(text.contains("Invoice") && text.contains("Net, accrual"), "\(paper) page \(index + 1) repeats the table headers")
            }
            let all = pages.joined()
            for (currency, shown) in totals {
                // The page joins code and amount with a no-break space, which pdftotext gives as a space.
                #expect(all.contains(shown.replacingOccurrences(of: "\u{A0}", with: " ")), "\(paper): \(currency)'s total \(shown) is printed as the quarter's page shows it")
                // The same figure as totals.csv's months add up to (the digits, without the code and separators).
                let digits = shown.dropFirst(4).filter { $0.isNumber || $0 == "-" }
                #expect(Int64(digits) == fromCSV[currency], "\(currency): printed \(shown), totals.csv \(fromCSV[currency] ?? 0)")
            }
        }
    }

    /// A printed page's last line, its margin box, with its spaces as one.
    static func foot(_ page: String) -> String? {
        page.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
    }

    /// A German report's pack reads "Seite n von m" at the foot of every page, from the German table.
    @Test func aGermanPackReadsSeiteNVonM() throws {
        let project = try Project(["--language", "de"])
        defer { project.folder.remove() }
        let quarter = try project.longestQuarter()
        let pages = try Self.printed(project, quarter, paper: "A4")
        #expect(pages.count >= 2)
        for (index, text) in pages.enumerated() {
            #expect(Self.foot(text) == "Seite \(index + 1) von \(pages.count)", "A4 page \(index + 1) of \(pages.count): \(Self.foot(text) ?? "")")
            #expect(!text.contains("Page "), "no English word at its foot")
        }
    }

    /// A table's `pack.pageOf` that tries to end the CSS string, the rule and the style element is printed as the
    /// text it is: the foot reads it literally, the counters where its placeholders were, and no element is added.
    @Test func aHostilePageOfWordStaysText() throws {
        let hostile = #""}</style><script>\ {page}; {pages}\A"#
        let yaml = "pack.pageOf: '" + hostile.replacingOccurrences(of: "'", with: "''") + "'\n"
        let project = try Project(["--language", "de"], table: (name: "de", text: yaml))
        defer { project.folder.remove() }
        let quarter = try project.longestQuarter()
        let html = try project.text("quarters/\(quarter)/print.html")
        #expect(!html.contains("<script>"))
        #expect(html.components(separatedBy: "</style>").count == 2, "one style element, ended once")
        let pages = try Self.printed(project, quarter, paper: "A4")
        #expect(pages.count >= 2)
        for (index, text) in pages.enumerated() {
            let expected = #""}</style><script>\ "# + "\(index + 1); \(pages.count)" + #"\A"#
            #expect(Self.foot(text) == expected, "A4 page \(index + 1): \(Self.foot(text) ?? "")")
        }
    }

    /// CSSText's strings decode, by CSS's escapes, to the text they were made of, and hold no quote, backslash
    /// other than an escape's, line end or `<`.
    @Test func cssStringsHoldTheirTextAndNothingElse() {
        let texts = ["Page ", " of ", "\"", "\\", "a\nb\r\u{0C}c", "</style>", "\u{202E}evil", "עמוד ", "Página", "x\\\"; } @import url(e)", ""]
        for text in texts {
            let css = CSSText.string(text)
            #expect(css.first == "\"" && css.last == "\"" && css.dropFirst().dropLast().allSatisfy { $0 != "\"" && $0 != "<" && !$0.isNewline })
            #expect(Self.decodeCSSString(css) == text, "\(css)")
        }
        #expect(CSSText.content("Page {page} of {pages}", counters: ["page": "page", "pages": "pages"]) == #""Page " counter(page) " of " counter(pages)"#)
        #expect(CSSText.content("{page}/{pages} {x}", counters: ["page": "page", "pages": "pages"]) == #"counter(page) "\2f " counter(pages) " \7b x\7d ""#)
    }

    /// A CSS string's text (CSS Syntax 4.3.5, the escapes CSSText writes: a backslash, hex digits, one space).
    static func decodeCSSString(_ css: String) -> String {
        var scalars = Array(css.unicodeScalars.dropFirst().dropLast())[...]
        var text = String.UnicodeScalarView()
        while let first = scalars.popFirst() {
            guard first == "\\" else {
                text.append(first)
                continue
            }
            let hex = scalars.prefix { $0.properties.isASCIIHexDigit }.prefix(6)
            scalars = scalars.dropFirst(hex.count)
            if scalars.first == " " { scalars = scalars.dropFirst() }
            if let value = UInt32(String(String.UnicodeScalarView(hex)), radix: 16), let scalar = Unicode.Scalar(value) { text.append(scalar) }
        }
        return String(text)
    }

    @Test func aQuarterPastTheRowLimitHoldsNoRowsAndLinksTheCSV() throws {
        let project = try Project()
        defer { project.folder.remove() }
        let site = try project.builder()
        let periods = site.view.fiscalPeriods()
        let period = try #require(periods.last { $0.quarter != 0 })
        let rows = site.view.figures.taxSources(year: period.year, quarter: period.quarter).values.reduce(0) { $0 + $1.count }
        try #require(rows > 3)
        func html(limit: Int) -> String {
            let files = QuarterPackPage(site: site.view, period: period, periods: periods, rowLimit: limit).files()
            // The page's body: its head holds the style sheet, inline, which names the tables' classes.
            let page = String(decoding: files.first?.data ?? Data(), as: UTF8.self)
            return page.components(separatedBy: "<body>").last ?? ""
        }
        let csv = "<a href=\"../\(period.year)-Q\(period.quarter).csv\" download>"
        let small = html(limit: rows - 1)
        #expect(!small.contains("tax-invoices") && !small.contains("<caption>"), "no rows past the limit")
        #expect(small.contains("has \(rows) invoice rows behind its taxes, more than the \(rows - 1) this page prints"), "\(small)")
        #expect(small.contains(csv), "the CSV is linked")
        #expect(small.contains("<table class=\"figures taxes\">") && small.contains("Totals"), "the totals and the taxes stay")
        let whole = html(limit: rows)
        #expect(whole.components(separatedBy: "<tr><th>INV-").count - 1 == rows, "at the limit, every row")
        #expect(!whole.contains("more than the"))
    }

    /// A quarter whose lists are more than a page together (`--page-size 50`) and at most the pack's row limit (ten
    /// pages' worth) has them in its pack only (issue 46, item 5): the quarter's page links each tax to the pack's
    /// table of it, no list pages repeat the rows, and the pack's rows link their clients as those pages did.
    @Test func aPagedQuartersListsAreInItsPackOnly() throws {
        let project = try Project(["--page-size", "50"])
        defer { project.folder.remove() }
        let root = project.site + "/quarters/"
        var paged = 0
        for quarter in try FileManager.default.contentsOfDirectory(atPath: root) where !quarter.contains(".") {
            guard let csv = try? project.text("quarters/\(quarter).csv") else { continue }
            let identifiers = csv.split(separator: "\r\n").dropFirst().map { String($0.split(separator: ",")[3]) }
            guard identifiers.count > 50 else { continue }
            #expect(identifiers.count <= 500, "\(quarter): within the pack's limit")
            paged += 1
            let page = try project.text("quarters/\(quarter).html")
            let pack = try project.text("quarters/\(quarter)/print.html")
            // Every row once in the pack, in the CSV's order; none on the quarter's page or any page in its folder.
            #expect(pack.matches(of: /<tr><th>([^<]*)<td>/).map { String($0.output.1) }.filter { $0.hasPrefix("INV") } == identifiers, "\(quarter)")
            // No list pages beside the pack: their addresses are small pages that refresh to the pack's table.
            let folder = try FileManager.default.subpathsOfDirectory(atPath: root + quarter).filter { $0.hasSuffix(".html") && $0 != "print.html" }
            #expect(!folder.isEmpty)
            for moved in folder {
                let html = try project.text("quarters/\(quarter)/\(moved)")
                let anchor = moved.prefix { $0 != "/" }
                #expect(moved.hasPrefix("tax-") && !html.contains("<tr") && html.utf8.count < 600, "\(quarter)/\(moved)")
                #expect(html.contains("<meta http-equiv=\"refresh\" content=\"0; url=../print.html#\(anchor)\">") && html.contains("<a href=\"../print.html#\(anchor)\">"), "\(html)")
            }
            #expect(!page.contains("tax-invoices") && !identifiers.contains { page.contains("<tr><th>\($0)<") }, "\(quarter)")
            // Each tax's link lands on the pack's table of that tax.
            let links = page.matches(of: /<nav class="pages" id="(tax-[A-Z]{3}-[0-9]+)"[^>]*>[^\n]*?<a href="([^"]*)">1<\/a> <\/nav>/)
            #expect(links.count == pack.components(separatedBy: "<table class=\"figures tax-invoices\"").count - 1 && !links.isEmpty, "\(quarter)")
            for link in links {
                #expect(link.output.2 == "\(quarter)/print.html#\(link.output.1)")
                #expect(pack.contains("<table class=\"figures tax-invoices\" id=\"\(link.output.1)\">"))
            }
            // The rows link their clients' pages, which exist.
            let clients = Set(pack.matches(of: /<td><a href="(\.\.\/\.\.\/clients\/[^"]*)">/).map { String($0.output.1) })
            #expect(!clients.isEmpty)
            for client in clients { #expect(FileManager.default.fileExists(atPath: root + quarter + "/" + client), "\(client)") }
        }
        #expect(paged > 0, "some quarters have more than a page of rows")
    }

    /// The pack's rows, linked (its lists the quarter's, at a page size of 50) or not (the default), go through the
    /// compiled row path with the bytes Mustache and cmark give.
    @Test func itsRowsRenderTheSameOnBothPaths() throws {
        let project = try Project()
        defer { project.folder.remove() }
        var linked = 0
        for pageSize in [Pagination.defaultPageSize, 50] {
            let site = try project.builder(pageSize: pageSize)
            let periods = site.view.fiscalPeriods()
            for period in periods where period.quarter != 0 {
                let pack = QuarterPackPage(site: site.view, period: period, periods: periods, rowLimit: QuarterPackPage.rowLimit(pageSize: pageSize))
                let registry = RowListRegistry(marker: TemplateSet.rowMarker)
                let fast = site.templates.page("quarter-print", pack.context().mustacheValue(registry: registry), rows: registry, renderer: RowDifferentialTests.renderer)
                #expect(fast.compiled, "\(period.label)")
                let general = site.templates.render("quarter-print", pack.context().mustacheValue())
                #expect(fast.html == MarkdownValues.decode(RowDifferentialTests.renderer.html(from: general)), "\(period.label)")
                if fast.html.contains("<td><a href=\"../../clients/") { linked += 1 }
                #expect(fast.html.contains("<td><a href=") == (pageSize == 50), "\(period.label) at \(pageSize) rows a page")
            }
        }
        #expect(linked > 0)
    }

    @Test func itsTemplateIsCheckedAgainstItsScope() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(TemplateVariables.pages["quarter-print"] != nil, "the built-in list holds the kind's scope")
        let template = try #require(DefaultTemplates.files["quarter-print.md"])
        try Data(template.utf8).write(to: URL(fileURLWithPath: folder.path("quarter-print.md")))
        #expect(TemplateSet.problems(directory: folder.url.path).isEmpty)
        // A list's name outside its list, and a name the pack does not have, are refused.
        let bad = template.replacingOccurrences(of: "{{periodHref}}", with: "{{identifier}}").replacingOccurrences(of: "{{csvHref}}\" download>{{t.period.download}}</a></p>\n{{/tooMany}}", with: "{{csvHref}}\" download>{{packHref}}</a></p>\n{{/tooMany}}")
        try Data(bad.utf8).write(to: URL(fileURLWithPath: folder.path("quarter-print.md")))
        let problems = TemplateSet.problems(directory: folder.url.path)
        #expect(problems.map(\.code) == [.unknownVariable, .unknownVariable], "\(problems)")
    }

    @Test func anIncrementalBuildReusesThePackOfAnUnchangedQuarter() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        var books = try BooksStore(path: project.store).books
        func build(previous: SiteManifest?) async throws -> SiteManifest {
            let writer = SiteWriter(output: project.folder.path("api-site"))
            let staging = try writer.begin()
            let site = SiteBuilder(books: books, report: try Report(books: books), templates: try TemplateSet(), options: SiteOptions())
            let manifest = try await site.write(to: staging, previous: previous)
            _ = try staging.commit()
            return manifest
        }
        let first = try await build(previous: nil)
        let packs = first.units.keys.filter { $0.hasPrefix("pack:") }.sorted()
        #expect(packs.count >= 4 && packs.allSatisfy { $0.hasSuffix("/print.html") }, "\(packs)")
        // An invoice issued in the last quarter, behind its taxes, is for another amount: only that quarter's pack is
        // rendered again.
        let site = SiteBuilder(books: books, report: try Report(books: books), templates: try TemplateSet(), options: SiteOptions())
        let quarter = try #require(site.view.fiscalPeriods().last { $0.quarter != 0 })
        let sources = site.view.figures.taxSources(year: quarter.year, quarter: quarter.quarter).values.joined()
        let last = try #require(sources.first { $0.figures.accrualNet != 0 }?.invoiceIndex)
        books.invoices[last].amount += 100
        books.invoices[last].net += 100
        let second = try await build(previous: first)
        let changed = packs.filter { first.units[$0]?.inputs != second.units[$0]?.inputs }
        #expect(changed.count == 1, "\(changed) \(first.units.keys.filter { first.units[$0]?.inputs != second.units[$0]?.inputs }.sorted())")
        #expect(changed == ["pack:" + SitePaths.quarterPack(quarter)], "\(changed)")
        #expect(packs.filter { first.units[$0]?.inputs == second.units[$0]?.inputs }.count == packs.count - 1)
    }
}
