import Foundation
import InvoicesCore
import InvoicesReport
@testable import InvoicesSite
import InvoicesStore
import InvoicesTesting
import Synchronization
import Testing

/// Every built-in template is rendered with names its kind's scope has (issue 42): the contexts of every page of
/// whole sites, list pages included, are held to ``PageKind/templateScopes``, the scopes `invoices check` checks
/// the templates against.
struct ContextScopeTests {
    /// The names of `value` that `scope` does not have, as paths (`overview.totals.currency`).
    static func unknownNames(_ value: Any, _ scope: TemplateScope, _ path: String) -> [String] {
        if let list = value as? [[String: Any]] {
            return list.flatMap { unknownNames($0, scope, path) }
        }
        if let rows = value as? RowList {
            return rows.columns.filter { scope.names[$0] == nil }.map { "\(path).\($0)" }
        }
        guard let dictionary = value as? [String: Any] else { return [] }
        return dictionary.flatMap { key, inner -> [String] in
            guard let entry = scope.names[key] else { return ["\(path).\(key)"] }
            return entry.map { unknownNames(inner, $0, "\(path).\(key)") } ?? []
        }
    }

    /// Renders every file of `site`, and returns each template rendered with the names its contexts had that its
    /// kind's scope does not.
    static func audit(_ site: SiteBuilder) -> [String: [String]] {
        let found = Mutex<[String: [String]]>([:])
        let scopes = site.view.kinds.templateScopes
        SiteView.$contextAudit.withValue({ template, context in
            let unknown = scopes[template].map { unknownNames(context, $0, template) } ?? ["\(template): no scope"]
            found.withLock { $0[template, default: []] += unknown }
        }) {
            _ = site.files()
        }
        return found.withLock { $0 }
    }

    @Test(.temporaryFolder) func everyBuiltInTemplateIsRenderedWithinItsKindsScope() throws {
        let folder = try TemporaryFolder.current
        try SampleGenerator(clients: 30, invoices: 1_500, seed: 7).write(to: folder.path("s.sqlite"))
        let books = try BooksStore(path: folder.path("s.sqlite")).books
        var rendered: [String: [String]] = [:]
        // Whole lists, then every long list on pages of its own; with a base URL (the 404 page's links).
        for pageSize in [Pagination.defaultPageSize, 10] {
            var options = SiteOptions()
            options.pageSize = pageSize
            options.baseURL = "https://example.com/"
            options.fiscalYearStart = 4
            let site = SiteBuilder(books: books, report: try Report(books: books), templates: try TemplateSet(), options: options)
            rendered.merge(Self.audit(site)) { $0 + $1 }
        }
        for (template, unknown) in rendered.sorted(by: { $0.key < $1.key }) {
            #expect(unknown.isEmpty, "\(template): \(Set(unknown).sorted())")
        }
        let pageTemplates = Set(PageKinds.builtIn.templateScopes.keys).subtracting(["layout"])
        #expect(Set(rendered.keys) == pageTemplates, "every page template of every kind is rendered and checked")
        #expect(pageTemplates.count == 16)
    }

    @Test func aNameOutsideTheScopeIsFound() {
        let scope = TemplateVariables.page(["totals": TemplateScope(values: ["currency"])])
        #expect(Self.unknownNames(["root": "", "totals": [["currency": "EUR", "typo": "1"]]], scope, "p") == ["p.totals.typo"])
    }
}
