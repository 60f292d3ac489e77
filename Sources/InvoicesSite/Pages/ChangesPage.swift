import Foundation
internal import InvoicesCore
internal import InvoicesReport

/// `changes.html` and `changes.csv`: what changed in the books since the previous report (``ChangeLog``).
struct ChangesPage: SiteWidePageKind {
    let site: SiteView
    /// The currencies of the invoices the page's amounts belong to (``SiteView/changeCurrencies(_:)``), once
    /// ``prepared()`` has worked them out: a pass over the books' invoices, which both its inputs and its files need.
    var currencies: [String: CurrencyCode]? = nil
    var key: String { "changes" }

    init(site: SiteView) { self.site = site }
}

extension ChangesPage {
    static var templateContexts: [String: any PageContext.Type] { ["changes": Context.self] }
    static let rootNames = [SitePaths.changesCSV]
    /// Written once the build has compared the books with the previous trail (``SiteBuilder/writeChanges(to:previous:into:)``).
    static var writtenLast: Bool { true }
}

extension ChangesPage {
    /// What `changes.html` shows: whether there was a previous report, the changes to documents and to figures (at
    /// most ``changesOnPage`` of each) and how many more `changes.csv` has.
    struct Context: PageContext {
        var hasPrevious: Bool
        var hasChanges: Bool
        var documents: [Change]
        var documentCount: Int
        var figures: [Change]
        var figureCount: Int
        var more: Int
        /// The last day of the closed periods, when some are.
        var closedThrough: String?
    }

    /// One change: what changed (a document's or a figure's `name`), how, which field, from what to what, and
    /// whether it is in a closed period.
    struct Change: Codable, Sendable {
        var name: String
        var change: String
        var field: String
        var before: String
        var after: String
        var closed: Bool
    }

    /// How many changes the page lists; changes.csv has them all.
    static let changesOnPage = 2_000

    /// `changes.html` and `changes.csv`.
    func files() -> [File] {
        let log = site.changeLog
        let documents = log.changes.filter { $0.kind.isDocument }
        let figures = log.changes.filter { !$0.kind.isDocument }
        let currencies = pageCurrencies()
        func rows(_ changes: [Trail.Change]) -> [Change] {
            changes.prefix(Self.changesOnPage).map { change in
                // In the page's words and formats (ChangesPage+Words.swift, +Values.swift); changes.csv keeps the trail's.
                func value(_ field: String, _ text: Substring) -> String {
                    site.changeValue(String(text), field: field, of: change, currencies: currencies)
                }
                return Change(
                    name: site.changeName(change), change: site.changeWord(change.what), field: site.changeField(change.field),
                    before: change.what == .removed
                        ? site.changeSummary(change.before, kind: change.kind, value: value) : value(change.field, Substring(change.before)),
                    after: change.what == .added
                        ? site.changeSummary(change.after, kind: change.kind, value: value) : value(change.field, Substring(change.after)),
                    closed: change.closed)
            }
        }
        let context = Context(
            hasPrevious: log.hasPrevious, hasChanges: !log.changes.isEmpty,
            documents: rows(documents), documentCount: documents.count,
            figures: rows(figures), figureCount: figures.count,
            more: max(documents.count - Self.changesOnPage, 0) + max(figures.count - Self.changesOnPage, 0),
            closedThrough: log.closedThrough.map(site.date))
        return [
            site.page(SitePaths.changes, template: "changes", title: site.word("changes.title"), context),
            File(path: SitePaths.changesCSV, data: Data(log.csv(dialect: options.csvDialect).utf8)),
        ]
    }

    /// The currencies of the invoices of the documents the page lists (the first ``changesOnPage``): worked out by
    /// ``prepared()``, or here.
    func pageCurrencies() -> [String: CurrencyCode] {
        if let currencies { return currencies }
        return site.changeCurrencies(Array(site.changeLog.changes.lazy.filter { $0.kind.isDocument }.prefix(Self.changesOnPage)))
    }

    func prepared() -> ChangesPage {
        var page = self
        page.currencies = pageCurrencies()
        return page
    }

    /// What the page shows, with its template.
    func inputs(_ inputs: SiteBuilder.Inputs) -> UInt64 {
        var fingerprint = Fingerprint(seed: inputs.base)
        fingerprint.add(site.changeLog.hasPrevious ? "previous" : "first")
        fingerprint.add(site.changeLog.closedThrough?.description ?? "")
        fingerprint.add(site.changeLog.csv)
        // The invoices' currencies its amounts are written in (none on an English page).
        for (identifier, currency) in pageCurrencies().sorted(by: { $0.key < $1.key }) {
            fingerprint.add(identifier)
            fingerprint.add(currency.code)
        }
        return self.fingerprint(fingerprint.value, templates: ["changes"])
    }
}
