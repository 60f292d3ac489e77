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

    /// Whether the month's lists go to pages, and what each row of this currency's list shows: the client's index,
    /// name, number and address, its figures of the month and the month before.
    func inputs(_ inputs: SiteBuilder.Inputs) -> UInt64 {
        let offset = month.offset
        var data = Fingerprint(seed: inputs.base)
        data.add(site.isPaged(month.lists()))
        for (clientIndex, entry) in month.members(currency) {
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
        site.paged(month.lists()).filter { $0.folder == SitePaths.monthList(report.months[month.offset], currency.code) }
    }
}
