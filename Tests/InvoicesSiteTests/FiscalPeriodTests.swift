import Foundation
import InvoicesCore
import InvoicesReport
@testable import InvoicesSite
import InvoicesStore
import InvoicesTesting
import Testing

/// Fiscal years and quarters: which months each covers, their labels, and their tax summaries, whose rows are the
/// sums of the invoices listed behind them.
struct FiscalPeriodTests {
    static let books: Result<Books, any Error> = Result {
        let folder = try TemporaryFolder("fiscal")
        let path = folder.path("generated.sqlite")
        try SampleGenerator(clients: 30, invoices: 1_500, seed: 7).write(to: path)
        return try BooksStore(path: path).books
    }

    func site(fiscalYearStart: Int, period: ReportPeriod = ReportPeriod()) throws -> SiteBuilder {
        let books = try Self.books.get()
        var options = SiteOptions()
        options.fiscalYearStart = fiscalYearStart
        options.period = period
        return SiteBuilder(books: books, report: try Report(books: books, period: period), templates: try TemplateSet(), options: options)
    }

    /// The overview names the fiscal years (or quarters) its months fall in when years do not start in January.
    @Test func theOverviewNamesTheFiscalYearsItCovers() throws {
        func span(_ start: Int, _ first: (Int, Int), _ last: (Int, Int)) throws -> String {
            let months = YearMonth(year: first.0, month: first.1)...YearMonth(year: last.0, month: last.1)
            return try site(fiscalYearStart: start, period: ReportPeriod(months: months)).view.fiscalSpan()
        }
        #expect(try site(fiscalYearStart: 4).view.fiscalSpan() == "Q4 FY 2023/24 to Q3 FY 2025/26")
        #expect(try site(fiscalYearStart: 1).view.fiscalSpan() == "")
        #expect(try span(4, (2024, 4), (2025, 3)) == "FY 2024/25")
        #expect(try span(7, (2024, 7), (2026, 6)) == "FY 2024/25 to FY 2025/26")
        #expect(try span(4, (2025, 4), (2025, 6)) == "Q1 FY 2025/26")
        #expect(try span(4, (2025, 5), (2025, 5)) == "Q1 FY 2025/26")
        #expect(try span(4, (2024, 4), (2025, 6)) == "Q1 FY 2024/25 to Q1 FY 2025/26")
        #expect(try span(10, (2024, 10), (2025, 9)) == "FY 2024/25")
        let page = OverviewPage(site: (try site(fiscalYearStart: 4)).view).files().first
        let html = String(decoding: try #require(page).data, as: UTF8.self)
        #expect(html.contains("Fiscal years start in April: these months fall in <strong>Q4 FY 2023/24 to Q3 FY 2025/26</strong>."))
        let calendar = OverviewPage(site: (try site(fiscalYearStart: 1)).view).files().first
        #expect(!String(decoding: try #require(calendar).data, as: UTF8.self).contains("Fiscal years start in January:"))
    }

    @Test func yearsAndQuartersFollowTheFiscalYearStart() throws {
        let calendar = try site(fiscalYearStart: 1)
        let months = calendar.report.months
        #expect(months.first == YearMonth(year: 2024, month: 1) && months.count == 24)
        let periods = calendar.view.fiscalPeriods()
        #expect(periods.filter { $0.quarter == 0 }.map(\.label) == ["2024", "2025"])
        #expect(periods.filter { $0.quarter != 0 }.map(\.label).prefix(2) == ["Q1 2024", "Q2 2024"])
        #expect(periods.allSatisfy { $0.complete })

        let april = try site(fiscalYearStart: 4).view.fiscalPeriods()
        let years = april.filter { $0.quarter == 0 }
        #expect(years.map(\.label) == ["FY 2023/24", "FY 2024/25", "FY 2025/26"])
        #expect(years.map(SitePaths.period) == ["years/2023.html", "years/2024.html", "years/2025.html"])
        #expect(years.map(\.offsets.count) == [3, 12, 9])
        #expect(years.map(\.complete) == [false, true, false])
        let quarters = april.filter { $0.quarter != 0 }
        #expect(quarters.count == 8)
        // January to March 2024 is the last quarter of the fiscal year that started in April 2023.
        #expect(quarters[0].label == "Q4 FY 2023/24" && SitePaths.period(quarters[0]) == "quarters/2023-Q4.html" && quarters[0].offsets == 0..<3)
        #expect(quarters[1].label == "Q1 FY 2024/25" && quarters[1].offsets == 3..<6)
        // Every reported month is in exactly one year and one quarter.
        for offset in months.indices {
            #expect(years.filter { $0.offsets.contains(offset) }.count == 1)
            #expect(quarters.filter { $0.offsets.contains(offset) }.count == 1)
        }
    }

    @Test(arguments: [1, 4, 7])
    func taxRowsAreTheSumsOfTheInvoicesBehindThem(fiscalYearStart: Int) throws {
        let site = try site(fiscalYearStart: fiscalYearStart)
        let books = site.books
        var rows = 0
        for period in site.view.fiscalPeriods() {
            let from = site.report.months[period.offsets.lowerBound].firstDay
            let to = site.report.months[period.offsets.upperBound - 1].lastDay
            let sources = Report.taxSources(in: books, from: from, to: to)
            for totals in site.report.taxes {
                let expected = try #require(TaxFigures.spanning(totals.months[period.offsets]))
                var sum = TaxFigures()
                for source in sources[TaxKey(currency: totals.currency, taxIndex: totals.taxIndex)] ?? [] {
                    let invoice = books.invoices[source.invoiceIndex]
                    #expect(books.currencies[Int(invoice.currencyIndex)] == totals.currency)
                    sum.accrualNet += source.figures.accrualNet
                    sum.accrualTax += source.figures.accrualTax
                    sum.cashNet += source.figures.cashNet
                    sum.cashTax += source.figures.cashTax
                }
                #expect(sum == expected, "\(period.label) \(totals.currency) \(books.taxes[totals.taxIndex])")
                if expected.isActive { rows += 1 }
            }
        }
        #expect(rows > 50)
    }

    /// The tax tables' invoice rows go through the compiled row path, with the bytes Mustache and cmark give. A year
    /// page lists no invoices: each tax row links to the same tax's list on the year's quarter pages.
    @Test func periodPagesRenderTheSameOnBothPaths() throws {
        let site = try site(fiscalYearStart: 4)
        let periods = site.view.fiscalPeriods()
        var pages: [String: String] = [:]
        for period in periods {
            let registry = RowListRegistry(marker: TemplateSet.rowMarker)
            let fast = site.templates.page(
                "period", PeriodPage(site: site.view, period: period, periods: periods).context().mustacheValue(registry: registry), rows: registry, renderer: RowDifferentialTests.renderer)
            #expect(fast.compiled == (period.quarter != 0), "\(period.label)")
            let general = site.templates.render("period", PeriodPage(site: site.view, period: period, periods: periods).context().mustacheValue())
            #expect(fast.html == MarkdownValues.decode(RowDifferentialTests.renderer.html(from: general)), "\(period.label)")
            #expect(fast.html.contains(period.quarter == 0 ? "the invoices behind the figures are listed by quarter" : "the invoices behind the figures</caption>"))
            pages[SitePaths.period(period)] = fast.html
        }
        // Every link from a year's tax row lands on a quarter of that year, at a table of invoices.
        var links = 0
        for year in periods where year.quarter == 0 {
            let html = try #require(pages[SitePaths.period(year)])
            for match in html.matches(of: /href="\.\.\/(quarters\/[0-9]{4}-Q[1-4]\.html)#(tax-[A-Z]{3}-[0-9]+)"/) {
                let quarter = try #require(periods.first { SitePaths.period($0) == String(match.1) }, "\(match.1)")
                #expect(quarter.year == year.year)
                #expect(try #require(pages[SitePaths.period(quarter)]).contains("<table class=\"figures tax-invoices\" id=\"\(match.2)\">"))
                links += 1
            }
        }
        #expect(links > 10)
    }
}
