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

        let site = SiteBuilder(books: books, report: report, figures: figures, templates: try TemplateSet(), options: options)
        let client = ClientPages(site: site.view, totals: totals, invoices: site.view.invoicesByClient[totals.clientIndex]).files()
        #expect(try Self.text(client, site.paths.statement(totals.clientIndex)).contains("9,876,543.21"))

        let periods = site.view.fiscalPeriods()
        #expect(periods.count == computed.periods.count - 1)
        let period = try #require(periods.first { $0.year == figures.periods[quarter].year && $0.quarter == figures.periods[quarter].quarter })
        let csv = try Self.text(QuarterListsPage(site: site.view, period: period, periods: periods).files(), SitePaths.periodCSV(period))
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
    /// sources, collections, fiscal periods, the report, the journal's transactions and the DATEV files are called
    /// in InvoicesReport and InvoicesApp only.
    @Test func theSiteCallsNoFigureFunction() throws {
        let calls = [
            "statements(of:", "taxSources(in:", "Collections(books:", "fiscalPeriods(startingIn:", "Report(books:", "invoicesByClient()",
            "Transactions(books:", "DATEVExport(", "DATEVFiles(", ".walk(",
        ]
        // `SiteFigures(books:` is the one call: the public initializer without figures computes them there.
        let found = try Self.calls(calls, in: "InvoicesSite")
        #expect(found.isEmpty, "\(found)")
    }

    /// The DATEV files and the journal's transactions are worked out in one place, SiteFigures (in the child
    /// context): the build (InvoicesApp) and the CLI only read them; the build's check before writing anything is
    /// the figures' result, not a second computation.
    @Test func theDATEVFilesAreWorkedOutOnlyWithTheFigures() throws {
        let calls = ["Transactions(books:", "DATEVExport(", "DATEVFiles(", ".walk(", ".files()"]
        #expect(try Self.calls(calls, in: "InvoicesApp").isEmpty)
        #expect(try Self.calls(calls, in: "InvoicesCLI").isEmpty)
        let report = try Self.calls(calls, in: "InvoicesReport")
        #expect(Set(report.map { $0.split(separator: ":")[0] }) == ["DATEV.swift", "SiteFigures.swift", "Journal.swift"], "\(report)")
    }

    /// The lines (not doc comments) of the Swift files of `Sources/<module>` that hold one of `calls`.
    static func calls(_ calls: [String], in module: String) throws -> [String] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/\(module)")
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(files.count > 1)
        var found: [String] = []
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("///") {
                for call in calls where line.contains(call) { found.append("\(file):\(number + 1): \(call)") }
            }
        }
        return found
    }

    /// The exports write the journal's transactions the figures hold, not ones of their own: a transaction taken out
    /// of the figures is in neither journal. The DATEV files are made from the same transactions in pieces
    /// (DATEVPiecesTests); a refusal the figures hold (here: a rate without a revenue account, other currencies
    /// without rates) writes no DATEV file, as the build stopped on it before writing anything.
    @Test func exportsWriteTheJournalAndDATEVFilesOfTheFigures() throws {
        var (books, report, options) = try Self.inputs(fiscalYearStart: 1)
        options.datev = DATEVSettings(adviser: 1001, client: 42, chart: "SKR04", revenue: ["20": 4400, "0": 4120])
        let computed = SiteFigures(books: books, report: report, fiscalYearStart: 1, datev: options.datev)
        #expect(computed.datev?.settings == options.datev)
        #expect(computed.datev?.refusal != nil)
        #expect(computed.journal.entries.count > 1_000)

        var figures = computed
        let dropped = try #require(figures.journal.entries.last { $0.kind == .payment })
        figures.journal.entries.removeAll { $0 == dropped }

        let site = SiteBuilder(books: books, report: report, figures: figures, templates: try TemplateSet(), options: options)
        let files = ExportFiles(site: site.view).files()
        #expect(files.filter { $0.path.hasPrefix("datev/") }.isEmpty)

        let plain = ExportFiles(site: SiteBuilder(books: books, report: report, figures: computed, templates: try TemplateSet(), options: options).view).files()
        let identifier = books.invoices[Int(dropped.invoice)].identifier
        // Each journal's main file and its years' files (books/2024.journal…), together.
        func journal(_ files: [SiteBuilder.File], _ name: String) -> String {
            let years = name == BooksJournal.fileName ? ".journal" : ".beancount"
            return files.filter { $0.path == name || ($0.path.hasPrefix(BooksJournal.folder + "/") && $0.path.hasSuffix(years)) }
                .map { String(decoding: $0.data, as: UTF8.self) }.joined()
        }
        for name in [BooksJournal.fileName, BooksJournal.beancountFileName] {
            let written = journal(files, name), whole = journal(plain, name)
            #expect(whole.contains("\ninclude "), "\(name)")
            // The dropped payment's transaction, and only it, is missing.
            #expect(whole.count > written.count, "\(name)")
            #expect(whole.components(separatedBy: identifier).count == written.components(separatedBy: identifier).count + 1, "\(name)")
        }
    }

    /// Figures made without DATEV settings, or with others, get the files of the options' settings; figures made
    /// with the options' settings are used as they are.
    @Test func datevFilesOfOtherSettingsAreWorkedOutAgain() throws {
        var (books, report, options) = try Self.inputs(fiscalYearStart: 1)
        let settings = DATEVSettings(adviser: 1001, client: 42, chart: "SKR03", revenue: ["20": 8400])
        options.datev = settings
        let expected = SiteFigures(books: books, report: report, fiscalYearStart: 1, datev: settings)
        let without = SiteFigures(books: books, report: report, fiscalYearStart: 1)
        #expect(without.datev == nil)
        #expect(SiteBuilder(books: books, report: report, figures: without, templates: try TemplateSet(), options: options).view.figures == expected)
        var other = settings
        other.chart = "SKR04"
        let withOther = SiteFigures(books: books, report: report, fiscalYearStart: 1, datev: other)
        #expect(SiteBuilder(books: books, report: report, figures: withOther, templates: try TemplateSet(), options: options).view.figures == expected)
        options.datev = nil
        #expect(SiteBuilder(books: books, report: report, figures: expected, templates: try TemplateSet(), options: options).view.figures == without)
    }
}
