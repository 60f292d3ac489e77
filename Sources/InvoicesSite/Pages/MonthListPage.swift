import Foundation
internal import InvoicesCore
internal import InvoicesReport

/// A month's clients in one currency, on pages of their own (`months/2025-06/EUR/1.html` and on), as a unit of its
/// own beside the month's page (``MonthPage``): when together the month's clients are more than a page
/// (``SiteView/isPaged(_:)``); else it has no files and the month's page shows the rows.
///
/// Its fingerprint covers only that currency's rows of that month (and whether the month's lists are paged), so a
/// change to one client's figures renders the month's page and the one list it is in, and keeps the month's other
/// currencies' lists (issue 46: at S, 96 of the 132 identical files the oldest invoice's rebuild rendered).
struct MonthListPage: PageKind {
    let site: SiteView
    /// The month's page, whose list this is.
    let month: MonthPage
    let currency: CurrencyCode
    var key: String { "month-list:\(report.months[month.offset]):\(currency.code)" }
    /// In one job with its month's page (``MonthPage/jobGroup``).
    var jobGroup: String? { month.jobGroup }
    /// The month's clients of every currency (whether the month's lists go to pages depends on all of them), once
    /// ``prepared()`` has worked them out in one pass over the report's clients; else worked out where needed.
    private var members: [CurrencyCode: MonthPage.Members]?

    init(site: SiteView, month: MonthPage, currency: CurrencyCode) {
        (self.site, self.month, self.currency) = (site, month, currency)
    }
}

extension MonthListPage {
    static func jobs(in site: SiteView) -> [[any PageKind]] {
        site.report.months.indices.flatMap { offset in
            site.report.currencies.filter { $0.months[offset].isActive }.map {
                [MonthListPage(site: site, month: MonthPage(site: site, offset: offset), currency: $0.currency)]
            }
        }
    }
    static var templateContexts: [String: any PageContext.Type] { ["month-list": ListPageContext<MonthPage.ListFields, MonthPage.ListRows>.self] }

    func prepared() -> MonthListPage {
        var kind = self
        kind.members = members ?? month.membersByCurrency()
        return kind
    }

    /// The list with its month's clients, worked out once per build for all the month's lists
    /// (``SiteBuilder/Inputs/monthMembers``): one pass over the report's clients per month, not one per list (on a
    /// one-invoice rebuild, where every list is fingerprinted and few rendered, the passes were 3.8 % of the time at S).
    func prepared(with inputs: SiteBuilder.Inputs) -> MonthListPage {
        var kind = self
        kind.members = members ?? inputs.monthMembers.take(month.key, takers: Self.lists(of: month.offset, in: site)) { month.membersByCurrency() }
        return kind
    }

    /// How many lists month `offset` has: one per currency active in it, as ``jobs(in:)`` makes them.
    static func lists(of offset: Int, in site: SiteView) -> Int { site.report.currencies.count { $0.months[offset].isActive } }
    private func work() -> (lists: [PagedList], members: MonthPage.Members) {
        let members = members ?? month.membersByCurrency()
        return (month.lists(members), members[currency] ?? [])
    }

    /// Whether the month's lists go to pages, and what each row of this currency's list shows: the client's index,
    /// name, number and address, its figures of the month and the month before.
    func inputs(_ inputs: SiteBuilder.Inputs) -> UInt64 {
        let offset = month.offset
        let (lists, members) = work()
        var data = Fingerprint(seed: inputs.base)
        data.add(site.isPaged(lists))
        for (clientIndex, entry) in members {
            let client = books.clients[clientIndex]
            data.add(clientIndex)
            data.add(client.name)
            data.add(client.number)
            data.add(site.paths.slugs[clientIndex])
            SiteBuilder.add(entry.months[offset], to: &data)
            SiteBuilder.add(offset > 0 ? entry.months[offset - 1] : entry.previousMonth, to: &data)
        }
        return fingerprint(data.value, templates: ["month-list"])
    }
    func files() -> [File] { [] }
    func pagedLists() -> [PagedList] {
        site.paged(work().lists).filter { $0.folder == SitePaths.monthList(report.months[month.offset], currency.code) }
    }
}
