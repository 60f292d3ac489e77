internal import InvoicesCore
public import InvoicesReport

/// What a site is built with, besides the books and the templates.
public struct SiteOptions: Sendable {
    /// The site's title, shown on every page.
    public var title = "Invoices report"
    /// The locale amounts are formatted for; `en_US_POSIX` gives stable output.
    public var locale = "en_US_POSIX"
    /// The `lang` of the pages.
    public var language = "en"
    /// What the report covers.
    public var period = ReportPeriod()
    /// Also show the grand totals converted into a base currency (`--rates`, `--base-currency`), or nil.
    public var conversion: CurrencyConversion?

    public init(title: String = "Invoices report", locale: String = "en_US_POSIX", period: ReportPeriod = ReportPeriod()) {
        self.title = title
        self.locale = locale
        self.period = period
    }
}

/// What a build wrote.
public struct BuildSummary: Sendable, Equatable {
    /// Files written, pages and assets.
    public var files: Int
    /// HTML pages among them.
    public var pages: Int
    /// Files whose bytes differ from the previous site's (all of them for a first build).
    public var changed: Int
}
