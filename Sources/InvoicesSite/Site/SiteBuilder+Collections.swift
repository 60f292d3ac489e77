import Foundation
internal import InvoicesCore
internal import InvoicesReport

extension SiteBuilder {
    /// The collections page: overdue clients per currency, days to pay per client, DSO per month.
    func collectionsPage() -> File {
        let registry = RowListRegistry(marker: TemplateSet.rowMarker)
        return page("collections.html", template: "collections", title: "Collections", collectionsContext(registry: registry), rows: registry)
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

    func collectionsLists(_ collections: Collections) -> [CollectionsList] {
        collections.overdue.filter { !$0.isEmpty }.map { .overdue($0) } + (collections.daysToPay.isEmpty ? [] : [.daysToPay(collections.daysToPay)])
    }

    /// The rows of `range` of a list, as the template's list object (`currency` and `clients`, or `clients`);
    /// addresses start with `root`.
    func collectionsRows(_ list: CollectionsList, _ range: Range<Int>, root: String, registry: RowListRegistry?) -> [String: Any] {
        switch list {
        case .overdue(let rows):
            let columns = TemplateVariables.overdueColumns
            let clients = RowList(columns: columns, count: range.count, registry: registry) { row, column in
                let cell = overdueCell(rows[range.lowerBound + row], columns[column])
                return columns[column].hasSuffix("ref") ? root + cell : cell
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
                case "href": return root + clientPath(entry.clientIndex)
                case "settled": return String(entry.settled)
                case "median": return String(entry.median)
                case "p90": return String(entry.percentile90)
                default: return ""
                }
            }
            return ["clients": clients]
        }
    }

    /// The pages of a list (``Pagination``, keyed by client number).
    func collectionsRanges(_ list: CollectionsList) -> [Range<Int>] {
        Pagination.pages(count: list.count, pageSize: options.pageSize) { books.clients[list.clientIndex($0)].number }
    }

    /// When collections.html's lists are more than a page together, each is on pages of its own:
    /// `collections/overdue-EUR/1.html`, `collections/days-to-pay/1.html` and on.
    func collectionsListPages() -> [File] {
        let lists = collectionsLists(Collections(books: books, report: report))
        guard Pagination.isPaged(lists.map(\.count), pageSize: options.pageSize) else { return [] }
        var files: [File] = []
        for list in lists {
            let pages = collectionsRanges(list)
            for number in 1...pages.count {
                let registry = RowListRegistry(marker: TemplateSet.rowMarker)
                var context = Pagination.neighbours(number, of: pages.count)
                let rows = collectionsRows(list, pages[number - 1], root: "../../", registry: registry)
                var heading: String
                switch list {
                case .overdue:
                    context["overdue"] = [rows]
                    heading = "Overdue in \(rows["currency"] as? String ?? "")"
                case .daysToPay:
                    context["daysToPay"] = [rows]
                    heading = "Days to pay"
                }
                context["heading"] = heading
                context["rowCount"] = list.count
                context["collectionsHref"] = "../../collections.html#\(list.name)"
                files.append(page("collections/\(list.name)/\(number).html", template: "collections-list", title: "\(heading) · page \(number)", context, rows: registry))
            }
        }
        return files
    }

    func collectionsContext(registry: RowListRegistry? = nil) -> [String: Any] {
        let collections = Collections(books: books, report: report)
        let lists = collectionsLists(collections)
        let paged = Pagination.isPaged(lists.map(\.count), pageSize: options.pageSize)
        var overdue: [[String: Any]] = []
        var daysToPay: Any = []
        for list in lists {
            var entry: [String: Any]
            if paged {
                let name = list.name
                entry = ["rowCount": list.count, "anchor": name]
                entry["pages"] = Pagination.links(count: collectionsRanges(list).count) { "collections/\(name)/\($0).html" }
                if case .overdue(let rows) = list { entry["currency"] = rows[0].currency.code }
            } else {
                entry = collectionsRows(list, 0..<list.count, root: "", registry: registry)
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
                case "label": return SiteBuilder.monthLabel(report.months[offset])
                case "href": return monthPath(report.months[offset])
                case "invoiced": return money(figures.invoiced, entry.currency)
                case "outstanding": return money(figures.outstanding, entry.currency)
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

    /// The overview's `hasOverdue` and `topOverdue`: per currency, the five clients with most overdue.
    func topOverdueContext() -> [String: Any] {
        let lists: [[String: Any]] = Collections(books: books, report: report).overdue.filter { !$0.isEmpty }.map { rows in
            let top = Array(rows.prefix(5))
            let clients: [[String: Any]] = top.indices.map { position in
                var row: [String: Any] = ["rank": String(position + 1)]
                for name in TemplateVariables.overdueColumns { row[name] = overdueCell(top[position], name) }
                return row
            }
            return ["currency": rows[0].currency.code, "clients": clients]
        }
        return ["hasOverdue": !lists.isEmpty, "topOverdue": lists]
    }

    /// One cell of an overdue row (addresses relative to a top-level page).
    func overdueCell(_ entry: Collections.Overdue, _ name: String) -> String {
        let client = books.clients[entry.clientIndex]
        switch name {
        case "name": return client.name
        case "number": return client.number
        case "href": return clientPath(entry.clientIndex)
        case "statementHref": return statementPath(entry.clientIndex)
        case "overdue": return money(entry.overdue, entry.currency)
        case "outstanding": return money(entry.outstanding, entry.currency)
        case "invoices": return String(entry.invoices)
        case "oldest": return String(entry.oldestDaysLate)
        default: return ""
        }
    }
}
