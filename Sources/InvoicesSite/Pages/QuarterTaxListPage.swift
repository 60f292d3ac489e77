import Foundation
internal import InvoicesCore
internal import InvoicesReport

/// A fiscal quarter's invoices behind one tax of one currency, on pages of their own
/// (`quarters/2024-Q3/tax-EUR-1/1.html` and on), as a unit of its own beside the quarter's page, CSV and print pack:
/// when the quarter's lists are more than a page together and not its pack's (``PeriodPage/taxListPages()``); else it
/// has no files.
///
/// Its fingerprint covers that tax's rows of the quarter and the sizes of the quarter's lists (which say whether they
/// go to pages), so an invoice changed in the quarter renders the one list it is in and keeps the others (issue 46:
/// at S, 25 of the 35 identical files the oldest invoice's rebuild rendered).
struct QuarterTaxListPage: PageKind {
    let site: SiteView
    /// The quarter's page, whose list this is.
    var quarter: PeriodPage
    /// The tax of the list, in ``Report/taxes``'s terms.
    let tax: TaxKey
    /// `quarter-list:quarters/2024-Q3/tax-EUR-1`: the list's folder (`quarters/2024-Q3/tax-EUR-1/`) without its slash.
    var key: String { "quarter-list:" + folder.dropLast() }
    var folder: String { SitePaths.taxList(quarter.period, PeriodPage.taxAnchor(tax)) }
    /// In one job with its quarter's page, CSV and print pack (``PeriodPage/jobGroup``).
    var jobGroup: String? { SitePaths.period(quarter.period) }
}

extension QuarterTaxListPage {
    static func jobs(in site: SiteView) -> [[any PageKind]] {
        let periods = site.fiscalPeriods()
        return periods.filter { $0.quarter != 0 }.flatMap { period in
            let quarter = PeriodPage(site: site, period: period, periods: periods)
            return quarter.activeTaxes().map {
                [QuarterTaxListPage(site: site, quarter: quarter, tax: TaxKey(currency: $0.currency, taxIndex: $0.taxIndex))]
            }
        }
    }

    /// With the quarter's sources taken once for its fingerprint and its pages.
    func prepared(with inputs: SiteBuilder.Inputs) -> QuarterTaxListPage {
        var kind = self
        kind.quarter = quarter.prepared(with: inputs)
        return kind
    }

    /// The sizes of the quarter's lists, and what this one shows: the tax's name, rate and figures over the quarter,
    /// and the invoices behind it.
    func inputs(_ inputs: SiteBuilder.Inputs) -> UInt64 {
        let sources = quarter.taxSources()
        let taxes = quarter.activeTaxes()
        var data = Fingerprint(seed: inputs.base)
        for totals in taxes { data.add(sources[TaxKey(currency: totals.currency, taxIndex: totals.taxIndex)]?.count ?? 0) }
        for totals in taxes where TaxKey(currency: totals.currency, taxIndex: totals.taxIndex) == tax {
            data.add(quarter.taxRowsShown(totals, sources: sources, inputs))
        }
        return fingerprint(data.value, templates: ["period-list"])
    }
    func files() -> [File] { [] }
    func pagedLists() -> [PagedList] {
        quarter.taxListPages().filter { $0.folder == folder }
    }
}
