import Foundation
internal import InvoicesCore

/// A fiscal quarter's invoices behind its taxes, as a unit of their own beside the quarter's page (``PeriodPage``):
/// the quarter's CSV (`quarters/2024-Q3.csv`) and, when its print pack lists the rows, the small pages at its lists'
/// addresses that refresh to the pack. The pages of each tax's list are a unit of their own (``QuarterTaxListPage``).
///
/// They show the quarter's taxes and the invoices behind them, not its totals (``PeriodPage/rowsShown(_:)``): a
/// change that only moves the totals (an older invoice's outstanding amount, carried into every later month)
/// renders the quarters' pages and keeps their lists and CSV, most of a quarter's bytes (issue 46).
struct QuarterListsPage: PageKind {
    let site: SiteView
    /// The quarter's page, whose rows these files show.
    var quarter: PeriodPage
    var key: String { "lists:\(SitePaths.period(quarter.period))" }
    /// In one job with its quarter's page and print pack (``PeriodPage/jobGroup``).
    var jobGroup: String? { SitePaths.period(quarter.period) }

    init(site: SiteView, period: FiscalPeriod, periods: [FiscalPeriod]) {
        self.site = site
        quarter = PeriodPage(site: site, period: period, periods: periods)
    }
}

extension QuarterListsPage {
    static func jobs(in site: SiteView) -> [[any PageKind]] {
        let periods = site.fiscalPeriods()
        return periods.filter { $0.quarter != 0 }.map { [QuarterListsPage(site: site, period: $0, periods: periods)] }
    }

    /// What the quarter's page shows of its taxes and their invoices, and the lists' template.
    func inputs(_ inputs: SiteBuilder.Inputs) -> UInt64 { fingerprint(quarter.rowsShown(inputs), templates: ["period-list"]) }
    func files() -> [File] { quarter.listFiles() }
    /// With the quarter's sources taken once for its fingerprint and its CSV.
    func prepared(with inputs: SiteBuilder.Inputs) -> QuarterListsPage {
        var kind = self
        kind.quarter = quarter.prepared(with: inputs)
        return kind
    }
}
