import Foundation
internal import InvoicesCore
internal import InvoicesReport

/// The machine-readable exports beside the pages: `report.json`, `totals.csv`, `aging.csv`, `payments.csv`,
/// `taxes.csv`, `books.journal`, `books.beancount` and the DATEV files (docs/exports.md). They show the whole books,
/// and are written piece by piece: at 2,000,000 invoices they are 670 MB together.
///
/// A build writes them as several units (``Part``), each a job of its own, so the scheduler spreads them over the
/// cores beside the pages instead of one core writing them all; the values they share are worked out once per build
/// (``SiteBuilder/Inputs/ExportValues``). `ExportFiles(site:)` is every part at once (``files()``, for tests).
struct ExportFiles: SiteWidePageKind, PiecedPageKind {
    let site: SiteView
    /// The exports this unit writes, in their order.
    var parts: [Part] = Part.allCases

    init(site: SiteView) { self.site = site }

    init(site: SiteView, part: Part) {
        self.site = site
        parts = [part]
    }

    /// A unit of the exports, of files of similar cost: the journals each apart (most of the exports' bytes),
    /// DATEV apart.
    enum Part: String, CaseIterable, Sendable {
        case json, tables, payments, journal, beancount, datev

        /// The order their jobs start in: the longest first (the journals are most of the exports' bytes), so the
        /// cores end together.
        static let longestFirst: [Part] = [.journal, .beancount, .datev, .json, .payments, .tables]

        /// Its files of ``InvoicesReport/ReportExports``.
        var reportFiles: [ReportExports.File] {
            switch self {
            case .json: [.json]
            case .tables: [.totals, .aging]
            case .payments: [.payments, .taxes]
            case .journal, .beancount, .datev: []
            }
        }
    }

    /// The unit's key in the manifest: `exports` for all of them, `exports:<part>` for one.
    var key: String { parts.count == 1 ? "exports:\(parts[0].rawValue)" : "exports" }
    func inputs(_ inputs: SiteBuilder.Inputs) -> UInt64 { fingerprint(inputs.all, templates: []) }

    /// One job per part; without DATEV's when `datev:` is not set or the build refused it.
    static func jobs(in site: SiteView) -> [[any PageKind]] {
        let datev = site.figures.datev.map { $0.refusal == nil } ?? false
        return Part.longestFirst.filter { datev || $0 != .datev }.map { [ExportFiles(site: site, part: $0)] }
    }
}

extension ExportFiles {
    static let rootNames = ReportExports.File.allCases.map(\.rawValue) + [BooksJournal.fileName, BooksJournal.beancountFileName, BooksJournal.folder, DATEVExport.folder]
}

extension ExportFiles {
    /// The machine-readable exports written beside the pages, in memory.
    func files() -> [File] {
        let exports = self.exports
        var files: [File] = []
        for part in parts {
            files += part.reportFiles.map { File(path: $0.rawValue, data: exports.data($0)) }
            switch part {
            case .journal, .beancount:
                files += (part == .journal ? journal : beancount).files().map { File(path: $0.path, data: Data($0.data)) }
            // The build checked the DATEV files before writing anything (BuildPipeline): a refusal writes none.
            case .datev: files += ((try? datevLayouts()) ?? []).map { File(path: $0.path, data: Data($0.layout.data())) }
            case .json, .tables, .payments: break
            }
        }
        return files
    }

    /// The exports, each written into `staging` piece by piece: at 2,000,000 invoices they are 670 MB together.
    func write(to staging: SiteStaging) throws(SiteWriteError) -> [SiteManifest.File] {
        let exports = self.exports
        var files: [SiteManifest.File] = []
        for part in parts {
            for file in part.reportFiles {
                files.append(try staging.write(file.rawValue) { emit in exports.write(file, into: emit) })
            }
            switch part {
            case .journal, .beancount:
                for file in (part == .journal ? journal : beancount).layouts() {
                    files.append(try staging.write(file.path) { emit in file.layout.write(into: emit) })
                }
            case .datev:
                for file in try datevLayouts(staging) {
                    files.append(try staging.write(file.path) { emit in file.layout.write(into: emit) })
                }
            case .json, .tables, .payments: break
            }
        }
        return files
    }

    /// The exports, as ``write(to:)`` writes them, but `report.json`, `totals.csv`, `aging.csv`, `payments.csv`,
    /// `books.journal`, `books.beancount` and the DATEV files in pieces (``ExportPieces``): a piece whose key is in the previous
    /// build's index, in a previous file still as its manifest recorded it, is taken from that file instead of made.
    /// Each file's new index goes to the build's inputs (``SiteBuilder/Inputs/ExportValues``), which the build
    /// writes beside the output once every unit is written (see ``ExportPieces`` on why a build that fails later
    /// does no harm).
    func write(to staging: SiteStaging, inputs: SiteBuilder.Inputs, previous: SiteManifest?) throws(SiteWriteError) -> [SiteManifest.File] {
        let shared = inputs.exportValues
        let index = previous == nil ? nil : shared.previousIndex(staging.writer.piecesURL)
        let root = staging.writer.output.path
        var files: [SiteManifest.File] = []
        func write(_ path: String, _ layout: ExportLayout, keys: [UInt64]) throws(SiteWriteError) {
            let source = ExportPieces.Source(path, index: index?.files[path], manifest: previous, root: root)
            let result = try staging.write(path, layout: layout, keys: keys, previous: source)
            files.append(result.file)
            shared.add(path, result.index)
        }
        for part in parts {
            switch part {
            case .json, .tables, .payments:
                let exports = self.exports
                let clientKeys = report.clients.map { inputs.clients[$0.clientIndex] }
                for file in part.reportFiles {
                    let path = file.rawValue
                    switch file {
                    case .json, .totals, .aging:
                        try write(path, exports.layout(file), keys: clientKeys.map { SiteBuilder.Inputs.pieceKey(path, $0) })
                    case .payments:
                        let payments = inputs.paymentRuns(books)
                        try write(
                            path, exports.layout(file, paymentRuns: payments.runs), keys: payments.keys.map { SiteBuilder.Inputs.pieceKey(path, $0) })
                    // A few rows per tax and month, from every invoice: made every time.
                    case .taxes: try write(path, exports.layout(file), keys: [SiteBuilder.Inputs.pieceKey(path, inputs.all)])
                    }
                }
            // The journals: the main file made every time (declarations, opening balances, the years' includes), then
            // each fiscal year's file, its runs of transactions cut at the year's ends (a piece's key is its run's
            // and the year file's name).
            case .journal, .beancount:
                let journal = part == .journal ? self.journal : beancount
                let runs = shared.journalRuns { inputs.journalRuns(books, site.figures.journal) }
                for file in journal.layouts(runs: runs.runs) {
                    try write(file.path, file.layout, keys: file.runs.map { SiteBuilder.Inputs.pieceKey(file.path, runs.keys[$0]) })
                }
            case .datev:
                let runs = shared.journalRuns { inputs.journalRuns(books, site.figures.journal) }
                for file in try datevLayouts(staging, runs: runs) {
                    try write(file.layout.path, file.layout.layout, keys: file.keys)
                }
            }
        }
        return files
    }

    /// `books.journal`, the double-entry journal for hledger and Ledger (docs/exports.md), with the `journal:` accounts.
    private var journal: BooksJournal {
        BooksJournal(
            books: books, report: report, transactions: site.figures.journal, accounts: options.journalAccounts,
            fiscalYearStart: options.fiscalYearStart)
    }

    /// `books.beancount`, the same transactions for beancount 3 (docs/exports.md).
    private var beancount: BooksJournal {
        BooksJournal(
            books: books, report: report, transactions: site.figures.journal, syntax: .beancount, fiscalYearStart: options.fiscalYearStart)
    }

    private var exports: ReportExports {
        ReportExports(
            books: books, report: report, conversion: site.convertedTotals(), fiscalYearStart: options.fiscalYearStart,
            csvDialect: options.csvDialect)
    }
}
