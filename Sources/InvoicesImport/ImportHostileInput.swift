internal import InvoicesCore

/// Checks of an import file's bytes made before a parser sees them (docs/reliability.md, "Hostile input to the service
/// imports"): a JSON file nested past its budget, and NUL bytes in CSV cells or JSON strings, each refused where it is.
extension ImportReader {
    /// How deep a JSON import may nest arrays and objects: Stripe's invoice list nests about 6 levels, the tool's own JSON 4.
    static let jsonDepth = 64

    /// Why a JSON document is refused before it is parsed, at its line: nesting deeper than ``jsonDepth`` (Foundation's
    /// parser stops at 512 levels with only "The data is not in the correct format"); nil when it is within it.
    static func jsonNestingProblem(_ bytes: [UInt8]) -> (line: Int, message: String)? {
        var depth = 0
        var line = 1
        var inString = false
        var escaped = false
        for byte in bytes {
            if byte == UInt8(ascii: "\n") { line += 1 }
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > jsonDepth {
                    return (line, "nests arrays and objects deeper than \(jsonDepth) levels, the limit for a JSON file (docs/reliability.md)")
                }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return nil
    }

    /// Each CSV cell holding a NUL byte, as a problem at its line and column (the header's name for it, else its number):
    /// no export writes one, and a C string would end there. The header is the file's first row, or the row `header`
    /// names (a QuickBooks report's, below its title rows); a cell on or above it, or under a column without a name,
    /// is named by its number.
    static func nulProblems(_ document: CSVDocument, file: String, header: (line: Int, names: [String])? = nil) -> [ImportProblem] {
        let header = header ?? (line: 1, names: document.header)
        var found: [ImportProblem] = []
        let rows = [(1, document.header)] + document.records.map { ($0.line, $0.fields) }
        for (line, fields) in rows {
            for (index, field) in fields.enumerated() where field.utf8.contains(0) {
                let name = index < header.names.count && line > header.line ? header.names[index].trimmingCharacters(in: .whitespaces) : ""
                let column = name.isEmpty ? "#\(index + 1)" : name
                found.append(
                    ImportProblem(
                        location: SourceLocation(file: file, line: line), column: column,
                        message: "holds a NUL byte (U+0000); no export writes one: remove it"))
            }
        }
        return found
    }
}

extension JSONValue {
    /// The paths of strings (keys included) holding a NUL byte (`\u0000`), at most `limit` of them.
    func nulPaths(_ path: String = "", limit: Int = 200) -> [String] {
        var found: [String] = []
        func walk(_ value: JSONValue, _ path: String) {
            guard found.count < limit else { return }
            switch value {
            case .string(let text) where text.utf8.contains(0): found.append(path)
            case .array(let values): for (index, element) in values.enumerated() { walk(element, "\(path)[\(index)]") }
            case .object(let fields):
                for (key, element) in fields.sorted(by: { $0.key < $1.key }) {
                    let at = path.isEmpty ? key : "\(path).\(key)"
                    if key.utf8.contains(0) { found.append(at) } else { walk(element, at) }
                }
            default: break
            }
        }
        walk(self, path)
        return found
    }
}
