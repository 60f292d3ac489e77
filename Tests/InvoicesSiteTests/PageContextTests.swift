import Foundation
@testable import InvoicesSite
import Testing

/// A page's template scope is derived from its context's type (issue 42), and the page renders exactly what the
/// type holds.
struct PageContextTests {
    enum Columns: RowColumns { static var columns: [String] { ["a", "b"] } }

    struct Sample: PageContext {
        struct Item: Codable, Sendable {
            var label: String
            var detail: String?
        }
        var title: String
        var count: Int
        var shown: Bool
        var items: [Item]
        var link: PageLink?
        var rows: Rows<Columns>?
        var svg: Markup?
        var nested: Joined<PageLink, FirstRow>
    }

    @Test func theScopeHasEveryFieldOfTheTypeWithNoSampleValue() {
        let scope = Sample.scope
        #expect(Set(scope.names.keys) == Set(TemplateVariables.common + ["title", "count", "shown", "items", "link", "rows", "svg", "nested"]))
        // Lists and objects open their fields, an optional and an element of an empty list included.
        #expect(scope.names["items"] == .some(TemplateScope(values: ["label", "detail"])))
        #expect(scope.names["link"] == .some(TemplateScope(values: ["label", "href"])))
        #expect(scope.names["rows"] == .some(TemplateScope(values: ["a", "b"])))
        #expect(scope.names["nested"] == .some(TemplateScope(values: ["label", "href", "first"])))
        // Plain values open nothing.
        #expect(scope.names["title"] == .some(nil))
        #expect(scope.names["svg"] == .some(nil))
        #expect(scope.names["shown"] == .some(nil))
        // The long lists of the compiled row path are the type's Rows fields.
        #expect(Sample.fastLists.map(\.path) == [["rows"]])
        #expect(Sample.fastLists.map(\.columns) == [["a", "b"]])
    }

    @Test func thePageGetsTheValuesAsTheyAreAndNoAbsentOptional() throws {
        let sample = Sample(
            title: "T", count: 3, shown: false, items: [.init(label: "x", detail: nil)], link: nil,
            rows: Rows(count: 2) { row, column in "\(row)\(column)" }, svg: Markup("<svg/>"),
            nested: Joined(PageLink(label: "l", href: "h"), FirstRow(first: true)))
        let value = sample.mustacheValue()
        #expect(value["title"] as? String == "T")
        #expect(value["count"] as? Int == 3)
        #expect(value["shown"] as? Bool == false)
        #expect(value["link"] == nil, "a nil optional is absent, as a name the page does not set")
        let items = try #require(value["items"] as? [[String: Any]])
        #expect(items.count == 1 && items[0]["label"] as? String == "x" && items[0]["detail"] == nil)
        let rows = try #require(value["rows"] as? RowList)
        #expect(rows.count == 2 && rows.columns == ["a", "b"] && rows.cell(1, 0) == "10")
        #expect(value["svg"] as? String == MarkdownValues.html("<svg/>"))
        let nested = try #require(value["nested"] as? [String: Any])
        #expect(nested["href"] as? String == "h" && nested["first"] as? Bool == true)
    }

    /// Every built-in kind's scopes and fast lists come from its context types.
    @Test func everyBuiltInTemplateHasAContextType() {
        for kind in PageKinds.builtIn.kinds {
            #expect(Set(kind.templateScopes.keys) == Set(kind.templateContexts.keys), "\(kind)")
        }
        #expect(TemplateVariables.pages.count == 17, "16 page templates and the layout")
    }
}
