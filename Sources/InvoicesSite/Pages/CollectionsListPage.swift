import Foundation
internal import InvoicesCore
internal import InvoicesReport

/// One long list of collections.html on pages of its own (`collections/overdue-EUR/1.html`,
/// `collections/days-to-pay/1.html` and on), as a unit of its own beside the page (``CollectionsPage``): when the
/// page's lists are more than a page together; else it has no files and the page shows the rows.
///
/// Its fingerprint covers that list's rows and the sizes of the page's lists (which say whether they go to pages),
/// so a change to one client's figures renders the collections page and the lists the client is in, and keeps the
/// others (issue 46: at S, 6 of the 10 identical files the oldest invoice's rebuild rendered).
struct CollectionsListPage: PageKind {
    let site: SiteView
    /// The list's name: `overdue-EUR`, `days-to-pay` (``CollectionsPage/CollectionsList/name``).
    let name: String
    var key: String { "collections-list:" + name }
}

extension CollectionsListPage {
    static func jobs(in site: SiteView) -> [[any PageKind]] {
        CollectionsPage(site: site).lists(site.figures.collections).map { [CollectionsListPage(site: site, name: $0.name)] }
    }

    /// The sizes of the page's lists, and each row of this one as it shows it: the client's index, name, number and
    /// addresses, and its figures.
    func inputs(_ inputs: SiteBuilder.Inputs) -> UInt64 {
        let lists = CollectionsPage(site: site).lists(site.figures.collections)
        var data = Fingerprint(seed: inputs.base)
        for list in lists { data.add(list.count) }
        for list in lists where list.name == name {
            switch list {
            case .overdue(let rows):
                for row in rows {
                    add(client: row.clientIndex, to: &data)
                    data.add(row.currency.code)
                    for value in [row.overdue, row.outstanding] { data.add(value) }
                    for value in [row.invoices, row.oldestDaysLate] { data.add(value) }
                }
            case .daysToPay(let rows):
                for row in rows {
                    add(client: row.clientIndex, to: &data)
                    for value in [row.settled, row.median, row.percentile90] { data.add(value) }
                }
            }
        }
        return fingerprint(data.value, templates: ["collections-list"])
    }

    private func add(client index: Int, to data: inout Fingerprint) {
        data.add(index)
        data.add(books.clients[index].name)
        data.add(books.clients[index].number)
        data.add(site.paths.client(index))
        data.add(site.paths.statement(index))
    }

    func files() -> [File] { [] }
    func pagedLists() -> [PagedList] {
        CollectionsPage(site: site).allPagedLists().filter { $0.folder == SitePaths.collectionsList(name) }
    }
}
