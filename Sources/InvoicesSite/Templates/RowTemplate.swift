/// A compiled template for one row of a long list (a table row per invoice), rendered without Mustache's
/// dynamic lookups.
///
/// It understands the part of Mustache a row needs: `{{name}}` (HTML-escaped), `{{{name}}}` and `{{& name}}`
/// (unescaped), `{{#name}}...{{/name}}` and `{{^name}}...{{/name}}` on a value that is empty or not, and
/// `{{! comments}}`. Names are resolved once, at compile time, to columns of the row. A section body that uses
/// anything else (partials, dotted names, delimiters) does not compile, and the page falls back to rendering the
/// list through Mustache: the output is the same, only slower.
struct RowTemplate: Sendable {
    enum Part: Sendable {
        case text(String)
        case escaped(Int)
        case raw(Int)
        case section(Int, inverted: Bool, [Part])
    }

    let parts: [Part]

    /// Compiles `text` for rows with `columns`; nil when the text uses more than the row subset or a name that
    /// is not a column.
    init?(_ text: String, columns: [String]) {
        var index = text.startIndex
        guard let parts = Self.parse(text, &index, columns: columns, closing: nil) else { return nil }
        self.parts = parts
    }

    private static func parse(_ text: String, _ index: inout String.Index, columns: [String], closing: String?) -> [Part]? {
        var parts: [Part] = []
        while index < text.endIndex {
            guard let open = text.range(of: "{{", range: index..<text.endIndex) else {
                parts.append(.text(String(text[index...])))
                index = text.endIndex
                break
            }
            if open.lowerBound > index { parts.append(.text(String(text[index..<open.lowerBound]))) }
            var tagEnd = "}}"
            var tagStart = open.upperBound
            if text[tagStart...].hasPrefix("{") {
                tagEnd = "}}}"
                tagStart = text.index(after: tagStart)
            }
            guard let close = text.range(of: tagEnd, range: tagStart..<text.endIndex) else { return nil }
            let tag = text[tagStart..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            index = close.upperBound
            if tagEnd == "}}}" {
                guard let column = columns.firstIndex(of: tag) else { return nil }
                parts.append(.raw(column))
                continue
            }
            guard let sigil = tag.first else { return nil }
            let name = tag.dropFirst().trimmingCharacters(in: .whitespaces)
            switch sigil {
            case "!":
                continue
            case "&":
                guard let column = columns.firstIndex(of: name) else { return nil }
                parts.append(.raw(column))
            case "#", "^":
                guard let column = columns.firstIndex(of: name),
                    let body = parse(text, &index, columns: columns, closing: name)
                else { return nil }
                parts.append(.section(column, inverted: sigil == "^", body))
            case "/":
                return name == closing ? parts : nil
            case ">", "=", "<", "$", "%":
                return nil
            default:
                guard let column = columns.firstIndex(of: tag) else { return nil }
                parts.append(.escaped(column))
            }
        }
        return closing == nil ? parts : nil
    }

    /// Appends the row whose column values `cell` gives to `output`.
    func render(into output: inout String, _ cell: (Int) -> String) {
        Self.render(parts, into: &output, cell)
    }

    private static func render(_ parts: [Part], into output: inout String, _ cell: (Int) -> String) {
        for part in parts {
            switch part {
            case .text(let text): output += text
            case .escaped(let column): HTMLEscaping.append(cell(column), to: &output)
            case .raw(let column): output += cell(column)
            case .section(let column, let inverted, let body):
                if cell(column).isEmpty == inverted { render(body, into: &output, cell) }
            }
        }
    }
}

/// HTML escaping for text and attribute values: `&`, `<`, `>`, `"` and `'`.
enum HTMLEscaping {
    private static let needsEscape: [Bool] = (0..<256).map { [0x26, 0x3C, 0x3E, 0x22, 0x27, 0x00].contains($0) }

    static func append(_ text: String, to output: inout String) {
        if !text.utf8.contains(where: { needsEscape[Int($0)] }) {
            output += text
            return
        }
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            for (index, byte) in bytes.enumerated() {
                let replacement: String
                switch byte {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case UInt8(ascii: "\""): replacement = "&quot;"
                case UInt8(ascii: "'"): replacement = "&#39;"
                case 0: replacement = "\u{FFFD}"
                default: continue
                }
                if index > start { output += String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self) }
                output += replacement
                start = index + 1
            }
            if start == 0 {
                output += String(decoding: bytes, as: UTF8.self)
            } else if start < bytes.count {
                output += String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self)
            }
        }
    }
}
