internal import InvoicesCore

/// Per entry of ``SiteFigures/periods``, the invoices behind its taxes (``Report/taxSources(in:from:to:)``): a
/// quarter's over its days, none for a year (a year's invoices are its quarters').
///
/// A quarter's sources are worked out by this module's code when its page reads them, each time (a build reads
/// them for the quarter's page and its print pack), from the tax lines of the invoices issued or paid in it
/// (``Report/taxLines(in:periods:)``, found once, 4 bytes a line): every quarter's sources held through the render
/// were 76 MiB of the peak at 2,000,000 invoices, the lines they come from are about 8 MB (docs/performance.md,
/// "The peak at L under 1 GB"). Sources put in through the subscript are the ones read back, as a figure of
/// ``SiteFigures`` may be changed.
public struct PeriodTaxSources: Sendable, Equatable, RandomAccessCollection, MutableCollection {
    let books: Books
    /// Per period, its first and last day; nil for a year.
    let days: [ClosedRange<CalendarDate>?]
    /// Per period, the tax lines its sources come from (``Report/taxLines(in:periods:)``).
    let lines: [[Int32]]
    /// Sources put in through the subscript, by period.
    var given: [Int: [TaxKey: [TaxSource]]] = [:]

    /// The sources of `periods` (a report's, ``Report/fiscalPeriods(startingIn:)``) over `books`; `months` are the
    /// report's months the periods' offsets index.
    init(books: Books, months: [YearMonth], periods: [ReportedFiscalPeriod]) {
        self.books = books
        let days = periods.map { period -> ClosedRange<CalendarDate>? in
            guard period.quarter != 0 else { return nil }
            return months[period.offsets.lowerBound].firstDay...months[period.offsets.upperBound - 1].lastDay
        }
        self.days = days
        lines = Report.taxLines(in: books, periods: days)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { days.count }

    /// The sources of the period at `position` in ``SiteFigures/periods``, per currency and tax.
    public subscript(position: Int) -> [TaxKey: [TaxSource]] {
        get {
            if let sources = given[position] { return sources }
            guard let days = days[position] else { return [:] }
            return Report.taxSources(in: books, from: days.lowerBound, to: days.upperBound, lines: lines[position].lazy.map(Int.init))
        }
        set { given[position] = newValue }
    }

    /// How many tax lines the sources are worked out from, over every period: what is held for them.
    public var linesHeld: Int { lines.reduce(0) { $0 + $1.count } }

    /// Equal when every period's sources are.
    public static func == (lhs: PeriodTaxSources, rhs: PeriodTaxSources) -> Bool {
        lhs.count == rhs.count && lhs.indices.allSatisfy { lhs[$0] == rhs[$0] }
    }
}
