public import Foundation
public import InvoicesCore
public import InvoicesReport

/// Renders the pages of a report site: Markdown templates with Mustache placeholders, through libcmark, into
/// the HTML layout.
///
/// ```swift
/// let site = SiteBuilder(books: books, report: report, templates: try TemplateSet(), options: SiteOptions())
/// let summary = try SiteWriter(output: "Output").write(site.files())
/// ```
public struct SiteBuilder: Sendable {
    public let books: Books
    public let report: Report
    public internal(set) var templates: TemplateSet
    public let options: SiteOptions
    var formatter: MoneyFormatter
    /// The language of the pages (``SiteOptions/language``); a client's pages may have their own (``speaking(for:)``).
    var language: PageLanguage
    /// By client index, the clients whose pages are in another language than the report's (``ClientLanguages``).
    let clientLanguages: ClientLanguages
    let slugs: [String]
    let markdown = MarkdownRenderer(options: [.allowsRawHTML])
    /// What changed since the previous report: `changes.html` and `changes.csv`.
    public var changeLog = ChangeLog()
    /// Invoice indices per client (index in ``Books/clients``), each list by issue date, then identifier.
    let invoicesByClient: [[Int]]
    /// The fingerprints of what each page kind shows, for incremental builds: computed once, with the builder.
    private(set) var inputs = Inputs(base: 0, all: 0, clients: [], months: [])

    public init(books: Books, report: Report, templates: TemplateSet, options: SiteOptions) {
        self.books = books
        self.report = report
        let tag = LanguageTag(options.language) ?? .english
        let templates = (try? templates.localized(to: tag)) ?? templates
        self.templates = templates
        self.options = options
        self.language = PageLanguage(templates.translation, options: options)
        self.formatter = MoneyFormatter(localeIdentifier: language.formatLocale, currencies: books.currencies)
        self.clientLanguages = ClientLanguages(books: books, templates: templates, options: options)
        var slugger = Slugger()
        self.slugs = books.clients.map { slugger.slug(for: $0.number, $0.name) }
        self.invoicesByClient = Self.groupedInvoices(books)
        self.inputs = makeInputs()
    }

    /// A file of the site: its path relative to the site's root, and its bytes.
    public struct File: Sendable {
        public var path: String
        /// The bytes, in pieces written one after the other: a page is its layout's start, its body and the
        /// layout's end, never copied into one buffer.
        var pieces: [[UInt8]]

        public init(path: String, data: Data) {
            self.path = path
            pieces = [Array(data)]
        }

        init(path: String, pieces: [[UInt8]]) {
            self.path = path
            self.pieces = pieces
        }

        /// The bytes, whole.
        public var data: Data {
            get { pieces.count == 1 ? Data(pieces[0]) : Data(pieces.joined()) }
            set { pieces = [Array(newValue)] }
        }
    }

    /// The relative path of a client's page.
    public func clientPath(_ clientIndex: Int) -> String { "clients/\(slugs[clientIndex]).html" }

    /// The relative path of a month's page.
    public func monthPath(_ month: YearMonth) -> String { "months/\(month).html" }

    /// The relative path of a client's statement of account.
    public func statementPath(_ clientIndex: Int) -> String { "statements/\(slugs[clientIndex]).html" }

    /// The path of a client's private statement (`c/<token>/index.html`), or nil without client links. The client
    /// page is beside it, at `c/<token>/client.html`.
    public func clientLinkPath(_ clientIndex: Int) -> String? {
        options.clientLinkToken.map { "c/\($0(books.clients[clientIndex].number))/index.html" }
    }

    /// The grand totals converted into ``SiteOptions/conversion``'s base currency, or nil without rates.
    ///
    /// A converted amount that does not fit in 64-bit minor units leaves the conversion out rather than failing
    /// the build: the exact per-currency totals are the report; the conversion is only an aid.
    public func convertedTotals() -> ConvertedTotals? {
        guard let conversion = options.conversion else { return nil }
        return try? ConvertedTotals(report: report, rates: conversion.rates, base: conversion.base)
    }

    /// The page kinds that make the whole site, in a stable order, in jobs that render independently: each kind
    /// alone, and the client pages in batches of `batch` clients; without the changes page unless `changes`.
    func jobs(batch: Int = 64, changes: Bool = true) -> [[any PageKind]] {
        // The exports are one long job: first, so the other cores render pages meanwhile.
        var jobs: [[any PageKind]] = [
            [ExportFiles(site: self)], [AssetFiles(site: self)], [OverviewPage(site: self)], [ClientsPage(site: self)],
            [CollectionsPage(site: self)], [NotFoundPage(site: self)],
        ]
        if changes { jobs.append([ChangesPage(site: self)]) }
        jobs += report.months.indices.map { [MonthPage(site: self, offset: $0)] }
        let periods = fiscalPeriods()
        jobs += periods.map { [PeriodPage(site: self, period: $0, periods: periods)] }
        jobs += stride(from: 0, to: report.clients.count, by: batch).map { start in
            report.clients[start..<min(start + batch, report.clients.count)].map {
                ClientPages(site: speaking(for: $0.clientIndex), totals: $0, invoices: invoicesByClient[$0.clientIndex])
            }
        }
        jobs += [[AddressFiles(site: self)]]
        return jobs
    }

    /// Every file of the site, in a stable order.
    public func files() -> [File] { jobs().joined().flatMap { $0.allFiles() } }

    /// Renders every page and writes it into `staging` as it is rendered, using every core: pages are
    /// independent, so they render in parallel, and no page waits in memory for the others.
    ///
    /// With the `previous` build's manifest, a unit (a page, a client's pages, the exports...) whose inputs have
    /// the fingerprint recorded there, and whose files are still in the output as recorded, is not rendered: its
    /// files are hard-linked into the new site (``SiteStaging/reuse(_:)``).
    /// - Parameters:
    ///   - changes: Whether to write the changes page; without it, ``writeChanges(to:previous:into:)`` writes it
    ///     once ``changeLog`` is known (the build compares the books with the previous trail meanwhile).
    ///   - progress: Called with (jobs done, jobs in all) as jobs finish.
    /// - Returns: The manifest of the new site.
    /// - Throws: ``SiteWriteError`` when a file cannot be written.
    @discardableResult
    public func write(
        to staging: SiteStaging, previous: SiteManifest? = nil, changes: Bool = true,
        progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil
    ) async throws(SiteWriteError) -> SiteManifest {
        let inputs = self.inputs
        let jobs = self.jobs(changes: changes)
        let width = max(ProcessInfo.processInfo.activeProcessorCount, 1)
        var manifest = SiteManifest()
        do {
            try await withThrowingTaskGroup(of: [(String, SiteManifest.Unit)].self) { group in
                var next = 0
                var done = 0
                func start() {
                    guard next < jobs.count else { return }
                    let job = jobs[next]
                    next += 1
                    group.addTask {
                        var units: [(String, SiteManifest.Unit)] = []
                        for kind in job { units.append((kind.key, try Self.write(kind, to: staging, inputs: inputs, previous: previous))) }
                        return units
                    }
                }
                for _ in 0..<width { start() }
                while let units = try await group.next() {
                    for (key, unit) in units { manifest.units[key] = unit }
                    done += 1
                    progress?(done, jobs.count)
                    start()
                }
            }
        } catch let error as SiteWriteError {
            throw error
        } catch {
            throw SiteWriteError(path: staging.writer.output.path, message: "cannot write the site: \(error)")
        }
        return manifest
    }

    /// Writes the changes page (`changes.html`, `changes.csv`, from ``changeLog``) into `staging` and its unit into
    /// `manifest`: the last unit of a site ``write(to:previous:changes:progress:)`` wrote without it.
    public func writeChanges(to staging: SiteStaging, previous: SiteManifest?, into manifest: inout SiteManifest) throws(SiteWriteError) {
        let page = ChangesPage(site: self)
        manifest.units[page.key] = try Self.write(page, to: staging, inputs: inputs, previous: previous)
    }

    /// A page kind's unit: the previous build's files, when its inputs are unchanged and its files intact (they are
    /// hard-linked into the new site); else its files, rendered.
    private static func write(
        _ kind: any PageKind, to staging: SiteStaging, inputs: Inputs, previous: SiteManifest?
    ) throws(SiteWriteError) -> SiteManifest.Unit {
        let kind = kind.prepared()
        let fingerprint = kind.inputs(inputs)
        if let recorded = previous?.units[kind.key], recorded.inputs == fingerprint, let files = staging.reuse(recorded.files, from: previous) {
            return SiteManifest.Unit(inputs: fingerprint, files: files)
        }
        return SiteManifest.Unit(inputs: fingerprint, files: try kind.write(to: staging))
    }

    /// Renders one page: the Markdown template with `context`, to HTML, into the layout.
    ///
    /// Links are relative to the page (`root` is `../` on pages one folder down); with a base URL the page also
    /// gets a canonical link and the feed's address.
    func page(_ path: String, template: String, title: String, _ context: [String: Any], rows: RowListRegistry? = nil) -> File {
        let depth = path.split(separator: "/").count - 1
        let root = String(repeating: "../", count: depth)
        var layout: [String: Any] = ["root": root, "nav": true]
        if let baseURL = options.baseURL {
            layout["canonical"] = path == "index.html" ? baseURL : baseURL + path
            if !report.months.isEmpty { layout["feed"] = root + "feed.xml" }
        }
        return render(path, template: template, title: title, context, root: root, layout: layout, rows: rows)
    }

    func render(
        _ path: String, template: String, title: String, _ context: [String: Any], root: String, layout: [String: Any],
        rows: RowListRegistry? = nil
    ) -> File {
        var context = context
        context["root"] = root
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

    func figuresRow(_ figures: Figures, _ currency: CurrencyCode) -> [String: Any] {
        Dictionary(uniqueKeysWithValues: TemplateVariables.figures.map { ($0, figuresCell(figures, currency, $0) as Any) })
    }

    /// Invoice indices per client, each list ordered by issue date, then identifier.
    static func groupedInvoices(_ books: Books) -> [[Int]] {
        var groups = Array(repeating: [Int](), count: books.clients.count)
        for (index, invoice) in books.invoices.enumerated() { groups[Int(invoice.clientIndex)].append(index) }
        for client in groups.indices {
            groups[client].sort {
                let a = books.invoices[$0], b = books.invoices[$1]
                return a.issued != b.issued ? a.issued < b.issued : a.identifier < b.identifier
            }
        }
        return groups
    }

    /// A month's name and year in the pages' language: `March 2025`, `März 2025`.
    func monthLabel(_ month: YearMonth) -> String { language.monthLabel(month) }

    /// `text` escaped for XML text and attribute values, its controls and bidirectional overrides made inert as in
    /// HTML (``HTMLEscaping``).
    static func xml(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in HTMLEscaping.inert(text).unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\u{0}"..."\u{8}", "\u{B}", "\u{C}", "\u{E}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
