import Foundation
internal import InvoicesCore
internal import InvoicesReport

/// collections.html: the overdue clients per currency, the days to pay per client and the DSO per month; its long
/// lists go to pages of their own (`collections/overdue-EUR/1.html`) when they are more than a page together.
struct CollectionsPage: SiteWidePageKind {
    let site: SiteView
    var key: String { "collections" }
    func inputs(_ inputs: SiteBuilder.Inputs) -> UInt64 { fingerprint(inputs.all, templates: ["collections", "collections-list"]) }
    func files() -> [File] { [page()] }
    func pagedLists() -> [PagedList] { site.paged(lists(site.figures.collections).map(pagedList)) }
}

extension CollectionsPage {
    static var templateScopes: [String: TemplateScope] { TemplateVariables.collectionsPageScopes }
    static let fastLists: [String: [(path: [String], columns: [String])]] = [
        "collections-list": [(["overdue", "clients"], TemplateVariables.overdueColumns), (["daysToPay", "clients"], TemplateVariables.daysToPayColumns)],
        "collections": [(["overdue", "clients"], TemplateVariables.overdueColumns), (["daysToPay"], TemplateVariables.daysToPayColumns), (["dso", "months"], TemplateVariables.dsoColumns)],
    ]
    static let rootNames = ["collections"]
    static func sitemap(in site: SiteView) -> [SitemapEntry] { [SitemapEntry(path: SitePaths.collections)] }
}

extension CollectionsPage {
    /// The collections page: overdue clients per currency, days to pay per client, DSO per month.
    func page() -> File {
        let registry = RowListRegistry(marker: TemplateSet.rowMarker)
        return site.page(SitePaths.collections, template: "collections", title: site.word("nav.collections"), context(registry: registry), rows: registry)
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

    /// The rows of `range` of a list, as the template's list object (`currency` and `clients`, or `clients`);
    /// addresses made by `links`.
    func rows(_ list: CollectionsList, _ range: Range<Int>, links: SitePaths.Links, registry: RowListRegistry?) -> [String: Any] {
        switch list {
        case .overdue(let rows):
            let columns = TemplateVariables.overdueColumns
            let clients = RowList(columns: columns, count: range.count, registry: registry) { row, column in
                let cell = overdueCell(rows[range.lowerBound + row], columns[column])
                return columns[column].hasSuffix("ref") ? links(cell) : cell
            }
            return ["currency": rows[0].currency.code, "clients": clients]
        case .daysToPay(let days):
            let columns = TemplateVariables.daysToPayColumns
            let clients = RowList(columns: columns, count: range.count, registry: registry) { row, column in
                let entry = days[range.lowerBound + row]
                let client = books.clients[entry.clientIndex]
                switch columns[column] {
                case "name": return client.name
                case "number": return client.number
                case "href": return links(site.paths.client(entry.clientIndex))
                case "settled": return String(entry.settled)
                case "median": return String(entry.median)
                case "p90": return String(entry.percentile90)
                default: return ""
                }
            }
            return ["clients": clients]
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
            fields: ["heading": heading, "collectionsHref": SitePaths.link(from: folder, to: SitePaths.collections + "#\(list.name)")],
            rows: { range, links, registry in
                let rows = self.rows(list, range, links: links, registry: registry)
                switch list {
                case .overdue: return ["overdue": [rows]]
                case .daysToPay: return ["daysToPay": [rows]]
                }
            })
    }

    func context(registry: RowListRegistry? = nil) -> [String: Any] {
        let collections = site.figures.collections
        let lists = lists(collections)
        let paged = site.isPaged(lists.map(pagedList))
        var overdue: [[String: Any]] = []
        var daysToPay: Any = []
        for list in lists {
            var entry: [String: Any]
            if paged {
                entry = site.pageLinks(of: pagedList(list), from: SitePaths.collections)
                entry["anchor"] = list.name
                if case .overdue(let rows) = list { entry["currency"] = rows[0].currency.code }
            } else {
                entry = rows(list, 0..<list.count, links: SitePaths.Links(from: SitePaths.collections), registry: registry)
            }
            switch list {
            case .overdue: overdue.append(entry)
            case .daysToPay: daysToPay = paged ? entry : entry["clients"] ?? []
            }
        }
        let dso: [[String: Any]] = collections.salesOutstanding.map { entry in
            let totals = report.currencies.first { $0.currency == entry.currency }
            let columns = TemplateVariables.dsoColumns
            let offsets = report.months.indices.reversed().filter { totals?.months[$0].isActive == true }
            let months = RowList(columns: columns, count: offsets.count, registry: registry) { row, column in
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
            return ["currency": entry.currency.code, "months": months]
        }
        var context: [String: Any] = [
            "hasOverdue": !overdue.isEmpty, "overdue": overdue, "hasDaysToPay": !collections.daysToPay.isEmpty, "dso": dso,
        ]
        if paged { context["daysToPayPages"] = daysToPay } else { context["daysToPay"] = daysToPay }
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
        case "invoices": return String(entry.invoices)
        case "oldest": return String(entry.oldestDaysLate)
        default: return ""
        }
    }
}

extension TemplateVariables {
    /// The scopes of ``CollectionsPage``'s templates, by template name.
    static let collectionsPageScopes: [String: TemplateScope] = [
        "collections": page([
            "hasOverdue": nil, "hasDaysToPay": nil,
            "overdue": TemplateScope([
                "currency": nil, "clients": TemplateScope(values: TemplateVariables.overdueColumns),
                "rowCount": nil, "anchor": nil, "pages": link,
            ]),
            "daysToPay": TemplateScope(values: TemplateVariables.daysToPayColumns),
            "daysToPayPages": TemplateScope(["rowCount": nil, "anchor": nil, "pages": link]),
            "dso": TemplateScope(["currency": nil, "months": TemplateScope(values: TemplateVariables.dsoColumns)]),
        ]),
        "collections-list": page([
            "heading": nil, "page": nil, "rowCount": nil, "collectionsHref": nil, "previous": link, "next": link,
            "overdue": TemplateScope(["currency": nil, "clients": TemplateScope(values: TemplateVariables.overdueColumns)]),
            "daysToPay": TemplateScope(["clients": TemplateScope(values: TemplateVariables.daysToPayColumns)]),
        ]),
    ]
}
