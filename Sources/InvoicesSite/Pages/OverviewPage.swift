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
        [site.page(SitePaths.overview, template: "overview", title: site.word("title.overview"), context())]
    }
}

extension OverviewPage {
    static var templateContexts: [String: any PageContext.Type] { ["overview": Context.self] }
    static func sitemap(in site: SiteView) -> [SitemapEntry] { [SitemapEntry(path: SitePaths.overview)] }
}

extension OverviewPage {
    /// What the overview shows.
    struct Context: PageContext {
        var firstMonth: String
        var lastMonth: String
        var monthCount: String
        var hasMonths: Bool
        var totals: [FiguresRow]
        var hasTotals: Bool
        /// Newest first, each with its totals per currency (the first row marked `first`).
        var months: [Month]
        var clientCount: String
        var aging: [AgingRow]
        var agingColumns: [AgingColumn]
        var charts: [Chart]
        var topClients: [TopClients]
        var hasOverdue: Bool
        var topOverdue: [TopOverdue]
        var fiscalYearStart: String
        /// Absent rather than empty: a section over an empty string still renders.
        var fiscalSpan: String?
        var years: [PageLink]
        var quarters: [PageLink]
        // Schema v2 stores: shown only when there is something to show.
        var hasCredits: Bool
        var credits: [CreditsRow]
        var hasTaxes: Bool
        var taxBasis: String
        var taxes: [Tax]
        /// Only with --rates and --base-currency: the grand totals converted into one currency.
        var conversion: Conversion?
    }

    struct Month: Codable, Sendable {
        var label: String
        var month: String
        var href: String
        var totals: [Joined<FiguresRow, FirstRow>]
    }

    /// One currency's chart of the months (inline SVG: `{{{svg}}}`).
    struct Chart: Codable, Sendable {
        var currency: String
        var svg: Markup
        var caption: String
    }

    struct TopClients: Codable, Sendable {
        struct Client: Codable, Sendable {
            var rank: String
            var name: String
            var number: String
            var href: String
            var invoiced: String
            var paid: String
            var outstanding: String
        }
        var currency: String
        var clients: [Client]
    }

    struct TopOverdue: Codable, Sendable {
        var currency: String
        var clients: [Joined<Rank, CollectionsPage.OverdueRow>]
    }

    struct Rank: Codable, Sendable { var rank: String }

    /// The period's taxes on the site's basis, per currency, tax and rate.
    struct Tax: Codable, Sendable {
        var currency: String
        var tax: String
        var rate: String
        var net: String
        var amount: String
    }

    struct Conversion: Codable, Sendable {
        struct Line: Codable, Sendable {
            var currency: String
            var invoiced: String
            var outstanding: String
            var rate: String
            var rateDate: String
            var convertedInvoiced: String
            var convertedOutstanding: String
        }
        var base: String
        var asOf: String
        var lines: [Line]
        var totalInvoiced: String
        var totalOutstanding: String
    }

    func context() -> Context {
        let totals = report.currencies.map { site.figuresFields($0.period, $0.currency) }
        let months: [Month] = report.months.enumerated().reversed().map { offset, month in
            var rows = report.currencies.filter { $0.months[offset].isActive }.map { Joined(site.figuresFields($0.months[offset], $0.currency), FirstRow()) }
            if rows.isEmpty { rows = [Joined(FiguresRow(currency: "—", invoiced: "", paid: "", outstanding: "", overdue: "", invoices: ""), FirstRow())] }
            rows[0].second.first = true
            return Month(label: site.monthLabel(month), month: month.description, href: SitePaths.month(month), totals: rows)
        }
        let charts = report.currencies.map { currency in
            Chart(currency: currency.currency.code, svg: Markup(chart(currency)), caption: site.word("chart.caption", ["currency": currency.currency.code]))
        }
        let periods = site.fiscalPeriods()
        func links(_ list: [FiscalPeriod]) -> [PageLink] { list.reversed().map { PageLink(label: $0.label, href: SitePaths.period($0)) } }
        let span = site.fiscalSpan()
        let credits = site.creditRows(report.currencies.map { ($0.currency, $0.period) })
        let overdue = topOverdue()
        let taxes = taxes()
        return Context(
            firstMonth: report.months.first.map(site.monthLabel) ?? "", lastMonth: report.months.last.map(site.monthLabel) ?? "",
            monthCount: site.count(report.months.count), hasMonths: !report.months.isEmpty,
            totals: totals, hasTotals: !totals.isEmpty, months: months, clientCount: site.count(report.clients.count),
            aging: report.currencies.map { site.agingFields($0.aging, $0.currency) }, agingColumns: site.agingHeads,
            charts: charts, topClients: topClients(limit: 5), hasOverdue: !overdue.isEmpty, topOverdue: overdue,
            fiscalYearStart: site.language.monthName(options.fiscalYearStart), fiscalSpan: span.isEmpty ? nil : span,
            years: links(periods.filter { $0.quarter == 0 }), quarters: links(periods.filter { $0.quarter != 0 }),
            hasCredits: !credits.isEmpty, credits: credits,
            hasTaxes: !taxes.isEmpty, taxBasis: site.word(options.taxBasis == .accrual ? "taxBasis.accrual" : "taxBasis.cash"), taxes: taxes,
            conversion: conversion())
    }

    /// The period's taxes on the site's basis, per currency, tax and rate.
    func taxes() -> [Tax] {
        let basis = options.taxBasis
        return report.taxes.filter { $0.period.isActive }.map { totals in
            let tax = books.taxes[totals.taxIndex]
            let (net, amount) = totals.period.figures(basis)
            return Tax(
                currency: totals.currency.code, tax: tax.name, rate: site.rate(tax),
                net: site.money(net, totals.currency), amount: site.money(amount, totals.currency))
        }
    }

    /// Per currency, the clients that were invoiced most over the period (ties by client order).
    func topClients(limit: Int) -> [TopClients] {
        report.currencies.map { currency in
            var entries: [(clientIndex: Int, figures: Figures)] = []
            for client in report.clients {
                if let entry = client.currencies.first(where: { $0.currency == currency.currency }), entry.period.invoiced != 0 {
                    entries.append((client.clientIndex, entry.period))
                }
            }
            entries.sort { $0.figures.invoiced != $1.figures.invoiced ? $0.figures.invoiced > $1.figures.invoiced : $0.clientIndex < $1.clientIndex }
            let rows = entries.prefix(limit).enumerated().map { rank, entry in
                let client = books.clients[entry.clientIndex]
                return TopClients.Client(
                    rank: String(rank + 1), name: client.name, number: client.number, href: site.paths.client(entry.clientIndex),
                    invoiced: site.money(entry.figures.invoiced, currency.currency), paid: site.money(entry.figures.paid, currency.currency),
                    outstanding: site.money(entry.figures.outstanding, currency.currency))
            }
            return TopClients(currency: currency.currency.code, clients: rows)
        }
    }

    /// Per currency, the five clients with most overdue.
    func topOverdue() -> [TopOverdue] {
        site.figures.collections.overdue.filter { !$0.isEmpty }.map { rows in
            let top = Array(rows.prefix(5))
            let page = CollectionsPage(site: site)
            return TopOverdue(
                currency: rows[0].currency.code,
                clients: top.indices.map { Joined(Rank(rank: String($0 + 1)), page.overdueRow(top[$0])) })
        }
    }

    /// The overview's `conversion` section (Templates/conversion.md), nil without rates.
    func conversion() -> Conversion? {
        guard let converted = site.convertedTotals() else { return nil }
        let base = converted.base
        let lines = converted.lines.map { line in
            let isBase = line.currency == base
            return Conversion.Line(
                currency: line.currency.code, invoiced: site.money(line.figures.invoiced, line.currency),
                outstanding: site.money(line.figures.outstanding, line.currency),
                rate: line.rate.map { "\($0.rate)" } ?? (isBase ? "1" : site.word("conversion.noRate")),
                rateDate: line.rate.map { site.date($0.date) } ?? (isBase ? "" : site.word("conversion.notConverted")),
                convertedInvoiced: line.converted.map { site.money($0.invoiced, base) } ?? "",
                convertedOutstanding: line.converted.map { site.money($0.outstanding, base) } ?? "")
        }
        return Conversion(
            base: base.code, asOf: converted.asOf.map(site.date) ?? "", lines: lines,
            totalInvoiced: site.money(converted.total.invoiced, base), totalOutstanding: site.money(converted.total.outstanding, base))
    }
}
