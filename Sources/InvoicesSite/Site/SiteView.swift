import Foundation
public import InvoicesCore
public import InvoicesReport

/// What a page kind sees of the site, read-only: the books, the report, the templates, the options, the money
/// formatter, where every page is (``SitePaths``), the kinds of the site, and what the pages share (the layout,
/// money and figure cells, the fiscal periods, the pages of a long list). ``SiteBuilder`` makes it once and hands it
/// to every kind; a kind never sees the builder that schedules it.
public struct SiteView: Sendable {
    public let books: Books
    public let report: Report
    /// The templates, their words in the pages' language (``TemplateSet/localized(to:)``).
    public internal(set) var templates: TemplateSet
    public let options: SiteOptions
    /// The figures the pages show beyond the report's (statements, tax sources, collections, fiscal periods),
    /// computed before any page renders (``SiteFigures``); the page kinds only format them.
    public let figures: SiteFigures
    /// Where every page is, and the links between them.
    public let paths: SitePaths
    /// The kinds of pages of the site (``PageKinds``): the sitemap and the reserved names follow from them.
    let kinds: PageKinds
    var formatter: MoneyFormatter
    /// The language of the pages (``SiteOptions/language``); a client's pages may have their own (``speaking(for:)``).
    var language: PageLanguage
    /// By client index, the clients whose pages are in another language than the report's (``ClientLanguages``).
    let clientLanguages: ClientLanguages
    let markdown = MarkdownRenderer(options: [.allowsRawHTML])
    /// Invoice indices per client (index in ``Books/clients``), each list by issue date, then identifier.
    let invoicesByClient: [[Int]]
    /// What changed since the previous report: `changes.html` and `changes.csv`.
    var changeLog = ChangeLog()

    /// Called with each page's template and its whole context as the page is rendered; nil but in tests, which
    /// hold every context of every kind to its template's scope (``PageKind/templateScopes``).
    @TaskLocal static var contextAudit: (@Sendable (_ template: String, _ context: [String: Any]) -> Void)?

    init(books: Books, report: Report, figures: SiteFigures, templates: TemplateSet, options: SiteOptions) {
        self.books = books
        self.report = report
        self.figures = figures
        let templates = (try? templates.localized(to: LanguageTag(options.language) ?? .english)) ?? templates
        self.templates = templates
        var options = options
        options.title = options.pageTitle(in: templates.translation)
        self.options = options
        self.kinds = templates.pageKinds
        self.paths = SitePaths(books: books, options: options)
        self.language = PageLanguage(templates.translation, options: options)
        self.formatter = MoneyFormatter(localeIdentifier: language.formatLocale, currencies: books.currencies)
        self.clientLanguages = ClientLanguages(books: books, templates: templates, options: options)
        self.invoicesByClient = figures.invoicesByClient
    }
}

extension SiteView {
    typealias File = SiteBuilder.File

    /// The grand totals converted into ``SiteOptions/conversion``'s base currency, or nil without rates.
    ///
    /// A converted amount that does not fit in 64-bit minor units leaves the conversion out rather than failing
    /// the build: the exact per-currency totals are the report; the conversion is only an aid.
    public func convertedTotals() -> ConvertedTotals? {
        guard let conversion = options.conversion else { return nil }
        return try? ConvertedTotals(report: report, rates: conversion.rates, base: conversion.base)
    }

    /// Renders one page: the Markdown template with `context`, to HTML, into the layout.
    ///
    /// Links are relative to the page (`root` is `../` on pages one folder down); with a base URL the page also
    /// gets a canonical link and the feed's address.
    func page(_ path: String, template: String, title: String, _ context: [String: Any], rows: RowListRegistry? = nil, style: String? = nil) -> File {
        let root = SitePaths.root(of: path)
        var layout: [String: Any] = ["root": root, "nav": true]
        // A page with rules of its own has them inline, after the link to style.css.
        if let style { layout["pageStyle"] = style }
        if let baseURL = options.baseURL {
            layout["canonical"] = path == SitePaths.overview ? baseURL : baseURL + path
            if !report.months.isEmpty { layout["feed"] = root + SitePaths.feed }
        }
        return render(path, template: template, title: title, context, root: root, layout: layout, rows: rows)
    }

    /// Renders one page from its typed context (``PageContext``), converted to what swift-mustache renders here.
    func page(_ path: String, template: String, title: String, _ context: some PageContext, rows: RowListRegistry? = nil, style: String? = nil) -> File {
        page(path, template: template, title: title, context.mustacheValue(registry: rows), rows: rows, style: style)
    }

    func render(
        _ path: String, template: String, title: String, _ context: [String: Any], root: String, layout: [String: Any],
        rows: RowListRegistry? = nil
    ) -> File {
        var context = context
        context["root"] = root
        defer { Self.contextAudit?(template, context) }
        context["siteTitle"] = options.title
        if let asOf = report.asOf { context["asOf"] = language.date(asOf) }
        if let baseURL = options.baseURL { context["baseURL"] = baseURL }
        if let folder = options.debugMarkdownFolder {
            let target = URL(fileURLWithPath: folder).appendingPathComponent(path + ".md")
            try? FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            // The page as cmark sees it on the general path, values as the Markdown escaper writes them.
            try? Data(MarkdownValues.readable(templates.render(template, context)).utf8).write(to: target)
        }
        let body = templates.pageBytes(template, context, rows: rows, renderer: markdown).pieces
        var layout = layout
        // swift-mustache escapes the layout's values for HTML; controls and bidirectional overrides are ours to
        // make inert, as in every other value.
        layout["pageTitle"] = HTMLEscaping.inert(title)
        layout["siteTitle"] = HTMLEscaping.inert(options.title)
        layout["lang"] = language.tag.text
        if let direction = language.direction { layout["dir"] = direction }
        if let asOf = report.asOf { layout["asOf"] = language.date(asOf) }
        layout["private"] = !options.isPublic
        if let buildID = options.buildID { layout["buildID"] = HTMLEscaping.inert(buildID) }
        // The layout is rendered around a marker, and the body's bytes go where the marker came out: a long page is
        // not copied through Mustache. Only when the marker comes out exactly once and unchanged, that is when the
        // layout shows `content` once and unescaped (escaping would change its `<`); otherwise the layout gets the
        // body itself. Both give the same bytes.
        layout["content"] = Self.contentMarker
        var framed = templates.render("layout", layout)
        if let (before, after) = framed.withUTF8({ Self.around(Self.contentMarkerBytes, in: $0) }) {
            return File(path: path, pieces: [before] + body + [after])
        }
        layout["content"] = String(decoding: body.joined(), as: UTF8.self)
        return File(path: path, data: Data(templates.render("layout", layout).utf8))
    }

    static let contentMarker = "<\u{1}invoices-content\u{1}>"
    static let contentMarkerBytes = Array(contentMarker.utf8)

    /// The bytes of `text` before and after the one occurrence of `marker`; nil when it occurs never or more than once.
    static func around(_ marker: [UInt8], in text: UnsafeBufferPointer<UInt8>) -> (before: [UInt8], after: [UInt8])? {
        var found: Int?
        var index = 0
        while index + marker.count <= text.count {
            if text[index] == marker[0], UnsafeBufferPointer(rebasing: text[index..<(index + marker.count)]).elementsEqual(marker) {
                guard found == nil else { return nil }
                found = index
                index += marker.count
            } else {
                index += 1
            }
        }
        guard let start = found else { return nil }
        return (Array(text[..<start]), Array(text[(start + marker.count)...]))
    }

    func money(_ minorUnits: Int64, _ currency: CurrencyCode) -> String {
        formatter.string(for: Money(minorUnits: minorUnits, currency: currency))
    }

    /// An amount without its currency, for a table of one currency that names it once in its headings (issue 46
    /// item 5): the amount's digits in the locale's number form (`1,234.50`; `1.234,50` in German; `1,449,440` yen).
    func amountNumber(_ minorUnits: Int64, _ currency: CurrencyCode) -> String {
        formatter.number(minorUnits, fractionDigits: currency.minorUnitDigits)
    }

}
