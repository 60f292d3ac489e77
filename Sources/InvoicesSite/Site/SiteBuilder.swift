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
    public let templates: TemplateSet
    public let options: SiteOptions
    let formatter: MoneyFormatter
    let slugs: [String]
    let markdown = MarkdownRenderer(options: [.allowsRawHTML])
    /// What changed since the previous report: `changes.html` and `changes.csv`.
    public var changeLog = ChangeLog()

    public init(books: Books, report: Report, templates: TemplateSet, options: SiteOptions) {
        self.books = books
        self.report = report
        self.templates = templates
        self.options = options
        self.formatter = MoneyFormatter(localeIdentifier: options.locale, currencies: books.currencies)
        var slugger = Slugger()
        self.slugs = books.clients.map { slugger.slug(for: $0.number, $0.name) }
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

    /// A piece of the site that renders independently of the others.
    enum Job: Sendable {
        case assets, overview, clients, collections, notFound, exports, addresses, changes
        case month(Int)
        /// A fiscal year's or quarter's page, by its position in ``SiteBuilder/fiscalPeriods()``.
        case period(Int)
        /// Client pages, by their index in ``Report/clients``.
        case clientPages(Range<Int>)
    }

    /// The jobs that make the whole site, in a stable order; client pages in batches of `batch`.
    func jobs(batch: Int = 64) -> [Job] {
        // The exports are one long job: first, so the other cores render pages meanwhile.
        var jobs: [Job] = [.exports, .assets, .overview, .clients, .collections, .notFound, .changes]
        jobs += report.months.indices.map(Job.month)
        jobs += fiscalPeriods().indices.map(Job.period)
        jobs += stride(from: 0, to: report.clients.count, by: batch).map { .clientPages($0..<min($0 + batch, report.clients.count)) }
        jobs += [.addresses]
        return jobs
    }

    /// Renders one job's files.
    func files(of job: Job, invoicesByClient: [[Int]]) -> [File] {
        switch job {
        case .assets: templates.assets.sorted(by: { $0.key < $1.key }).map { File(path: $0.key, data: $0.value) }
        case .overview:
            [page("index.html", template: "overview", title: "Overview", overviewContext().merging(conversionContext()) { a, _ in a })]
        case .clients: [page("clients.html", template: "clients", title: "Clients", clientsContext())] + clientsListFiles()
        case .collections: [collectionsPage()] + collectionsListPages()
        case .notFound: [notFoundPage()]
        case .month(let offset): [monthPage(offset)] + pages(of: monthLists(offset))
        case .period(let position): periodFiles(position)
        case .clientPages(let range):
            range.flatMap { clientFiles(report.clients[$0], invoices: invoicesByClient[report.clients[$0].clientIndex]) }
        case .exports: exportFiles()
        case .addresses: addressFiles()
        case .changes: changesFiles()
        }
    }

    /// Every file of the site, in a stable order.
    public func files() -> [File] {
        let invoicesByClient = groupedInvoices()
        return jobs().flatMap { files(of: $0, invoicesByClient: invoicesByClient) }
    }

    /// Renders every page and writes it into `staging` as it is rendered, using every core: pages are
    /// independent, so they render in parallel, and no page waits in memory for the others.
    ///
    /// With the `previous` build's manifest, a unit (a page, a client's pages, the exports...) whose inputs have
    /// the fingerprint recorded there, and whose files are still in the output as recorded, is not rendered: its
    /// files are hard-linked into the new site (``SiteStaging/reuse(_:)``).
    /// - Parameter progress: Called with (jobs done, jobs in all) as jobs finish.
    /// - Returns: The manifest of the new site.
    /// - Throws: ``SiteWriteError`` when a file cannot be written.
    @discardableResult
    public func write(
        to staging: SiteStaging, previous: SiteManifest? = nil, progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil
    ) async throws(SiteWriteError) -> SiteManifest {
        let invoicesByClient = groupedInvoices()
        let inputs = self.inputs(invoicesByClient: invoicesByClient)
        let jobs = self.jobs()
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
                        try write(job, to: staging, invoicesByClient: invoicesByClient, inputs: inputs, previous: previous)
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

    /// Writes one job's units into `staging`: reused from the previous site where their inputs are unchanged,
    /// rendered otherwise.
    private func write(
        _ job: Job, to staging: SiteStaging, invoicesByClient: [[Int]], inputs: Inputs, previous: SiteManifest?
    ) throws(SiteWriteError) -> [(String, SiteManifest.Unit)] {
        /// The unit's files: the previous build's, when its inputs are unchanged and its files intact; else `make`'s.
        func unit(
            _ key: String, _ fingerprint: UInt64, make: () throws(SiteWriteError) -> [SiteManifest.File]
        ) throws(SiteWriteError) -> (String, SiteManifest.Unit) {
            if let recorded = previous?.units[key], recorded.inputs == fingerprint, staging.reuse(recorded.files) {
                return (key, recorded)
            }
            return (key, SiteManifest.Unit(inputs: fingerprint, files: try make()))
        }
        func unit(_ key: String, _ fingerprint: UInt64, render: () -> [File]) throws(SiteWriteError) -> (String, SiteManifest.Unit) {
            try unit(key, fingerprint) { () throws(SiteWriteError) in
                var files: [SiteManifest.File] = []
                for file in render() { files.append(try staging.write(file)) }
                return files
            }
        }
        if case .clientPages(let range) = job {
            var units: [(String, SiteManifest.Unit)] = []
            for position in range {
                let totals = report.clients[position]
                let (key, fingerprint) = clientUnit(totals.clientIndex, inputs)
                units.append(try unit(key, fingerprint) { clientFiles(totals, invoices: invoicesByClient[totals.clientIndex]) })
            }
            return units
        }
        let (key, fingerprint) = self.unit(of: job, inputs)
        if case .exports = job {
            return [try unit(key, fingerprint) { () throws(SiteWriteError) in try writeExports(to: staging) }]
        }
        return [try unit(key, fingerprint) { files(of: job, invoicesByClient: invoicesByClient) }]
    }

    /// The page of the month at `offset` in the report.
    func monthPage(_ offset: Int) -> File {
        let registry = RowListRegistry(marker: TemplateSet.rowMarker)
        let context = monthContext(offset, registry: registry)
        let month = report.months[offset]
        return page(monthPath(month), template: "month", title: context["label"] as? String ?? "\(month)", context, rows: registry)
    }

    /// The page of one client, listing `invoices` (indices into the books, in order).
    func clientPage(_ totals: Report.ClientTotals, invoices: [Int]) -> File {
        let registry = RowListRegistry(marker: TemplateSet.rowMarker)
        let context = clientContext(totals, invoices: invoices, registry: registry)
        return page(clientPath(totals.clientIndex), template: "client", title: books.clients[totals.clientIndex].name, context, rows: registry)
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

    /// The page served for unknown addresses, at any depth: relative links would break there, so with a base URL
    /// its links and stylesheet are absolute; without one it has its style inline and no links.
    func notFoundPage() -> File {
        var context: [String: Any] = [:]
        var layout: [String: Any] = [:]
        let root: String
        if let baseURL = options.baseURL {
            root = baseURL
            context["home"] = baseURL
            layout["nav"] = true
        } else {
            root = ""
            layout["inlineStyle"] = String(decoding: templates.assets["style.css"] ?? Data(), as: UTF8.self)
        }
        layout["root"] = root
        return render("404.html", template: "404", title: "Page not found", context, root: root, layout: layout)
    }

    func render(
        _ path: String, template: String, title: String, _ context: [String: Any], root: String, layout: [String: Any],
        rows: RowListRegistry? = nil
    ) -> File {
        var context = context
        context["root"] = root
        context["siteTitle"] = options.title
        if let asOf = report.asOf { context["asOf"] = asOf.description }
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
        layout["lang"] = options.language
        if let asOf = report.asOf { layout["asOf"] = asOf.description }
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
    func groupedInvoices() -> [[Int]] {
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

    static func monthLabel(_ month: YearMonth) -> String { "\(monthName(month.month)) \(month.year)" }
}
