import Foundation
internal import InvoicesCore
internal import InvoicesReport

/// clients.html: every client, or when they are more than a page, the pages of the list (`clients/pages/1.html`
/// and on) and `clients-index.js`, which its search box searches.
struct ClientsPage: SiteWidePageKind {
    let site: SiteView
    var key: String { "clients" }
    /// What its rows show of each client (``clientsEntries(_:)``: number, name, city, page, currencies and invoice
    /// count), not its figures: an invoice's amount changed keeps the list (issue 46).
    func inputs(_ inputs: SiteBuilder.Inputs) -> UInt64 {
        var data = Fingerprint(seed: inputs.base)
        for entry in clientsEntries(0..<books.clients.count) {
            for field in entry { data.add(field) }
        }
        return fingerprint(data.value, templates: ["clients", "clients-list"])
    }
    func files() -> [File] { [site.page(SitePaths.clients, template: "clients", title: site.word("nav.clients"), context())] + searchIndexFiles() }
    func pagedLists() -> [PagedList] { site.paged([clientsList()]) }
}

extension ClientsPage {
    static var templateContexts: [String: any PageContext.Type] { ["clients": Context.self, "clients-list": ListPageContext<NoFields, ListRows>.self] }

    /// clients.html: every client (`clients`), or when they are more than a page, the links to the pages of the
    /// list (`rowCount`, `pages`).
    struct Context: PageContext {
        var clients: [Client]?
        var rowCount: Int?
        var pages: [PageLink]?
    }

    /// The rows of clients.html or of a page of its list.
    struct ListRows: Codable, Sendable {
        var clients: [Client]
    }

    /// One client of the list; `href` is empty for a client without figures.
    struct Client: Codable, Sendable {
        var number: String
        var name: String
        var city: String
        var href: String
        var currencies: String
        var invoices: String
    }
    static let rootNames = ["clients", SitePaths.clientsIndex]
    static func sitemap(in site: SiteView) -> [SitemapEntry] { [SitemapEntry(path: SitePaths.clients)] }
}

extension ClientsPage {
    /// clients.html: every client, or when they are more than a page, the links to the pages of the list
    /// (`clients/pages/1.html` and on) and the search over `clients-index.js`.
    func context() -> Context {
        let list = clientsList()
        guard site.isPaged([list]) else { return Context(clients: clientsRows(0..<books.clients.count, link: SitePaths.Links(from: SitePaths.clients).callAsFunction)) }
        let links = site.pagesLinks(of: list, from: SitePaths.clients)
        return Context(rowCount: links.rowCount, pages: links.pages)
    }

    /// The client list, in store order, keyed by client number.
    func clientsList() -> PagedList {
        PagedList(
            folder: SitePaths.clientListFolder, count: books.clients.count, key: { books.clients[$0].number }, template: "clients-list",
            title: site.word("nav.clients"), fields: NoFields(), rows: { range, links in ListRows(clients: self.clientsRows(range, link: links.throughRoot)) })
    }

    /// The rows of clients.html (or of one of its pages) for the clients in `range`; addresses made by `link`.
    func clientsRows(_ range: Range<Int>, link: (String) -> String) -> [Client] {
        clientsEntries(range).map { entry in
            Client(number: entry[0], name: entry[1], city: entry[2], href: entry[3].isEmpty ? "" : link(entry[3]), currencies: entry[4], invoices: entry[5])
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
                client.number, client.name, client.city, currenciesByClient[index] == nil ? "" : site.paths.client(index),
                (currenciesByClient[index] ?? []).joined(separator: ", "), String(invoiceCounts[index]),
            ]
        }
    }

    /// When the clients are more than a page (their list goes to `clients/pages/1.html` and on): the search
    /// index clients.html's box searches (`clients-index.js`: every client's number, name, city, address,
    /// currencies and invoice count, as a JavaScript array of JSON strings).
    func searchIndexFiles() -> [File] {
        let list = clientsList()
        guard site.isPaged([list]) else { return [] }
        var index = Data("window.invoicesClients = ".utf8)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        index.append((try? encoder.encode(clientsEntries(0..<books.clients.count))) ?? Data("[]".utf8))
        index.append(Data(";\n".utf8))
        return [File(path: SitePaths.clientsIndex, data: index)]
    }
}
