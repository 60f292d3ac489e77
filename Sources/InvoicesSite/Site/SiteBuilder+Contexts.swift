import Foundation
internal import InvoicesCore
internal import InvoicesReport

extension SiteBuilder {
    func overviewContext() -> [String: Any] {
        let totals = report.currencies.map { figuresRow($0.period, $0.currency) }
        let months: [[String: Any]] = report.months.enumerated().reversed().map { offset, month in
            var rows = report.currencies.filter { $0.months[offset].isActive }.map { figuresRow($0.months[offset], $0.currency) }
            if rows.isEmpty { rows = [["currency": "—", "invoiced": "", "paid": "", "outstanding": "", "overdue": ""]] }
            rows[0]["first"] = true
            return ["label": SiteBuilder.monthLabel(month), "month": month.description, "href": monthPath(month), "totals": rows]
        }
        return [
            "firstMonth": report.months.first.map(SiteBuilder.monthLabel) ?? "",
            "lastMonth": report.months.last.map(SiteBuilder.monthLabel) ?? "",
            "totals": totals, "hasTotals": !totals.isEmpty, "months": months, "clientCount": String(report.clients.count),
        ]
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

    func monthContext(_ offset: Int) -> [String: Any] {
        let month = report.months[offset]
        let totals = report.currencies.filter { $0.months[offset].isActive }.map { figuresRow($0.months[offset], $0.currency) }
        var rows: [[String: Any]] = []
        for client in report.clients {
            for entry in client.currencies where entry.months[offset].isActive {
                var row = figuresRow(entry.months[offset], entry.currency)
                row["name"] = books.clients[client.clientIndex].name
                row["number"] = books.clients[client.clientIndex].number
                row["href"] = "../" + clientPath(client.clientIndex)
                rows.append(row)
            }
        }
        var context: [String: Any] = [
            "label": SiteBuilder.monthLabel(month), "month": month.description, "totals": totals,
            "hasTotals": !totals.isEmpty, "rows": rows,
        ]
        if offset > 0 {
            context["previous"] = ["label": SiteBuilder.monthLabel(report.months[offset - 1]), "href": "\(report.months[offset - 1]).html"]
        }
        if offset + 1 < report.months.count {
            context["next"] = ["label": SiteBuilder.monthLabel(report.months[offset + 1]), "href": "\(report.months[offset + 1]).html"]
        }
        return context
    }

    func clientContext(_ totals: Report.ClientTotals, invoices: [Int]) -> [String: Any] {
        let client = books.clients[totals.clientIndex]
        let asOf = report.asOf
        let rows: [[String: Any]] = invoices.map { index in
            let invoice = books.invoices[index]
            let status: String
            if let paid = invoice.paid, paid <= asOf { status = "paid" }
            else if invoice.due < asOf { status = "overdue" }
            else { status = "open" }
            return [
                "identifier": invoice.identifier, "issued": invoice.issued.description, "due": invoice.due.description,
                "paid": invoice.paid?.description ?? "", "amount": money(invoice.amount, books.currencies[Int(invoice.currencyIndex)]),
                "status": status, "notes": invoice.notes,
            ]
        }
        let hasAddress = !(client.street.isEmpty && client.city.isEmpty && client.zip.isEmpty && client.country.isEmpty)
        var context: [String: Any] = [
            "name": client.name, "number": client.number, "street": client.street, "city": client.city, "zip": client.zip,
            "country": client.country, "hasAddress": hasAddress,
            "totals": totals.currencies.map { figuresRow($0.period, $0.currency) }, "invoices": rows,
        ]
        if !client.email.isEmpty {
            context["email"] = client.email
            let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "@.-_+"))
            context["emailURL"] = "mailto:" + (client.email.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
        }
        return context
    }
}
