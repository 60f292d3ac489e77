internal import Foundation
public import InvoicesCore

/// A fiscal year or quarter the reported months fall in (``SiteFigures/periods``).
public struct ReportedFiscalPeriod: Sendable, Equatable {
    /// The fiscal year, named by the calendar year it starts in.
    public var year: Int
    /// 1 to 4; 0 for the whole year.
    public var quarter: Int
    /// Indices into ``Report/months``.
    public var offsets: Range<Int>
    /// Whether every month of the period is reported (twelve for a year, three for a quarter).
    public var complete: Bool
}

/// Every figure of a report site beyond ``Report``'s own: the fiscal periods and the invoices behind each
/// quarter's taxes, the collections, and each client's invoices and statements of account.
///
/// It is computed once, by this module's code, in the private child context that computes the ``Report``
/// (InvoicesApp's `BooksAndReport`), before any page renders; the site's page kinds only read and format it. Each
/// client's statements are the exception that memory asks for: this module's code works them out when the client's
/// page reads them (``ClientStatements``), so that every client's lines are not held through the render; so are
/// each quarter's tax sources, from the tax lines of the invoices issued or paid in it (``PeriodTaxSources``).
/// Nothing here is a second rule: each figure comes from the one function that defines it
/// (``Report/statements(of:invoices:in:)``, ``Report/taxSources(in:from:to:)``, ``Collections``,
/// ``YearMonth/fiscal(startingIn:)``, ``BooksJournal/Transactions/init(books:report:)``, ``DATEVExport/check()``).
public struct SiteFigures: Sendable, Equatable {
    /// The month fiscal years start in (1–12) that ``periods`` follow.
    public var fiscalYearStart: Int
    /// The fiscal years, then the fiscal quarters, that the reported months fall in, in order.
    public var periods: [ReportedFiscalPeriod]
    /// Per entry of ``periods``, the invoices behind its taxes: a quarter's over its days
    /// (``Report/taxSources(in:from:to:)``); none for a year (a year's invoices are its quarters'). Each quarter's
    /// are worked out when read (``PeriodTaxSources``), not held for the whole build.
    public var taxSources: PeriodTaxSources
    /// Who owes what and how late, how long clients take to pay, and the DSO.
    public var collections: Collections
    /// Per client (index in ``Books/clients``), the indices in ``Books/invoices`` of its invoices and credit notes,
    /// by issue date, then identifier.
    public var invoicesByClient: [[Int]]
    /// Per client (index in ``Books/clients``), its statements of account, one per currency, or the sum that does
    /// not fit in 64-bit minor units; no statements for a client without figures. Each client's are worked out when
    /// read (``ClientStatements``), not held for the whole build.
    public var statements: ClientStatements
    /// The transactions of `books.journal`, `books.beancount` and the DATEV files (``BooksJournal/Transactions``).
    public var journal: BooksJournal.Transactions
    /// The DATEV Buchungsstapel files, when `datev:` is set: checked here so the build refuses them before it
    /// writes anything; the export page kind makes their bytes, in pieces (``DATEVFiles``).
    public var datev: DATEVFiles?

    /// Works out every figure of `report` (over `books`) that the site shows, for fiscal years starting in month
    /// `fiscalYearStart` (1–12); with `datev` settings, the DATEV files too, rows in other currencies than EUR
    /// converted by `rates`.
    public init(books: Books, report: Report, fiscalYearStart: Int, datev: DATEVSettings? = nil, rates: ExchangeRates? = nil) {
        self.fiscalYearStart = fiscalYearStart
        let periods = report.fiscalPeriods(startingIn: fiscalYearStart)
        self.periods = periods
        // The journal's transactions (a walk of all the books, about half of these figures' time) are worked out on
        // the other core meanwhile: each part is a function of the same books and report, so the figures are the
        // same, still made once here (docs/performance.md, "Load and figures on both cores").
        let (journal, rest) = sideBySide(
            { BooksJournal.Transactions(books: books, report: report) },
            {
                let invoicesByClient = books.invoicesByClient()
                return (
                    PeriodTaxSources(books: books, months: report.months, periods: periods), Collections(books: books, report: report),
                    invoicesByClient, ClientStatements(books: books, report: report, invoicesByClient: invoicesByClient)
                )
            })
        (taxSources, collections, invoicesByClient, statements) = rest
        self.journal = journal
        self.datev = datev.map {
            DATEVFiles(books: books, report: report, transactions: journal, settings: $0, fiscalYearStart: fiscalYearStart, rates: rates)
        }
    }

    /// These figures with the DATEV files of `datev` settings and `rates` instead of the ones they were made with
    /// (none without settings); the same figures when those are the ones.
    public func withDATEV(_ datev: DATEVSettings?, rates: ExchangeRates?, books: Books, report: Report) -> SiteFigures {
        guard self.datev?.settings != datev || (datev != nil && self.datev?.rates != rates) else { return self }
        var figures = self
        figures.datev = datev.map {
            DATEVFiles(books: books, report: report, transactions: journal, settings: $0, fiscalYearStart: fiscalYearStart, rates: rates)
        }
        return figures
    }

    /// The invoices behind the taxes of the fiscal `quarter` (1–4; 0 for the year, which has none of its own) of
    /// fiscal `year`; none for a period the report does not cover.
    public func taxSources(year: Int, quarter: Int) -> [TaxKey: [TaxSource]] {
        guard let index = periods.firstIndex(where: { $0.year == year && $0.quarter == quarter }) else { return [:] }
        return taxSources[index]
    }
}

extension Report {
    /// The fiscal years, then the fiscal quarters, that ``months`` fall in, in order, for fiscal years starting in
    /// month `start` (1–12).
    public func fiscalPeriods(startingIn start: Int) -> [ReportedFiscalPeriod] {
        var years: [ReportedFiscalPeriod] = []
        var quarters: [ReportedFiscalPeriod] = []
        for (offset, month) in months.enumerated() {
            let (year, quarter) = month.fiscal(startingIn: start)
            if let last = years.last, last.year == year {
                years[years.count - 1].offsets = last.offsets.lowerBound..<(offset + 1)
            } else {
                years.append(ReportedFiscalPeriod(year: year, quarter: 0, offsets: offset..<(offset + 1), complete: false))
            }
            if let last = quarters.last, last.year == year, last.quarter == quarter {
                quarters[quarters.count - 1].offsets = last.offsets.lowerBound..<(offset + 1)
            } else {
                quarters.append(ReportedFiscalPeriod(year: year, quarter: quarter, offsets: offset..<(offset + 1), complete: false))
            }
        }
        for index in years.indices { years[index].complete = years[index].offsets.count == 12 }
        for index in quarters.indices { quarters[index].complete = quarters[index].offsets.count == 3 }
        return years + quarters
    }
}

extension Books {
    /// Per client (index in ``clients``), the indices in ``invoices`` of its invoices and credit notes, each list by
    /// issue date, then identifier.
    public func invoicesByClient() -> [[Int]] {
        var groups = Array(repeating: [Int](), count: clients.count)
        for (index, invoice) in invoices.enumerated() { groups[Int(invoice.clientIndex)].append(index) }
        for client in groups.indices {
            groups[client].sort {
                let a = invoices[$0], b = invoices[$1]
                return a.issued != b.issued ? a.issued < b.issued : a.identifier < b.identifier
            }
        }
        return groups
    }
}
