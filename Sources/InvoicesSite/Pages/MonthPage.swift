import Foundation
internal import InvoicesCore
internal import InvoicesReport

/// A month's page (`months/2025-06.html`): its totals per currency against the month before, and the clients
/// active in it per currency, which go to pages of their own (`months/2025-06/EUR/1.html`) when they are more than
/// a page together.
struct MonthPage: PageKind {
    let site: SiteView
    /// The month's position in ``Report/months``.
    let offset: Int
    var key: String { "month:\(report.months[offset])" }
    func inputs(_ inputs: SiteBuilder.Inputs) -> UInt64 { fingerprint(inputs.months[offset], templates: ["month", "month-list"]) }
    func files() -> [File] { [page()] }
    /// Its lists' pages are units of their own (``MonthListPage``), in its job.
    var jobGroup: String? { key }
}

extension MonthPage {
    static func jobs(in site: SiteView) -> [[any PageKind]] { site.report.months.indices.map { [MonthPage(site: site, offset: $0)] } }
    static var templateContexts: [String: any PageContext.Type] { ["month": Context.self] }
    static let rootNames = ["months"]
    /// Each month, with the latest day in it on which an invoice was issued or paid.
    static func sitemap(in site: SiteView) -> [SitemapEntry] {
        let updated = AddressFiles(site: site).monthUpdates()
        return site.report.months.enumerated().map { SitemapEntry(path: SitePaths.month($1), lastModified: updated[$0]) }
    }
}

extension MonthPage {
    enum RowColumns: InvoicesSite.RowColumns { static var columns: [String] { TemplateSet.monthRowColumns } }

    /// What a month's page shows: its totals per currency against the month before, and per currency its clients,
    /// or the links to the pages of their list.
    struct Context: PageContext {
        var label: String
        var month: String
        var totals: [Joined<FiguresRow, MonthChange>]
        var hasTotals: Bool
        var currencies: [Currency]
        var previousLabel: String
        var previous: PageLink?
        var next: PageLink?
    }

    struct Currency: Codable, Sendable {
        var currency: String
        var total: Joined<FiguresRow, MonthChange>
        var rows: Rows<RowColumns>?
        var rowCount: Int?
        var pages: [PageLink]?
    }

    /// What every page of a month's list of clients in one currency has.
    struct ListFields: Codable, Sendable {
        var label: String
        var currency: String
        var monthHref: String
    }

    struct ListRows: Codable, Sendable { var rows: Rows<RowColumns> }

    /// The month's page.
    func page() -> File {
        let registry = RowListRegistry(marker: TemplateSet.rowMarker)
        let context = context()
        return site.page(SitePaths.month(report.months[offset]), template: "month", title: context.label, context, rows: registry)
    }

    func context() -> Context {
        let month = report.months[offset]
        let path = SitePaths.month(month)
        let links = SitePaths.Links(from: path)
        var totals: [Joined<FiguresRow, MonthChange>] = []
        var sections: [Currency] = []
        let members = membersByCurrency()
        let monthLists = lists(members)
        let paged = site.isPaged(monthLists)
        let lists = Dictionary(uniqueKeysWithValues: monthLists.map { (String($0.folder.split(separator: "/").last ?? ""), $0) })
        for currency in report.currencies where currency.months[offset].isActive {
            let previous = offset > 0 ? currency.months[offset - 1] : currency.previousMonth
            let total = Joined(
                site.figuresFields(currency.months[offset], currency.currency),
                MonthChange(change: change(currency.months[offset].invoiced, from: previous.invoiced, currency.currency)))
            totals.append(total)
            var section = Currency(currency: currency.currency.code, total: total)
            if paged, let list = lists[currency.currency.code] {
                let pages = site.pagesLinks(of: list, from: path)
                (section.rowCount, section.pages) = (pages.rowCount, pages.pages)
            } else {
                let members = members[currency.currency] ?? []
                section.rows = rows(members, 0..<members.count, links: links)
            }
            sections.append(section)
        }
        var context = Context(
            label: site.monthLabel(month), month: month.description, totals: totals, hasTotals: !totals.isEmpty, currencies: sections,
            previousLabel: site.monthLabel(month.previous))
        if offset > 0 {
            context.previous = PageLink(label: site.monthLabel(report.months[offset - 1]), href: links(SitePaths.month(report.months[offset - 1])))
        }
        if offset + 1 < report.months.count {
            context.next = PageLink(label: site.monthLabel(report.months[offset + 1]), href: links(SitePaths.month(report.months[offset + 1])))
        }
        return context
    }

    typealias Members = [(client: Int, entry: Report.ClientCurrency)]

    /// The clients with figures in the month, per currency, each in client order: one pass over the report's
    /// clients for all the month's currencies.
    func membersByCurrency() -> [CurrencyCode: Members] {
        var members: [CurrencyCode: Members] = [:]
        for client in report.clients {
            for entry in client.currencies where entry.months[offset].isActive {
                members[entry.currency, default: []].append((client.clientIndex, entry))
            }
        }
        return members
    }

    /// The rows of `range` of a month's clients in one currency; client links made by `links`.
    func rows(
        _ members: Members, _ range: Range<Int>, links: SitePaths.Links
    ) -> Rows<RowColumns> {
        let columns = TemplateSet.monthRowColumns
        return Rows(count: range.count) { [self] row, column in
            let (clientIndex, entry) = members[range.lowerBound + row]
            let figures = entry.months[offset]
            switch columns[column] {
            case "name": return books.clients[clientIndex].name
            case "number": return books.clients[clientIndex].number
            case "href": return links(site.paths.client(clientIndex))
            case "change":
                let previous = offset > 0 ? entry.months[offset - 1] : entry.previousMonth
                return change(figures.invoiced, from: previous.invoiced, entry.currency)
            case "changeNumber":
                let previous = offset > 0 ? entry.months[offset - 1] : entry.previousMonth
                return change(figures.invoiced, from: previous.invoiced, entry.currency, number: true)
            default: return site.figuresCell(figures, entry.currency, columns[column])
            }
        }
    }

    /// A month's clients per currency, each list keyed by client number: on pages of their own
    /// (`months/2025-06/EUR/1.html` and on) when together they are more than a page, the month's page then keeping
    /// the totals and linking them.
    func lists(_ byCurrency: [CurrencyCode: Members]) -> [PagedList] {
        let month = report.months[offset]
        return report.currencies.filter { $0.months[offset].isActive }.map { currency in
            let members = byCurrency[currency.currency] ?? []
            let code = currency.currency.code
            let folder = SitePaths.monthList(month, code)
            return PagedList(
                folder: folder, count: members.count, key: { books.clients[members[$0].client].number },
                template: "month-list", title: site.word("title.monthClients", ["month": site.monthLabel(month), "currency": code]),
                fields: ListFields(label: site.monthLabel(month), currency: code, monthHref: SitePaths.link(from: folder, to: SitePaths.month(month) + "#clients-\(code)")),
                rows: { range, links in ListRows(rows: self.rows(members, range, links: links)) })
        }
    }

    /// The change of an amount against the previous month: `+EUR 12.00`, `−EUR 3.00` or `no change`.
    func change(_ current: Int64, from previous: Int64, _ currency: CurrencyCode, number: Bool = false) -> String {
        let (difference, overflow) = current.subtractingReportingOverflow(previous)
        if overflow || difference == .min { return "" }
        if difference == 0 { return site.word("month.noChange") }
        return (difference > 0 ? "+" : "\u{2212}") + (number ? site.amountNumber(abs(difference), currency) : site.money(abs(difference), currency))
    }
}
