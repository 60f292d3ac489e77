internal import Mustache

/// A long list for a template section (`{{#invoices}}…{{/invoices}}`), given column by column instead of as one
/// dictionary per row.
///
/// When the section's body compiles to a ``RowTemplate``, the rows are rendered by it after cmark, straight into
/// the page (see ``TemplateSet``); otherwise Mustache iterates the list as dictionaries, one made per row as it
/// goes. Empty values are left out of a row's dictionary, so `{{#paid}}…{{/paid}}` means "when paid" on both
/// paths.
final class RowList: Sequence, MustacheSequence, MustacheParent {
    let columns: [String]
    let count: Int
    let cell: (_ row: Int, _ column: Int) -> String
    /// The page's lists, for the rows that are rendered after cmark.
    private let registry: RowListRegistry?

    init(columns: [String], count: Int, registry: RowListRegistry?, cell: @escaping (_ row: Int, _ column: Int) -> String) {
        self.columns = columns
        self.count = count
        self.cell = cell
        self.registry = registry
    }

    /// A placeholder for this list's rows rendered with the compiled row template `__fast_N`.
    func child(named name: String) -> Any? {
        guard name.hasPrefix(RowListRegistry.fastPrefix), let template = Int(name.dropFirst(RowListRegistry.fastPrefix.count)),
            let registry
        else { return nil }
        return registry.placeholder(for: self, template: template)
    }

    func makeIterator() -> AnyIterator<[String: Any]> {
        var row = 0
        return AnyIterator { [self] in
            guard row < count else { return nil }
            defer { row += 1 }
            var values: [String: Any] = [:]
            for (column, name) in columns.enumerated() {
                let value = cell(row, column)
                if !value.isEmpty { values[name] = value }
            }
            return values
        }
    }
}

/// The lists of one page whose rows go in after cmark, each behind an HTML comment placeholder.
final class RowListRegistry {
    static let fastPrefix = "__fast_"
    private var entries: [(list: RowList, template: Int)] = []
    private let marker: String

    init(marker: String) { self.marker = marker }

    func placeholder(for list: RowList, template: Int) -> String {
        entries.append((list, template))
        return "<!--\(marker):\(entries.count - 1)-->"
    }

    /// `html` with every placeholder replaced by its rows.
    func substitute(in html: String, templates: [RowTemplate]) -> String {
        guard !entries.isEmpty else { return html }
        var output = ""
        output.reserveCapacity(html.utf8.count * 2)
        var rest = html[...]
        let opening = "<!--\(marker):"
        while let range = rest.firstRange(of: opening) {
            output += rest[..<range.lowerBound]
            guard let close = rest[range.upperBound...].firstRange(of: "-->"),
                let index = Int(rest[range.upperBound..<close.lowerBound]), index < entries.count
            else {
                output += rest[range]
                rest = rest[range.upperBound...]
                continue
            }
            let (list, template) = entries[index]
            for row in 0..<list.count { templates[template].render(into: &output) { list.cell(row, $0) } }
            if output.hasSuffix("\n"), rest[close.upperBound...].hasPrefix("\n") { output.removeLast() }
            rest = rest[close.upperBound...]
        }
        output += rest
        return output
    }
}
