import Foundation
internal import InvoicesCore
internal import InvoicesReport

/// collections.html: the overdue clients per currency, the days to pay per client and the DSO per month; its long
/// lists go to pages of their own (`collections/overdue-EUR/1.html`) when they are more than a page together, each
/// list a unit of its own (``CollectionsListPage``).
struct CollectionsPage: SiteWidePageKind {
    let site: SiteView
    var key: String { "collections" }
    func inputs(_ inputs: SiteBuilder.Inputs) -> UInt64 { fingerprint(inputs.all, templates: ["collections", "collections-list"]) }
    func files() -> [File] { [page()] }
    /// Its lists that go to pages of their own, each written by its own unit (``CollectionsListPage``).
    func allPagedLists() -> [PagedList] { site.paged(lists(site.figures.collections).map(pagedList)) }
}

extension CollectionsPage {
    static var templateContexts: [String: any PageContext.Type] {
        ["collections": Context.self, "collections-list": ListPageContext<ListFields, ListRows>.self]
    }
    static let rootNames = ["collections"]
    static func sitemap(in site: SiteView) -> [SitemapEntry] { [SitemapEntry(path: SitePaths.collections)] }
}

extension CollectionsPage {
    enum OverdueColumns: RowColumns { static var columns: [String] { TemplateVariables.overdueColumns } }
    enum DaysToPayColumns: RowColumns { static var columns: [String] { TemplateVariables.daysToPayColumns } }
    enum DSOColumns: RowColumns { static var columns: [String] { TemplateVariables.dsoColumns } }

    /// What collections.html shows. When its lists go to pages of their own, each list has the links to its pages
    /// (`rowCount`, `pages`, `anchor`) instead of its rows; the days to pay then are `daysToPayPages`.
    struct Context: PageContext {
        var hasOverdue: Bool
        var overdue: [Overdue]
        var hasDaysToPay: Bool
        var daysToPay: Rows<DaysToPayColumns>?
        var daysToPayPages: Joined<PageLinks, Anchor>?
        var dso: [SalesOutstanding]
    }

    /// One currency's overdue clients: their rows, or the links to their pages.
    struct Overdue: Codable, Sendable {
        var currency: String
        var clients: Rows<OverdueColumns>?
        var rowCount: Int?
        var anchor: String?
        var pages: [PageLink]?
    }

    struct Anchor: Codable, Sendable { var anchor: String }

    /// One currency's days sales outstanding, month by month, newest first.
    struct SalesOutstanding: Codable, Sendable {
        var currency: String
        var months: Rows<DSOColumns>
    }

    /// What every page of one of its lists has.
    struct ListFields: Codable, Sendable {
        var heading: String
        var collectionsHref: String
    }

    /// The rows of a page of one of its lists: one currency's overdue clients, or the days to pay.
    struct ListRows: Codable, Sendable {
        struct OverdueRows: Codable, Sendable {
            var currency: String
            var clients: Rows<OverdueColumns>
        }
        struct DaysToPayRows: Codable, Sendable { var clients: Rows<DaysToPayColumns> }
        var overdue: [OverdueRows]?
        var daysToPay: [DaysToPayRows]?
    }

    /// An overdue row, as the overview shows it (``overdueCell(_:_:)``; addresses relative to a top-level page).
    struct OverdueRow: Codable, Sendable {
        var name, number, href, statementHref, overdue, outstanding, invoices, oldest: String
    }

    func overdueRow(_ entry: Collections.Overdue) -> OverdueRow {
        let cells = TemplateVariables.overdueColumns.map { overdueCell(entry, $0) }
        return OverdueRow(
            name: cells[0], number: cells[1], href: cells[2], statementHref: cells[3], overdue: cells[4], outstanding: cells[5],
            invoices: cells[6], oldest: cells[7])
    }

    /// The collections page: overdue clients per currency, days to pay per client, DSO per month.
    func page() -> File {
        let registry = RowListRegistry(marker: TemplateSet.rowMarker)
        return site.page(SitePaths.collections, template: "collections", title: site.word("nav.collections"), context(), rows: registry)
    }

    /// The long lists of collections.html: the overdue clients per currency (`overdue-EUR`) and the days to pay
    /// (`days-to-pay`), each with its rows.
    enum CollectionsList {
        case overdue([Collections.Overdue])
        case daysToPay([Collections.DaysToPay])

        var name: String {
            switch self {
            case .overdue(let rows): "overdue-\(rows[0].currency.code)"
            case .daysToPay: "days-to-pay"
            }
        }
        var count: Int {
            switch self {
            case .overdue(let rows): rows.count
            case .daysToPay(let rows): rows.count
            }
        }
        func clientIndex(_ row: Int) -> Int {
            switch self {
            case .overdue(let rows): rows[row].clientIndex
            case .daysToPay(let rows): rows[row].clientIndex
            }
        }
    }

    func lists(_ collections: Collections) -> [CollectionsList] {
        collections.overdue.filter { !$0.isEmpty }.map { .overdue($0) } + (collections.daysToPay.isEmpty ? [] : [.daysToPay(collections.daysToPay)])
    }

    /// A list's overdue clients in `range`; addresses made by `links`.
    func overdueRows(_ rows: [Collections.Overdue], _ range: Range<Int>, links: SitePaths.Links) -> Rows<OverdueColumns> {
        let columns = TemplateVariables.overdueColumns
        return Rows(count: range.count) { [self] row, column in
            let cell = overdueCell(rows[range.lowerBound + row], columns[column])
            return columns[column].hasSuffix("ref") ? links(cell) : cell
        }
    }

    /// The days to pay of the clients in `range`; addresses made by `links`.
    func daysToPayRows(_ days: [Collections.DaysToPay], _ range: Range<Int>, links: SitePaths.Links) -> Rows<DaysToPayColumns> {
        let columns = TemplateVariables.daysToPayColumns
        return Rows(count: range.count) { [self] row, column in
            let entry = days[range.lowerBound + row]
            let client = books.clients[entry.clientIndex]
            switch columns[column] {
            case "name": return client.name
            case "number": return client.number
            case "href": return links(site.paths.client(entry.clientIndex))
            case "settled": return site.count(entry.settled)
            case "median": return site.count(entry.median)
            case "p90": return site.count(entry.percentile90)
            default: return ""
            }
        }
    }

    /// A list of collections.html as a list that goes to pages of its own (`collections/overdue-EUR/1.html`,
    /// `collections/days-to-pay/1.html` and on, keyed by client number) when the page's lists are more than a page
    /// together.
    func pagedList(_ list: CollectionsList) -> PagedList {
        var heading = site.word("collections.daysToPay")
        if case .overdue(let rows) = list { heading = site.word("collections.overdueIn", ["currency": rows[0].currency.code]) }
        let folder = SitePaths.collectionsList(list.name)
        return PagedList(
            folder: folder, count: list.count, key: { books.clients[list.clientIndex($0)].number },
            template: "collections-list", title: heading,
            fields: ListFields(heading: heading, collectionsHref: SitePaths.link(from: folder, to: SitePaths.collections + "#\(list.name)")),
            rows: { range, links in
                switch list {
                case .overdue(let rows):
                    ListRows(overdue: [ListRows.OverdueRows(currency: rows[0].currency.code, clients: self.overdueRows(rows, range, links: links))])
                case .daysToPay(let days):
                    ListRows(daysToPay: [ListRows.DaysToPayRows(clients: self.daysToPayRows(days, range, links: links))])
                }
            })
    }

    func context() -> Context {
        let collections = site.figures.collections
        let lists = lists(collections)
        let paged = site.isPaged(lists.map(pagedList))
        let links = SitePaths.Links(from: SitePaths.collections)
        var context = Context(
            hasOverdue: false, overdue: [], hasDaysToPay: !collections.daysToPay.isEmpty,
            daysToPay: paged ? nil : Rows(count: 0) { _, _ in "" }, dso: [])
        for list in lists {
            let pages = paged ? site.pagesLinks(of: pagedList(list), from: SitePaths.collections) : nil
            switch list {
            case .overdue(let rows):
                context.overdue.append(
                    Overdue(
                        currency: rows[0].currency.code, clients: paged ? nil : overdueRows(rows, 0..<rows.count, links: links),
                        rowCount: pages?.rowCount, anchor: paged ? list.name : nil, pages: pages?.pages))
            case .daysToPay(let days):
                if let pages { context.daysToPayPages = Joined(pages, Anchor(anchor: list.name)) } else { context.daysToPay = daysToPayRows(days, 0..<days.count, links: links) }
            }
        }
        context.hasOverdue = !context.overdue.isEmpty
        context.dso = collections.salesOutstanding.map { entry in
            let totals = report.currencies.first { $0.currency == entry.currency }
            let columns = TemplateVariables.dsoColumns
            let offsets = report.months.indices.reversed().filter { totals?.months[$0].isActive == true }
            let months = Rows<DSOColumns>(count: offsets.count) { [self] row, column in
                let offset = offsets[row]
                let figures = totals?.months[offset] ?? Figures()
                switch columns[column] {
                case "label": return site.monthLabel(report.months[offset])
                case "href": return SitePaths.month(report.months[offset])
                case "invoiced": return site.money(figures.invoiced, entry.currency)
                case "outstanding": return site.money(figures.outstanding, entry.currency)
                case "dso": return entry.months[offset].map { String(format: "%.1f", $0) } ?? "—"
                default: return ""
                }
            }
            return SalesOutstanding(currency: entry.currency.code, months: months)
        }
        return context
    }

    /// One cell of an overdue row (addresses relative to a top-level page).
    func overdueCell(_ entry: Collections.Overdue, _ name: String) -> String {
        let client = books.clients[entry.clientIndex]
        switch name {
        case "name": return client.name
        case "number": return client.number
        case "href": return site.paths.client(entry.clientIndex)
        case "statementHref": return site.paths.statement(entry.clientIndex)
        case "overdue": return site.money(entry.overdue, entry.currency)
        case "outstanding": return site.money(entry.outstanding, entry.currency)
        case "invoices": return site.count(entry.invoices)
        case "oldest": return site.count(entry.oldestDaysLate)
        default: return ""
        }
    }
}
