public import Foundation
public import InvoicesCore
#if canImport(Glibc)
import Glibc
#endif

/// What a report was made of: every document of the books with the values a reader sees, and every figure per
/// client, currency and month (and per tax), in a form the next build can compare with its own.
///
/// A build keeps its trail in a file beside the output (``text``, read back with ``init(text:)``), so the next
/// build can say what changed since (``changes(since:closedThrough:)``), and refuse to change a closed period.
/// Documents are known by what identifies them in the books, never by row ids: an invoice by its identifier, a
/// payment, write-off or tax line by its invoice and its place among that invoice's (`INV-7 payment 2`). Deleting an
/// invoice and importing it again with the same fields changes nothing.
public struct Trail: Sendable, Equatable {
    /// What a record is. The order is the order of the changes page.
    public enum Kind: String, Sendable, CaseIterable, Comparable {
        case invoice, payment, writeOff = "write-off", taxLine = "tax line", figures, taxFigures = "tax figures"

        /// The names of a record's values, in order.
        public var fields: [String] {
            switch self {
            case .invoice: ["kind", "client", "status", "issued", "due", "currency", "amount", "net", "corrects", "applied", "notes"]
            case .payment: ["date", "amount", "method", "reference"]
            case .writeOff: ["date", "amount", "reason"]
            case .taxLine: ["tax", "rate", "net", "amount"]
            case .figures: ["invoiced", "net", "tax", "paid", "credited", "written off", "outstanding", "overdue", "credit", "invoices"]
            case .taxFigures: ["accrual net", "accrual tax", "cash net", "cash tax"]
            }
        }

        /// Whether the record is a document of the books (the rest are figures computed from them).
        public var isDocument: Bool { self != .figures && self != .taxFigures }

        /// The kind's place in the trail (the order of ``allCases``).
        var rank: Int {
            switch self {
            case .invoice: 0
            case .payment: 1
            case .writeOff: 2
            case .taxLine: 3
            case .figures: 4
            case .taxFigures: 5
            }
        }

        public static func < (a: Kind, b: Kind) -> Bool { a.rank < b.rank }
    }

    /// One document or one line of figures.
    public struct Record: Sendable, Equatable {
        public var kind: Kind
        /// `INV-7`, `INV-7 payment 2`, `C-1 EUR 2025-09`, `EUR MWST 7.7% 2025-09`.
        public var key: String
        /// The day that places it in a period: a document's date, a month's last day for figures.
        public var date: CalendarDate
        /// The values of ``Kind/fields``, as the pages show them (amounts as decimals of the currency).
        public var values: [String]

        public init(kind: Kind, key: String, date: CalendarDate, values: [String]) {
            self.kind = kind
            self.key = key
            self.date = date
            self.values = values
        }

        /// How messages name it: `invoice INV-7`, `credit note CN-2`, `INV-7 payment 2`, `figures C-1 EUR 2025-09`,
        /// `tax EUR MWST 7.7% 2025-09`.
        public var name: String {
            switch kind {
            case .invoice: "\(values.first ?? "invoice") \(key)"
            case .payment, .writeOff, .taxLine: key
            case .figures: "figures \(key)"
            case .taxFigures: "tax \(key)"
            }
        }
    }

    /// Where the lines come from: records given one by one (held as their lines, sorted), or the books, whose lines
    /// are made as they are read, never held (``TrailLines``).
    private enum Source: Sendable {
        case lines([String])
        case books(Books, Report, Order?)
    }

    private let source: Source

    public init(records: [Record]) {
        var records = records
        records.sort { a, b in
            a.kind != b.kind ? a.kind < b.kind : a.key.utf8.lexicographicallyPrecedes(b.key.utf8)
        }
        source = .lines(records.map(Self.line))
    }

    /// The records, parsed back from the lines.
    public var records: [Record] {
        var records: [Record] = []
        forEachLine { line in
            if let record = Self.record(Substring(String(decoding: line, as: UTF8.self))) { records.append(record) }
        }
        return records
    }

    /// The trail of `books`, with the figures of `report` (computed over every month of the books). Its lines are
    /// made each time they are read (``write(books:comparingWith:closedThrough:into:)``), in the file's order, and
    /// never held: at 2,000,000 invoices they are 6 million lines and 600 MB.
    public init(books: Books, report: Report) {
        source = .books(books, report, nil)
    }

    /// The trail of `books` and `report`, whose records are in `order` (``Order/init(books:report:)`` of the same).
    public init(books: Books, report: Report, order: Order) {
        source = .books(books, report, order)
    }

    /// The lines' maker, for the books' trail.
    var lines: TrailLines? {
        guard case .books(let books, let report, let order) = source else { return nil }
        return TrailLines(books: books, report: report, order: order ?? Order(books: books, report: report))
    }

    /// Two trails are equal when they have the same lines.
    public static func == (a: Trail, b: Trail) -> Bool { a.text == b.text }

    /// Calls `body` with each line (without its line feed), ordered by kind, then by the key's bytes: the order the
    /// file has, so the next build compares the two line by line and parses only the lines that differ.
    func forEachLine(_ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        switch source {
        case .lines(let lines):
            for var line in lines { try line.withUTF8 { try body(UnsafeRawBufferPointer($0)) } }
        case .books:
            try lines?.forEach(body)
        }
    }

    // MARK: - What changed

    /// One difference between two trails: a record added or removed, or one value of it changed.
    public struct Change: Sendable, Equatable {
        public enum What: String, Sendable { case added, changed, removed }

        public var kind: Kind
        public var key: String
        /// The record's ``Record/name``.
        public var name: String
        public var what: What
        /// The value's name for a change; empty for a record added or removed.
        public var field: String
        /// The value before and after; for a record added or removed, its values (`date 2025-02-01, amount 100.00`).
        public var before: String
        public var after: String
        /// Whether the change touches a closed period: the record's day, before or after, is on or before the day
        /// the books are closed through.
        public var closed: Bool

        /// `invoice INV-7 amount: 100.00 → 120.00`, `INV-7 payment 2 added (date 2025-02-01, amount 100.00, ...)`.
        public var description: String {
            switch what {
            case .changed: return "\(name) \(field): \(before) → \(after)"
            case .added: return "\(name) added (\(after))"
            case .removed: return "\(name) removed (was \(before))"
            }
        }
    }

    /// What changed from `previous` to this trail, in the order of the lines; each change marked closed when it
    /// touches a day on or before `closedThrough`.
    public func changes(since previous: Trail, closedThrough: CalendarDate? = nil) -> [Change] {
        var lines: [Substring] = []
        previous.forEachLine { lines.append(Substring(String(decoding: $0, as: UTF8.self))) }
        var merge = Merge(old: lines.makeIterator(), closedThrough: closedThrough)
        forEachLine { merge.take($0) }
        return merge.finish()
    }

    /// What changed from the trail file `text` (as ``text`` wrote it) to this trail; nil when `text` is not a trail.
    /// Lines equal in both are skipped without parsing them.
    public func changes(sinceText text: String, closedThrough: CalendarDate? = nil) -> [Change]? {
        // Split on the line feed's byte: no grapheme breaking over a file of millions of lines.
        var previous = text.utf8.split(separator: 0x0A).map { Substring($0) }.makeIterator()
        guard let first = previous.next(), Self.isHeader(first) else { return nil }
        var merge = Merge(old: previous, closedThrough: closedThrough)
        forEachLine { merge.take($0) }
        return merge.finish()
    }

    /// What changed from the trail file at `url` (as ``write(books:comparingWith:closedThrough:into:)`` wrote it) to
    /// this trail; nil when there is no such file or it is not a trail.
    /// - Throws: ``InvoicesCore/RegularFile/Failure`` when the file is not a regular file (a link, a FIFO, a
    ///   device) or has a line longer than ``InvoicesCore/FileBudget/trailLine``.
    public func changes(sinceFile url: URL, closedThrough: CalendarDate? = nil) throws -> [Change]? {
        try write(books: nil, comparingWith: url, closedThrough: closedThrough) { _ in }
    }

    /// Hands out the trail file's text (``text(books:)``) a megabyte at a time and, in the same pass, compares each
    /// line with the previous trail file at `previous`, which is read a megabyte at a time: neither is ever whole in
    /// memory (at 2,000,000 invoices each is 600 MB).
    ///
    /// The previous file is opened as the tool's own (``InvoicesCore/RegularFile``, no symbolic link followed) and
    /// each of its lines, like each line written, must fit ``InvoicesCore/FileBudget/trailLine``.
    /// - Returns: What changed since `previous` (as ``changes(sinceText:closedThrough:)``); nil when there is no
    ///   such file or it is not a trail.
    /// - Throws: What `emit` throws; ``InvoicesCore/RegularFile/Failure`` for a previous file that is not a regular
    ///   file or has a line past the budget; ``LineTooLong`` for a record of the books whose line would be.
    @discardableResult
    public func write(
        books: UInt64?, comparingWith previous: URL? = nil, closedThrough: CalendarDate? = nil,
        into emit: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> [Change]? {
        var merge: Merge<LineReader>?
        if let previous {
            if let file = try RegularFile.ifPresent(previous.path, links: .refuse) {
                var reader = LineReader(file: file, budget: FileBudget.trailLine)
                if let first = try reader.line(), Self.isHeader(first) { merge = Merge(old: reader, closedThrough: closedThrough) }
            }
        }
        try emitLines(books: books, merge: &merge, limit: FileBudget.trailLine.bytes, into: emit)
        if let failure = merge?.failure { throw failure }
        return merge?.finish()
    }

    /// The lines of the trail file, with the header ``Header`` of `books` first (its body's hash left as zeros for
    /// the writer to fill in), each also handed to `merge`.
    private func emitLines(
        books: UInt64?, merge: inout Merge<LineReader>?, limit budget: Int, into emit: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var piece = Array((Header(books: books, body: books.map { _ in 0 }).line + "\n").utf8)
        piece.reserveCapacity((1 << 20) + 4096)
        try forEachLine { line in _ = try Self.add(line, budget: budget, merge: &merge, to: &piece, emit: emit) }
        if !piece.isEmpty { try piece.withUnsafeBytes(emit) }
    }

    /// Adds a new line to the file: refused past `budget`, handed to `merge`, appended to `piece` with its line
    /// feed; `piece` is handed to `emit` and emptied once it holds a megabyte.
    /// - Returns: How many bytes were handed to `emit`.
    static func add(
        _ line: UnsafeRawBufferPointer, budget: Int, merge: inout Merge<LineReader>?, to piece: inout [UInt8],
        emit: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> Int {
        guard line.count < budget else {
            let start = String(decoding: UnsafeRawBufferPointer(rebasing: line.prefix(200)), as: UTF8.self)
            throw LineTooLong(line: Substring(start), bytes: line.count)
        }
        merge?.take(line)
        piece.append(contentsOf: line)
        piece.append(0x0A)
        guard piece.count >= 1 << 20 else { return 0 }
        try piece.withUnsafeBytes(emit)
        let count = piece.count
        piece.removeAll(keepingCapacity: true)
        return count
    }

    /// A record of the books whose trail line would be longer than ``InvoicesCore/FileBudget/trailLine``: the build
    /// refuses it rather than write a trail it would refuse to read back.
    public struct LineTooLong: Error, Sendable, CustomStringConvertible {
        /// The start of the line.
        var line: Substring
        public var bytes: Int

        /// `invoice INV-7` (or the line's first cells when it does not parse).
        public var name: String {
            let cells = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard cells.count >= 2, let kind = Kind(rawValue: String(cells[0])) else { return String(line.prefix(40)) }
            return "\(kind.rawValue) \(Trail.unescape(cells[1]).prefix(80))"
        }

        public var description: String {
            let budget = FileBudget.trailLine
            return "\(name): its record in the trail would be \(bytes) bytes, past the \(budget) that \(budget.what) may have; "
                + "shorten its text (notes, names) in the store"
        }
    }

    static func isHeader(_ line: Substring) -> Bool { line == Substring(header) || line.hasPrefix(header + " ") }

    /// The lines of a file, read a megabyte at a time: each piece becomes one string, whose lines are handed out
    /// as they are found (a line that runs past a piece is carried over to the next). Empty lines are skipped.
    ///
    /// A line longer than `budget` stops the reading: ``line()`` throws, and ``next()`` (for ``Merge``) ends and
    /// keeps the ``failure``.
    struct LineReader: IteratorProtocol {
        let file: RegularFile
        let budget: FileBudget
        private var text = ""
        private var position = 0
        private var carried: [UInt8] = []
        /// The bytes of ``carried`` not handed out yet are those from here to ``carriedEnd``: a copy takes from the
        /// front without moving the rest (`removeFirst` moved up to a megabyte for each run a rebuild took), and
        /// reads the file's next megabyte into the same storage.
        private var carriedStart = 0
        private var carriedEnd = 0
        private var atEnd = false
        /// The offset in the file of ``text``'s first byte.
        private var textStart = 0
        /// The lines handed out or skipped so far (the header counts as line 1): for messages.
        private var lineNumber = 0
        private(set) var failure: RegularFile.Failure?
        /// No line that starts at or past this offset of the file is handed out: from there the bytes are taken as
        /// they are (``copy(to:into:)``), or a later limit is set.
        var limit = Int.max
        /// Called with the bytes of each line handed out or skipped (with its line feed) and of each copy, in the
        /// file's order: to fingerprint what was read.
        var observe: ((UnsafeRawBufferPointer) -> Void)?

        /// The offset in the file of the first byte not handed out yet.
        var offset: Int { textStart + min(position, text.utf8.count) }

        init(file: RegularFile, budget: FileBudget) {
            self.file = file
            self.budget = budget
        }

        mutating func next() -> Substring? {
            guard failure == nil else { return nil }
            do {
                return try line()
            } catch {
                failure = error
                return nil
            }
        }

        mutating func line() throws(RegularFile.Failure) -> Substring? {
            while true {
                let utf8 = text.utf8
                while position < utf8.count {
                    guard textStart + position < limit else { return nil }
                    let start = position
                    let end = utf8.withContiguousStorageIfAvailable { bytes in
                        let end = memchr(bytes.baseAddress! + start, 0x0A, bytes.count - start).map { UnsafeRawPointer($0) - UnsafeRawPointer(bytes.baseAddress!) }
                            ?? bytes.count
                        observe?(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start..<min(end + 1, bytes.count)]))
                        return end
                    } ?? utf8.count
                    position = end + 1
                    lineNumber += 1
                    guard end - start <= budget.bytes else {
                        throw RegularFile.Failure(path: file.path, kind: RegularFile.Failure.Kind.lineTooLong(budget, line: lineNumber))
                    }
                    if end > start {
                        return Substring(utf8[utf8.index(utf8.startIndex, offsetBy: start)..<utf8.index(utf8.startIndex, offsetBy: end)])
                    }
                }
                guard !atEnd, textStart + utf8.count < limit else { return nil }
                let piece = try file.read(upTo: 1 << 20)
                var bytes = carriedStart == 0 && carriedEnd == carried.count ? carried : Array(carried[carriedStart..<carriedEnd])
                // `bytes` holds the only reference, so a long line grows in place rather than being copied with each
                // megabyte read (a line of n megabytes copied n times took minutes under the address sanitizer).
                carried = []
                if !piece.isEmpty {
                    bytes.append(contentsOf: piece)
                } else {
                    atEnd = true
                }
                let cut = atEnd ? bytes.count : (Self.lastLineFeed(in: bytes).map { $0 + 1 } ?? 0)
                // A line that has run past the budget without its end is refused before more is read.
                guard bytes.count - cut <= budget.bytes else {
                    let before: Int = bytes[..<cut].count { $0 == 0x0A }
                    let number: Int = lineNumber + before + 1
                    throw RegularFile.Failure(path: file.path, kind: RegularFile.Failure.Kind.lineTooLong(budget, line: number))
                }
                carried = cut == 0 ? bytes : Array(bytes[cut...])
                carriedStart = 0
                carriedEnd = carried.count
                textStart += utf8.count
                text = String(decoding: bytes[..<cut], as: UTF8.self)
                position = 0
            }
        }

        /// The offset of the last line feed in `bytes`, searched backwards through its buffer.
        static func lastLineFeed(in bytes: [UInt8]) -> Int? {
            bytes.withUnsafeBufferPointer { buffer in
                var index = buffer.count
                while index > 0 {
                    index -= 1
                    if buffer[index] == 0x0A { return index }
                }
                return nil
            }
        }

        /// The line feeds in `bytes`: the lines a copy passes, so a later message still names its line.
        static func lineFeeds(in bytes: UnsafeRawBufferPointer) -> Int {
            guard var next = bytes.baseAddress else { return 0 }
            let end = next + bytes.count
            var count = 0
            while next < end, let found = memchr(next, 0x0A, end - next) {
                count += 1
                next = UnsafeRawPointer(found) + 1
            }
            return count
        }

        /// Hands the bytes from ``offset`` up to the offset `end` to `emit` as they are, a megabyte at most at a
        /// time; fewer when the file ends before (the lines they hold are counted for messages).
        mutating func copy(to end: Int, into emit: (UnsafeRawBufferPointer) throws -> Void) throws {
            let count = text.utf8.count
            if position < count {
                let take = min(count - position, end - offset)
                if take > 0 {
                    let start = position
                    try text.utf8.withContiguousStorageIfAvailable { bytes in
                        let piece = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start..<start + take])
                        observe?(piece)
                        lineNumber += Self.lineFeeds(in: piece)
                        try emit(piece)
                    }
                    position += take
                }
                if position < count { return }
            }
            // The text is all handed out: on with the bytes carried over, then the file's.
            textStart += count
            text = ""
            position = 0
            while textStart < end {
                if carriedStart == carriedEnd {
                    guard !atEnd else { return }
                    if carried.count != 1 << 20 { carried = [UInt8](repeating: 0, count: 1 << 20) }
                    let file = file
                    carriedStart = 0
                    carriedEnd = try carried.withUnsafeMutableBytes { buffer throws(RegularFile.Failure) in try file.read(into: buffer) }
                    guard carriedEnd > 0 else {
                        atEnd = true
                        return
                    }
                }
                let take = min(carriedEnd - carriedStart, end - textStart)
                let start = carriedStart
                try carried.withUnsafeBytes { bytes in
                    let piece = UnsafeRawBufferPointer(rebasing: bytes[start..<start + take])
                    observe?(piece)
                    lineNumber += Self.lineFeeds(in: piece)
                    try emit(piece)
                }
                carriedStart += take
                textStart += take
            }
        }
    }

    /// The changes from the lines of `old`, in order, to the lines given to ``take(_:)``, in order: one pass over
    /// both, as a merge of two sorted lists.
    ///
    /// Each line's sort key (``SortKey``) is found once, however many lines of the other trail it is compared with:
    /// a long line of the previous trail costs its length once, not once per line of the new one.
    struct Merge<Old: IteratorProtocol<Substring>> {
        private var old: Old
        private var current: Substring?
        /// The sort key of ``current``, found when it is first compared.
        private var currentKey: SortKey?
        private let closedThrough: CalendarDate?
        private var changes: [Change] = []

        init(old: Old, closedThrough: CalendarDate?) {
            self.old = old
            self.closedThrough = closedThrough
            current = self.old.next()
        }

        private mutating func advance() {
            current = old.next()
            currentKey = nil
        }

        /// The sort key of the current old line.
        private mutating func key(of line: Substring) -> SortKey {
            if let currentKey { return currentKey }
            let key = SortKey(line)
            currentKey = key
            return key
        }

        /// The next line of the new trail.
        mutating func take(_ line: UnsafeRawBufferPointer) {
            guard let first = current else { return added(Substring(String(decoding: line, as: UTF8.self))) }
            if Trail.same(first, line) {
                advance()
                return
            }
            let new = Substring(String(decoding: line, as: UTF8.self))
            let newKey = SortKey(new)
            while let line = current, key(of: line) < newKey {
                removed(line)
                advance()
            }
            guard let line = current, !(newKey < key(of: line)) else { return added(new) }
            advance()
            guard line != new, let a = Trail.record(line), let b = Trail.record(new) else { return }
            // The same record, other values.
            for (index, field) in b.kind.fields.enumerated() {
                let before = index < a.values.count ? a.values[index] : "", after = index < b.values.count ? b.values[index] : ""
                if before != after {
                    changes.append(Change(
                        kind: b.kind, key: b.key, name: b.name, what: .changed, field: field, before: before, after: after,
                        closed: isClosed(a.date, b.date)))
                }
            }
        }

        /// The changes, once every new line was taken: the old lines left were removed.
        mutating func finish() -> [Change] {
            drain()
            return changes
        }

        /// Marks the old lines left removed: every new line that could match them was taken. The old lines may
        /// go on after a limit (``LineReader/limit``): ``resume()`` then reads on.
        mutating func drain() {
            while let line = current {
                removed(line)
                advance()
            }
        }

        /// Reads the next old line, after ``drain()`` and a move of the old lines' limit.
        mutating func resume() { advance() }

        /// Calls `body` with the old lines' reader.
        mutating func withOld<R>(_ body: (inout Old) throws -> R) rethrows -> R { try body(&old) }

        private func isClosed(_ days: CalendarDate...) -> Bool {
            guard let closedThrough else { return false }
            return days.contains { $0 <= closedThrough }
        }

        private func summary(_ record: Record) -> String {
            zip(record.kind.fields, record.values).filter { !$0.1.isEmpty }.map { "\($0) \($1)" }.joined(separator: ", ")
        }

        private mutating func removed(_ line: Substring) {
            guard let a = Trail.record(line) else { return }
            changes.append(Change(kind: a.kind, key: a.key, name: a.name, what: .removed, field: "", before: summary(a), after: "", closed: isClosed(a.date)))
        }

        /// Why the previous file's lines ended early, when they did (``LineReader/failure``).
        var failure: RegularFile.Failure? { (old as? LineReader)?.failure }

        private mutating func added(_ line: Substring) {
            guard let b = Trail.record(line) else { return }
            changes.append(Change(kind: b.kind, key: b.key, name: b.name, what: .added, field: "", before: "", after: summary(b), closed: isClosed(b.date)))
        }
    }

    /// Whether two lines have the same bytes (compared as memory: most lines of two trails are equal).
    static func same(_ a: Substring, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.utf8.count == b.count else { return false }
        let equal = a.utf8.withContiguousStorageIfAvailable { x in x.count == 0 || memcmp(x.baseAddress!, b.baseAddress!, x.count) == 0 }
        return equal ?? a.utf8.elementsEqual(b)
    }

    /// The rank of a line's kind (its first cell) in ``Kind/allCases``, read from its bytes.
    fileprivate static func rank(_ kind: Substring.UTF8View) -> Int {
        switch kind.first {
        case UInt8(ascii: "i"): 0
        case UInt8(ascii: "p"): 1
        case UInt8(ascii: "w"): 2
        case UInt8(ascii: "t"): kind.count > 4 && kind[kind.index(kind.startIndex, offsetBy: 4)] == UInt8(ascii: "l") ? 3 : 5
        case UInt8(ascii: "f"): 4
        default: Int.max
        }
    }

    /// What orders a line: its kind's rank and its key's bytes, unescaped as records are sorted (its first two cells).
    struct SortKey: Comparable {
        var rank: Int
        var key: Substring

        init(_ line: Substring) {
            let bytes = line.utf8
            guard let firstTab = bytes.firstIndex(of: 9) else {
                (rank, key) = (Int.max, line)
                return
            }
            let rest = bytes[bytes.index(after: firstTab)...]
            let secondTab = rest.firstIndex(of: 9) ?? rest.endIndex
            rank = Trail.rank(bytes[..<firstTab])
            let escaped = Substring(rest[..<secondTab])
            if escaped.utf8.contains(UInt8(ascii: "\\")) {
                key = Substring(Trail.unescape(escaped))
            } else {
                key = escaped
            }
        }

        static func < (x: SortKey, y: SortKey) -> Bool {
            x.rank != y.rank ? x.rank < y.rank : x.key.utf8.lexicographicallyPrecedes(y.key.utf8)
        }

        static func == (x: SortKey, y: SortKey) -> Bool { x.rank == y.rank && x.key.utf8.elementsEqual(y.key.utf8) }
    }

    /// Whether line `a` comes before line `b`: by kind, then by the key's bytes (unescaped, as records are sorted).
    static func precedes(_ a: Substring, _ b: Substring) -> Bool { SortKey(a) < SortKey(b) }

    // MARK: - The file

    /// The first line of a trail file, before its fingerprints.
    static let header = "invoices-trail 1"

    /// The first line of a trail file: `invoices-trail 1 BOOKS BODY`, the fingerprint of the books it was made from
    /// and a hash of the lines after it, both in hexadecimal.
    ///
    /// The next build reads only this line when its books have the same fingerprint (nothing can have changed).
    /// Where that alone would decide that a closed period is unchanged, the build first checks that the lines hash to
    /// ``body``, so a first line copied from another build's trail is noticed. The writer of the file computes the
    /// hash as it writes the lines, and puts it in the place ``line`` leaves for it (16 digits, zeros until then).
    public struct Header: Sendable, Equatable {
        /// The fingerprint of the books; nil in a trail written without one.
        public var books: UInt64?
        /// The hash of the lines after the first; nil in a trail written before the hash was (nothing to check).
        public var body: UInt64?

        public init(books: UInt64?, body: UInt64?) {
            self.books = books
            self.body = body
        }

        /// The header of the first line `line`; nil when it is not a trail's.
        public init?(line: Substring) {
            guard Trail.isHeader(line) else { return nil }
            let fields = line.dropFirst(Trail.header.count).split(separator: " ")
            books = fields.count > 0 ? UInt64(fields[0], radix: 16) : nil
            body = fields.count > 1 && fields[1].count == Self.bodyDigits ? UInt64(fields[1], radix: 16) : nil
        }

        /// The line, without its line feed; the body's hash always 16 digits, so it can be written in place.
        public var line: String {
            var line = Trail.header
            if let books { line += " " + String(books, radix: 16) }
            if let body {
                let digits = String(body, radix: 16)
                line += " " + String(repeating: "0", count: Self.bodyDigits - digits.count) + digits
            }
            return line
        }

        /// The digits of ``body`` in ``line``: the last ones before the line feed.
        public static let bodyDigits = 16
    }

    /// The trail as text: a header line, then one line per record, tab-separated (kind, key, day, values), with
    /// backslash, tab, line feed and carriage return escaped.
    public var text: String { text(books: nil) }

    /// ``text`` with the fingerprint of the books it was made from in its first line (``Header``; the body's hash
    /// left as zeros: the file's writer fills it in).
    public func text(books: UInt64?) -> String {
        var bytes: [UInt8] = []
        var merge: Merge<LineReader>?
        // Records given one by one have no limit on their lines here: the books' trail is checked as it is written.
        try? emitLines(books: books, merge: &merge, limit: .max, into: { bytes.append(contentsOf: $0) })
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A record's line: its cells escaped and joined by tabs.
    static func line(_ record: Record) -> String {
        var line = escape(record.kind.rawValue)
        line += "\t"
        line += escape(record.key)
        line += "\t"
        line += record.date.description
        for value in record.values {
            line += "\t"
            line += escape(value)
        }
        return line
    }

    /// The record a line holds; nil when it is not one.
    static func record(_ line: Substring) -> Record? {
        let cells = line.utf8.split(separator: 0x09, omittingEmptySubsequences: false).map { unescape(Substring($0)) }
        guard cells.count >= 3, let kind = Kind(rawValue: cells[0]), let date = CalendarDate(iso: cells[2]),
            cells.count - 3 == kind.fields.count
        else { return nil }
        return Record(kind: kind, key: cells[1], date: date, values: Array(cells[3...]))
    }

    /// A trail read back from ``text``; nil when the text is not one (another format, a damaged file).
    public init?(text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true)[...]
        guard let first = lines.first, first == Substring(Self.header) || first.hasPrefix(Self.header + " ") else { return nil }
        lines = lines.dropFirst()
        var records: [Record] = []
        for line in lines {
            guard let record = Self.record(line) else { return nil }
            records.append(record)
        }
        self.init(records: records)
    }

    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x5C || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func unescape(_ text: Substring) -> String {
        guard text.utf8.contains(0x5C) else { return String(text) }
        var result = ""
        var escaped = false
        for scalar in text.unicodeScalars {
            if escaped {
                switch scalar {
                case "t": result += "\t"
                case "n": result += "\n"
                case "r": result += "\r"
                default: result.unicodeScalars.append(scalar)
                }
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
