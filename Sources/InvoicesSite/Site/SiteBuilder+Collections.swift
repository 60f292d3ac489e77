import Foundation
internal import InvoicesCore
internal import InvoicesReport

extension SiteBuilder {
    /// The collections page: overdue clients per currency, days to pay per client, DSO per month.
    func collectionsPage() -> File {
        let registry = RowListRegistry(marker: TemplateSet.rowMarker)
        return page("collections.html", template: "collections", title: "Collections", collectionsContext(registry: registry), rows: registry)
    }

    func collectionsContext(registry: RowListRegistry? = nil) -> [String: Any] {
        let collections = Collections(books: books, report: report)
        let overdue: [[String: Any]] = collections.overdue.filter { !$0.isEmpty }.map { rows in
            let columns = TemplateVariables.overdueColumns
            let list = RowList(columns: columns, count: rows.count, registry: registry) { row, column in
                overdueCell(rows[row], columns[column])
            }
            return ["currency": rows[0].currency.code, "clients": list]
        }
        let days = collections.daysToPay
        let dayColumns = TemplateVariables.daysToPayColumns
        let daysToPay = RowList(columns: dayColumns, count: days.count, registry: registry) { row, column in
            let entry = days[row]
            let client = books.clients[entry.clientIndex]
            switch dayColumns[column] {
            case "name": return client.name
            case "number": return client.number
            case "href": return clientPath(entry.clientIndex)
            case "settled": return String(entry.settled)
            case "median": return String(entry.median)
            case "p90": return String(entry.percentile90)
            default: return ""
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
        return [
            "hasOverdue": !overdue.isEmpty, "overdue": overdue, "hasDaysToPay": !days.isEmpty, "daysToPay": daysToPay,
            "dso": dso,
        ]
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
