/// Writes RFC 4180 CSV: fields separated by commas, records ended by CRLF; or the spreadsheet dialect
/// (``CSVDialect``): a UTF-8 byte order mark first, and `;` between fields and `,` in decimal fields where the
/// locale writes decimals with a comma.
///
/// A field is quoted when it contains the field separator, a double quote, a CR or a LF; quotes inside it are doubled.
/// A text cell that a spreadsheet would read as a formula (one beginning with `=`, `+`, `-`, `@`, a tab or a CR)
/// gets a `'` in front, as OWASP's "CSV Injection" page advises; plain decimal numbers (`-12.50`) are written as they
/// are. Whether a field is neutralised is decided on its value before a dialect's decimal separator is put in, so
/// both dialects read back to the same values. Nothing else is altered (docs/exports.md).
///
/// Related: <https://owasp.org/www-community/attacks/CSV_Injection>
///
/// Related specification: <https://www.rfc-editor.org/rfc/rfc4180>
public struct CSVWriter: Sendable {
    /// The CSV written so far, as bytes: each field is appended as it is checked, never copied into a string of its
    /// own (payments.csv at 2,000,000 invoices is millions of fields).
    private var bytes: [UInt8] = []
    private let separator: UInt8
    /// The dialect's decimal separator, or nil when it is `.` (the values' own: nothing to change).
    private let decimal: UInt8?
    /// Per column: whether it holds decimals (``init(header:dialect:decimalColumns:)``).
    private let decimalColumn: [Bool]

    /// The CSV text written so far.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// A writer whose first record is `header`, in `dialect` (with its byte order mark, if any, before it).
    /// `decimalColumns` names the columns whose values are plain decimals (`-1234.50`, `7.7`): those are written
    /// with the dialect's decimal separator; every other field as it is.
    public init(header: [String], dialect: CSVDialect = .rfc4180, decimalColumns: Set<String> = []) {
        separator = dialect.fieldSeparator
        decimal = dialect.decimalSeparator == UInt8(ascii: ".") ? nil : dialect.decimalSeparator
        decimalColumn = header.map { decimalColumns.contains($0) }
        if dialect.byteOrderMark { bytes.append(contentsOf: [0xEF, 0xBB, 0xBF]) }
        for (offset, field) in header.enumerated() {
            if offset > 0 { bytes.append(separator) }
            var field = field
            field.withUTF8 { Self.append(field: $0, to: &bytes, separator: separator) }
        }
        bytes.append(13)
        bytes.append(10)
    }

    /// Appends one record.
    public mutating func append(_ fields: [String]) {
        for (offset, field) in fields.enumerated() {
            if offset > 0 { bytes.append(separator) }
            var field = field
            let decimal = offset < decimalColumn.count && decimalColumn[offset] ? self.decimal : nil
            field.withUTF8 { Self.append(field: $0, to: &bytes, separator: separator, decimal: decimal) }
        }
        bytes.append(13)
        bytes.append(10)
    }

    /// Hands the text written so far to `emit` and starts afresh, once it is over `size` bytes (always with 0).
    public mutating func flush(into emit: (UnsafeRawBufferPointer) -> Void, over size: Int = 0) {
        guard bytes.count > size || size == 0 else { return }
        bytes.withUnsafeBytes(emit)
        bytes.removeAll(keepingCapacity: true)
    }

    /// `value` as one CSV field: quoted (quotes doubled) when it holds a comma, a quote, a CR or a LF.
    public static func field(_ text: String) -> String {
        var bytes: [UInt8] = []
        var text = text
        text.withUTF8 { append(field: $0, to: &bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the UTF-8 `value` as one field: with a `'` in front when a spreadsheet could take it for a formula,
    /// quoted (quotes doubled) when it holds `separator`, a quote, a CR or a LF, and each `.` written as `decimal`
    /// when one is given. The bytes are scanned, not Characters: as Characters, "\r\n" is one grapheme that equals
    /// neither "\r" nor "\n".
    static func append(
        field value: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8], separator: UInt8 = UInt8(ascii: ","), decimal: UInt8? = nil
    ) {
        let formula = isFormula(value)
        let needsQuotes = value.contains { $0 == separator || $0 == UInt8(ascii: "\"") || $0 == 13 || $0 == 10 }
        guard needsQuotes else {
            if formula { bytes.append(UInt8(ascii: "'")) }
            if let decimal {
                for byte in value { bytes.append(byte == UInt8(ascii: ".") ? decimal : byte) }
            } else {
                bytes.append(contentsOf: value)
            }
            return
        }
        bytes.append(UInt8(ascii: "\""))
        if formula { bytes.append(UInt8(ascii: "'")) }
        for byte in value {
            if byte == UInt8(ascii: "\"") { bytes.append(byte) }
            bytes.append(byte == UInt8(ascii: ".") ? decimal ?? byte : byte)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Whether a spreadsheet could take `value` for a formula: it begins with `=`, `+`, `-`, `@`, a tab or a CR, and
    /// is not a plain decimal number such as `-12.50` (an amount, which must stay a number).
    static func isFormula(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = value.first, [UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 9, 13].contains(first)
        else { return false }
        guard first == UInt8(ascii: "-") else { return true }
        var digits = 0
        var points = 0
        for byte in value.dropFirst() {
            if byte == UInt8(ascii: ".") {
                points += 1
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                digits += 1
            } else {
                return true
            }
        }
        return digits == 0 || points > 1 || value.last == UInt8(ascii: ".") || value.dropFirst().first == UInt8(ascii: ".")
    }
}
