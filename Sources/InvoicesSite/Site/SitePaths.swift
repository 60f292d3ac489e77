public import InvoicesCore

/// Where every page of the site is, from the site's root, and the relative link from any page to any other: the one
/// place that knows the site's addresses. Page kinds ask it for their own paths and for their links; none writes a
/// `../` or cuts a folder off a path itself.
///
/// ```swift
/// let paths = site.paths
/// paths.client(0)                                                // "clients/c-001-acme.html"
/// SitePaths.link(from: SitePaths.month(june), to: paths.client(0)) // "../clients/c-001-acme.html"
/// ```
public struct SitePaths: Sendable {
    /// The clients, for their numbers (private addresses).
    let clients: [ClientSnapshot]
    /// Each client's slug, by index into ``Books/clients``: unique in the site (``Slugger``).
    let slugs: [String]
    /// With client links, a client's token from its number.
    let token: (@Sendable (_ clientNumber: String) -> String)?

    init(books: Books, options: SiteOptions) {
        clients = books.clients
        var slugger = Slugger()
        slugs = books.clients.map { slugger.slug(for: $0.number, $0.name) }
        token = options.clientLinkToken
    }

    // MARK: The pages at the site's root

    public static let overview = "index.html"
    public static let clients = "clients.html"
    public static let clientsIndex = "clients-index.js"
    public static let collections = "collections.html"
    public static let changes = "changes.html"
    public static let changesCSV = "changes.csv"
    public static let notFound = "404.html"
    public static let feed = "feed.xml"
    public static let sitemap = "sitemap.xml"

    // MARK: Pages of their own kind

    /// The folder of the client list's pages: `clients/pages/`.
    public static let clientListFolder = "clients/pages/"

    /// The folder of one of collections.html's lists: `collections/overdue-EUR/`.
    public static func collectionsList(_ name: String) -> String { "collections/\(name)/" }

    /// A client's page: `clients/<slug>.html`.
    public func client(_ clientIndex: Int) -> String { "clients/\(slugs[clientIndex]).html" }

    /// The folder of a client's invoice pages: `clients/<slug>/invoices/`.
    public func clientInvoices(_ clientIndex: Int) -> String { "clients/\(slugs[clientIndex])/invoices/" }

    /// A client's statement of account: `statements/<slug>.html`.
    public func statement(_ clientIndex: Int) -> String { "statements/\(slugs[clientIndex]).html" }

    /// The folder of a statement's lines in one currency: `statements/<slug>/EUR/`.
    public func statementLines(_ clientIndex: Int, _ currency: String) -> String { "statements/\(slugs[clientIndex])/\(currency)/" }

    /// A statement's print view: `statements/<slug>/print.html`.
    public func statementPrint(_ clientIndex: Int) -> String { "statements/\(slugs[clientIndex])/print.html" }

    /// A client's private folder, `c/<token>/`, or nil without client links: its statement is `index.html` there,
    /// its page `client.html`.
    public func privateFolder(_ clientIndex: Int) -> String? { token.map { "c/\($0(clients[clientIndex].number))/" } }

    /// A client's private statement, `c/<token>/index.html`, or nil without client links.
    public func clientLink(_ clientIndex: Int) -> String? { privateFolder(clientIndex).map { $0 + "index.html" } }

    /// A month's page: `months/2025-06.html`.
    public static func month(_ month: YearMonth) -> String { "months/\(month).html" }

    /// The folder of a month's clients in one currency: `months/2025-06/EUR/`.
    public static func monthList(_ month: YearMonth, _ currency: String) -> String { "months/\(month)/\(currency)/" }

    /// A fiscal year's page (`years/2024.html`) or a fiscal quarter's (`quarters/2024-Q3.html`).
    static func period(_ period: FiscalPeriod) -> String {
        period.quarter == 0 ? "years/\(period.year).html" : "quarters/\(period.year)-Q\(period.quarter).html"
    }

    /// A quarter's invoices behind its taxes, as CSV beside its page: `quarters/2024-Q3.csv`.
    static func periodCSV(_ period: FiscalPeriod) -> String { "quarters/\(period.year)-Q\(period.quarter).csv" }

    /// A quarter's print pack, one page to print: `quarters/2024-Q3/print.html`.
    static func quarterPack(_ period: FiscalPeriod) -> String { "quarters/\(period.year)-Q\(period.quarter)/print.html" }

    /// The folder of a quarter's list of the invoices behind one tax: `quarters/2024-Q3/tax-EUR-1/`.
    static func taxList(_ period: FiscalPeriod, _ anchor: String) -> String { "quarters/\(period.year)-Q\(period.quarter)/\(anchor)/" }

    /// Page `number` of a paged list in `folder`.
    public static func listPage(_ folder: String, _ number: Int) -> String { folder + "\(number).html" }

    // MARK: Links

    /// From the page at `path` back to the site's root: `../../` for `months/2025-06/EUR/1.html`, empty at the root.
    public static func root(of path: String) -> String {
        String(repeating: "../", count: path.utf8.reduce(0) { $1 == UInt8(ascii: "/") ? $0 + 1 : $0 })
    }

    /// The relative link from the page at `from` to `target` (both from the site's root; `target` may end in a
    /// `#fragment`): up out of the folders `from` does not share with `target`, then down. From
    /// `quarters/2024-Q3/tax-EUR-1/2.html` to `quarters/2024-Q3.html` it is `../../2024-Q3.html`.
    public static func link(from: String, to target: String) -> String { Links(from: from)(target) }

    /// The links from one page: made once per page, used for each of its rows.
    public struct Links: Sendable {
        /// The folders of the page, from the root.
        let folders: [Substring]
        /// ``SitePaths/root(of:)`` of the page.
        public let root: String

        public init(from page: String) {
            folders = page.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            root = String(repeating: "../", count: folders.count)
        }

        /// The shortest relative link to `target` (``SitePaths/link(from:to:)``).
        public func callAsFunction(_ target: String) -> String {
            guard let first = folders.first, target.utf8.count > first.utf8.count, target.hasPrefix(first),
                target.utf8[target.utf8.index(target.utf8.startIndex, offsetBy: first.utf8.count)] == UInt8(ascii: "/")
            else { return root + target }
            var rest = target[...]
            var shared = 0
            while shared < folders.count, rest.hasPrefix(folders[shared] + "/") {
                rest = rest.dropFirst(folders[shared].count + 1)
                shared += 1
            }
            return String(repeating: "../", count: folders.count - shared) + rest
        }

        /// The link to `target` up to the root and down, even where the page shares folders with it
        /// (`../../clients/x.html` from `clients/pages/2.html`): the links the client list's pages and the fiscal
        /// periods' neighbours have always had, kept so their pages stay byte for byte as they were.
        public func throughRoot(_ target: String) -> String { root + target }
    }
}
