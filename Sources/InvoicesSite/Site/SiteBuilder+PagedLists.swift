/// One long list that goes to pages of its own (``Pagination``): where its pages are, which template draws them,
/// what every page says, and its rows. A quarter's tax lists, a month's currency lists, collections.html's lists
/// and the client list are each one of these; ``SiteBuilder/pages(of:)`` draws them all the same way.
struct PagedList {
    /// The folder of its pages, from the site's root, ending in `/`: `quarters/2024-Q3/tax-EUR-1/`.
    var folder: String
    /// The rows of the whole list.
    var count: Int
    /// The key that decides a row's page boundary (an invoice identifier, a client number).
    var key: (Int) -> String
    var template: String
    /// The title of its pages; `· page N` is added.
    var title: String
    /// A page's context, as swift-mustache renders it: ``ListPageFields`` (`page`, `rowCount`, `previous` and
    /// `next`), the list's fields and the rows in `range`, their links made by `links`, the links from the list's
    /// page; the compiled rows go in through `registry`.
    var context: (_ list: ListPageFields, _ range: Range<Int>, _ links: SitePaths.Links, _ registry: RowListRegistry) -> [String: Any]

    /// A list whose pages have `fields` and, on each page, the rows `rows` gives for its range: its template's
    /// context is ``ListPageContext``.
    init<Fields: Codable & Sendable, Page: Codable & Sendable>(
        folder: String, count: Int, key: @escaping (Int) -> String, template: String, title: String, fields: Fields,
        rows: @escaping (_ range: Range<Int>, _ links: SitePaths.Links) -> Page
    ) {
        self.folder = folder
        self.count = count
        self.key = key
        self.template = template
        self.title = title
        context = { list, range, links, registry in
            ListPageContext(list: list, fields: fields, rows: rows(range, links)).mustacheValue(registry: registry)
        }
    }
}

extension SiteView {
    /// The rows of each page of `list`.
    func ranges(of list: PagedList) -> [Range<Int>] { Pagination.pages(count: list.count, pageSize: options.pageSize, key: list.key) }

    /// Whether `lists`, shown on one page, go to pages of their own: when together they are more than a page.
    func isPaged(_ lists: [PagedList]) -> Bool { Pagination.isPaged(lists.map(\.count), pageSize: options.pageSize) }

    /// `lists` when they go to pages of their own (``isPaged(_:)``), else none.
    func paged(_ lists: [PagedList]) -> [PagedList] { isPaged(lists) ? lists : [] }

    /// `folder/1.html` and on: each with its rows, its number, the list's length, and links to its neighbours.
    func pages(of list: PagedList) -> [File] {
        var files: [File] = []
        forEachPage(of: list) { files.append($0) }
        return files
    }

    /// Hands out the pages of `list` one at a time, each rendered only when its turn comes: a quarter's lists at
    /// 2,000,000 invoices are hundreds of pages, never all in memory.
    func forEachPage<Failure: Error>(of list: PagedList, _ body: (File) throws(Failure) -> Void) throws(Failure) {
        let ranges = ranges(of: list)
        for position in ranges.indices {
            let number = position + 1
            let registry = RowListRegistry(marker: TemplateSet.rowMarker)
            let path = SitePaths.listPage(list.folder, number)
            let links = SitePaths.Links(from: path)
            var fields = ListPageFields(page: number, rowCount: list.count)
            if number > 1 { fields.previous = PageLink(label: String(number - 1), href: links(SitePaths.listPage(list.folder, number - 1))) }
            if number < ranges.count { fields.next = PageLink(label: String(number + 1), href: links(SitePaths.listPage(list.folder, number + 1))) }
            let context = list.context(fields, ranges[position], links, registry)
            try body(page(path, template: list.template, title: word("title.page", ["title": list.title, "page": String(number)]), context, rows: registry))
        }
    }

    /// What the page that holds a paged list's totals shows of it: `rowCount` and `pages`, the links to its pages
    /// (`label` `1`, `2`…, `href`) from the page at `page`.
    func pagesLinks(of list: PagedList, from page: String) -> PageLinks {
        let links = SitePaths.Links(from: page)
        return PageLinks(rowCount: list.count, pages: (1...max(ranges(of: list).count, 1)).map { PageLink(label: String($0), href: links(SitePaths.listPage(list.folder, $0))) })
    }
}
