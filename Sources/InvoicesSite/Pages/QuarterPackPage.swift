import Foundation
internal import InvoicesCore
internal import InvoicesReport

/// A fiscal quarter's print pack (`quarters/2024-Q3/print.html`): one page meant to print for the accountant, with
/// the quarter's totals per currency, its taxes on both bases, and every invoice behind the taxes when they are at
/// most ``rowLimit`` rows; a bigger quarter's pack keeps the totals and the taxes and links the quarter's CSV.
///
/// Like a statement's print view it is the one page of its quarter allowed to be long (up to ``rowLimit`` rows).
/// It shows what the quarter's page shows (``PeriodPage``), so its inputs are the same figures.
struct QuarterPackPage: PageKind {
    let site: SiteView
    let period: FiscalPeriod
    /// The most invoice rows the pack lists; past it the rows are only in the quarter's CSV.
    var rowLimit = QuarterPackPage.defaultRowLimit
    /// The quarter's page, whose figures and invoices the pack shows.
    var quarter: PeriodPage
    var key: String { "pack:\(SitePaths.quarterPack(period))" }

    static let defaultRowLimit = 10_000

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
        return periods.filter { $0.quarter != 0 }.map { [QuarterPackPage(site: site, period: $0, periods: periods)] }
    }
    static var templateContexts: [String: any PageContext.Type] { ["quarter-print": Context.self] }

    /// What a quarter's print pack shows: the quarter's totals and taxes and, up to ``rowLimit`` rows, the invoices
    /// behind each tax; past it, how many rows there are and the limit (`tooMany`).
    typealias Context = Joined<PeriodPage.Heading, Fields>

    struct Fields: Codable, Sendable {
        var hasTaxes: Bool
        var taxes: [PeriodPage.TaxRow]
        var lists: [Joined<PeriodPage.TaxRow, PeriodPage.TaxInvoices>]
        var periodHref: String
        var tooMany: Bool?
        var rowCount: Int?
        var rowLimit: Int?
        var csvHref: String?
    }
}

extension QuarterPackPage {
    /// What the quarter's page shows (its months' totals and taxes, the invoices behind them), and the row limit.
    func inputs(_ inputs: SiteBuilder.Inputs) -> UInt64 {
        var data = Fingerprint(seed: quarter.shown(inputs))
        data.add(rowLimit)
        return fingerprint(data.value, templates: ["quarter-print"])
    }

    func prepared() -> QuarterPackPage {
        var pack = self
        pack.quarter = quarter.prepared()
        return pack
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
        var lists: [Joined<PeriodPage.TaxRow, PeriodPage.TaxInvoices>] = []
        for (totals, _) in taxLists {
            guard let figures = TaxFigures.spanning(totals.months[offsets]) else { continue }
            let row = quarter.taxRow(totals, figures)
            taxes.append(row)
            guard listed else { continue }
            let behind = sources[TaxKey(currency: totals.currency, taxIndex: totals.taxIndex)] ?? []
            lists.append(Joined(row, PeriodPage.TaxInvoices(invoices: quarter.taxInvoiceRows(behind, 0..<behind.count, totals.currency, links: links))))
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
