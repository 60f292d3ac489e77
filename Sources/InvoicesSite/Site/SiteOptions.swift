internal import Foundation
internal import InvoicesCore
public import InvoicesReport

/// What a site is built with, besides the books and the templates.
public struct SiteOptions: Sendable {
    /// The site's title, shown on every page.
    public var title = "Invoices report"
    /// Whether ``title`` was left unset (`title`, `--title`): the site is then titled in the report's language,
    /// `layout.defaultTitle` ("Invoices report", "Rechnungsbericht"; resolved by ``SiteView``).
    public var titleFollowsLanguage = false
    /// The locale amounts are formatted for; `en_US_POSIX` gives stable output.
    public var locale = SiteOptions.defaultLocale
    /// The locale of a build that sets none: the tool's own forms (ISO dates, `1234.50`).
    public static let defaultLocale = "en_US_POSIX"
    /// Whether ``locale`` was left unset (`locale`, `--locale`): a page in another language than English then
    /// formats its amounts and dates for its own language (``formatLocale(for:)``).
    public var localeFollowsLanguage = true
    /// The report's language (`language`, `--language`), a BCP 47 tag: the `lang` of the pages and the translation
    /// table their words come from (docs/templates.md). A client with a language of its own gets its pages in it.
    public var language = "en"
    /// What the report covers.
    public var period = ReportPeriod()
    /// The basis of the overview's tax summary (`--basis`, config key `basis`): by issue date (accrual) or by
    /// payment date (cash). The exports carry both.
    public var taxBasis = TaxBasis.accrual
    /// The month (1–12) the fiscal year starts in (`--fiscal-year-start`, key `fiscal_year_start`): the quarter and
    /// year pages follow it. A fiscal year is named by the calendar year it starts in.
    public var fiscalYearStart = 1
    /// How the CSV files are written (`--csv-dialect`, key `csv_dialect`): RFC 4180 (the default), or for a
    /// spreadsheet, following ``locale`` (``CSVDialect``).
    public var csvDialect = CSVDialect.rfc4180
    /// Also show the grand totals converted into a base currency (`--rates`, `--base-currency`), or nil.
    public var conversion: CurrencyConversion?

    /// A folder to also write each page's intermediate Markdown into (for benchmarks and debugging), or nil.
    public var debugMarkdownFolder: String?

    /// The absolute address the site is published at, ending in `/` (see ``SiteOptions/normalizedBaseURL(_:)``),
    /// or nil. With it the site gets an Atom feed (`feed.xml`), a `sitemap.xml`, canonical links, and a 404 page
    /// whose links work at any depth.
    public var baseURL: String?

    /// Whether the site is meant for everyone (`--public`). By default (false) every page asks search engines not
    /// to index it (`<meta name="robots" content="noindex">`), sends no referrer, and forbids loading anything from
    /// another site (a Content-Security-Policy of `'self'`), so custom templates cannot add third-party resources.
    public var isPublic = false

    /// A label for this build, written into every page's head as `<meta name="invoices-build" content="…">`
    /// (e.g. the CI run or the commit), or nil for none. It tells which release a page came from.
    public var buildID: String?

    /// With client links (`--client-links`): a client's token from its client number. Each client's statement is
    /// then also written at `c/<token>/index.html` and its page at `c/<token>/client.html`, linking only to each
    /// other (and to pay links), listed nowhere. Nil: no client links.
    public var clientLinkToken: (@Sendable (_ clientNumber: String) -> String)?

    /// Who clients pay (config `payee:`), or nil. With an IBAN, statements and client pages carry an EPC QR code
    /// for each euro amount owed; with a `paymentURL`, a pay link for each amount owed, in any currency.
    public var payee: Payee?

    /// The rows of a long list's page (`page_size`): a month's clients in a currency and a fiscal quarter's invoices
    /// behind a tax are cut into pages of this many rows on average, at most twice as many (``Pagination``).
    public var pageSize = Pagination.defaultPageSize

    /// The account names of `books.journal` (config `journal:`, docs/exports.md).
    public var journalAccounts = JournalAccounts()
    /// The `datev:` settings: when set, the build writes `datev/EXTF_Buchungsstapel_<year>.csv` (docs/exports.md).
    public var datev: DATEVSettings?

    public init(
        title: String = "Invoices report", locale: String = SiteOptions.defaultLocale, period: ReportPeriod = ReportPeriod(),
        baseURL: String? = nil
    ) {
        self.title = title
        self.locale = locale
        self.localeFollowsLanguage = locale == Self.defaultLocale
        self.period = period
        self.baseURL = baseURL
    }

    /// `text` as a page size: a whole number of rows from 10 to 100,000; nil otherwise.
    public static func pageSize(_ text: String) -> Int? {
        guard (2...6).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }), let rows = Int(text), (10...100_000).contains(rows)
        else { return nil }
        return rows
    }

    /// `text` as the month a fiscal year starts in: `01` to `12` (or `1` to `9`); nil otherwise.
    public static func fiscalYearStart(_ text: String) -> Int? {
        guard (1...2).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }), let month = Int(text), (1...12).contains(month)
        else { return nil }
        return month
    }

    /// `text` as a base URL: an absolute `http` or `https` address with a host, without credentials, query or
    /// fragment, ending in `/`; nil when it is not one (``baseURLProblem(_:)`` says why).
    public static func normalizedBaseURL(_ text: String) -> String? {
        baseURLProblem(text) == nil ? (text.hasSuffix("/") ? text : text + "/") : nil
    }

    /// Why `text` cannot be an address as written into a page: it holds a space, a control character, a quote,
    /// `<`, `>`, a backquote or a backslash. Nil when it holds none.
    static func urlCharacterProblem(_ text: String) -> String? {
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.value == 0x20 }) {
            return "contains a space or control character"
        }
        if text.contains(where: { $0.isWhitespace || "\"'<>`\\".contains($0) }) {
            return "contains a character that is not allowed in an address (a space, quote, <, >, ` or \\)"
        }
        return nil
    }

    /// Why `text` is not a base URL, or nil when it is one. The message never repeats the text: it may hold a
    /// password.
    public static func baseURLProblem(_ text: String) -> String? {
        if let problem = urlCharacterProblem(text) { return problem }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else { return "is not an absolute http or https address, e.g. https://example.com/reports/" }
        if components.user != nil || components.password != nil || text.contains("@") {
            return "holds a user name or password ('user:password@'); every page shows its base URL, so give the address "
                + "without them and let the web server ask for them"
        }
        if components.query != nil || components.fragment != nil {
            return "has a query or fragment ('?' or '#'); give the folder address, e.g. https://example.com/reports/"
        }
        return nil
    }
}

/// What a build wrote.
public struct BuildSummary: Sendable, Equatable {
    /// Files written, pages and assets.
    public var files: Int
    /// HTML pages among them.
    public var pages: Int
    /// Files whose bytes differ from the previous site's (all of them for a first build).
    public var changed: Int
    /// Files taken over from the previous site without rendering them: their unit's inputs were unchanged.
    public var reused = 0
}
