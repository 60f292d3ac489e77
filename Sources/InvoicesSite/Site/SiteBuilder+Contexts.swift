import Foundation
internal import InvoicesCore
internal import InvoicesReport

extension SiteBuilder {
    func overviewContext() -> [String: Any] {
        let totals = report.currencies.map { figuresRow($0.period, $0.currency) }
        let months: [[String: Any]] = report.months.enumerated().reversed().map { offset, month in
            var rows = report.currencies.filter { $0.months[offset].isActive }.map { figuresRow($0.months[offset], $0.currency) }
            if rows.isEmpty { rows = [["currency": "—", "invoiced": "", "paid": "", "outstanding": "", "overdue": "", "invoices": ""]] }
            rows[0]["first"] = true
            return ["label": SiteBuilder.monthLabel(month), "month": month.description, "href": monthPath(month), "totals": rows]
        }
        let charts: [[String: Any]] = report.currencies.map { currency in
            [
                "currency": currency.currency.code, "svg": chart(currency),
                "caption": "Invoiced and paid per month in \(currency.currency.code); the table of months below has every figure.",
            ]
        }
        return [
            "firstMonth": report.months.first.map(SiteBuilder.monthLabel) ?? "",
            "lastMonth": report.months.last.map(SiteBuilder.monthLabel) ?? "",
            "monthCount": String(report.months.count), "hasMonths": !report.months.isEmpty,
            "totals": totals, "hasTotals": !totals.isEmpty, "months": months, "clientCount": String(report.clients.count),
            "aging": report.currencies.map { agingRow($0.aging, $0.currency) },
            "charts": charts, "topClients": topClients(limit: 5),
        ]
    }

    /// Per currency, the clients that were invoiced most over the period (ties by client order).
    func topClients(limit: Int) -> [[String: Any]] {
        report.currencies.map { currency in
            var entries: [(clientIndex: Int, figures: Figures)] = []
            for client in report.clients {
                if let entry = client.currencies.first(where: { $0.currency == currency.currency }), entry.period.invoiced != 0 {
                    entries.append((client.clientIndex, entry.period))
                }
            }
            entries.sort { $0.figures.invoiced != $1.figures.invoiced ? $0.figures.invoiced > $1.figures.invoiced : $0.clientIndex < $1.clientIndex }
            let rows: [[String: Any]] = entries.prefix(limit).enumerated().map { rank, entry in
                let client = books.clients[entry.clientIndex]
                return [
                    "rank": String(rank + 1), "name": client.name, "number": client.number, "href": clientPath(entry.clientIndex),
                    "invoiced": money(entry.figures.invoiced, currency.currency), "paid": money(entry.figures.paid, currency.currency),
                    "outstanding": money(entry.figures.outstanding, currency.currency),
                ]
            }
            return ["currency": currency.currency.code, "clients": rows]
        }
    }

    func clientsContext() -> [String: Any] {
        var invoiceCounts = Array(repeating: 0, count: books.clients.count)
        for invoice in books.invoices { invoiceCounts[Int(invoice.clientIndex)] += 1 }
        let currenciesByClient = Dictionary(uniqueKeysWithValues: report.clients.map { ($0.clientIndex, $0.currencies.map(\.currency.code)) })
        let clients: [[String: Any]] = books.clients.indices.map { index in
            let client = books.clients[index]
            return [
                "name": client.name, "number": client.number, "href": currenciesByClient[index] == nil ? "" : clientPath(index),
                "currencies": (currenciesByClient[index] ?? []).joined(separator: ", "), "invoices": String(invoiceCounts[index]),
            ]
        }
        return ["clients": clients]
    }

    func monthContext(_ offset: Int, registry: RowListRegistry? = nil) -> [String: Any] {
        let month = report.months[offset]
        var totals: [[String: Any]] = []
        var sections: [[String: Any]] = []
        for currency in report.currencies where currency.months[offset].isActive {
            let previous = offset > 0 ? currency.months[offset - 1] : currency.previousMonth
            var total = figuresRow(currency.months[offset], currency.currency)
            total["change"] = change(currency.months[offset].invoiced, from: previous.invoiced, currency.currency)
            totals.append(total)
            var members: [(client: Int, entry: Report.ClientCurrency)] = []
            for client in report.clients {
                for entry in client.currencies where entry.currency == currency.currency && entry.months[offset].isActive {
                    members.append((client.clientIndex, entry))
                }
            }
            let columns = TemplateSet.monthRowColumns
            let rows = RowList(columns: columns, count: members.count, registry: registry) { row, column in
                let (clientIndex, entry) = members[row]
                let figures = entry.months[offset]
                switch columns[column] {
                case "name": return books.clients[clientIndex].name
                case "number": return books.clients[clientIndex].number
                case "href": return "../" + clientPath(clientIndex)
                case "change":
                    let previous = offset > 0 ? entry.months[offset - 1] : entry.previousMonth
                    return change(figures.invoiced, from: previous.invoiced, entry.currency)
                default: return figuresCell(figures, entry.currency, columns[column])
                }
            }
            sections.append(["currency": currency.currency.code, "rows": rows, "total": total])
        }
        var context: [String: Any] = [
            "label": SiteBuilder.monthLabel(month), "month": month.description, "totals": totals,
            "hasTotals": !totals.isEmpty, "currencies": sections, "previousLabel": SiteBuilder.monthLabel(month.previous),
        ]
        if offset > 0 {
            context["previous"] = ["label": SiteBuilder.monthLabel(report.months[offset - 1]), "href": "\(report.months[offset - 1]).html"]
        }
        if offset + 1 < report.months.count {
            context["next"] = ["label": SiteBuilder.monthLabel(report.months[offset + 1]), "href": "\(report.months[offset + 1]).html"]
        }
        return context
    }

    /// The change of an amount against the previous month: `+EUR 12.00`, `−EUR 3.00` or `no change`.
    func change(_ current: Int64, from previous: Int64, _ currency: CurrencyCode) -> String {
        let (difference, overflow) = current.subtractingReportingOverflow(previous)
        if overflow || difference == .min { return "" }
        if difference == 0 { return "no change" }
        return (difference > 0 ? "+" : "\u{2212}") + money(abs(difference), currency)
    }

    /// One figure of `figures` by its template name (`invoiced`, `paid`, ...), formatted.
    func figuresCell(_ figures: Figures, _ currency: CurrencyCode, _ name: String) -> String {
        switch name {
        case "currency": currency.code
        case "invoiced": money(figures.invoiced, currency)
        case "paid": money(figures.paid, currency)
        case "outstanding": money(figures.outstanding, currency)
        case "overdue": money(figures.overdue, currency)
        case "invoices": String(figures.invoices)
        default: ""
        }
    }

    func agingRow(_ aging: Aging, _ currency: CurrencyCode) -> [String: Any] {
        [
            "currency": currency.code, "notDue": money(aging.notDue, currency), "days1to30": money(aging.days1to30, currency),
            "days31to60": money(aging.days31to60, currency), "days61to90": money(aging.days61to90, currency),
            "over90": money(aging.over90, currency),
        ]
    }

    func clientContext(_ totals: Report.ClientTotals, invoices: [Int], registry: RowListRegistry? = nil) -> [String: Any] {
        let client = books.clients[totals.clientIndex]
        // A client with totals means the report has invoices, and so a period and an as-of date.
        let asOf = report.asOf ?? CalendarDate(dayNumber: .max)
        enum Column { case identifier, issued, due, paid, amount, status, notes, other }
        let columns = TemplateSet.invoiceColumns
        let kinds: [Column] = columns.map {
            switch $0 {
            case "identifier": .identifier
            case "issued": .issued
            case "due": .due
            case "paid": .paid
            case "amount": .amount
            case "status": .status
            case "notes": .notes
            default: .other
            }
        }
        let rows = RowList(columns: columns, count: invoices.count, registry: registry) { row, column in
            let invoice = books.invoices[invoices[row]]
            switch kinds[column] {
            case .identifier: return invoice.identifier
            case .issued: return invoice.issued.description
            case .due: return invoice.due.description
            case .paid: return invoice.paid?.description ?? ""
            case .amount: return money(invoice.amount, books.currencies[Int(invoice.currencyIndex)])
            case .status:
                if let paid = invoice.paid, paid <= asOf { return "paid" }
                return invoice.due < asOf ? "overdue" : "open"
            case .notes: return invoice.notes
            case .other: return ""
            }
        }
        let hasAddress = !(client.street.isEmpty && client.city.isEmpty && client.zip.isEmpty && client.country.isEmpty)
        var context: [String: Any] = [
            "name": client.name, "number": client.number, "street": client.street, "city": client.city, "zip": client.zip,
            "country": client.country, "hasAddress": hasAddress,
            "totals": totals.currencies.map { figuresRow($0.period, $0.currency) }, "invoices": rows,
            "aging": totals.currencies.map { agingRow($0.aging, $0.currency) },
            "monthly": totals.currencies.map { entry -> [String: Any] in
                let active = report.months.indices.filter { entry.months[$0].isActive }
                let columns = TemplateSet.monthlyColumns
                let months = RowList(columns: columns, count: active.count, registry: registry) { row, column in
                    let offset = active[row]
                    let figures = entry.months[offset]
                    switch columns[column] {
                    case "label": return SiteBuilder.monthLabel(report.months[offset])
                    case "href": return "../" + monthPath(report.months[offset])
                    default: return figuresCell(figures, entry.currency, columns[column])
                    }
                }
                return ["currency": entry.currency.code, "months": months]
            },
        ]
        if !client.email.isEmpty {
            context["email"] = client.email
            let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "@.-_+"))
            context["emailURL"] = "mailto:" + (client.email.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
        }
        return context
    }
}
