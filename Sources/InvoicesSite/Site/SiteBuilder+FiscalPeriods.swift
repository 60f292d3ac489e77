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
    /// with their labels in the page's language.
    func fiscalPeriods() -> [FiscalPeriod] {
        let start = options.fiscalYearStart
        return figures.periods.map { period in
            let yearLabel = fiscalYearLabel(period.year, start: start)
            return FiscalPeriod(
                year: period.year, quarter: period.quarter, offsets: period.offsets,
                label: period.quarter == 0 ? yearLabel : quarterLabel(period.quarter, yearLabel), complete: period.complete)
        }
    }

    /// A fiscal year's name: `2024` when years start in January, else `FY 2024/25` (the calendar years it spans).
    func fiscalYearLabel(_ year: Int, start: Int) -> String {
        start == 1 ? String(year) : word("period.fiscalYear", ["year": String(year), "next": String(String(year + 1).suffix(2))])
    }

    /// A quarter's name: `Q3 2024`, `Q1 FY 2025/26`; in another language than English, with its CLDR quarter
    /// abbreviation (`T3 2024`, `K3 2024`).
    func quarterLabel(_ quarter: Int, _ yearLabel: String) -> String {
        word("period.quarterLabel", ["quarter": language.quarterNames[quarter - 1], "year": yearLabel])
    }

    /// The fiscal years or quarters the reported months fall in, for the overview's `fiscalSpan`: `FY 2024/25` or
    /// `FY 2024/25 to FY 2025/26` when the months are whole fiscal years, else by quarter: `Q1 FY 2025/26`,
    /// `Q4 FY 2023/24 to Q3 FY 2025/26`. Empty when fiscal years start in January (the calendar's years, which the
    /// month names already say) or nothing is reported.
    func fiscalSpan() -> String {
        let start = options.fiscalYearStart
        guard start != 1, let first = report.months.first, let last = report.months.last else { return "" }
        let (firstYear, firstQuarter) = first.fiscal(startingIn: start)
        let (lastYear, lastQuarter) = last.fiscal(startingIn: start)
        let firstLabel = fiscalYearLabel(firstYear, start: start), lastLabel = fiscalYearLabel(lastYear, start: start)
        if first.month == start, last.month == (start + 10) % 12 + 1 {
            return firstYear == lastYear ? firstLabel : word("period.span", ["from": firstLabel, "to": lastLabel])
        }
        let from = quarterLabel(firstQuarter, firstLabel), to = quarterLabel(lastQuarter, lastLabel)
        return from == to ? from : word("period.span", ["from": from, "to": to])
    }
}
