public import InvoicesCore

extension YearMonth {
    /// The fiscal year and quarter this month falls in, for fiscal years starting in month `start` (1–12): the year
    /// is the calendar year the fiscal year starts in (with `start` 4, January 2025 is in fiscal year 2024, quarter 4).
    public func fiscal(startingIn start: Int) -> (year: Int, quarter: Int) {
        (month >= start ? year : year - 1, (month - start + 12) % 12 / 3 + 1)
    }
}
