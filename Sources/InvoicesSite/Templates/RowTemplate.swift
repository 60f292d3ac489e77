/// A compiled template for one row of a long list (a table row per invoice), rendered without Mustache's dynamic
/// lookups and after cmark, straight into the page's HTML.
///
/// It is built from the section's body as ``TemplateSyntax`` parsed it (swift-mustache's rules, standalone lines
/// included), so it renders the same text swift-mustache would: `{{name}}`, `{{#name}}…{{/name}}`,
/// `{{^name}}…{{/name}}` on a value that is empty or not, and `{{! comments}}`, with names resolved once to the
/// row's columns. It compiles only when its output can be proven to pass through cmark unchanged as part of an
/// HTML block: every row renders at least one line; every line it can render starts with a block-level HTML tag
/// (`<tr`, `<td`, ... at column 0, which starts or continues an HTML block of CommonMark's kind 6, one that only a
/// blank line ends) and ends with a line break; no carriage return, NUL or end marker of another kind of HTML
/// block (`-->`, `?>`, `]]>`, `</pre>`...). Values are escaped for HTML, as the general path's values end up after
/// cmark (see ``MarkdownValues``). Anything else (partials, unescaped or dotted names, names that are not columns,
/// Markdown lines) does not compile, and the list renders through Mustache and cmark: the output is the same,
/// only slower. Related documentation: <https://spec.commonmark.org/0.30/#html-blocks>
struct RowTemplate: Sendable {
    enum Part: Sendable {
        case text(String)
        case escaped(Int)
        case section(Int, inverted: Bool, [Part])
    }

    let parts: [Part]

    /// Compiles a section's `body` for rows with `columns`; nil when it uses more than a row template proves.
    /// - Parameter htmlLines: whether to require the lines an HTML block passes through unchanged (off only to
    ///   compare the Mustache part alone with swift-mustache, in tests).
    init?(_ body: [TemplateSyntax.Node], columns: [String], htmlLines: Bool = true) {
        guard let parts = Self.compile(body, columns: columns) else { return nil }
        if htmlLines {
            // At least one line for every row (a placeholder line stands for one line or more), ...
            guard parts.contains(where: { if case .text(let text) = $0 { !text.isEmpty } else { false } }),
                Self.texts(of: parts).allSatisfy(Self.isSafeText),
                let ends = Self.lineStates(parts, from: [.lineStart]), ends == [.lineStart]
            else { return nil }
        }
        self.parts = parts
    }

    private static func compile(_ nodes: [TemplateSyntax.Node], columns: [String]) -> [Part]? {
        var parts: [Part] = []
        for node in nodes {
            switch node {
            case .text(let text):
                parts.append(.text(text))
            case .variable(let tag, let escaped):
                guard escaped, let column = columns.firstIndex(of: tag.name) else { return nil }
                parts.append(.escaped(column))
            case .section(let tag, let inverted, let body, _):
                guard let column = columns.firstIndex(of: tag.name), let inner = compile(body, columns: columns) else { return nil }
                parts.append(.section(column, inverted: inverted, inner))
            case .silent(let tag):
                guard tag.name == "!" else { return nil }
            case .partial:
                return nil
            }
        }
        return parts
    }

    private static func texts(of parts: [Part]) -> [String] {
        parts.flatMap { part -> [String] in
            switch part {
            case .text(let text): [text]
            case .escaped: []
            case .section(_, _, let body): texts(of: body)
            }
        }
    }

    /// Text a row may hold: no carriage return or NUL (cmark changes them), no value tokens, no end marker of an
    /// HTML block of kinds 1 to 5 (those blocks are not ended by blank lines, so rows inside one must not end it).
    static func isSafeText(_ text: String) -> Bool {
        if text.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\0" || MarkdownValues.isReserved($0) }) { return false }
        let lower = text.lowercased()
        return !["-->", "?>", "]]>", "</script", "</pre", "</style", "</textarea"].contains { lower.contains($0) }
    }

    enum LineState: Hashable { case lineStart, midLine }

    /// The states a rendering of `parts` can end in, from `states`; nil when a line could start with anything but
    /// a block-level HTML tag.
    static func lineStates(_ parts: [Part], from states: Set<LineState>) -> Set<LineState>? {
        var states = states
        for part in parts {
            switch part {
            case .text(let text):
                guard !text.isEmpty else { continue }
                var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                let endsLine = text.hasSuffix("\n")
                if endsLine { lines.removeLast() }
                for (index, line) in lines.enumerated() where index > 0 || states.contains(.lineStart) {
                    // The last piece of a text that does not end its line is continued by what follows.
                    let complete = endsLine || index < lines.count - 1
                    guard HTMLBlock.startsKind6(line, complete: complete) else { return nil }
                }
                states = endsLine ? [.lineStart] : [.midLine]
            case .escaped:
                guard !states.contains(.lineStart) else { return nil }
            case .section(_, _, let body):
                guard let after = lineStates(body, from: states) else { return nil }
                states.formUnion(after)
            }
        }
        return states
    }

    /// Appends the row whose column values `cell` gives to `output`, as UTF-8.
    func render(into output: inout [UInt8], _ cell: (Int) -> String) {
        Self.render(parts, into: &output, cell)
    }

    /// ``render(into:_:)`` into a string (tests and fuzzing).
    func render(into output: inout String, _ cell: (Int) -> String) {
        var bytes: [UInt8] = []
        render(into: &bytes, cell)
        output += String(decoding: bytes, as: UTF8.self)
    }

    private static func render(_ parts: [Part], into output: inout [UInt8], _ cell: (Int) -> String) {
        for part in parts {
            switch part {
            case .text(let text): output.append(contentsOf: text.utf8)
            case .escaped(let column): HTMLEscaping.append(cell(column), to: &output)
            case .section(let column, let inverted, let body):
                if cell(column).isEmpty == inverted { render(body, into: &output, cell) }
            }
        }
    }
}

/// CommonMark's HTML blocks, as far as the compiled row path needs them.
enum HTMLBlock {
    /// The tag names that start an HTML block of kind 6 (ended only by a blank line), in every cmark since 0.29.
    static let kind6Names: Set<String> = [
        "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center", "col", "colgroup",
        "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "frame",
        "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html", "iframe", "legend", "li", "link",
        "main", "menu", "menuitem", "nav", "noframes", "ol", "optgroup", "option", "p", "param", "section", "summary",
        "table", "tbody", "td", "tfoot", "th", "thead", "title", "tr", "track", "ul",
    ]

    /// Whether `line` starts, at its first column, with `<name` or `</name` for a kind-6 name, followed by a blank,
    /// `>`, `/>` or the end of the line (when `line` is `complete`; otherwise what follows it is unknown).
    static func startsKind6(_ line: Substring, complete: Bool = true) -> Bool {
        var rest = line.utf8[...]
        guard rest.first == UInt8(ascii: "<") else { return false }
        rest = rest.dropFirst()
        if rest.first == UInt8(ascii: "/") { rest = rest.dropFirst() }
        let name = rest.prefix { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) }
        guard !name.isEmpty, kind6Names.contains(String(decoding: name, as: UTF8.self).lowercased()) else { return false }
        let after = rest.dropFirst(name.count)
        guard let next = after.first else { return complete }
        if next == UInt8(ascii: " ") || next == UInt8(ascii: "\t") || next == UInt8(ascii: ">") || next == UInt8(ascii: "\n") {
            return true
        }
        guard next == UInt8(ascii: "/"), after.count > 1 || !complete else { return false }
        return after.dropFirst().first == UInt8(ascii: ">")
    }
}

/// Every value from the books on its way into HTML: escaped for text and attribute values (`&`, `<`, `>`, `"`,
/// `'`), and made inert as text.
///
/// - Control characters other than tab, line feed and carriage return (C0, DEL and C1, NUL included) become
///   U+FFFD: HTML forbids them, and a terminal or a copy-paste would act on them.
/// - Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) are balanced within the value:
///   a closing one without its opening one is dropped, and the ones a value leaves open are closed at its end. So
///   a name's right-to-left override reverses at most that name, never the amounts and names after it on the page.
///   Marks (U+200E, U+200F, U+061C) change nothing beyond the value and stay.
///
/// Related documentation: <https://html.spec.whatwg.org/multipage/syntax.html#text-2>,
/// <https://www.unicode.org/reports/tr9/#Explicit_Directional_Embeddings>
enum HTMLEscaping {
    /// Appends `text` escaped to `output`.
    static func append(_ text: String, to output: inout String) {
        var bytes: [UInt8] = []
        append(text, to: &bytes)
        output += String(decoding: bytes, as: UTF8.self)
    }

    /// `text` with its control characters replaced and its bidirectional controls balanced, not escaped: for values
    /// that an escaping of their own (swift-mustache's, XML's) writes into a page.
    static func inert(_ text: String) -> String {
        var bytes: [UInt8] = []
        scan(text, markup: false, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` escaped to `output`, as UTF-8.
    static func append(_ text: String, to output: inout [UInt8]) {
        scan(text, markup: true, to: &output)
    }

    private static func scan(_ text: String, markup: Bool, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            let table = markup ? special : specialText
            var start = 0
            var index = 0
            // The bidirectional controls opened and not yet closed: false an embedding or override, true an isolate.
            var open: [Bool] = []
            func replace(_ length: Int, with replacement: StaticString) {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                output.append(contentsOf: UnsafeBufferPointer(start: replacement.utf8Start, count: replacement.utf8CodeUnitCount))
                index += length
                start = index
            }
            while index < bytes.count {
                let byte = bytes[index]
                guard table[Int(byte)] else {
                    index += 1
                    continue
                }
                switch byte {
                case UInt8(ascii: "&"): replace(1, with: "&amp;")
                case UInt8(ascii: "<"): replace(1, with: "&lt;")
                case UInt8(ascii: ">"): replace(1, with: "&gt;")
                case UInt8(ascii: "\""): replace(1, with: "&quot;")
                case UInt8(ascii: "'"): replace(1, with: "&#39;")
                case 0xC2:
                    // U+0080–U+009F, the C1 controls: C2 80 to C2 9F.
                    if index + 1 < bytes.count, bytes[index + 1] >= 0x80, bytes[index + 1] <= 0x9F {
                        replace(2, with: "\u{FFFD}")
                    } else {
                        index += 1
                    }
                case 0xE2:
                    guard index + 2 < bytes.count else {
                        index += 1
                        continue
                    }
                    switch (bytes[index + 1], bytes[index + 2]) {
                    case (0x80, 0xAA), (0x80, 0xAB), (0x80, 0xAD), (0x80, 0xAE):  // LRE, RLE, LRO, RLO
                        open.append(false)
                        index += 3
                    case (0x81, 0xA6), (0x81, 0xA7), (0x81, 0xA8):  // LRI, RLI, FSI
                        open.append(true)
                        index += 3
                    case (0x80, 0xAC):  // PDF closes the innermost embedding, if it is one
                        if open.last == false {
                            open.removeLast()
                            index += 3
                        } else {
                            replace(3, with: "")
                        }
                    case (0x81, 0xA9):  // PDI closes the innermost isolate and the embeddings inside it
                        if let isolate = open.lastIndex(of: true) {
                            open.removeSubrange(isolate...)
                            index += 3
                        } else {
                            replace(3, with: "")
                        }
                    default:
                        index += 1
                    }
                default:  // C0 controls but tab, LF and CR; DEL
                    replace(1, with: "\u{FFFD}")
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
            for isolate in open.reversed() {
                output.append(contentsOf: isolate ? [0xE2, 0x81, 0xA9] : [0xE2, 0x80, 0xAC])
            }
        }
    }

    /// The bytes that need a look: controls, the lead bytes of C1 controls (C2) and of bidirectional controls (E2),
    /// and, with markup, the five characters HTML escapes.
    private static let specialText: [Bool] = {
        var table = Array(repeating: false, count: 256)
        for control in 0..<0x20 where ![0x09, 0x0A, 0x0D].contains(control) { table[control] = true }
        table[0x7F] = true
        table[0xC2] = true
        table[0xE2] = true
        return table
    }()

    private static let special: [Bool] = {
        var table = specialText
        for character in "&<>\"'" { table[Int(character.asciiValue!)] = true }
        return table
    }()
}
