import Foundation
import InvoicesApp
import InvoicesCore
import InvoicesReport
import InvoicesStore
import InvoicesTesting
import Testing

/// Issue 42: the site's figures come out of the private child context with the report (``BooksAndReport``), and
/// are what the page kinds used to compute at page time: each client's statements, each fiscal quarter's tax
/// sources, the collections and the fiscal periods, on a seeded sample with fiscal years starting in April.
struct ChildContextFiguresTests {
    static let store: Result<String, any Error> = Result {
        let folder = try TemporaryFolder("child-figures")
        let path = folder.path("generated.sqlite")
        try SampleGenerator(clients: 25, invoices: 1_200, seed: 11).write(to: path)
        return path
    }

    @Test func theChildContextComputesWhatThePagesComputedAtPageTime() async throws {
        let read = try await BooksAndReport.read(store: BooksStore(path: Self.store.get()), period: ReportPeriod(), fiscalYearStart: 4)
        let books = read.books, report = read.report, figures = read.figures
        #expect(figures.fiscalYearStart == 4)

        // Statements: as ClientPages asked for them, per client with its invoices.
        var invoices = Array(repeating: [Int](), count: books.clients.count)
        for (index, invoice) in books.invoices.enumerated() { invoices[Int(invoice.clientIndex)].append(index) }
        #expect(figures.invoicesByClient.map { $0.sorted() } == invoices)
        #expect(report.clients.count > 20)
        for totals in report.clients {
            let expected = Result { () throws(ReportError) in
                try report.statements(of: totals, invoices: invoices[totals.clientIndex], in: books)
            }
            #expect(figures.statements[totals.clientIndex] == expected, "client \(totals.clientIndex)")
        }

        // Collections: as CollectionsPage and OverviewPage made them.
        #expect(figures.collections == Collections(books: books, report: report))

        // Fiscal periods: every reported month in one year and one quarter of the April fiscal year.
        let years = figures.periods.filter { $0.quarter == 0 }, quarters = figures.periods.filter { $0.quarter != 0 }
        #expect(years.flatMap { Array($0.offsets) } == Array(report.months.indices))
        #expect(quarters.flatMap { Array($0.offsets) } == Array(report.months.indices))
        for quarter in quarters {
            for offset in quarter.offsets {
                #expect(report.months[offset].fiscal(startingIn: 4) == (quarter.year, quarter.quarter))
            }
            #expect(quarter.complete == (quarter.offsets.count == 3))
        }

        // Tax sources: as PeriodPage asked for them, over each quarter's days; their sums are the report's taxes.
        #expect(figures.taxSources.count == figures.periods.count)
        var sourcesSeen = 0
        for (position, period) in figures.periods.enumerated() {
            guard period.quarter != 0 else {
                #expect(figures.taxSources[position].isEmpty)
                continue
            }
            let first = report.months[period.offsets.lowerBound], last = report.months[period.offsets.upperBound - 1]
            let expected = Report.taxSources(in: books, from: first.firstDay, to: last.lastDay)
            #expect(figures.taxSources(year: period.year, quarter: period.quarter) == expected)
            for totals in report.taxes {
                let behind = expected[TaxKey(currency: totals.currency, taxIndex: totals.taxIndex)] ?? []
                sourcesSeen += behind.count
                let sum = behind.reduce(Int64(0)) { $0 + $1.figures.accrualTax }
                let months = totals.months[period.offsets].reduce(Int64(0)) { $0 + $1.accrualTax }
                #expect(sum == months, "\(period.year)-Q\(period.quarter) \(totals.currency.code)")
            }
        }
        #expect(sourcesSeen > 100)
    }

    /// The journal's transactions and the DATEV files come out of the child context with the other figures: what
    /// the export page kind and the build's DATEV check each computed before (issue 45).
    @Test func theChildContextComputesTheJournalAndTheDATEVFiles() async throws {
        let settings = DATEVSettings(adviser: 1001, client: 42, chart: "SKR04", revenue: ["20": 4400, "7.7": 4300, "0": 4120])
        let rates = ExchangeRates([])
        let read = try await BooksAndReport.read(
            store: BooksStore(path: Self.store.get()), period: ReportPeriod(), fiscalYearStart: 4, datev: settings, rates: rates)
        let transactions = BooksJournal.Transactions(books: read.books, report: read.report)
        #expect(read.figures.journal == transactions)
        #expect(transactions.entries.count > 1_200)
        let export = DATEVExport(
            books: read.books, report: read.report, transactions: transactions, settings: settings, fiscalYearStart: 4, rates: rates)
        var expected: DATEVError?
        do throws(DATEVError) { try export.check() } catch { expected = error }
        #expect(read.figures.datev == DATEVFiles(books: read.books, report: read.report, transactions: transactions, settings: settings, fiscalYearStart: 4, rates: rates))
        #expect(read.figures.datev?.refusal == expected)
        // Without settings, no files are worked out.
        let plain = try await BooksAndReport.read(store: BooksStore(path: Self.store.get()), period: ReportPeriod(), fiscalYearStart: 4)
        #expect(plain.figures.datev == nil)
    }
}
