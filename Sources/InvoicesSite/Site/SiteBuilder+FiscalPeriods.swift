import Foundation
internal import InvoicesCore
internal import InvoicesReport

/// A fiscal year or quarter of the report (``SiteOptions/fiscalYearStart``), as the reported months it covers.
struct FiscalPeriod: Sendable {
    /// The fiscal year, named by the calendar year it starts in.
    var year: Int
    /// 1 to 4; 0 for the whole year.
    var quarter: Int
    /// Indices into ``Report/months``.
    var offsets: Range<Int>
    var label: String
    /// Whether every month of the period is reported.
    var complete: Bool
}

extension SiteView {
    /// The fiscal years, then the fiscal quarters, that the reported months fall in, in order (``SiteFigures/periods``),
    /// with their labels.
    func fiscalPeriods() -> [FiscalPeriod] {
        let start = options.fiscalYearStart
        return figures.periods.map { period in
            let yearLabel = SiteBuilder.fiscalYearLabel(period.year, start: start)
            return FiscalPeriod(
                year: period.year, quarter: period.quarter, offsets: period.offsets,
                label: period.quarter == 0 ? yearLabel : "Q\(period.quarter) \(yearLabel)", complete: period.complete)
        }
    }

}

extension SiteBuilder {
    /// A fiscal year's name: `2024` when years start in January, else `FY 2024/25` (the calendar years it spans).
    static func fiscalYearLabel(_ year: Int, start: Int) -> String {
        start == 1 ? String(year) : "FY \(year)/" + String(String(year + 1).suffix(2))
    }

    static func monthName(_ month: Int) -> String {
        ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"][month - 1]
    }
}

extension SiteView {
    /// The fiscal years or quarters the reported months fall in, for the overview's `fiscalSpan`: `FY 2024/25` or
    /// `FY 2024/25 to FY 2025/26` when the months are whole fiscal years, else by quarter: `Q1 FY 2025/26`,
    /// `Q4 FY 2023/24 to Q3 FY 2025/26`. Empty when fiscal years start in January (the calendar's years, which the
    /// month names already say) or nothing is reported.
    func fiscalSpan() -> String {
        let start = options.fiscalYearStart
        guard start != 1, let first = report.months.first, let last = report.months.last else { return "" }
        let (firstYear, firstQuarter) = first.fiscal(startingIn: start)
        let (lastYear, lastQuarter) = last.fiscal(startingIn: start)
        let firstLabel = SiteBuilder.fiscalYearLabel(firstYear, start: start), lastLabel = SiteBuilder.fiscalYearLabel(lastYear, start: start)
        if first.month == start, last.month == (start + 10) % 12 + 1 {
            return firstYear == lastYear ? firstLabel : "\(firstLabel) to \(lastLabel)"
        }
        let from = "Q\(firstQuarter) \(firstLabel)", to = "Q\(lastQuarter) \(lastLabel)"
        return from == to ? from : "\(from) to \(to)"
    }
}
