internal import Foundation
internal import InvoicesReport
public import InvoicesSite
public import InvoicesStore
public import InvoicesCore
internal import InvoicesPostgres

/// One build of a report site, phase by phase: load the store, compute the totals, render the pages, write them.
///
/// The CLI's `build` and `serve` use it; progress is reported through ``BuildPipeline/Observer``.
public struct BuildPipeline: Sendable {
    /// What to build from and where to.
    public struct Configuration: Sendable {
        /// A store file, or a PostgreSQL address (`postgres://…`; messages name it without its password).
        public var store: String
        public var templates: String?
        public var output: String
        public var site: SiteOptions
        /// Which Invoice attributes hold the dates when the store is a Core Data store.
        public var coreDataMapping = CoreDataMapping()
        /// Render every page (`--full`), instead of only the pages whose inputs changed since the previous build.
        public var full = false
        /// Paths the build must never replace besides the store and the templates (the project file).
        public var keeping: [String] = []
        /// The books are closed through this day: a build that would change a document or figure on or before it
        /// stops (exit 65) unless ``allowClosedChanges``.
        public var closedThrough: CalendarDate?
        /// Build even when the closed period changed; the changes page records it.
        public var allowClosedChanges = false

        public init(store: String, templates: String? = nil, output: String = "Output", site: SiteOptions = SiteOptions()) {
            self.store = store
            self.templates = templates
            self.output = output
            self.site = site
        }
    }

    /// The phases of a build, in order.
    public enum Phase: String, Sendable, CaseIterable {
        case load, totals, render, write
    }

    /// Receives progress: a phase started, advanced (`done` of `total` items) or finished with a summary.
    public typealias Observer = @Sendable (_ phase: Phase, _ done: Int, _ total: Int, _ summary: String?) -> Void

    /// What a finished build reports.
    public struct Result: Sendable {
        public var summary: BuildSummary
        /// Seconds spent in each phase.
        public var timings: [Phase: Double]
        /// What the store loader assumed or rounded (``StoreWarning``), one line each, to print before the summary.
        public var warnings: [String] = []
        /// Whether the build had nothing to do: the site was left as the previous build wrote it
        /// (``SourceFingerprint``).
        public var upToDate = false
    }

    public let configuration: Configuration

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Reads the templates, the store and the figures: everything a build needs before it renders a page.
    ///
    /// `check` is this and nothing more (a dry run); `build` and `serve` go on to render and write.
    /// - Throws: ``BuildError``: the templates' error, or every store issue, with the exit code to use.
    public func prepare(observer: Observer? = nil) async throws(BuildError) -> Prepared {
        try await prepare(templates: try loadTemplates(), observer: observer)
    }

    func prepare(templates: TemplateSet, observer: Observer?) async throws(BuildError) -> Prepared {
        var timings: [Phase: Double] = [:]
        let (read, totals) = try await readBooks(observer: observer)

        timings[.load] = read
        timings[.totals] = totals.seconds
        return Prepared(templates: templates, books: totals.value, timings: timings)
    }

    /// The templates, checked.
    func loadTemplates() throws(BuildError) -> TemplateSet {
        do {
            return try TemplateSet(directory: configuration.templates, language: LanguageTag(configuration.site.language) ?? .english)
        } catch {
            throw BuildError(code: error.code == .missingFolder ? .noInput : .dataError, message: error.description, templateError: error)
        }
    }

    /// The fingerprint of everything this build reads (``SourceFingerprint``), with the previous trail's first line;
    /// nil for a PostgreSQL store (no file to fingerprint) or one that cannot be read whole.
    func sourceFingerprint(trailFirstLine: String?) -> UInt64? { sourceFingerprints(trailFirstLine: trailFirstLine)?.source }

    /// The same, with the fingerprint of what the books are read from alone (the store's bytes and the settings),
    /// which the site's inputs are carried under (``InvoicesSite/CarriedInputs``).
    func sourceFingerprints(trailFirstLine: String?) -> (source: UInt64, books: UInt64)? {
        guard !PostgresAddress.isAddress(configuration.store),
            let templates = TemplateSet.sourceFingerprint(directory: configuration.templates)
        else { return nil }
        let mapping = configuration.coreDataMapping
        let settings = mapping.names.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + [
            "currency=\(mapping.defaultCurrency?.code ?? "")",
            "closed=\(configuration.closedThrough?.description ?? "")",
            "allow-closed-changes=\(configuration.allowClosedChanges)",
        ]
        return SourceFingerprint.parts(
            store: configuration.store, templates: templates, options: configuration.site, settings: settings, trailFirstLine: trailFirstLine)
    }

    /// What ``prepare(observer:)`` read.
    public struct Prepared: Sendable {
        public var templates: TemplateSet
        public var books: BooksAndReport
        public var timings: [Phase: Double]
    }

    /// The load and totals phases alone: the books and their figures, read through the contexts.
    public func books(observer: Observer? = nil) async throws(BuildError) -> BooksAndReport {
        try await readBooks(observer: observer).1.value
    }

    /// Why the DATEV files of `books` cannot be written (`DATEV: ` and the refusal, naming the client or invoice), or
    /// nil when `datev:` is not set or they can: `build` stops on it with exit 65, `check` lists it (docs/exports.md).
    public static func datevRefusal(_ books: BooksAndReport) -> String? {
        guard let error = books.figures.datev?.refusal else { return nil }
        return "DATEV: \(error.message)"
    }

    /// How messages name the store: its path, or its address without the password.
    var storeName: String {
        PostgresAddress.isAddress(configuration.store) ? PostgresAddress.redacted(configuration.store) : configuration.store
    }

    /// Opens the store (its fetch is the load phase), then computes the figures in the contexts (the totals phase).
    func readBooks(observer: Observer?) async throws(BuildError) -> (Double, (value: BooksAndReport, seconds: Double)) {
        let clock = ContinuousClock()
        var start = clock.now
        observer?(.load, 0, 1, nil)
        let store: BooksStore
        do {
            if PostgresAddress.isAddress(configuration.store) {
                store = try await PostgresBooks.store(try PostgresAddress(configuration.store))
            } else {
                store = try BooksStore(path: configuration.store, coreDataMapping: configuration.coreDataMapping)
            }
        } catch {
            throw BuildError(code: error.exitStatus, message: error.description, storeIssues: error)
        }
        let load = seconds(clock.now - start)
        observer?(.load, 1, 1, "\(store.books.clients.count) clients, \(store.books.invoices.count) invoices")

        start = clock.now
        observer?(.totals, 0, 1, nil)
        let value: BooksAndReport
        do {
            value = try await BooksAndReport.read(
                store: store, period: configuration.site.period, fiscalYearStart: configuration.site.fiscalYearStart,
                datev: configuration.site.datev, rates: configuration.site.conversion?.rates)
        } catch let error as ReportError {
            throw BuildError(code: .dataError, message: "\(storeName): \(error.description)")
        } catch {
            throw BuildError(code: .software, message: "\(storeName): the totals could not be computed: \(error)")
        }
        let totals = seconds(clock.now - start)
        let report = value.report
        observer?(.totals, 1, 1, "\(report.clients.count) clients, \(report.currencies.count) currencies, \(report.months.count) months")
        return (load, (value, totals))
    }

    /// Runs the build: ``prepare(observer:)``, then render every page into a staging folder and swap it into place.
    /// - Throws: ``BuildError`` with the exit code the CLI should use.
    public func run(observer: Observer? = nil) async throws(BuildError) -> Result {
        let clock = ContinuousClock()
        let runStart = clock.now
        let writer = SiteWriter(
            output: configuration.output,
            keeping: [configuration.store] + [configuration.templates].compactMap { $0 } + configuration.keeping)
        // Before reading anything: a folder the build may not replace is refused at once (and again at the swap).
        do {
            try writer.checkReplaceable()
        } catch {
            throw BuildError(code: .cannotCreate, message: error.description)
        }
        // Nothing to do when the store's bytes, the templates, the options and the previous trail's first line are
        // what the previous build read, and its site is still as it wrote it: the store's rows are not even read, nor
        // the templates parsed (their files' bytes are in the fingerprint).
        let previousFirstLine: String?
        do {
            previousFirstLine = try Self.firstLine(of: writer.trailURL)
        } catch {
            throw BuildError(code: .dataError, message: Self.trailRefusal(error))
        }
        // The previous build's manifest, parsed once: for the check below and, when the build renders, for the units
        // it reuses. --full and --debug-markdown render every page, so they read none. It is read and parsed beside
        // the fingerprints (the store's every byte hashed): each ran alone on one core while the other waited, and
        // neither reads what the other makes; the check below has both.
        let readsPrevious = !configuration.full && configuration.site.debugMarkdownFolder == nil
        let (sources, previous) = sideBySide(
            { sourceFingerprints(trailFirstLine: previousFirstLine) },
            { readsPrevious ? SiteManifest.read(writer.manifestURL) : nil })
        let source = sources?.source
        // The trail is the previous build's output too: without it the build renders, and writes it again.
        if let previous, let source, previousFirstLine != nil, let summary = writer.unchangedSite(source: source, manifest: previous) {
            observer?(.load, 1, 1, "the store, templates and options are as the previous build read them")
            observer?(.write, 1, 1, "\(summary.files) files as the previous build wrote them")
            return Result(summary: summary, timings: [.load: seconds(clock.now - runStart)], upToDate: true)
        }
        // The site the previous build replaced was retired beside the output, not removed at its end: it is removed
        // here on a thread of its own while the store is read (mostly waiting on the disk), and waited for before
        // this build retires its own predecessor.
        let retiredRemoval = writer.removeRetiredSites()
        // The inputs the previous build carried (``InvoicesSite/CarriedInputs``), read and checked beside the load:
        // they depend on no figure (whether they apply is decided with the books below).
        let inputsURL = writer.inputsURL
        let carriedRead: Task<CarriedInputs?, Never>? =
            previous == nil ? nil : Task.detached { CarriedInputs.read(inputsURL) }
        let templates = try loadTemplates()
        let prepared = try await prepare(templates: templates, observer: observer)
        var timings = prepared.timings
        let books = prepared.books
        // The DATEV files, worked out with the figures, are checked before anything is written: a client without a
        // debtor account, two sharing one, a text Windows-1252 cannot hold is refused with its name (docs/exports.md).
        if let refusal = Self.datevRefusal(books) {
            throw BuildError(code: .dataError, message: "\(storeName): \(refusal)")
        }

        var start = clock.now
        // When the books are read from the bytes and settings the previous build read them from, and the options are
        // its own, every unit's inputs are the ones it carried: a change of the templates alone does not fingerprint
        // the books again (--full and --debug-markdown work them out).
        let carried = await carriedRead?.value
        var site = SiteBuilder(
            books: books.books, report: books.report, figures: books.figures, templates: prepared.templates, options: configuration.site,
            carried: carried, source: sources?.books)

        // What changed since the previous build, and whether the closed period did. The trail's first line holds a
        // fingerprint of the books (and the options and the executable): when the previous trail's equals this
        // build's, nothing can have changed, and the trail is neither built nor compared nor rewritten.
        let fingerprint = site.booksFingerprint()
        let sameBooks = try sameBooks(asTrail: previousFirstLine, fingerprint: fingerprint, writer: writer)
        // Pages whose inputs are unchanged since the previous build (its manifest, `previous`, says so, and their
        // files are still as it wrote them) are hard-linked instead of rendered; --full and --debug-markdown render all.
        let staging: SiteStaging
        do {
            staging = try writer.begin(reusing: retiredRemoval)
        } catch {
            throw BuildError(code: .cannotCreate, message: error.description)
        }
        // Unless the books are the previous build's, the new trail is written to a temporary file and compared with
        // the previous one in one pass, neither held in memory, while the pages render (only the changes page needs what changed); it takes the
        // previous one's place once the site has.
        // The render starts the exports' jobs once the trail's order is made (pages' jobs before: `exportsGate`),
        // so the order's sort keys and the exports' first allocations are not held at once (the L peak).
        let exportsGate = sameBooks ? nil : SiteBuilder.Gate()
        let trailTask: Task<TrailOutcome, Never>? =
            sameBooks
            ? nil
            : Task.detached { [configuration, storeName] in
                defer { exportsGate?.open() }
                return Self.stageTrail(
                    books: books, fingerprint: fingerprint, writer: writer, hasPrevious: previousFirstLine != nil,
                    configuration: configuration, storeName: storeName, orderMade: { exportsGate?.open() })
            }
        // Pages are written into the staging folder as they are rendered (both cores); the write phase is the
        // swap of the complete folder into place.
        var manifest = SiteManifest()
        var renderError: SiteWriteError?
        do {
            observer?(.render, 0, 0, nil)
            manifest = try await site.write(to: staging, previous: previous, changes: false, exportsAfter: exportsGate) { done, total in observer?(.render, done, total, nil) }
        } catch {
            renderError = error
        }
        // Without a task the previous trail is this build's: nothing changed.
        let trail = await trailTask?.value ?? TrailOutcome()
        var warnings = books.warnings + site.languageWarnings + [trail.warning].compactMap { $0 }
        do throws(BuildError) {
            if let failure = trail.failure { throw failure }
            try checkClosedPeriod(trail.changes ?? [], hasPrevious: trail.changes != nil, trailPath: writer.trailURL.path)
            if let renderError { throw BuildError(code: .cannotCreate, message: renderError.description) }
            site.changeLog = ChangeLog(hasPrevious: trail.changes != nil, changes: trail.changes ?? [], closedThrough: configuration.closedThrough)
            do {
                try site.writeChanges(to: staging, previous: previous, into: &manifest)
            } catch {
                throw BuildError(code: .cannotCreate, message: error.description)
            }
        } catch {
            staging.discard()
            writer.discardTrail(trail.staged?.path)
            throw error
        }
        let stagedTrail = trail.staged
        timings[.render] = seconds(clock.now - start)
        let pieces = staging.exportPieces
        observer?(
            .render, 1, 1,
            "pages rendered and written" + (pieces.reused + pieces.made > 0 ? "; export pieces: \(pieces.reused) reused, \(pieces.made) made" : "")
                + (stagedTrail.map { "; trail pieces: \($0.reused) reused, \($0.made) made" } ?? "")
                + (site.inputsCarried ? "; inputs carried from the previous build" : ""))

        start = clock.now
        observer?(.write, 0, 1, nil)
        let summary: BuildSummary
        retiredRemoval.wait()
        do {
            summary = try staging.commit(retiring: true)
        } catch {
            writer.discardTrail(stagedTrail?.path)
            throw BuildError(code: .cannotCreate, message: error.description)
        }
        // Without a manifest the next build renders everything: a failure here costs time, never correctness. The
        // source fingerprint is recorded only when nothing was said that the next build, doing nothing, would not.
        var written = manifest
        written.source = warnings.isEmpty ? source : nil
        try? written.write(to: writer.manifestURL)
        // The inputs, for the next build from the same books (without them it works them out: time, never correctness).
        if let books = sources?.books {
            let carrying = site.carriedInputs(books: books)
            if carrying != carried { try? carrying.write(to: writer.inputsURL) }
        }
        // The trail the next build compares with, renamed into place.
        if let stagedTrail {
            writer.retireTrail()
            do {
                try writer.commitTrail(stagedTrail)
            } catch {
                warnings.append("\(error.description); the next build compares with an older record")
            }
        }
        timings[.write] = seconds(clock.now - start)
        observer?(.write, 1, 1, "\(summary.files) files, \(summary.changed) changed, \(summary.reused) reused")
        return Result(summary: summary, timings: timings, warnings: warnings)
    }

    /// What comparing the books with the previous trail gave: the new trail's temporary file, what changed (nil
    /// without a previous trail to compare with), a warning when the trail could not be written, or why the build
    /// stops.
    struct TrailOutcome: Sendable {
        var staged: SiteWriter.StagedTrail? = nil
        var changes: [Trail.Change]? = []
        var warning: String? = nil
        var failure: BuildError? = nil
    }

    /// Writes the books' trail beside the output in pieces
    /// (``SiteWriter/stageTrail(books:report:fingerprint:comparingWith:closedThrough:reusing:)``: unless the build
    /// is `--full`, the runs of records that did not change are taken from the previous trail) and compares it with
    /// the previous one in the same pass; run while the pages render.
    static func stageTrail(
        books: BooksAndReport, fingerprint: UInt64, writer: SiteWriter, hasPrevious: Bool, configuration: Configuration, storeName: String,
        orderMade: () -> Void = {}
    ) -> TrailOutcome {
        let full: Report
        do {
            full = configuration.site.period == ReportPeriod() ? books.report : try Report(books: books.books)
        } catch {
            return TrailOutcome(failure: BuildError(code: .dataError, message: "\(storeName): \(error)"))
        }
        let trail = Trail(books: books.books, report: full)
        let previous = hasPrevious ? writer.trailURL : nil
        do {
            let staged = try writer.stageTrail(
                books: books.books, report: full, fingerprint: fingerprint, comparingWith: previous,
                closedThrough: configuration.closedThrough, reusing: !configuration.full, orderMade: orderMade)
            return TrailOutcome(staged: staged, changes: staged.changes)
        } catch let error as RegularFile.Failure {
            return TrailOutcome(failure: BuildError(code: .dataError, message: trailRefusal(error)))
        } catch let error as Trail.LineTooLong {
            return TrailOutcome(failure: BuildError(code: .dataError, message: "\(storeName): \(error)"))
        } catch {
            do {
                return TrailOutcome(
                    changes: try previous.flatMap { try trail.changes(sinceFile: $0, closedThrough: configuration.closedThrough) },
                    warning: "\(error); the next build compares with an older record")
            } catch {
                return TrailOutcome(failure: BuildError(code: .dataError, message: "\(error)"))
            }
        }
    }

    /// Why the previous trail is refused, and what to do: it is the tool's own file, so it is read only as a
    /// regular file within its budgets (``InvoicesCore/FileBudget/trailLine``).
    static func trailRefusal(_ failure: RegularFile.Failure) -> String {
        "\(failure); this is the record of the previous build's books, which the build writes itself: restore it from "
            + "the last build (e.g. a CI artifact), or remove it to start a new record"
    }

    /// The first line of the trail at `url`, read on its own (a trail can be hundreds of megabytes); nil when
    /// there is no such file.
    /// - Throws: ``InvoicesCore/RegularFile/Failure`` when it is not a regular file (a symbolic link, a FIFO, a
    ///   device) or its first line is longer than ``InvoicesCore/FileBudget/trailHeader``.
    static func firstLine(of url: URL) throws(RegularFile.Failure) -> String? {
        guard let file = try RegularFile.ifPresent(url.path, links: .refuse) else { return nil }
        var line = Data()
        while line.count <= FileBudget.trailHeader.bytes {
            let piece = try file.read(upTo: 256)
            if let end = piece.firstIndex(of: 0x0A) {
                line.append(piece[piece.startIndex..<end])
                return String(decoding: line, as: UTF8.self)
            }
            line.append(piece)
            if piece.isEmpty { return String(decoding: line, as: UTF8.self) }
        }
        throw RegularFile.Failure(path: url.path, kind: .lineTooLong(FileBudget.trailHeader, line: 1))
    }

    /// Whether the previous trail's first line says its books are this build's (nothing changed, so the trail is
    /// neither built nor compared nor rewritten).
    ///
    /// Where that alone would decide that the closed period is unchanged (``Configuration/closedThrough``), the
    /// trail's lines must hash to what its first line says (``SiteWriter/trailMatchesItsHeader()``): a first line
    /// copied from another build's trail is refused (exit 65), or, with ``Configuration/allowClosedChanges``, the
    /// books are compared with the lines in full. One sequential read of the trail, made only then.
    func sameBooks(asTrail firstLine: String?, fingerprint: UInt64, writer: SiteWriter) throws(BuildError) -> Bool {
        guard let firstLine, let header = Trail.Header(line: Substring(firstLine)), header.books == fingerprint else { return false }
        guard let closed = configuration.closedThrough else { return true }
        let matches: Bool
        do {
            matches = try writer.trailMatchesItsHeader()
        } catch {
            throw BuildError(code: .dataError, message: Self.trailRefusal(error))
        }
        guard !matches else { return true }
        guard configuration.allowClosedChanges else {
            throw BuildError(
                code: .dataError,
                message: "\(writer.trailURL.path): the first line of the record of the previous build does not match the lines after "
                    + "it (it was edited, or copied from another build's record), so the books closed through \(closed) cannot be "
                    + "checked; nothing was built. Restore the file from the last build (e.g. a CI artifact), or build once with "
                    + "--allow-closed-changes to compare the books with its lines and record what changed")
        }
        return false
    }

    /// Stops the build when documents or figures on or before ``Configuration/closedThrough`` changed since the
    /// previous build, or when there is no previous build to compare with; unless ``Configuration/allowClosedChanges``.
    /// - Throws: ``BuildError``: 65 naming each change (document or figure, field, both values), 66 without a trail.
    func checkClosedPeriod(_ changes: [Trail.Change], hasPrevious: Bool, trailPath: String) throws(BuildError) {
        guard let closed = configuration.closedThrough, !configuration.allowClosedChanges else { return }
        guard hasPrevious else {
            throw BuildError(
                code: .noInput,
                message: "\(trailPath): no record of the previous build, so the books closed through \(closed) cannot be checked; "
                    + "restore this file from the last build (e.g. a CI artifact), or build once with --allow-closed-changes to start the record")
        }
        let touched = changes.filter(\.closed)
        guard !touched.isEmpty else { return }
        var lines = touched.prefix(50).map { "closed period (through \(closed)) changed: \($0.description)" }
        if touched.count > 50 { lines.append("... and \(touched.count - 50) more changes in the closed period") }
        lines.append("nothing was built, the previous site is kept; undo the changes, or build with --allow-closed-changes to record them")
        throw BuildError(code: .dataError, message: lines.joined(separator: "\n"))
    }
}

private func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// A build that failed, with the exit code to exit with and, where there is one, the structured cause.
public struct BuildError: Error, Sendable, CustomStringConvertible {
    public var code: ExitStatus
    /// One or more lines, each naming what to fix.
    public var message: String
    /// Every store issue, when the store could not be read.
    public var storeIssues: StoreIssues?
    /// The template error, when a template is wrong.
    public var templateError: TemplateError?

    public init(code: ExitStatus, message: String, storeIssues: StoreIssues? = nil, templateError: TemplateError? = nil) {
        self.code = code
        self.message = message
        self.storeIssues = storeIssues
        self.templateError = templateError
    }

    public var description: String { message }
}
