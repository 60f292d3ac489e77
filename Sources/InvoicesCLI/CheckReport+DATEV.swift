import InvoicesApp

extension CheckReport {
    /// The DATEV files `build` refuses to write (a client without a debtor account, two on one, a text Windows-1252
    /// cannot hold...): an error with build's own message, `path` (the store) and the refusal (exit 65).
    mutating func recordDATEVRefusal(_ books: BooksAndReport, path: String) {
        guard let refusal = BuildPipeline.datevRefusal(books) else { return }
        problems.append(Problem(source: "store", kind: "datev", path: path, message: refusal))
    }
}
