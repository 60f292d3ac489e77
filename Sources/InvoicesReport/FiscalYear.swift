public import InvoicesCore

extension YearMonth {
    /// The fiscal year and quarter this month falls in, for fiscal years starting in month `start` (1–12): the year
    /// is the calendar year the fiscal year starts in (with `start` 4, January 2025 is in fiscal year 2024, quarter 4).
    public func fiscal(startingIn start: Int) -> (year: Int, quarter: Int) {
        (month >= start ? year : year - 1, (month - start + 12) % 12 / 3 + 1)
    }
}

extension ReportPeriod {
    /// Fiscal quarter `quarter` (1–4) of the fiscal year that starts in month `start` (1–12) of `year`: its three
    /// months (`--quarter YYYY-QN`). With `start` 4, quarter 1 of 2025 is April to June 2025.
    public static func fiscalQuarter(_ quarter: Int, of year: Int, startingIn start: Int, asOf: CalendarDate? = nil) -> ReportPeriod {
        let first = YearMonth(index: YearMonth(year: year, month: start).index + (quarter - 1) * 3)
        return ReportPeriod(months: first...YearMonth(index: first.index + 2), asOf: asOf)
    }

    /// The fiscal year that starts in month `start` (1–12) of `year`: its twelve months (`--year YYYY`). With
    /// `start` 4, 2025 is April 2025 to March 2026.
    public static func fiscalYear(_ year: Int, startingIn start: Int, asOf: CalendarDate? = nil) -> ReportPeriod {
        let first = YearMonth(year: year, month: start)
        return ReportPeriod(months: first...YearMonth(index: first.index + 11), asOf: asOf)
    }
}
