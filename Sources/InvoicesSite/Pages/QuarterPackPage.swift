import Foundation
internal import InvoicesCore
internal import InvoicesReport

/// A fiscal quarter's print pack (`quarters/2024-Q3/print.html`): one page meant to print for the accountant, with
/// the quarter's totals per currency, its taxes on both bases, and every invoice behind the taxes when they are at
/// most ``rowLimit`` rows; a bigger quarter's pack keeps the totals and the taxes and links the quarter's CSV.
///
/// When the pack lists the rows and the quarter's lists are more than a page together, the pack's lists are the
/// quarter's (``PeriodPage/listsInPack(_:)``): the quarter's page links each tax to the pack's table of it
/// (`print.html#tax-EUR-1`), and no list pages repeat the rows. Its rows then link their clients, as those pages did.
///
/// Like a statement's print view it is the one page of its quarter allowed to be long (up to ``rowLimit`` rows).
/// It shows what the quarter's page shows (``PeriodPage``), so its inputs are the same figures.
struct QuarterPackPage: PageKind {
    let site: SiteView
    let period: FiscalPeriod
    /// The most invoice rows the pack lists; past it the rows are only in the quarter's CSV (and, on screen, on the
    /// quarter's list pages).
    var rowLimit = QuarterPackPage.defaultRowLimit
    /// The quarter's page, whose figures and invoices the pack shows.
    var quarter: PeriodPage
    var key: String { "pack:\(SitePaths.quarterPack(period))" }
    /// In one job with its quarter's page and lists (``PeriodPage/jobGroup``).
    var jobGroup: String? { SitePaths.period(period) }

    /// Ten pages' worth of rows at the default page size.
    static let defaultRowLimit = rowLimit(pageSize: Pagination.defaultPageSize)

    /// The most rows a pack lists at `pageSize` rows a page (`page_size`): ten pages' worth, so a pack is at most
    /// ten times the page bound, whatever the page size (10,000 rows by default).
    static func rowLimit(pageSize: Int) -> Int {
        let (limit, overflow) = pageSize.multipliedReportingOverflow(by: 10)
        return overflow ? Int.max : limit
    }

    init(site: SiteView, period: FiscalPeriod, periods: [FiscalPeriod], rowLimit: Int = QuarterPackPage.defaultRowLimit) {
        self.site = site
        self.period = period
        self.rowLimit = rowLimit
        quarter = PeriodPage(site: site, period: period, periods: periods)
    }
}

extension QuarterPackPage {
    static func jobs(in site: SiteView) -> [[any PageKind]] {
        let periods = site.fiscalPeriods()
        let limit = rowLimit(pageSize: site.options.pageSize)
        return periods.filter { $0.quarter != 0 }.map { [QuarterPackPage(site: site, period: $0, periods: periods, rowLimit: limit)] }
    }
    static var templateContexts: [String: any PageContext.Type] { ["quarter-print": Context.self] }

    /// What a quarter's print pack shows: the quarter's totals and taxes and, up to ``rowLimit`` rows, the invoices
    /// behind each tax; past it, how many rows there are and the limit (`tooMany`).
    typealias Context = Joined<PeriodPage.Heading, Fields>

    struct Fields: Codable, Sendable {
        var hasTaxes: Bool
        var taxes: [PeriodPage.TaxRow]
        var lists: [Joined<Joined<PeriodPage.TaxRow, ListAnchor>, Invoices>]
        var periodHref: String
        var tooMany: Bool?
        var rowCount: Int?
        var rowLimit: Int?
        var csvHref: String?
    }

    /// The id of a tax's table in the pack, the quarter page's anchor for the tax (`tax-EUR-1`): the quarter's page
    /// links it when the pack's lists are the quarter's.
    struct ListAnchor: Codable, Sendable { var anchor: String }

    /// The invoices behind a tax: `linkedInvoices`, whose rows link their clients' pages, when the pack's lists are
    /// the quarter's (``PeriodPage/listsInPack(_:)``: no list page links them then); else `invoices`, as printed
    /// (the quarter's page lists them with the links), so a small quarter's pack is no heavier than the print needs.
    struct Invoices: Codable, Sendable {
        var invoices: Rows<PeriodPage.TaxInvoiceColumns>?
        var linkedInvoices: Rows<PeriodPage.TaxInvoiceColumns>?
    }
}

extension QuarterPackPage {
    /// What the quarter's page shows (its months' totals and taxes, the invoices behind them), and the row limit.
    func inputs(_ inputs: SiteBuilder.Inputs) -> UInt64 {
        var data = Fingerprint(seed: quarter.shown(inputs))
        data.add(rowLimit)
        return fingerprint(data.value, templates: ["quarter-print"])
    }

    /// With the quarter's sources taken once for its fingerprint and its page.
    func prepared(with inputs: SiteBuilder.Inputs) -> QuarterPackPage {
        var kind = self
        kind.quarter = quarter.prepared(with: inputs)
        return kind
    }

    func files() -> [File] {
        let registry = RowListRegistry(marker: TemplateSet.rowMarker)
        let path = SitePaths.quarterPack(period)
        let title = site.word("pack.title", ["label": period.label])
        return [site.page(path, template: "quarter-print", title: title, context(), rows: registry, style: style)]
    }

    func context() -> Context {
        let offsets = period.offsets
        let path = SitePaths.quarterPack(period)
        let links = SitePaths.Links(from: path)
        let sources = quarter.taxSources()
        let taxLists = quarter.taxLists(sources: sources)
        let rowCount = taxLists.reduce(0) { $0 + $1.list.count }
        let listed = rowCount <= rowLimit
        var taxes: [PeriodPage.TaxRow] = []
        var lists: [Joined<Joined<PeriodPage.TaxRow, ListAnchor>, Invoices>] = []
        let linked = quarter.listsInPack(taxLists.map(\.list))
        for (totals, _) in taxLists {
            guard let figures = TaxFigures.spanning(totals.months[offsets]) else { continue }
            let row = quarter.taxRow(totals, figures)
            taxes.append(row)
            guard listed else { continue }
            let behind = sources[TaxKey(currency: totals.currency, taxIndex: totals.taxIndex)] ?? []
            let anchor = ListAnchor(anchor: PeriodPage.taxAnchor(totals))
            let rows = quarter.taxInvoiceRows(behind, 0..<behind.count, totals.currency, links: links)
            lists.append(Joined(Joined(row, anchor), linked ? Invoices(linkedInvoices: rows) : Invoices(invoices: rows)))
        }
        var context = Fields(hasTaxes: !taxes.isEmpty, taxes: taxes, lists: lists, periodHref: links(SitePaths.period(period)))
        if !listed {
            context.tooMany = true
            context.rowCount = rowCount
            context.rowLimit = rowLimit
        }
        if !taxes.isEmpty { context.csvHref = links(SitePaths.periodCSV(period)) }
        return Joined(quarter.heading(), context)
    }
}
