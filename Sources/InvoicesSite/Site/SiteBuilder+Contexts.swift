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
        ].merging(topOverdueContext()) { a, _ in a }.merging(periodsContext()) { a, _ in a }.merging(creditsContext(report.currencies.map { ($0.currency, $0.period) })) { a, _ in a }
            .merging(taxesContext()) { a, _ in a }
    }

    /// `hasCredits` and `credits`: per currency with a credit note, a write-off or a client credit.
    func creditsContext(_ entries: [(CurrencyCode, Figures)]) -> [String: Any] {
        let rows: [[String: Any]] = entries.filter { $0.1.credited != 0 || $0.1.writtenOff != 0 || $0.1.credit != 0 }.map {
            [
                "currency": $0.0.code, "credited": money($0.1.credited, $0.0), "writtenOff": money($0.1.writtenOff, $0.0),
                "credit": money($0.1.credit, $0.0),
            ]
        }
        return ["hasCredits": !rows.isEmpty, "credits": rows]
    }

    /// `hasTaxes`, `taxBasis` and `taxes`: the period's taxes on the site's basis, per currency, tax and rate.
    func taxesContext() -> [String: Any] {
        let basis = options.taxBasis
        let rows: [[String: Any]] = report.taxes.filter { $0.period.isActive }.map { totals in
            let tax = books.taxes[totals.taxIndex]
            let (net, amount) = totals.period.figures(basis)
            return [
                "currency": totals.currency.code, "tax": tax.name, "rate": tax.percent + " %",
                "net": money(net, totals.currency), "amount": money(amount, totals.currency),
            ]
        }
        return ["hasTaxes": !rows.isEmpty, "taxBasis": basis == .accrual ? "accrual basis: by issue date" : "cash basis: by payment date", "taxes": rows]
    }

    /// The status of invoice `index` at `asOf`: draft, void, credit-note, or by its balance: paid, partial, credit,
    /// overdue, open.
    func invoiceStatus(_ index: Int, asOf: CalendarDate) -> String {
        let invoice = books.invoices[index]
        if invoice.status != .sent { return invoice.status.name }
        if invoice.kind == .creditNote { return "credit-note" }
        if let balance = report.balances[index] {
            if balance < 0 { return "credit" }
            if balance == 0 { return "paid" }
            if balance < invoice.amount { return "partial" }
            return invoice.due < asOf ? "overdue" : "open"
        }
        if let paid = invoice.paid, paid <= asOf { return "paid" }
        return invoice.due < asOf ? "overdue" : "open"
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

    /// clients.html: every client, or when they are more than a page, the links to the pages of the list
    /// (`clients/pages/1.html` and on) and the search over `clients-index.js`.
    func clientsContext() -> [String: Any] {
        let list = clientsList()
        return isPaged([list]) ? pageLinks(of: list, from: "") : ["clients": clientsRows(0..<books.clients.count, root: "")]
    }

    /// The client list, in store order, keyed by client number.
    func clientsList() -> PagedList {
        PagedList(
            folder: "clients/pages/", count: books.clients.count, key: { books.clients[$0].number }, template: "clients-list",
            title: "Clients", fields: [:], rows: { range, root, _ in ["clients": self.clientsRows(range, root: root)] })
    }

    /// The rows of clients.html (or of one of its pages) for the clients in `range`; addresses start with `root`.
    func clientsRows(_ range: Range<Int>, root: String) -> [[String: Any]] {
        clientsEntries(range).map { entry in
            ["number": entry[0], "name": entry[1], "city": entry[2], "href": entry[3].isEmpty ? "" : root + entry[3], "currencies": entry[4], "invoices": entry[5]]
        }
    }

    /// Number, name, city, page address (empty for a client without figures), currencies and invoice count of each
    /// client in `range`.
    func clientsEntries(_ range: Range<Int>) -> [[String]] {
        var invoiceCounts = Array(repeating: 0, count: books.clients.count)
        for invoice in books.invoices { invoiceCounts[Int(invoice.clientIndex)] += 1 }
        let currenciesByClient = Dictionary(uniqueKeysWithValues: report.clients.map { ($0.clientIndex, $0.currencies.map(\.currency.code)) })
        return range.map { index in
            let client = books.clients[index]
            return [
                client.number, client.name, client.city, currenciesByClient[index] == nil ? "" : clientPath(index),
                (currenciesByClient[index] ?? []).joined(separator: ", "), String(invoiceCounts[index]),
            ]
        }
    }

    /// When the clients are more than a page: the list's pages (`clients/pages/1.html` and on) and the search
    /// index clients.html's box searches (`clients-index.js`: every client's number, name, city, address,
    /// currencies and invoice count, as a JavaScript array of JSON strings).
    func clientsListFiles() -> [File] {
        let list = clientsList()
        guard isPaged([list]) else { return [] }
        var index = Data("window.invoicesClients = ".utf8)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        index.append((try? encoder.encode(clientsEntries(0..<books.clients.count))) ?? Data("[]".utf8))
        index.append(Data(";\n".utf8))
        return pages(of: list) + [File(path: "clients-index.js", data: index)]
    }

    func monthContext(_ offset: Int, registry: RowListRegistry? = nil) -> [String: Any] {
        let month = report.months[offset]
        var totals: [[String: Any]] = []
        var sections: [[String: Any]] = []
        let monthLists = monthLists(offset)
        let paged = isPaged(monthLists)
        let lists = Dictionary(uniqueKeysWithValues: monthLists.map { (String($0.folder.split(separator: "/").last ?? ""), $0) })
        for currency in report.currencies where currency.months[offset].isActive {
            let previous = offset > 0 ? currency.months[offset - 1] : currency.previousMonth
            var total = figuresRow(currency.months[offset], currency.currency)
            total["change"] = change(currency.months[offset].invoiced, from: previous.invoiced, currency.currency)
            totals.append(total)
            var section: [String: Any] = ["currency": currency.currency.code, "total": total]
            if paged, let list = lists[currency.currency.code] {
                section.merge(pageLinks(of: list, from: "months/")) { _, links in links }
            } else {
                let members = monthMembers(offset, currency.currency)
                section["rows"] = monthRows(members, 0..<members.count, offset, root: "../", registry: registry)
            }
            sections.append(section)
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

    /// The clients with figures in `currency` in the month at `offset`, in client order.
    func monthMembers(_ offset: Int, _ currency: CurrencyCode) -> [(client: Int, entry: Report.ClientCurrency)] {
        var members: [(client: Int, entry: Report.ClientCurrency)] = []
        for client in report.clients {
            for entry in client.currencies where entry.currency == currency && entry.months[offset].isActive {
                members.append((client.clientIndex, entry))
            }
        }
        return members
    }

    /// The rows of `range` of a month's clients in one currency; client links start with `root`.
    func monthRows(
        _ members: [(client: Int, entry: Report.ClientCurrency)], _ range: Range<Int>, _ offset: Int, root: String, registry: RowListRegistry?
    ) -> RowList {
        let columns = TemplateSet.monthRowColumns
        return RowList(columns: columns, count: range.count, registry: registry) { row, column in
            let (clientIndex, entry) = members[range.lowerBound + row]
            let figures = entry.months[offset]
            switch columns[column] {
            case "name": return books.clients[clientIndex].name
            case "number": return books.clients[clientIndex].number
            case "href": return root + clientPath(clientIndex)
            case "change":
                let previous = offset > 0 ? entry.months[offset - 1] : entry.previousMonth
                return change(figures.invoiced, from: previous.invoiced, entry.currency)
            default: return figuresCell(figures, entry.currency, columns[column])
            }
        }
    }

    /// A month's clients per currency, each list keyed by client number: on pages of their own
    /// (`months/2025-06/EUR/1.html` and on) when together they are more than a page, the month's page then keeping
    /// the totals and linking them.
    func monthLists(_ offset: Int) -> [PagedList] {
        let month = report.months[offset]
        return report.currencies.filter { $0.months[offset].isActive }.map { currency in
            let members = monthMembers(offset, currency.currency)
            let code = currency.currency.code
            return PagedList(
                folder: "months/\(month)/\(code)/", count: members.count, key: { books.clients[members[$0].client].number },
                template: "month-list", title: "\(SiteBuilder.monthLabel(month)) · \(code) clients",
                fields: ["label": SiteBuilder.monthLabel(month), "currency": code, "monthHref": "../../\(month).html#clients-\(code)"],
                rows: { range, root, registry in ["rows": self.monthRows(members, range, offset, root: root, registry: registry)] })
        }
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

    func clientContext(_ totals: Report.ClientTotals, invoices all: [Int], registry: RowListRegistry? = nil) -> [String: Any] {
        let client = books.clients[totals.clientIndex]
        // Drafts and void invoices are listed apart.
        let invoices = all.filter { books.invoices[$0].status == .sent }
        let setAside: [[String: Any]] = all.filter { books.invoices[$0].status != .sent }.map { index in
            let invoice = books.invoices[index]
            return [
                "identifier": invoice.identifier, "issued": invoice.issued.description,
                "amount": money(invoice.amount, books.currencies[Int(invoice.currencyIndex)]), "status": invoice.status.name,
            ]
        }
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
            case .status: return invoiceStatus(invoices[row], asOf: asOf)
            case .notes: return invoice.notes
            case .other: return ""
            }
        }
        var context = addressContext(totals.clientIndex).merging([
            "statementHref": "../" + statementPath(totals.clientIndex),
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
        ]) { a, _ in a }
        // Invoices whose balance is not simply all or nothing: partly paid, credited, written off, overpaid.
        let balances: [[String: Any]] = invoices.compactMap { index in
            guard let balance = report.balances[index] else { return nil }
            let invoice = books.invoices[index]
            let currency = books.currencies[Int(invoice.currencyIndex)]
            return [
                "identifier": invoice.identifier, "amount": money(invoice.amount, currency),
                "balance": money(balance, currency), "status": invoiceStatus(index, asOf: asOf),
            ]
        }
        context["hasBalances"] = !balances.isEmpty
        context["balances"] = balances
        let toPay = toPayContext(totals.clientIndex, invoices: invoices)
        context["hasToPay"] = !toPay.isEmpty
        context["toPay"] = toPay
        context["hasSetAside"] = !setAside.isEmpty
        context["setAside"] = setAside
        context.merge(creditsContext(totals.currencies.map { ($0.currency, $0.period) })) { a, _ in a }
        if !client.email.isEmpty {
            context["email"] = client.email
            // A link only for an address (RFC 5322 addr-spec, dot-atoms); anything else shows as text.
            if SiteBuilder.isAddress(client.email) {
                let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "@.-_+"))
                context["emailURL"] = "mailto:" + (client.email.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
            }
        }
        return context
    }
}

extension SiteBuilder {
    /// Whether `text` is an e-mail address: an RFC 5322 addr-spec whose local part is a dot-atom of ASCII `atext`
    /// and whose domain is two or more dot-separated labels of letters, digits and inner hyphens. Quoted local
    /// parts, domain literals and non-ASCII addresses are not links (they show as text).
    static func isAddress(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count <= 64, parts[1].utf8.count <= 253 else { return false }
        let atext = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~".utf8)
        let local = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        guard local.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy(atext.contains) }) else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { label in
            let bytes = Array(label.utf8)
            return !bytes.isEmpty && bytes.count <= 63 && bytes.first != UInt8(ascii: "-") && bytes.last != UInt8(ascii: "-")
                && bytes.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == UInt8(ascii: "-") }
        }
    }
}
