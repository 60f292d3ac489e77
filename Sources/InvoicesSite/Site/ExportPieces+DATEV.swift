internal import InvoicesCore
internal import InvoicesReport

extension SiteBuilder.Inputs {
    /// The keys of the DATEV files' runs (``InvoicesReport/DATEVExport/layouts(runs:)``): per run of
    /// ``journalRuns(_:_:)``, its key (what its transactions show, and ``base``, which holds the `datev:` settings,
    /// the rates, the fiscal year's start and the period) with the debtor account of each transaction's client.
    /// ``pieceKey(_:_:)`` adds the file's name, so the two parts of a run a fiscal year's end cuts have their own.
    static func datevRunKeys(
        _ books: Books, _ transactions: BooksJournal.Transactions, runs: [Range<Int>], keys: [UInt64], debtors: [Int: Int]
    ) -> [UInt64] {
        let accounts = books.clients.indices.map { debtors[$0] ?? 0 }
        return zip(runs, keys).map { run, key in
            var fingerprint = Fingerprint(seed: key)
            for entry in transactions.entries[run] {
                fingerprint.add(accounts[Int(books.invoices[Int(entry.invoice)].clientIndex)])
            }
            return fingerprint.value
        }
    }
}

extension ExportFiles {
    /// The DATEV export of the figures' transactions, when `datev:` is set and the build's check passed
    /// (BuildPipeline refuses the build before anything is written otherwise).
    var datevExport: DATEVExport? {
        guard let datev = site.figures.datev, datev.refusal == nil else { return nil }
        return datev.export(books: books, report: report, transactions: site.figures.journal, fiscalYearStart: site.figures.fiscalYearStart)
    }

    /// Writes the DATEV files into `staging` in pieces (``InvoicesReport/DATEVExport/layouts(runs:)``), each cut
    /// from a run of the journals' (`journalRuns`) and taken from the previous file when its key is in `index`.
    func writeDATEV(
        to staging: SiteStaging, journalRuns: (runs: [Range<Int>], keys: [UInt64]), index: ExportPieces?, previous: SiteManifest?,
        written: inout ExportPieces
    ) throws(SiteWriteError) -> [SiteManifest.File] {
        guard let export = datevExport, let debtors = try? export.debtorAccounts(),
            let layouts = try? export.layouts(runs: journalRuns.runs)
        else { return [] }
        let runKeys = SiteBuilder.Inputs.datevRunKeys(books, export.transactions, runs: journalRuns.runs, keys: journalRuns.keys, debtors: debtors)
        var files: [SiteManifest.File] = []
        for file in layouts {
            let source = ExportPieces.Source(file.path, index: index?.files[file.path], manifest: previous, root: staging.writer.output.path)
            let result = try staging.write(
                file.path, layout: file.layout, keys: file.runs.map { SiteBuilder.Inputs.pieceKey(file.path, runKeys[$0]) }, previous: source)
            files.append(result.file)
            written.files[file.path] = result.index
        }
        return files
    }
}
