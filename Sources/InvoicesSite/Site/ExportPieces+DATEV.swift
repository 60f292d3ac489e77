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

    /// The DATEV files as heads and pieces (``InvoicesReport/DATEVExport/layouts(runs:)``), none when `datev:` is not
    /// set or the build refused it.
    /// - Throws: the ``InvoicesReport/DATEVError`` of the layouts: the build checked the files before writing
    ///   anything (BuildPipeline), so only figures the check did not see reach it.
    func datevLayouts() throws(DATEVError) -> [DATEVExport.FileLayout] {
        try datevExport?.layouts() ?? []
    }

    /// ``datevLayouts()`` for a build writing into `staging`: a refusal is the build's error, never a site
    /// silently without its DATEV files.
    func datevLayouts(_ staging: SiteStaging) throws(SiteWriteError) -> [DATEVExport.FileLayout] {
        do { return try datevLayouts() } catch { throw Self.datevError(error, staging) }
    }

    /// Each DATEV file as heads and pieces, cut from the journals' runs (`runs`), with each piece's key.
    func datevLayouts(
        _ staging: SiteStaging, runs: (runs: [Range<Int>], keys: [UInt64])
    ) throws(SiteWriteError) -> [(layout: DATEVExport.FileLayout, keys: [UInt64])] {
        guard let export = datevExport else { return [] }
        let debtors: [Int: Int]
        let layouts: [DATEVExport.FileLayout]
        do {
            debtors = try export.debtorAccounts()
            layouts = try export.layouts(runs: runs.runs)
        } catch { throw Self.datevError(error, staging) }
        let runKeys = SiteBuilder.Inputs.datevRunKeys(books, export.transactions, runs: runs.runs, keys: runs.keys, debtors: debtors)
        return layouts.map { file in (file, file.runs.map { SiteBuilder.Inputs.pieceKey(file.path, runKeys[$0]) }) }
    }

    private static func datevError(_ error: DATEVError, _ staging: SiteStaging) -> SiteWriteError {
        SiteWriteError(
            path: staging.writer.output.appendingPathComponent(DATEVExport.folder).path, message: "cannot write the DATEV files: \(error.message)")
    }
}
