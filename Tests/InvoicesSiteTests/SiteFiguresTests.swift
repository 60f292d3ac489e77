import Foundation
import InvoicesCore
import InvoicesReport
@testable import InvoicesSite
import Testing

/// Issue 42: the site's figures (statements, the invoices behind each quarter's taxes, the collections, the fiscal
/// periods) are computed once, by InvoicesReport's ``SiteFigures``, before any page renders; the page kinds only
/// format what they are given.
struct SiteFiguresTests {
    /// FiscalPeriodTests' sample: its books, report and options with fiscal years starting in month `start`.
    static func inputs(fiscalYearStart start: Int) throws -> (Books, Report, SiteOptions) {
        let books = try FiscalPeriodTests.books.get()
        var options = SiteOptions()
        options.fiscalYearStart = start
        return (books, try Report(books: books, period: ReportPeriod()), options)
    }

    static func text(_ files: [SiteBuilder.File], _ path: String) throws -> String {
        String(decoding: try #require(files.first { $0.path == path }).data, as: UTF8.self)
    }

    /// Each page shows the figures the builder was given, not figures of its own: a statement's closing balance, a
    /// quarter's tax behind an invoice, a client's overdue amount and the fiscal periods, changed in the figures
    /// value, are what the statement, the quarter's CSV, collections.html and the overview show.
    @Test func pagesFormatTheFiguresTheyAreGiven() throws {
        let (books, report, options) = try Self.inputs(fiscalYearStart: 4)
        let computed = SiteFigures(books: books, report: report, fiscalYearStart: 4)
        var figures = computed

        // Amounts in a currency of two decimals, so each changed figure has one way to show.
        func cents(_ currency: CurrencyCode) -> Bool { currency.minorUnitDigits == 2 }
        let totals = try #require(report.clients.first { (try? computed.statements[$0.clientIndex].get())?.contains { cents($0.currency) } == true })
        var statements = try figures.statements[totals.clientIndex].get()
        let statement = try #require(statements.firstIndex { cents($0.currency) })
        statements[statement].closing = 987_654_321
        figures.statements[totals.clientIndex] = .success(statements)

        let quarter = try #require(figures.periods.indices.first { figures.periods[$0].quarter != 0 && !figures.taxSources[$0].isEmpty })
        let key = try #require(figures.taxSources[quarter].keys.filter { cents($0.currency) }.min { $0.taxIndex < $1.taxIndex })
        figures.taxSources[quarter][key]?[0].figures.accrualTax = 123_456_789

        let currency = try #require(figures.collections.overdue.firstIndex { $0.first.map { cents($0.currency) } == true })
        figures.collections.overdue[currency][0].overdue = 555_555_555

        figures.periods.removeLast()
        figures.taxSources.removeLast()

        let site = SiteBuilder(books: books, report: report, figures: figures, templates: try TemplateSet(), options: options)
        let client = ClientPages(site: site.view, totals: totals, invoices: site.view.invoicesByClient[totals.clientIndex]).files()
        #expect(try Self.text(client, site.paths.statement(totals.clientIndex)).contains("9,876,543.21"))

        let periods = site.view.fiscalPeriods()
        #expect(periods.count == computed.periods.count - 1)
        let period = try #require(periods.first { $0.year == figures.periods[quarter].year && $0.quarter == figures.periods[quarter].quarter })
        let csv = try Self.text(PeriodPage(site: site.view, period: period, periods: periods).files(), SitePaths.periodCSV(period))
        #expect(csv.contains(",1234567.89,"))

        #expect(try Self.text(CollectionsPage(site: site.view).files(), "collections.html").contains("5,555,555.55"))

        // The same builder without the figures computes them by the same function: none of the changes shows.
        let plain = SiteBuilder(books: books, report: report, templates: try TemplateSet(), options: options)
        #expect(plain.view.figures == computed)
        #expect(plain.view.fiscalPeriods().count == computed.periods.count)
        #expect(try !Self.text(CollectionsPage(site: plain.view).files(), "collections.html").contains("5,555,555.55"))
    }

    /// Figures computed for another fiscal year start than the options' are not used: the builder computes its own.
    @Test func figuresOfAnotherFiscalYearStartAreRecomputed() throws {
        let (books, report, options) = try Self.inputs(fiscalYearStart: 7)
        let january = SiteFigures(books: books, report: report, fiscalYearStart: 1)
        let site = SiteBuilder(books: books, report: report, figures: january, templates: try TemplateSet(), options: options)
        #expect(site.view.figures == SiteFigures(books: books, report: report, fiscalYearStart: 7))
        #expect(site.view.fiscalPeriods().first?.label.hasPrefix("FY ") == true)
    }

    /// No page kind, and nothing else in InvoicesSite, computes a figure: the functions that define statements, tax
    /// sources, collections, fiscal periods and the report are called in InvoicesReport and InvoicesApp only.
    @Test func theSiteCallsNoFigureFunction() throws {
        let site = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/InvoicesSite")
        let files = try #require(FileManager.default.enumerator(atPath: site.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(files.count > 20)
        let calls = ["statements(of:", "taxSources(in:", "Collections(books:", "fiscalPeriods(startingIn:", "Report(books:", "invoicesByClient()"]
        // `SiteFigures(books:` is the one call: the public initializer without figures computes them there.
        var found: [String] = []
        for file in files {
            let text = try String(contentsOf: site.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("///") {
                for call in calls where line.contains(call) { found.append("\(file):\(number + 1): \(call)") }
            }
        }
        #expect(found.isEmpty, "\(found)")
    }
}
