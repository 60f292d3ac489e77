internal import Foundation
internal import InvoicesCore
internal import InvoicesReport
public import InvoicesSite
public import InvoicesStore

/// One build of a report site, phase by phase: load the store, compute the totals, render the pages, write them.
///
/// The CLI's `build` and `serve` use it; progress is reported through ``BuildPipeline/Observer``.
public struct BuildPipeline: Sendable {
    /// What to build from and where to.
    public struct Configuration: Sendable {
        public var store: String
        public var templates: String?
        public var output: String
        public var site: SiteOptions
        /// Which Invoice attributes hold the dates when the store is a Core Data store.
        public var coreDataMapping = CoreDataMapping()

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
    }

    public let configuration: Configuration

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Runs the build.
    /// - Throws: ``BuildError`` with the exit code the CLI should use.
    public func run(observer: Observer? = nil) async throws(BuildError) -> Result {
        var timings: [Phase: Double] = [:]
        let clock = ContinuousClock()
        func seconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }

        let templates: TemplateSet
        do {
            templates = try TemplateSet(directory: configuration.templates)
        } catch {
            throw BuildError(code: error.code == .missingFolder ? .missingInput : .dataError, message: error.description)
        }

        var start = clock.now
        observer?(.load, 0, 1, nil)
        let books: Books
        var warnings: [String] = []
        do {
            var loader = StoreLoader(path: configuration.store)
            loader.coreDataMapping = configuration.coreDataMapping
            let loaded = try loader.loadWithWarnings()
            books = loaded.books
            warnings = loaded.warnings.map(\.description)
            if loaded.totalWarnings > loaded.warnings.count { warnings.append("... and \(loaded.totalWarnings - loaded.warnings.count) more warnings") }
        } catch {
            throw BuildError(code: error.errors.contains { $0.kind == .missing } ? .missingInput : .dataError, message: error.description)
        }
        timings[.load] = seconds(clock.now - start)
        observer?(.load, 1, 1, "\(books.clients.count) clients, \(books.invoices.count) invoices")

        start = clock.now
        observer?(.totals, 0, 1, nil)
        let report: Report
        do {
            report = try Report(books: books, period: configuration.site.period)
        } catch {
            throw BuildError(code: .dataError, message: "\(configuration.store): \(error.description)")
        }
        timings[.totals] = seconds(clock.now - start)
        observer?(.totals, 1, 1, "\(report.clients.count) clients, \(report.currencies.count) currencies, \(report.months.count) months")

        start = clock.now
        let site = SiteBuilder(books: books, report: report, templates: templates, options: configuration.site)
        // Pages are written into the staging folder as they are rendered (both cores); the write phase is the
        // swap of the complete folder into place.
        let staging: SiteStaging
        do {
            staging = try SiteWriter(output: configuration.output).begin()
        } catch {
            throw BuildError(code: .cannotCreateOutput, message: error.description)
        }
        do {
            observer?(.render, 0, 0, nil)
            try await site.write(to: staging) { done, total in observer?(.render, done, total, nil) }
        } catch {
            staging.discard()
            throw BuildError(code: .cannotCreateOutput, message: error.description)
        }
        timings[.render] = seconds(clock.now - start)
        observer?(.render, 1, 1, "pages rendered and written")

        start = clock.now
        observer?(.write, 0, 1, nil)
        let summary: BuildSummary
        do {
            summary = try staging.commit()
        } catch {
            throw BuildError(code: .cannotCreateOutput, message: error.description)
        }
        timings[.write] = seconds(clock.now - start)
        observer?(.write, 1, 1, "\(summary.files) files, \(summary.changed) changed")
        return Result(summary: summary, timings: timings, warnings: warnings)
    }
}

/// A build that failed, with the sysexits code to exit with.
public struct BuildError: Error, Sendable, CustomStringConvertible {
    public enum Code: Int32, Sendable {
        case usage = 64
        case dataError = 65
        case missingInput = 66
        case internalError = 70
        case cannotCreateOutput = 73
    }

    public var code: Code
    /// One or more lines, each naming what to fix.
    public var message: String

    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
