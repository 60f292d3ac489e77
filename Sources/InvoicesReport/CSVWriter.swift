/// Writes RFC 4180 CSV: fields separated by commas, records ended by CRLF.
///
/// A field is quoted when it contains a comma, a double quote, a CR or a LF; quotes inside it are doubled.
/// Values are written exactly as given: nothing is trimmed, prefixed or otherwise altered (docs/exports.md).
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
    public static func field(_ value: String) -> String {
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
}
