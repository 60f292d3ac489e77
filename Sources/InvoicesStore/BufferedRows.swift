internal import InvoicesCore
internal import GRDBSQLite

/// The rows of one table copied out of a stepped statement into one byte buffer, to be handed to ``BooksTables``
/// later, on another thread: what lets a second read connection do SQLite's share of the load on the other core.
///
/// Each cell is a tag byte, then its value: an integer's 8 bytes, or a text's 4-byte length and bytes (a float or a
/// blob is kept as the text SQLite gives for it). The first two columns (a row id and the invoice id, which the
/// checks read as integers whatever they hold) keep SQLite's integer reading of a text beside it. A replayed
/// row (``BufferedRow``) answers every ``StoreRowColumns`` question exactly as the statement's columns did, so the
/// checks and the messages are the ones of a direct read.
struct BufferedRows: Sendable {
    let columnCount: Int
    private(set) var count = 0
    private var bytes: [UInt8] = []

    init(columnCount: Int) {
        self.columnCount = columnCount
    }

    enum Tag: UInt8 {
        case null = 0
        case integer = 1
        /// Text (or a float or blob, as text): its length, then its bytes.
        case text = 2
        /// Text in one of the first two columns: the integer SQLite reads from it, then the text as ``text``.
        case textWithInteger = 3
    }

    /// Copies the current row of `columns`' statement.
    mutating func append(_ columns: Columns) {
        let statement = columns.statement
        for column in 0..<Int32(columnCount) {
            switch sqlite3_column_type(statement, column) {
            case SQLITE_NULL:
                bytes.append(Tag.null.rawValue)
            case SQLITE_INTEGER:
                bytes.append(Tag.integer.rawValue)
                appendInteger(sqlite3_column_int64(statement, column))
            default:
                if column < 2 {
                    bytes.append(Tag.textWithInteger.rawValue)
                    appendInteger(sqlite3_column_int64(statement, column))
                } else {
                    bytes.append(Tag.text.rawValue)
                }
                let text = columns.bytes(column)
                withUnsafeBytes(of: UInt32(text.count).littleEndian) { bytes.append(contentsOf: $0) }
                bytes.append(contentsOf: text)
            }
        }
        count += 1
    }

    private mutating func appendInteger(_ value: Int64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Calls `body` with each row in order. The row is valid only inside `body`.
    func forEach(_ body: (BufferedRow) -> Void) {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let offsets = UnsafeMutablePointer<Int>.allocate(capacity: max(columnCount, 1))
            defer { offsets.deallocate() }
            var position = 0
            for _ in 0..<count {
                for column in 0..<columnCount {
                    offsets[column] = position
                    switch base[position] {
                    case Tag.integer.rawValue: position += 9
                    case Tag.text.rawValue: position += 5 + BufferedRow.length(base + position + 1)
                    case Tag.textWithInteger.rawValue: position += 13 + BufferedRow.length(base + position + 9)
                    default: position += 1
                    }
                }
                body(BufferedRow(base: base, offsets: offsets))
            }
        }
    }
}

/// One row of ``BufferedRows``, read as ``Columns`` reads a stepped statement.
struct BufferedRow: StoreRowColumns {
    let base: UnsafePointer<UInt8>
    let offsets: UnsafeMutablePointer<Int>

    static func integer(_ pointer: UnsafePointer<UInt8>) -> Int64 {
        Int64(littleEndian: UnsafeRawPointer(pointer).loadUnaligned(as: Int64.self))
    }

    static func length(_ pointer: UnsafePointer<UInt8>) -> Int {
        Int(UInt32(littleEndian: UnsafeRawPointer(pointer).loadUnaligned(as: UInt32.self)))
    }

    private func tag(_ column: Int32) -> UInt8 { base[offsets[Int(column)]] }

    func isNull(_ column: Int32) -> Bool { tag(column) == BufferedRows.Tag.null.rawValue }

    /// A blob or a number reads as its text, so a text is its bytes.
    var textIsItsBytes: Bool { true }

    func isInteger(_ column: Int32) -> Bool { tag(column) == BufferedRows.Tag.integer.rawValue }

    /// The column as SQLite reads it as an integer (0 for NULL; the integer kept beside a text in the first two
    /// columns; the checks read no other column as an integer without ``isInteger(_:)``).
    func int64(_ column: Int32) -> Int64 {
        switch tag(column) {
        case BufferedRows.Tag.integer.rawValue, BufferedRows.Tag.textWithInteger.rawValue: Self.integer(base + offsets[Int(column)] + 1)
        default: 0
        }
    }

    /// The column's bytes as SQLite's text of it (empty for NULL; an integer's decimal digits).
    func withBytes<R>(_ column: Int32, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let offset = offsets[Int(column)]
        switch base[offset] {
        case BufferedRows.Tag.text.rawValue:
            return body(UnsafeRawBufferPointer(start: base + offset + 5, count: Self.length(base + offset + 1)))
        case BufferedRows.Tag.textWithInteger.rawValue:
            return body(UnsafeRawBufferPointer(start: base + offset + 13, count: Self.length(base + offset + 9)))
        case BufferedRows.Tag.integer.rawValue:
            var digits = Array(String(Self.integer(base + offset + 1)).utf8)
            return digits.withUnsafeMutableBytes { body(UnsafeRawBufferPointer($0)) }
        default:
            return body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
    }

    func text(_ column: Int32) -> String? {
        withBytes(column) { StoreText.string($0.bindMemory(to: UInt8.self)) }
    }

    func date(_ column: Int32) -> CalendarDate? {
        withBytes(column) { CalendarDate(isoBytes: $0.bindMemory(to: UInt8.self)) }
    }
}
