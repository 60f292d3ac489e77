import Foundation
internal import InvoicesCore
internal import InvoicesReport

/// The overview, `index.html`: the totals per currency, the months, charts, top clients, overdue clients, taxes,
/// the fiscal periods and the converted totals. It shows the whole books.
struct OverviewPage: SiteWidePageKind {
    let site: SiteView
    var key: String { "overview" }
    func inputs(_ inputs: SiteBuilder.Inputs) -> UInt64 { fingerprint(inputs.all, templates: ["overview"]) }
    func files() -> [File] {
        [site.page(SitePaths.overview, template: "overview", title: site.word("title.overview"), context().merging(conversionContext()) { a, _ in a })]
    }
}

extension OverviewPage {
    static var templateScopes: [String: TemplateScope] { TemplateVariables.overviewPageScopes }
    static func sitemap(in site: SiteView) -> [SitemapEntry] { [SitemapEntry(path: SitePaths.overview)] }
}

extension OverviewPage {
    func context() -> [String: Any] {
        let totals = report.currencies.map { site.figuresRow($0.period, $0.currency) }
        let months: [[String: Any]] = report.months.enumerated().reversed().map { offset, month in
            var rows = report.currencies.filter { $0.months[offset].isActive }.map { site.figuresRow($0.months[offset], $0.currency) }
            if rows.isEmpty { rows = [["currency": "—", "invoiced": "", "paid": "", "outstanding": "", "overdue": "", "invoices": ""]] }
            rows[0]["first"] = true
            return ["label": site.monthLabel(month), "month": month.description, "href": SitePaths.month(month), "totals": rows]
        }
        let charts: [[String: Any]] = report.currencies.map { currency in
            [
                "currency": currency.currency.code, "svg": MarkdownValues.html(chart(currency)),
                "caption": site.word("chart.caption", ["currency": currency.currency.code]),
            ]
        }
        return [
            "firstMonth": report.months.first.map(site.monthLabel) ?? "",
            "lastMonth": report.months.last.map(site.monthLabel) ?? "",
            "monthCount": String(report.months.count), "hasMonths": !report.months.isEmpty,
            "totals": totals, "hasTotals": !totals.isEmpty, "months": months, "clientCount": String(report.clients.count),
            "aging": report.currencies.map { site.agingRow($0.aging, $0.currency) }, "agingColumns": site.agingColumns,
            "charts": charts, "topClients": topClients(limit: 5),
        ].merging(topOverdueContext()) { a, _ in a }.merging(periodsContext()) { a, _ in a }.merging(site.creditsContext(report.currencies.map { ($0.currency, $0.period) })) { a, _ in a }
            .merging(taxesContext()) { a, _ in a }
    }

    /// `hasTaxes`, `taxBasis` and `taxes`: the period's taxes on the site's basis, per currency, tax and rate.
    func taxesContext() -> [String: Any] {
        let basis = options.taxBasis
        let rows: [[String: Any]] = report.taxes.filter { $0.period.isActive }.map { totals in
            let tax = books.taxes[totals.taxIndex]
            let (net, amount) = totals.period.figures(basis)
            return [
                "currency": totals.currency.code, "tax": tax.name, "rate": tax.percent + " %",
                "net": site.money(net, totals.currency), "amount": site.money(amount, totals.currency),
            ]
        }
        return ["hasTaxes": !rows.isEmpty, "taxBasis": site.word(basis == .accrual ? "taxBasis.accrual" : "taxBasis.cash"), "taxes": rows]
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
                    "rank": String(rank + 1), "name": client.name, "number": client.number, "href": site.paths.client(entry.clientIndex),
                    "invoiced": site.money(entry.figures.invoiced, currency.currency), "paid": site.money(entry.figures.paid, currency.currency),
                    "outstanding": site.money(entry.figures.outstanding, currency.currency),
                ]
            }
            return ["currency": currency.currency.code, "clients": rows]
        }
    }

    /// The overview's `hasOverdue` and `topOverdue`: per currency, the five clients with most overdue.
    func topOverdueContext() -> [String: Any] {
        let lists: [[String: Any]] = site.figures.collections.overdue.filter { !$0.isEmpty }.map { rows in
            let top = Array(rows.prefix(5))
            let clients: [[String: Any]] = top.indices.map { position in
                var row: [String: Any] = ["rank": String(position + 1)]
                for name in TemplateVariables.overdueColumns { row[name] = CollectionsPage(site: site).overdueCell(top[position], name) }
                return row
            }
            return ["currency": rows[0].currency.code, "clients": clients]
        }
        return ["hasOverdue": !lists.isEmpty, "topOverdue": lists]
    }

    /// The overview's `fiscalYearStart`, `fiscalSpan`, `years` and `quarters`: links to the fiscal period pages, newest
    /// first.
    func periodsContext() -> [String: Any] {
        let periods = site.fiscalPeriods()
        func links(_ list: [FiscalPeriod]) -> [[String: Any]] { list.reversed().map { ["label": $0.label, "href": SitePaths.period($0)] } }
        var context: [String: Any] = [
            "fiscalYearStart": site.language.monthName(options.fiscalYearStart),
            "years": links(periods.filter { $0.quarter == 0 }), "quarters": links(periods.filter { $0.quarter != 0 }),
        ]
        // Absent rather than empty: a section over an empty string still renders.
        let span = site.fiscalSpan()
        if !span.isEmpty { context["fiscalSpan"] = span }
        return context
    }

    /// The overview's `conversion` section (Templates/conversion.md), empty without rates.
    func conversionContext() -> [String: Any] {
        guard let converted = site.convertedTotals() else { return [:] }
        let base = converted.base
        let lines: [[String: Any]] = converted.lines.map { line in
            let isBase = line.currency == base
            return [
                "currency": line.currency.code, "invoiced": site.money(line.figures.invoiced, line.currency),
                "outstanding": site.money(line.figures.outstanding, line.currency),
                "rate": line.rate.map { "\($0.rate)" } ?? (isBase ? "1" : site.word("conversion.noRate")),
                "rateDate": line.rate.map { site.date($0.date) } ?? (isBase ? "" : site.word("conversion.notConverted")),
                "convertedInvoiced": line.converted.map { site.money($0.invoiced, base) } ?? "",
                "convertedOutstanding": line.converted.map { site.money($0.outstanding, base) } ?? "",
            ]
        }
        return [
            "conversion": [
                "base": base.code, "asOf": converted.asOf.map(site.date) ?? "", "lines": lines,
                "totalInvoiced": site.money(converted.total.invoiced, base),
                "totalOutstanding": site.money(converted.total.outstanding, base),
            ] as [String: Any]
        ]
    }
}

extension TemplateVariables {
    /// The scopes of ``OverviewPage``'s templates, by template name.
    static let overviewPageScopes: [String: TemplateScope] = [
        "overview": page([
            "firstMonth": nil, "lastMonth": nil, "monthCount": nil, "hasMonths": nil, "clientCount": nil, "hasTotals": nil,
            "totals": TemplateScope(values: figures),
            "aging": aging, "agingColumns": agingColumns,
            "charts": TemplateScope(values: ["currency", "svg", "caption"]),
            "months": TemplateScope([
                "label": nil, "month": nil, "href": nil,
                "totals": TemplateScope(values: figures + ["first"]),
            ]),
            "fiscalYearStart": nil, "fiscalSpan": nil, "years": link, "quarters": link,
            "hasOverdue": nil,
            "topOverdue": TemplateScope([
                "currency": nil, "clients": TemplateScope(values: ["rank"] + TemplateVariables.overdueColumns),
            ]),
            "topClients": TemplateScope([
                "currency": nil,
                "clients": TemplateScope(values: ["rank", "name", "number", "href", "invoiced", "paid", "outstanding"]),
            ]),
            // Schema v2 stores: shown only when there is something to show.
            "hasCredits": nil, "credits": credits,
            "hasTaxes": nil, "taxBasis": nil,
            "taxes": TemplateScope(values: ["currency", "tax", "rate", "net", "amount"]),
            // Only with --rates and --base-currency: the grand totals converted into one currency.
            "conversion": TemplateScope([
                "base": nil, "asOf": nil, "totalInvoiced": nil, "totalOutstanding": nil,
                "lines": TemplateScope(values: [
                    "currency", "invoiced", "outstanding", "rate", "rateDate", "convertedInvoiced", "convertedOutstanding",
                ]),
            ]),
        ]),
    ]
}
