public import InvoicesCore
public import InvoicesReport
public import InvoicesStore
internal import ObjectContexts

/// The books of a store and their report, read the way the design says: the store file is the persistent store
/// of a read-only main context, and a private child context of it computes the figures off the main actor.
///
/// Only Sendable values leave the contexts: the ``InvoicesCore/Books`` (the store's own tables, shared, not
/// copied), the ``InvoicesReport/Report`` and the site's ``InvoicesReport/SiteFigures`` (statements, tax sources,
/// collections, fiscal periods, the journal's transactions, the DATEV files), all computed there before any page renders. `build`, `check` and `serve` all
/// start here.
public struct BooksAndReport: Sendable {
    /// Every client and invoice, as the child context handed them out.
    public var books: Books
    /// Every figure of the report's period.
    public var report: Report
    /// Every figure the site shows beyond the report's, computed with it: the pages only format them.
    public var figures: SiteFigures
    /// What the store's fetch assumed or rounded, one line each (with a last "... and N more" line).
    public var warnings: [String]
    /// The same warnings as issues, for callers that branch on their kind.
    public var warningIssues: [StoreIssue]
    /// How many warnings there were in all (``warningIssues`` holds the first ones).
    public var totalWarnings: Int
    /// The kind of store the file holds.
    public var format: StoreFormat

    /// Opens `store` and computes the report for `period`, and the site's figures for fiscal years starting in
    /// month `fiscalYearStart` (1–12), with the DATEV files when `datev` is set (their rows in other currencies than
    /// EUR converted by `rates`), in a private child of a read-only main context.
    /// - Throws: ``StoreIssues`` when the store cannot be read; ``InvoicesReport/ReportError`` when a sum overflows.
    ///   A DATEV file that cannot be written is not thrown: it is ``InvoicesReport/SiteFigures/datev``'s error.
    @MainActor
    public static func read(
        store: BooksStore, period: ReportPeriod, fiscalYearStart: Int = 1, datev: DATEVSettings? = nil, rates: ExchangeRates? = nil
    ) async throws -> BooksAndReport {
        let main = MainContext(store: store, readOnly: true, name: "books")
        let child = PrivateContext(parent: main, readOnly: true, name: "totals")
        let (books, report, figures) = try await child.perform { context in
            let books = try context.books()
            let report = try Report(books: books, period: period)
            return (books, report, SiteFigures(books: books, report: report, fiscalYearStart: fiscalYearStart, datev: datev, rates: rates))
        }
        return BooksAndReport(
            books: books, report: report, figures: figures, warnings: store.warningLines, warningIssues: store.warnings,
            totalWarnings: store.totalWarnings, format: store.format)
    }
}
