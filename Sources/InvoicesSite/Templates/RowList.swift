internal import Mustache

/// A long list for a template section (`{{#invoices}}…{{/invoices}}`), given column by column instead of as one
/// dictionary per row.
///
/// When the section's body compiles to a ``RowTemplate``, the rows are rendered by it after cmark, straight into
/// the page (see ``TemplateSet``); otherwise Mustache iterates the list as dictionaries, one made per row as it
/// goes. An empty value is in a row's dictionary as ``EmptyValue``: it renders as nothing, a section over it is
/// skipped and an inverted section shown, and a name is never looked up past the row. Both paths agree on this.
final class RowList: Sequence, MustacheSequence, MustacheParent {
    let columns: [String]
    let count: Int
    let cell: (_ row: Int, _ column: Int) -> String
    /// The page's lists, for the rows that are rendered after cmark. Weak: the registry holds the lists it hands
    /// placeholders for, and a strong reference back would keep every page's rows alive to the end of the build.
    private weak var registry: RowListRegistry?

    init(columns: [String], count: Int, registry: RowListRegistry?, cell: @escaping (_ row: Int, _ column: Int) -> String) {
        self.columns = columns
        self.count = count
        self.cell = cell
        self.registry = registry
    }

    /// The placeholder for this list's rows rendered with the compiled row template `__fast_N`; nil (the section
    /// is skipped, as Mustache skips an empty list) when there are no rows.
    func child(named name: String) -> Any? {
        guard name.hasPrefix(RowListRegistry.fastPrefix), let template = Int(name.dropFirst(RowListRegistry.fastPrefix.count)),
            let registry, count > 0
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
                values[name] = value.isEmpty ? EmptyValue() : value
            }
            return values
        }
    }
}

/// An empty value of a row: present (so Mustache does not look the name up in the enclosing sections) but null.
struct EmptyValue: MustacheCustomRepresentation {
    var representation: Any? { nil }
}

/// The lists of one page whose rows go in after cmark, each behind a placeholder line that starts an HTML block
/// (`<div data-invoices-rows="3">`).
final class RowListRegistry {
    static let fastPrefix = "__fast_"
    private var entries: [(list: RowList, template: Int)] = []
    private let marker: String

    init(marker: String) { self.marker = marker }

    var isEmpty: Bool { entries.isEmpty }

    func placeholder(for list: RowList, template: Int) -> String {
        entries.append((list, template))
        return String(decoding: line(entries.count - 1), as: UTF8.self)
    }

    private func line(_ index: Int) -> [UInt8] { Array("<div \(marker)=\"\(index)\">".utf8) }

    /// Where the line that starts at byte `start` of `text` ends: at the next line feed, or at the end. A line feed
    /// right after a carriage return does not end a line: `"\r\n"` is one `Character`, and lines here are split as
    /// the `Character`-level reading of the page splits them (the row path's proofs rely on it).
    private static func lineEnd(in text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < text.count {
            if text[index] == UInt8(ascii: "\n"), index == 0 || text[index - 1] != UInt8(ascii: "\r") { return index }
            index += 1
        }
        return index
    }

    /// The byte offsets of the placeholder lines in `text`: each exactly once, alone on its line at the first
    /// column, and nothing else that looks like one.
    private func lines(in text: UnsafeBufferPointer<UInt8>) -> [Int]? {
        let prefix = Array("<div \(marker)=".utf8)
        var found: [Int] = []
        var start = 0
        while start <= text.count {
            let end = Self.lineEnd(in: text, from: start)
            let line = UnsafeBufferPointer(rebasing: text[start..<end])
            if line.starts(with: prefix) {
                guard found.count < entries.count, line.elementsEqual(self.line(found.count)) else { return nil }
                found.append(start)
            }
            start = end + 1
        }
        return found.count == entries.count ? found : nil
    }

    /// Whether every placeholder in `markdown` sits where the rows it stands for would come out of cmark unchanged.
    ///
    /// A placeholder line and a row's lines all start with a kind-6 HTML tag at the first column: whatever block
    /// cmark is in, each interrupts or continues it the same way, and both are copied verbatim (checked in the
    /// HTML). After them cmark is either in an HTML block ended by a blank line, or in none: the line that follows
    /// must then be blank, the end, or a kind-6 tag too, so that both states read it the same.
    func placeholdersAreProvable(in markdown: String) -> Bool {
        var markdown = markdown
        return markdown.withUTF8 { text in
            guard let starts = lines(in: text) else { return false }
            for start in starts {
                let end = Self.lineEnd(in: text, from: start)
                guard end < text.count else { return false }
                let next = text[(end + 1)..<Self.lineEnd(in: text, from: end + 1)]
                let blank = next.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
                guard blank || HTMLBlock.startsKind6(Substring(decoding: next, as: UTF8.self)) else { return false }
            }
            return true
        }
    }

    /// `html` with every placeholder line replaced by its rows, as UTF-8; nil when a placeholder did not come out of
    /// cmark exactly as it went in.
    func substitute(in html: String, templates: [RowTemplate]) -> [[UInt8]]? {
        var html = html
        return html.withUTF8 { text -> [[UInt8]]? in
            guard let starts = lines(in: text) else { return nil }
            // In pieces of about a megabyte: a list of 300,000 rows never sits in one buffer that doubles as it grows.
            let pieceSize = 1 << 20
            var pieces: [[UInt8]] = []
            var output: [UInt8] = []
            output.reserveCapacity(min(text.count * 2, pieceSize) + (1 << 16))
            var position = 0
            for (index, start) in starts.enumerated() {
                let end = Self.lineEnd(in: text, from: start)
                guard end < text.count else { return nil }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: text[position..<start]))
                let (list, template) = entries[index]
                // Each cell at most once per row, although a template may show it twice or test it in a section.
                var cells = [String?](repeating: nil, count: list.columns.count)
                for row in 0..<list.count {
                    for column in cells.indices { cells[column] = nil }
                    templates[template].render(into: &output) { column in
                        if let cell = cells[column] { return cell }
                        let cell = list.cell(row, column)
                        cells[column] = cell
                        return cell
                    }
                    if output.count >= pieceSize {
                        pieces.append(output)
                        output = []
                        output.reserveCapacity(pieceSize + (1 << 16))
                    }
                }
                position = end + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: text[position...]))
            pieces.append(output)
            return pieces
        }
    }
}

/// swift-mustache on its own, for comparing the compiled row path with it (tests and fuzzing).
enum MustacheReference {
    /// Values HTML-escaped as ``HTMLEscaping`` escapes them (the escaping rows get after cmark).
    struct RowsHTML: MustacheContentType {
        func escapeText(_ text: String) -> String {
            var output = ""
            HTMLEscaping.append(text, to: &output)
            return output
        }
    }

    private static let registration: Void = { MustacheContentTypes.register(RowsHTML(), named: "ROWS_HTML") }()

    /// `text` rendered by swift-mustache for `row` (empty values as ``EmptyValue``), values escaped for HTML; nil
    /// when swift-mustache does not parse it.
    static func render(_ text: String, row: [String: String]) -> String? {
        _ = registration
        guard let template = try? MustacheTemplate(string: "{{%CONTENT_TYPE:ROWS_HTML}}\n" + text) else { return nil }
        return template.render(row.mapValues { $0.isEmpty ? EmptyValue() as Any : $0 as Any })
    }
}
