import Foundation
internal import InvoicesCore
internal import InvoicesReport

/// The machine-readable exports beside the pages: `report.json`, `totals.csv`, `aging.csv`, `payments.csv`,
/// `taxes.csv`, `books.journal`, `books.beancount` (docs/exports.md). They show the whole books, and are written piece by piece: at 2,000,000 invoices
/// they are 670 MB together.
struct ExportFiles: SiteWidePageKind, PiecedPageKind {
    let site: SiteView
    var key: String { "exports" }
    func inputs(_ inputs: SiteBuilder.Inputs) -> UInt64 { fingerprint(inputs.all, templates: []) }
}

extension ExportFiles {
    static let rootNames = ReportExports.File.allCases.map(\.rawValue) + [BooksJournal.fileName, BooksJournal.beancountFileName, DATEVExport.folder]
}

extension ExportFiles {
    /// The machine-readable exports written beside the pages: `report.json`, `totals.csv`, `aging.csv`,
    /// `payments.csv`, `taxes.csv` (docs/exports.md).
    func files() -> [File] {
        let exports = self.exports
        return ReportExports.File.allCases.map { File(path: $0.rawValue, data: exports.data($0)) }
            + [journal, beancount].map { File(path: $0.fileName, data: Data($0.data())) }
            + datev.map { File(path: $0.path, data: Data($0.data)) }
    }

    /// The exports, each written into `staging` piece by piece: at 2,000,000 invoices they are 670 MB together.
    func write(to staging: SiteStaging) throws(SiteWriteError) -> [SiteManifest.File] {
        let exports = self.exports
        var files: [SiteManifest.File] = []
        for file in ReportExports.File.allCases {
            files.append(try staging.write(file.rawValue) { emit in exports.write(file, into: emit) })
        }
        for journal in [journal, beancount] {
            files.append(try staging.write(journal.fileName) { emit in journal.write(into: emit) })
        }
        for file in (try? datevExport?.layouts()) ?? [] {
            files.append(try staging.write(file.path) { emit in file.layout.write(into: emit) })
        }
        return files
    }

    /// The exports, as ``write(to:)`` writes them, but `report.json`, `totals.csv`, `aging.csv`, `payments.csv`,
    /// `books.journal`, `books.beancount` and the DATEV files in pieces (``ExportPieces``): a piece whose key is in the previous
    /// build's index, in a previous file still as its manifest recorded it, is taken from that file instead of made.
    /// The new index is written beside the output (it holds for the files of this build; see ``ExportPieces`` on why
    /// a build that fails later does no harm).
    func write(to staging: SiteStaging, inputs: SiteBuilder.Inputs, previous: SiteManifest?) throws(SiteWriteError) -> [SiteManifest.File] {
        let exports = self.exports
        let url = staging.writer.piecesURL
        let index = previous == nil ? nil : ExportPieces.read(url)
        var written = ExportPieces()
        let clientKeys = report.clients.map { inputs.clients[$0.clientIndex] }
        let payments = inputs.paymentRuns(books)
        var files: [SiteManifest.File] = []
        for file in ReportExports.File.allCases {
            let path = file.rawValue
            let keys: [UInt64]
            switch file {
            case .json, .totals, .aging: keys = clientKeys.map { SiteBuilder.Inputs.pieceKey(path, $0) }
            case .payments: keys = payments.keys.map { SiteBuilder.Inputs.pieceKey(path, $0) }
            // A few rows per tax and month, from every invoice: made every time.
            case .taxes: keys = [SiteBuilder.Inputs.pieceKey(path, inputs.all)]
            }
            let source = ExportPieces.Source(path, index: index?.files[path], manifest: previous, root: staging.writer.output.path)
            let result = try staging.write(
                path, layout: exports.layout(file, paymentRuns: payments.runs), keys: keys, previous: source)
            files.append(result.file)
            written.files[path] = result.index
        }
        // The journals: a head made every time (declarations, opening balances), then runs of transactions.
        let journalRuns = inputs.journalRuns(books, site.figures.journal)
        for journal in [journal, beancount] {
            let path = journal.fileName
            let source = ExportPieces.Source(path, index: index?.files[path], manifest: previous, root: staging.writer.output.path)
            let result = try staging.write(
                path, layout: journal.layout(runs: journalRuns.runs), keys: journalRuns.keys.map { SiteBuilder.Inputs.pieceKey(path, $0) },
                previous: source)
            files.append(result.file)
            written.files[path] = result.index
        }
        // The build checked the DATEV files before writing anything (BuildPipeline): they cannot fail here.
        files += try writeDATEV(to: staging, journalRuns: journalRuns, index: index, previous: previous, written: &written)
        // Without an index the next build makes every piece: a failure here costs time, never correctness.
        try? written.write(to: url)
        return files
    }

    /// The DATEV Buchungsstapel files when `datev:` is set (docs/exports.md), of the figures' transactions: the build
    /// refused them before writing anything when they could not be written (BuildPipeline), so a refusal writes none.
    private var datev: [DATEVFile] {
        ((try? datevExport?.layouts()) ?? []).map { file in
            var data: [UInt8] = []
            file.layout.write { data.append(contentsOf: $0) }
            return DATEVFile(path: file.path, data: data)
        }
    }

    /// `books.journal`, the double-entry journal for hledger and Ledger (docs/exports.md), with the `journal:` accounts.
    private var journal: BooksJournal {
        BooksJournal(books: books, report: report, transactions: site.figures.journal, accounts: options.journalAccounts)
    }

    /// `books.beancount`, the same transactions for beancount 3 (docs/exports.md).
    private var beancount: BooksJournal {
        BooksJournal(books: books, report: report, transactions: site.figures.journal, syntax: .beancount)
    }

    private var exports: ReportExports {
        ReportExports(
            books: books, report: report, conversion: site.convertedTotals(), fiscalYearStart: options.fiscalYearStart,
            csvDialect: options.csvDialect)
    }
}
