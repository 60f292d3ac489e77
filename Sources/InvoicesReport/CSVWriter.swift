/// Writes RFC 4180 CSV: fields separated by commas, records ended by CRLF.
///
/// A field is quoted when it contains a comma, a double quote, a CR or a LF; quotes inside it are doubled.
/// A text cell that a spreadsheet would read as a formula (one beginning with `=`, `+`, `-`, `@`, a tab or a CR)
/// gets a `'` in front, as OWASP's "CSV Injection" page advises; plain decimal numbers (`-12.50`) are written as they
/// are. Nothing else is altered (docs/exports.md).
///
/// Related: <https://owasp.org/www-community/attacks/CSV_Injection>
///
/// Related specification: <https://www.rfc-editor.org/rfc/rfc4180>
public struct CSVWriter: Sendable {
    /// The CSV text written so far.
    public private(set) var text = ""

    /// A writer whose first record is `header`.
    public init(header: [String]) {
        append(header)
    }

    /// Appends one record.
    public mutating func append(_ fields: [String]) {
        for (offset, field) in fields.enumerated() {
            if offset > 0 { text.append(",") }
            text.append(CSVWriter.field(field))
        }
        text.append("\r\n")
    }

    /// Hands the text written so far to `emit` and starts afresh, once it is over `size` bytes (always with 0).
    public mutating func flush(into emit: (UnsafeRawBufferPointer) -> Void, over size: Int = 0) {
        guard text.utf8.count > size || size == 0 else { return }
        text.withUTF8 { emit(UnsafeRawBufferPointer($0)) }
        text.removeAll(keepingCapacity: true)
    }

    /// `value` as one CSV field: quoted (quotes doubled) when it holds a comma, a quote, a CR or a LF.
    public static func field(_ text: String) -> String {
        let value = isFormula(text) ? "'" + text : text
        // Scan the UTF-8 bytes: as Characters, "\r\n" is one grapheme that equals neither "\r" nor "\n".
        let needsQuotes = value.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 13 || $0 == 10 }
        guard needsQuotes else { return value }
        var quoted = "\""
        for scalar in value.unicodeScalars {
            if scalar == "\"" { quoted.unicodeScalars.append("\"") }
            quoted.unicodeScalars.append(scalar)
        }
        quoted.append("\"")
        return quoted
    }

    /// Whether a spreadsheet could take `value` for a formula: it begins with `=`, `+`, `-`, `@`, a tab or a CR, and
    /// is not a plain decimal number such as `-12.50` (an amount, which must stay a number).
    static func isFormula(_ value: String) -> Bool {
        guard let first = value.utf8.first, [UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 9, 13].contains(first)
        else { return false }
        guard first == UInt8(ascii: "-") else { return true }
        var digits = 0
        var points = 0
        for byte in value.utf8.dropFirst() {
            if byte == UInt8(ascii: ".") {
                points += 1
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                digits += 1
            } else {
                return true
            }
        }
        return digits == 0 || points > 1 || value.utf8.last == UInt8(ascii: ".") || value.utf8.dropFirst().first == UInt8(ascii: ".")
    }
}
