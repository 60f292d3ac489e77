import Foundation
internal import InvoicesCore
internal import InvoicesReport

/// A fiscal year's or quarter's page (`years/2024.html`, `quarters/2024-Q3.html`): its totals, its months, and its
/// taxes on both bases with the invoices behind each figure; a quarter's invoices also as CSV beside it, and, when
/// they are more than a page together, in its print pack's tables (`quarters/2024-Q3/print.html#tax-EUR-1`) or, past
/// the pack's row limit, on pages of their own (`quarters/2024-Q3/tax-EUR-1/1.html`).
struct PeriodPage: PageKind {
    let site: SiteView
    let period: FiscalPeriod
    /// Every fiscal period of the report (``SiteBuilder/fiscalPeriods()``), for the links to the previous and next.
    let periods: [FiscalPeriod]
    /// The invoices behind a quarter's taxes, once ``prepared()`` has worked them out (a pass over every tax line
    /// and payment, which both its inputs and its files need).
    var sources: [TaxKey: [TaxSource]]? = nil
    var key: String { "period:\(SitePaths.period(period))" }
    /// A quarter's page runs in one job with its lists and print pack, which take its sources (``prepared(with:)``).
    var jobGroup: String? { period.quarter == 0 ? nil : SitePaths.period(period) }
}

extension PeriodPage {
    static func jobs(in site: SiteView) -> [[any PageKind]] {
        let periods = site.fiscalPeriods()
        return periods.map { [PeriodPage(site: site, period: $0, periods: periods)] }
    }
    static var templateContexts: [String: any PageContext.Type] { ["period": Context.self, "period-list": ListPageContext<ListFields, TaxInvoices>.self] }
    static let rootNames = ["years", "quarters"]
    static func sitemap(in site: SiteView) -> [SitemapEntry] { site.fiscalPeriods().map { SitemapEntry(path: SitePaths.period($0)) } }
}

extension PeriodPage {
    enum TaxInvoiceColumns: RowColumns { static var columns: [String] { TemplateVariables.taxInvoiceColumns } }

    /// What a fiscal year's or quarter's page shows: its totals, its months, and its taxes on both bases with the
    /// invoices behind each figure (or the links to their pages; a year's rows link its quarters' lists instead).
    typealias Context = Joined<Heading, Fields>

    /// What a period's page and its quarter's print pack (``QuarterPackPage``) both show first: its label and kind,
    /// its first and last months, whether it is complete, and its totals per currency.
    struct Heading: Codable, Sendable {
        var label: String
        var kind: String
        var firstMonth: String
        var lastMonth: String
        var complete: Bool
        var totals: [FiguresRow]
        var hasTotals: Bool
    }

    struct Fields: Codable, Sendable {
        var months: [PageLink]
        var hasTaxes: Bool
        var taxes: [Joined<TaxRow, Tax>]
        /// A quarter's invoices as CSV, when it has taxes.
        var csvHref: String?
        /// A quarter's print pack.
        var packHref: String?
        var previous: PageLink?
        var next: PageLink?
    }

    /// One tax of one currency over the period: its name and rate, and its net and tax on both bases.
    struct TaxRow: Codable, Sendable {
        var currency: String
        var tax: String
        var rate: String
        var accrualNet: String
        var accrualTax: String
        var cashNet: String
        var cashTax: String
    }

    /// What a period page shows of a tax beyond its figures: its anchor, on a year's page its quarters, and the
    /// invoices behind it or the links to their pages.
    struct Tax: Codable, Sendable {
        struct Quarter: Codable, Sendable {
            var label: String
            var href: String
            var first: Bool
        }
        var anchor: String
        var quarters: [Quarter]
        var hasQuarters: Bool
        var invoices: Rows<TaxInvoiceColumns>?
        var rowCount: Int?
        var pages: [PageLink]?
    }

    /// What every page of a quarter's list of one tax's invoices has.
    struct ListFields: Codable, Sendable {
        var label: String
        var currency: String
        var tax: String
        var rate: String
        var periodHref: String
    }

    /// The invoices behind a tax.
    struct TaxInvoices: Codable, Sendable { var invoices: Rows<TaxInvoiceColumns> }

    /// What the page shows, and nothing more: its months' totals per currency and per tax (each tax with its name
    /// and rate), and for a quarter the invoices behind its taxes (identifier, issue date, client number, name and
    /// page, figures). The neighbours it links and its labels follow from the months and the fiscal year's start,
    /// in `inputs.base`. So an invoice changed in one quarter leaves the earlier quarters' pages as they are.
    func inputs(_ inputs: SiteBuilder.Inputs) -> UInt64 { fingerprint(shown(inputs), templates: ["period", "period-list"]) }

    /// The fingerprint of what the page shows of the books (``inputs(_:)`` without its key and templates); the
    /// quarter's print pack (``QuarterPackPage``) shows the same, so it is worked out once per build for both
    /// (``SiteBuilder/Inputs/periodsShown``).
    func shown(_ inputs: SiteBuilder.Inputs) -> UInt64 {
        inputs.periodsShown.value(SitePaths.period(period)) {
            var data = Fingerprint(seed: rowsShown(inputs))
            for totals in report.currencies {
                data.add(totals.currency.code)
                for offset in period.offsets { SiteBuilder.add(totals.months[offset], to: &data) }
            }
            return data.value
        }
    }

    /// The fingerprint of what the page shows of its taxes: each one's name, rate and figures over the period, and
    /// the invoices behind it (identifier, issue date, client number, name and page, figures). It is all a quarter's
    /// lists and CSV show (``QuarterListsPage``), worked out once per build for them and the page.
    func rowsShown(_ inputs: SiteBuilder.Inputs) -> UInt64 {
        inputs.periodsShown.value("rows " + SitePaths.period(period)) { rowsShownAnew(inputs) }
    }

    private func rowsShownAnew(_ inputs: SiteBuilder.Inputs) -> UInt64 {
        var data = Fingerprint(seed: inputs.base)
        let sources = taxSources()
        for totals in report.taxes { data.add(taxRowsShown(totals, sources: sources, inputs)) }
        return data.value
    }

    /// The fingerprint of what the period shows of one tax: its name, rate and figures over the period, and the
    /// invoices behind it (identifier, issue date, client number, name and page, figures). Worked out once per build
    /// for the period's page (``rowsShown(_:)``) and the tax's list (``QuarterTaxListPage``), from the period's
    /// `sources` (``taxSources()``, worked out once by the caller: not once per tax when the page is not prepared).
    func taxRowsShown(_ totals: Report.TaxTotals, sources: [TaxKey: [TaxSource]], _ inputs: SiteBuilder.Inputs) -> UInt64 {
        inputs.periodsShown.value("rows \(SitePaths.period(period)) \(Self.taxAnchor(totals))") {
            var data = Fingerprint()
            let tax = books.taxes[totals.taxIndex]
            data.add(totals.currency.code)
            data.add(totals.taxIndex)
            data.add(tax.name)
            data.add(tax.milliPercent)
            for offset in period.offsets { SiteBuilder.add(totals.months[offset], to: &data) }
            let behind = sources[TaxKey(currency: totals.currency, taxIndex: totals.taxIndex)] ?? []
            data.add(behind.count)
            // What a row shows of its client (number, name, page), fingerprinted once per client, not once per row
            // (0: not yet; a fingerprint of 0 is only worked out again).
            var clientFields = [UInt64](repeating: 0, count: books.clients.count)
            // Each field read in place (`pointee`): a copy of the invoice would retain and release its texts.
            books.invoices.withUnsafeBufferPointer { invoices in
                for source in behind {
                    let invoice = invoices.baseAddress! + source.invoiceIndex
                    let client = Int(invoice.pointee.clientIndex)
                    data.add(invoice.pointee.identifier)
                    data.add(invoice.pointee.issued.dayNumber)
                    if clientFields[client] == 0 {
                        var fields = Fingerprint()
                        fields.add(books.clients[client].number)
                        fields.add(books.clients[client].name)
                        fields.add(site.paths.client(client))
                        clientFields[client] = fields.value
                    }
                    data.add(clientFields[client])
                    SiteBuilder.add(source.figures, to: &data)
                }
            }
            return data.value
        }
    }

    /// The page of a fiscal year or quarter: its totals, its months, and its taxes on both bases with the invoices
    /// behind each figure. A quarter's files beside it are their own unit (``listFiles()``, ``taxListPages()``).
    func files() -> [File] {
        let registry = RowListRegistry(marker: TemplateSet.rowMarker)
        return [site.page(SitePaths.period(period), template: "period", title: period.label, context(), rows: registry)]
    }

    /// A quarter's files beside its page (``QuarterListsPage``): for a quarter with taxes, the invoices behind them
    /// as CSV (`quarters/2024-Q3.csv`), and the pages that refresh to its pack's tables (``movedListPages(sources:)``).
    func listFiles() -> [File] {
        guard period.quarter != 0 else { return [] }
        let sources = taxSources()
        let csv = taxLists(sources: sources).isEmpty ? [] : [File(path: SitePaths.periodCSV(period), data: Data(csv(sources: sources).utf8))]
        return csv + movedListPages(sources: sources)
    }

    /// When a quarter's lists are its pack's (``listsInPack(_:)``), the addresses their pages would have
    /// (`quarters/2024-Q3/tax-EUR-1/1.html` and on): each a small page that refreshes to the pack's table of the tax
    /// and links it, so a link kept from an older report still lands on the rows (issue 46, item 5).
    func movedListPages(sources: [TaxKey: [TaxSource]]) -> [File] {
        guard period.quarter != 0 else { return [] }
        let lists = taxLists(sources: sources).map(\.list)
        guard listsInPack(lists) else { return [] }
        let direction = site.language.direction.map { " dir=\"\($0)\"" } ?? ""
        return lists.flatMap { list in
            let anchor = String(list.folder.split(separator: "/").last ?? "")
            return (1...max(site.ranges(of: list).count, 1)).map { number in
                let path = SitePaths.listPage(list.folder, number)
                let target = SiteBuilder.xml(SitePaths.Links(from: path)(SitePaths.quarterPack(period) + "#" + anchor))
                let title = SiteBuilder.xml(list.title)
                let html = """
                    <!DOCTYPE html>
                    <html lang="\(SiteBuilder.xml(site.language.tag.text))"\(direction)>
                    <head>
                    <meta charset="utf-8">
                    <meta name="robots" content="noindex">
                    <meta http-equiv="refresh" content="0; url=\(target)">
                    <title>\(title)</title>
                    </head>
                    <body>
                    <p><a href="\(target)">\(title)</a></p>
                    </body>
                    </html>

                    """
                return File(path: path, data: Data(html.utf8))
            }
        }
    }

    /// The quarter's lists that go to pages of their own (each a unit, ``QuarterTaxListPage``): all of them when
    /// they are more than a page together and not its pack's (``listsInPack(_:)``), else none.
    func taxListPages() -> [PagedList] {
        guard period.quarter != 0 else { return [] }
        let lists = taxLists(sources: taxSources()).map(\.list)
        return listsInPack(lists) ? [] : site.paged(lists)
    }

    /// The taxes of the report with anything in the period, in the taxes table's order: those a quarter lists.
    func activeTaxes() -> [Report.TaxTotals] {
        report.taxes.filter { TaxFigures.spanning($0.months[period.offsets])?.isActive == true }
    }

    /// Whether a quarter's `lists`, more than a page together, are the print pack's: the pack lists every row (at
    /// most ``QuarterPackPage/rowLimit(pageSize:)``, ten pages' worth), so the quarter's page links each tax to the
    /// pack's table of it (`2024-Q3/print.html#tax-EUR-1`) instead of list pages that would repeat the pack's rows.
    func listsInPack(_ lists: [PagedList]) -> Bool {
        guard period.quarter != 0, site.isPaged(lists) else { return false }
        return lists.reduce(0) { $0 + $1.count } <= QuarterPackPage.rowLimit(pageSize: options.pageSize)
    }

    /// A quarter's taxes with anything in it, in the taxes table's order, each with the invoices behind it as a
    /// list that goes to pages of its own (`quarters/2024-Q3/tax-EUR-1/1.html` and on) when the quarter's lists are
    /// more than a page together; the quarter's page then keeps the totals and links them.
    func taxLists(sources: [TaxKey: [TaxSource]]) -> [(totals: Report.TaxTotals, list: PagedList)] {
        activeTaxes().map { totals in
            let behind = sources[TaxKey(currency: totals.currency, taxIndex: totals.taxIndex)] ?? []
            let tax = books.taxes[totals.taxIndex]
            let anchor = Self.taxAnchor(totals)
            let folder = SitePaths.taxList(period, anchor)
            let list = PagedList(
                folder: folder, count: behind.count,
                key: { books.invoices[behind[$0].invoiceIndex].identifier }, template: "period-list",
                title: "\(period.label) · \(totals.currency.code) \(tax.name) \(site.rate(tax))",
                fields: ListFields(
                    label: period.label, currency: totals.currency.code, tax: tax.name, rate: site.rate(tax),
                    periodHref: SitePaths.link(from: folder, to: SitePaths.period(period) + "#" + anchor)),
                rows: { range, links in TaxInvoices(invoices: self.taxInvoiceRows(behind, range, totals.currency, links: links)) })
            return (totals, list)
        }
    }

    /// The same tax has the same anchor on every period page, so a year's row can link to its quarters' lists.
    static func taxAnchor(_ totals: Report.TaxTotals) -> String { taxAnchor(TaxKey(currency: totals.currency, taxIndex: totals.taxIndex)) }
    static func taxAnchor(_ tax: TaxKey) -> String { "tax-\(tax.currency.code)-\(tax.taxIndex + 1)" }

    /// The rows of `range` of a tax row's invoices; client links made by `links`.
    func taxInvoiceRows(
        _ behind: [TaxSource], _ range: Range<Int>, _ currency: CurrencyCode, links: SitePaths.Links
    ) -> Rows<TaxInvoiceColumns> {
        Rows(count: range.count) { [self] row, column in
            let source = behind[range.lowerBound + row]
            switch TemplateVariables.TaxInvoiceColumn(rawValue: column) ?? .identifier {
            case .identifier: return books.invoices[source.invoiceIndex].identifier
            case .issued: return site.date(books.invoices[source.invoiceIndex].issued)
            case .client: return books.clients[Int(books.invoices[source.invoiceIndex].clientIndex)].name
            case .href: return links(site.paths.client(Int(books.invoices[source.invoiceIndex].clientIndex)))
            case .accrualNet: return site.money(source.figures.accrualNet, currency)
            case .accrualTax: return site.money(source.figures.accrualTax, currency)
            case .cashNet: return site.money(source.figures.cashNet, currency)
            case .cashTax: return site.money(source.figures.cashTax, currency)
            case .accrualNetNumber: return site.amountNumber(source.figures.accrualNet, currency)
            case .accrualTaxNumber: return site.amountNumber(source.figures.accrualTax, currency)
            case .cashNetNumber: return site.amountNumber(source.figures.cashNet, currency)
            case .cashTaxNumber: return site.amountNumber(source.figures.cashTax, currency)
            }
        }
    }

    /// The invoices behind a quarter's taxes (a year's are its quarters': none of its own), from ``SiteFigures``.
    func taxSources() -> [TaxKey: [TaxSource]] {
        if let sources { return sources }
        return site.figures.taxSources(year: period.year, quarter: period.quarter)
    }

    func prepared() -> PeriodPage {
        var page = self
        page.sources = taxSources()
        return page
    }

    /// The units that take a quarter's sources in a build (``prepared(with:)``): its page, its CSV
    /// (``QuarterListsPage``), its print pack (``QuarterPackPage``) and the list of each of its taxes
    /// (``QuarterTaxListPage``).
    func sourceTakers() -> Int { 3 + activeTaxes().count }

    /// The page with its quarter's sources, made once per build for the units that show them (``sourceTakers()``)
    /// (``SiteBuilder/Inputs/quarterSources``): one pass over the quarter's tax lines instead of one per kind and
    /// file (the page, the lists' CSV, their pages, the pack, the fingerprint of the rows).
    func prepared(with inputs: SiteBuilder.Inputs) -> PeriodPage {
        guard sources == nil, period.quarter != 0 else { return prepared() }
        var page = self
        page.sources = inputs.quarterSources.take(SitePaths.period(period), takers: sourceTakers()) { taxSources() }
        return page
    }


    /// The columns of a quarter's CSV (docs/exports.md).
    static let periodCSVColumns = [
        "currency", "tax", "rate", "invoice", "issued", "client_number", "client", "accrual_net", "accrual_tax", "cash_net", "cash_tax",
    ]

    /// A quarter's invoices behind its taxes, as its page lists them: per currency and tax (the taxes table's
    /// order), each invoice with its net and tax on both bases as plain decimals. A group's sums are the taxes
    /// table's row.
    func csv(sources: [TaxKey: [TaxSource]]) -> String {
        var csv = CSVWriter(header: Self.periodCSVColumns, dialect: options.csvDialect, decimalColumns: ReportExports.decimalColumns)
        for totals in activeTaxes() {
            let tax = books.taxes[totals.taxIndex]
            let digits = totals.currency.minorUnitDigits
            for source in sources[TaxKey(currency: totals.currency, taxIndex: totals.taxIndex)] ?? [] {
                let invoice = books.invoices[source.invoiceIndex]
                let client = books.clients[Int(invoice.clientIndex)]
                let figures = source.figures
                csv.append(
                    [totals.currency.code, tax.name, tax.percent, invoice.identifier, invoice.issued.description, client.number, client.name]
                        + [figures.accrualNet, figures.accrualTax, figures.cashNet, figures.cashTax].map { Money.decimalString($0, digits: digits) })
            }
        }
        return csv.text
    }

    func context(sources: [TaxKey: [TaxSource]]? = nil) -> Context {
        let offsets = period.offsets
        let path = SitePaths.period(period)
        let links = SitePaths.Links(from: path)
        let months = offsets.map { PageLink(label: site.monthLabel(report.months[$0]), href: links(SitePaths.month(report.months[$0]))) }
        // A year's invoices are its quarters' invoices: the year page links to the quarter pages' lists instead of
        // listing them again (at 2,000,000 invoices a year page listing them was 220 MB of HTML).
        let isYear = period.quarter == 0
        let sources = sources ?? taxSources()
        let yearQuarters = isYear ? periods.filter { $0.quarter != 0 && $0.year == period.year } : []
        var taxes: [Joined<TaxRow, Tax>] = []
        let taxLists = isYear ? [] : taxLists(sources: sources).map(\.list)
        let paged = site.isPaged(taxLists)
        let inPack = listsInPack(taxLists)
        let lists = Dictionary(uniqueKeysWithValues: taxLists.map { (String($0.folder.split(separator: "/").last ?? ""), $0) })
        for totals in report.taxes {
            guard let figures = TaxFigures.spanning(totals.months[offsets]), figures.isActive else { continue }
            let currency = totals.currency
            let anchor = Self.taxAnchor(totals)
            let quarters = yearQuarters.filter { quarter in
                TaxFigures.spanning(totals.months[quarter.offsets])?.isActive == true
            }.enumerated().map { position, quarter in
                Tax.Quarter(label: quarter.label, href: links(SitePaths.period(quarter) + "#" + anchor), first: position == 0)
            }
            var row = Tax(anchor: anchor, quarters: quarters, hasQuarters: !quarters.isEmpty)
            if let list = lists[anchor], inPack {
                // The rows are the pack's: one page, the pack's table of the tax.
                (row.rowCount, row.pages) = (list.count, [PageLink(label: "1", href: links(SitePaths.quarterPack(period) + "#" + anchor))])
            } else if let list = lists[anchor], paged {
                let pages = site.pagesLinks(of: list, from: path)
                (row.rowCount, row.pages) = (pages.rowCount, pages.pages)
            } else {
                let behind = sources[TaxKey(currency: currency, taxIndex: totals.taxIndex)] ?? []
                row.invoices = taxInvoiceRows(behind, 0..<behind.count, currency, links: links)
            }
            taxes.append(Joined(taxRow(totals, figures), row))
        }
        var context = Fields(months: months, hasTaxes: !taxes.isEmpty, taxes: taxes)
        if !isYear, !taxes.isEmpty { context.csvHref = links(SitePaths.periodCSV(period)) }
        if !isYear { context.packHref = links(SitePaths.quarterPack(period)) }
        let same = periods.filter { ($0.quarter == 0) == (period.quarter == 0) }
        if let index = same.firstIndex(where: { $0.year == period.year && $0.quarter == period.quarter }) {
            func link(_ other: FiscalPeriod) -> PageLink { PageLink(label: other.label, href: links.throughRoot(SitePaths.period(other))) }
            if index > 0 { context.previous = link(same[index - 1]) }
            if index + 1 < same.count { context.next = link(same[index + 1]) }
        }
        return Joined(heading(), context)
    }

    /// The page's ``Heading``.
    func heading() -> Heading {
        let offsets = period.offsets
        let first = report.months[offsets.lowerBound], last = report.months[offsets.upperBound - 1]
        let totals: [FiguresRow] = report.currencies.compactMap { currency in
            guard let figures = Figures.spanning(currency.months[offsets]), figures.isActive else { return nil }
            return site.figuresFields(figures, currency.currency)
        }
        return Heading(
            label: period.label, kind: site.word(period.quarter == 0 ? "period.year" : "period.quarter"), firstMonth: site.monthLabel(first),
            lastMonth: site.monthLabel(last), complete: period.complete, totals: totals, hasTotals: !totals.isEmpty)
    }

    /// A tax of `totals`' currency with `figures` over the period: its name and rate, and its figures formatted.
    func taxRow(_ totals: Report.TaxTotals, _ figures: TaxFigures) -> TaxRow {
        let tax = books.taxes[totals.taxIndex]
        let currency = totals.currency
        return TaxRow(
            currency: currency.code, tax: tax.name, rate: site.rate(tax),
            accrualNet: site.money(figures.accrualNet, currency), accrualTax: site.money(figures.accrualTax, currency),
            cashNet: site.money(figures.cashNet, currency), cashTax: site.money(figures.cashTax, currency))
    }
}
