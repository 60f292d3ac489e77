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
    /// What the page kinds see of the site, and what renders their pages (``SiteView``). The builder schedules the
    /// kinds (``jobs(changes:)``, ``write(to:previous:changes:progress:)``); what keeps builds incremental is apart:
    /// the fingerprints of what each kind shows (``inputs``, `SiteBuilder+Fingerprints.swift`), the reuse of a unit
    /// whose inputs are unchanged (``IncrementalUnits``), the manifest (``SiteManifest``), the staging folder
    /// (``SiteStaging``) and the trail (``SiteWriter``).
    public private(set) var view: SiteView
    public var books: Books { view.books }
    public var report: Report { view.report }
    public var templates: TemplateSet { view.templates }
    public var options: SiteOptions { view.options }
    /// Where every page is, and the links between them.
    public var paths: SitePaths { view.paths }
    /// What changed since the previous report: `changes.html` and `changes.csv`.
    public var changeLog: ChangeLog {
        get { view.changeLog }
        set { view.changeLog = newValue }
    }
    /// The fingerprints of what each page kind shows, for incremental builds: computed once, with the builder.
    private(set) var inputs = Inputs(base: 0, all: 0, clients: [], months: [])

    /// A builder of the kinds of pages `templates` were loaded for (``TemplateSet/kinds``, by default
    /// ``PageKinds/builtIn``), computing the report's ``SiteFigures`` here
    /// (``SiteFigures/init(books:report:fiscalYearStart:)``).
    public init(books: Books, report: Report, templates: TemplateSet, options: SiteOptions) {
        self.init(
            books: books, report: report,
            figures: SiteFigures(
                books: books, report: report, fiscalYearStart: options.fiscalYearStart, datev: options.datev, rates: options.conversion?.rates),
            templates: templates, options: options)
    }

    /// A builder for `report` with its `figures`, computed with the report (InvoicesApp's `BooksAndReport`); figures
    /// for another fiscal year start than `options`' are computed again here, and DATEV files for other `datev:`
    /// settings or rates.
    ///
    /// With `carried` inputs of a previous build and `source`, the fingerprint of what `books` were read from (the
    /// store's bytes and the build's settings), the inputs are taken from `carried` when it was carried under the
    /// same key (``carryKey(books:)``) instead of worked out again (``CarriedInputs``).
    public init(
        books: Books, report: Report, figures: SiteFigures, templates: TemplateSet, options: SiteOptions, carried: CarriedInputs? = nil,
        source: UInt64? = nil
    ) {
        let figures =
            figures.fiscalYearStart == options.fiscalYearStart
            ? figures.withDATEV(options.datev, rates: options.conversion?.rates, books: books, report: report)
            : SiteFigures(
                books: books, report: report, fiscalYearStart: options.fiscalYearStart, datev: options.datev, rates: options.conversion?.rates)
        self.view = SiteView(books: books, report: report, figures: figures, templates: templates, options: options)
        if let carried, let source, carried.key == carryKey(books: source), carried.clients.count == books.clients.count,
            carried.months.count == report.months.count
        {
            self.inputs = carried.inputs
        } else {
            self.inputs = makeInputs()
        }
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

    /// What the build and `check` warn about the languages (``SiteView/languageWarnings``).
    public var languageWarnings: [String] { view.languageWarnings }

    /// The grand totals converted into ``SiteOptions/conversion``'s base currency (``SiteView/convertedTotals()``).
    public func convertedTotals() -> ConvertedTotals? { view.convertedTotals() }

    /// The page kinds that make the whole site (``PageKinds``, the kinds the templates were loaded for), in a stable
    /// order, in jobs that render independently; without the changes page unless `changes`.
    func jobs(changes: Bool = true) -> [[any PageKind]] { view.kinds.jobs(in: view, last: changes) }

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
    ///   - gate: While it is shut, the pages' jobs are started before the exports' (``Gate``).
    ///   - progress: Called with (jobs done, jobs in all) as jobs finish.
    /// - Returns: The manifest of the new site.
    /// - Throws: ``SiteWriteError`` when a file cannot be written.
    @discardableResult
    public func write(
        to staging: SiteStaging, previous: SiteManifest? = nil, changes: Bool = true, exportsAfter gate: Gate? = nil,
        progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil
    ) async throws(SiteWriteError) -> SiteManifest {
        let units = IncrementalUnits(inputs: inputs, previous: previous)
        let jobs = self.jobs(changes: changes)
        let width = max(ProcessInfo.processInfo.activeProcessorCount, 1)
        var manifest = SiteManifest()
        do {
            try await withThrowingTaskGroup(of: [(String, SiteManifest.Unit)].self) { group in
                var next = 0
                var started = [Bool](repeating: false, count: jobs.count)
                var done = 0
                func start() {
                    guard next < jobs.count, let index = Self.nextJob(jobs, started: started, from: next, gate: gate) else { return }
                    started[index] = true
                    while next < jobs.count, started[next] { next += 1 }
                    let job = jobs[index]
                    group.addTask {
                        var written: [(String, SiteManifest.Unit)] = []
                        for kind in job { written.append((kind.key, try units.unit(of: kind, into: staging))) }
                        return written
                    }
                }
                for _ in 0..<width { start() }
                while let written = try await group.next() {
                    for (key, unit) in written { manifest.units[key] = unit }
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
        // The exports' pieces, of every export unit (``ExportFiles/Part``). Without an index the next build makes
        // every piece: a failure here costs time, never correctness.
        if let index = inputs.exportValues.index(for: manifest) { try? index.write(to: staging.writer.piecesURL) }
        return manifest
    }

    /// Writes the changes page (`changes.html`, `changes.csv`, from ``changeLog``) into `staging` and its unit into
    /// `manifest`: the last unit of a site ``write(to:previous:changes:progress:)`` wrote without it.
    public func writeChanges(to staging: SiteStaging, previous: SiteManifest?, into manifest: inout SiteManifest) throws(SiteWriteError) {
        let units = IncrementalUnits(inputs: inputs, previous: previous)
        for page in view.kinds.lastUnits(in: view) { manifest.units[page.key] = try units.unit(of: page, into: staging) }
    }

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
