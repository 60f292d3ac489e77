/// A CSV file parsed per RFC 4180, each record with the line it starts on: the one CSV reader of import and of
/// the exchange-rates file.
///
/// Fields may be quoted (`"a, b"`), hold doubled quotes (`"say ""hi"""`) and line breaks; records end with
/// CRLF or LF. A UTF-8 byte order mark is skipped. Malformed quoting is reported with its line instead of
/// being guessed at.
///
/// We read CSV ourselves rather than through SwiftCSV 0.10.0 or CSV.swift 2.5.2: neither tells which line a
/// record came from (both hand out fields only), and CSV.swift accepts an unterminated quote silently.
public struct CSVDocument: Sendable {
    /// One record: its fields and the 1-based line it starts on.
    public struct Record: Sendable {
        public var line: Int
        public var fields: [String]
    }

    /// A problem with the file's quoting.
    public struct SyntaxError: Error, Sendable {
        public var line: Int
        public var message: String
    }

    /// The first record's fields.
    public var header: [String]
    /// Every record after the header; blank lines are left out.
    public var records: [Record]

    /// Parses `bytes`.
    /// - Throws: ``SyntaxError`` for a quote that is never closed, a character after a closing quote, or text
    ///   that is not UTF-8.
    public init(bytes: [UInt8]) throws(SyntaxError) {
        try self.init(bytes: bytes, separator: UInt8(ascii: ","))
    }

    /// Parses `bytes`, fields separated by `separator` (`;` in the spreadsheet dialect of a locale with decimal
    /// commas, docs/exports.md).
    /// - Throws: ``SyntaxError`` as ``init(bytes:)``.
    public init(bytes: [UInt8], separator: UInt8) throws(SyntaxError) {
        var index = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        var line = 1
        var all: [Record] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var recordLine = 1
        var quotedField = false

        func text(_ bytes: [UInt8], line: Int) throws(SyntaxError) -> String {
            guard let string = String(validating: bytes, as: UTF8.self) else {
                throw SyntaxError(line: line, message: "the text is not UTF-8; save the file as UTF-8")
            }
            return string
        }
        func endRecord() throws(SyntaxError) {
            fields.append(try text(field, line: recordLine))
            field.removeAll(keepingCapacity: true)
            if !(fields.count == 1 && fields[0].isEmpty && !quotedField) {
                all.append(Record(line: recordLine, fields: fields))
            }
            fields.removeAll()
            quotedField = false
        }

        let quote = UInt8(ascii: "\""), comma = separator, cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
        var atFieldStart = true
        while index < bytes.count {
            let byte = bytes[index]
            if atFieldStart, byte == quote {
                // A quoted field: runs to the closing quote, which is followed by a comma, a line break or the end.
                quotedField = true
                let openLine = line
                index += 1
                var closed = false
                while index < bytes.count {
                    let inner = bytes[index]
                    if inner == quote {
                        if index + 1 < bytes.count, bytes[index + 1] == quote {
                            field.append(quote)
                            index += 2
                            continue
                        }
                        index += 1
                        closed = true
                        break
                    }
                    if inner == lf { line += 1 }
                    field.append(inner)
                    index += 1
                }
                guard closed else {
                    throw SyntaxError(line: openLine, message: "a quoted field is never closed (a '\"' is missing)")
                }
                if index < bytes.count {
                    let next = bytes[index]
                    if next != comma, next != cr, next != lf {
                        throw SyntaxError(
                            line: line,
                            message: "unexpected text after a closing quote; write a quote inside a quoted field as '\"\"'")
                    }
                }
                atFieldStart = false
                continue
            }
            atFieldStart = false
            switch byte {
            case comma:
                fields.append(try text(field, line: recordLine))
                field.removeAll(keepingCapacity: true)
                atFieldStart = true
                index += 1
            case cr, lf:
                if byte == cr, index + 1 < bytes.count, bytes[index + 1] == lf { index += 1 }
                index += 1
                try endRecord()
                line += 1
                recordLine = line
                atFieldStart = true
            case quote:
                throw SyntaxError(line: line, message: "a quote inside an unquoted field; quote the whole field and double the quote")
            default:
                field.append(byte)
                index += 1
            }
        }
        if !field.isEmpty || !fields.isEmpty || quotedField { try endRecord() }
        header = all.first?.fields ?? []
        records = Array(all.dropFirst())
    }
}
