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

    /// Every record as its line of the trail file (``line(_:)``), ordered by kind, then by the key's bytes: the order
    /// the file has, so the next build compares the two line by line and parses only the lines that differ.
    public private(set) var lines: [String]

    public init(records: [Record]) {
        var records = records
        records.sort { a, b in
            a.kind != b.kind ? a.kind < b.kind : a.key.utf8.lexicographicallyPrecedes(b.key.utf8)
        }
        lines = records.map(Self.line)
    }

    /// The records, parsed back from ``lines``.
    public var records: [Record] { lines.compactMap { Self.record(Substring($0)) } }

    /// The trail of `books`, with the figures of `report` (computed over every month of the books).
    public init(books: Books, report: Report) {
        // Each record's line is written straight from the books (no record, no array of values in between), with
        // its key for the order of the file.
        var entries: [(kind: Kind, key: String, line: String)] = []
        entries.reserveCapacity(books.invoices.count * 2 + books.payments.count + books.taxLines.count)
        func add(_ kind: Kind, _ key: String, _ date: CalendarDate, _ values: String...) {
            var line = kind.rawValue
            line += "\t"
            line += Self.escape(key)
            line += "\t"
            line += date.description
            for value in values {
                line += "\t"
                line += Self.escape(value)
            }
            entries.append((kind, key, line))
        }
        func money(_ minorUnits: Int64, _ invoice: InvoiceSnapshot) -> String {
            Money.decimalString(minorUnits, digits: books.currencies[Int(invoice.currencyIndex)].minorUnitDigits)
        }
        for invoice in books.invoices {
            let corrects = invoice.corrects >= 0 && Int(invoice.corrects) < books.invoices.count
                ? books.invoices[Int(invoice.corrects)].identifier : ""
            add(
                .invoice, invoice.identifier, invoice.issued, invoice.kind == .invoice ? "invoice" : "credit note",
                books.clients[Int(invoice.clientIndex)].number, invoice.status.name,
                invoice.issued.description, invoice.due.description, books.currencies[Int(invoice.currencyIndex)].code,
                money(invoice.amount, invoice), money(invoice.net, invoice), corrects, invoice.applied?.description ?? "", invoice.notes)
        }
        // Payments, write-offs and tax lines by their invoice and their place among its own, in the books' order.
        var seen: [Int32: Int] = [:]
        for payment in books.payments {
            let invoice = books.invoices[Int(payment.invoiceIndex)]
            let place = (seen[payment.invoiceIndex] ?? 0) + 1
            seen[payment.invoiceIndex] = place
            let details = payment.details >= 0 ? books.paymentDetails[Int(payment.details)] : PaymentDetails(method: "", reference: "")
            add(
                .payment, "\(invoice.identifier) payment \(place)", payment.date, payment.date.description, money(payment.amount, invoice),
                details.method, details.reference)
        }
        seen = [:]
        for writeOff in books.writeOffs {
            let invoice = books.invoices[Int(writeOff.invoiceIndex)]
            let place = (seen[writeOff.invoiceIndex] ?? 0) + 1
            seen[writeOff.invoiceIndex] = place
            add(
                .writeOff, "\(invoice.identifier) write-off \(place)", writeOff.date, writeOff.date.description,
                money(writeOff.amount, invoice), writeOff.reason)
        }
        seen = [:]
        for line in books.taxLines {
            let invoice = books.invoices[Int(line.invoiceIndex)]
            let place = (seen[line.invoiceIndex] ?? 0) + 1
            seen[line.invoiceIndex] = place
            let tax = books.taxes[Int(line.taxIndex)]
            add(
                .taxLine, "\(invoice.identifier) tax line \(place)", invoice.issued, tax.name, tax.percent + "%",
                money(line.net, invoice), money(line.amount, invoice))
        }
        for totals in report.clients {
            let number = books.clients[totals.clientIndex].number
            for entry in totals.currencies {
                let digits = entry.currency.minorUnitDigits
                func decimal(_ value: Int64) -> String { Money.decimalString(value, digits: digits) }
                for (offset, figures) in entry.months.enumerated() where figures.isActive {
                    let month = report.months[offset]
                    add(
                        .figures, "\(number) \(entry.currency.code) \(month)", month.lastDay, decimal(figures.invoiced),
                        decimal(figures.net), decimal(figures.tax), decimal(figures.paid), decimal(figures.credited),
                        decimal(figures.writtenOff), decimal(figures.outstanding), decimal(figures.overdue), decimal(figures.credit),
                        String(figures.invoices))
                }
            }
        }
        for totals in report.taxes {
            let tax = books.taxes[totals.taxIndex]
            let digits = totals.currency.minorUnitDigits
            func decimal(_ value: Int64) -> String { Money.decimalString(value, digits: digits) }
            for (offset, figures) in totals.months.enumerated() where figures.isActive {
                let month = report.months[offset]
                add(
                    .taxFigures, "\(totals.currency.code) \(tax) \(month)", month.lastDay, decimal(figures.accrualNet),
                    decimal(figures.accrualTax), decimal(figures.cashNet), decimal(figures.cashTax))
            }
        }
        entries.sort { a, b in a.kind != b.kind ? a.kind < b.kind : a.key.utf8.lexicographicallyPrecedes(b.key.utf8) }
        lines = entries.map(\.line)
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

    /// What changed from `previous` to this trail, in the order of ``lines``; each change marked closed when it
    /// touches a day on or before `closedThrough`.
    public func changes(since previous: Trail, closedThrough: CalendarDate? = nil) -> [Change] {
        Self.changes(from: previous.lines.lazy.map { Substring($0) }.makeIterator(), to: lines, closedThrough: closedThrough)
    }

    /// What changed from the trail file `text` (as ``text`` wrote it) to this trail; nil when `text` is not a trail.
    /// Lines equal in both are skipped without parsing them.
    public func changes(sinceText text: String, closedThrough: CalendarDate? = nil) -> [Change]? {
        // Split on the line feed's byte: no grapheme breaking over a file of millions of lines.
        var previous = text.utf8.split(separator: 0x0A).map { Substring($0) }.makeIterator()
        guard let first = previous.next(), Self.isHeader(first) else { return nil }
        return Self.changes(from: previous, to: lines, closedThrough: closedThrough)
    }

    /// What changed from the trail file at `url` (as ``write(books:into:)`` wrote it) to this trail; nil when there
    /// is no such file or it is not a trail. The file is read a megabyte at a time, never whole: at 2,000,000
    /// invoices it is 600 MB.
    public func changes(sinceFile url: URL, closedThrough: CalendarDate? = nil) -> [Change]? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        var previous = LineReader(handle: handle)
        guard let first = previous.next(), Self.isHeader(first) else { return nil }
        return Self.changes(from: previous, to: lines, closedThrough: closedThrough)
    }

    private static func isHeader(_ line: Substring) -> Bool { line == Substring(header) || line.hasPrefix(header + " ") }

    /// The lines of a file, read a megabyte at a time: each piece becomes one string, split at its line feeds (a line
    /// that runs past a piece is carried over to the next).
    struct LineReader: IteratorProtocol {
        let handle: FileHandle
        private var lines: [Substring] = []
        private var index = 0
        private var carried: [UInt8] = []
        private var atEnd = false

        init(handle: FileHandle) { self.handle = handle }

        mutating func next() -> Substring? {
            while index == lines.count {
                guard !atEnd else { return nil }
                var bytes = carried
                if let piece = try? handle.read(upToCount: 1 << 20), !piece.isEmpty {
                    bytes.append(contentsOf: piece)
                } else {
                    atEnd = true
                }
                let cut = atEnd ? bytes.count : (bytes.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0)
                carried = Array(bytes[cut...])
                lines = String(decoding: bytes[..<cut], as: UTF8.self).utf8.split(separator: 0x0A).map { Substring($0) }
                index = 0
            }
            defer { index += 1 }
            return lines[index]
        }
    }

    /// The changes from the lines of `old`, in order, to `new`: one pass over both, as a merge of two sorted lists.
    private static func changes(from old: some IteratorProtocol<Substring>, to new: [String], closedThrough: CalendarDate?) -> [Change] {
        var changes: [Change] = []
        func isClosed(_ days: CalendarDate...) -> Bool {
            guard let closedThrough else { return false }
            return days.contains { $0 <= closedThrough }
        }
        func summary(_ record: Record) -> String {
            zip(record.kind.fields, record.values).filter { !$0.1.isEmpty }.map { "\($0) \($1)" }.joined(separator: ", ")
        }
        func removed(_ line: Substring) {
            guard let a = record(line) else { return }
            changes.append(Change(kind: a.kind, key: a.key, name: a.name, what: .removed, field: "", before: summary(a), after: "", closed: isClosed(a.date)))
        }
        func added(_ line: String) {
            guard let b = record(Substring(line)) else { return }
            changes.append(Change(kind: b.kind, key: b.key, name: b.name, what: .added, field: "", before: "", after: summary(b), closed: isClosed(b.date)))
        }
        var old = old
        var current = old.next()
        var j = 0
        while current != nil || j < new.count {
            if let line = current, j < new.count, same(line, new[j]) {
                current = old.next()
                j += 1
                continue
            }
            if let line = current, j == new.count || precedes(line, Substring(new[j])) {
                removed(line)
                current = old.next()
            } else if current == nil || precedes(Substring(new[j]), current!) {
                added(new[j])
                j += 1
            } else {
                // The same record, other values.
                if let a = record(current!), let b = record(Substring(new[j])) {
                    for (index, field) in b.kind.fields.enumerated() {
                        let before = index < a.values.count ? a.values[index] : "", after = index < b.values.count ? b.values[index] : ""
                        if before != after {
                            changes.append(Change(
                                kind: b.kind, key: b.key, name: b.name, what: .changed, field: field, before: before, after: after,
                                closed: isClosed(a.date, b.date)))
                        }
                    }
                }
                current = old.next()
                j += 1
            }
        }
        return changes
    }

    /// Whether two lines have the same bytes (compared as memory: most lines of two trails are equal).
    private static func same(_ a: Substring, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        let equal = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
        }
        return (equal ?? nil) ?? a.utf8.elementsEqual(b.utf8)
    }

    /// The rank of a line's kind (its first cell) in ``Kind/allCases``, read from its bytes.
    private static func rank(_ kind: Substring.UTF8View) -> Int {
        switch kind.first {
        case UInt8(ascii: "i"): 0
        case UInt8(ascii: "p"): 1
        case UInt8(ascii: "w"): 2
        case UInt8(ascii: "t"): kind.count > 4 && kind[kind.index(kind.startIndex, offsetBy: 4)] == UInt8(ascii: "l") ? 3 : 5
        case UInt8(ascii: "f"): 4
        default: Int.max
        }
    }

    /// The kind's rank and the key's escaped bytes of a line (its first two cells), which order the lines.
    private static func sortKey(_ line: Substring) -> (rank: Int, key: Substring.UTF8View) {
        let bytes = line.utf8
        guard let firstTab = bytes.firstIndex(of: 9) else { return (Int.max, bytes[...]) }
        let rest = bytes[bytes.index(after: firstTab)...]
        let secondTab = rest.firstIndex(of: 9) ?? rest.endIndex
        return (rank(bytes[..<firstTab]), rest[..<secondTab])
    }

    /// Whether line `a` comes before line `b`: by kind, then by the key's bytes (unescaped, as records are sorted).
    static func precedes(_ a: Substring, _ b: Substring) -> Bool {
        let x = sortKey(a), y = sortKey(b)
        if x.rank != y.rank { return x.rank < y.rank }
        let backslash = UInt8(ascii: "\\")
        if x.key.contains(backslash) || y.key.contains(backslash) {
            return unescape(Substring(x.key)).utf8.lexicographicallyPrecedes(unescape(Substring(y.key)).utf8)
        }
        return x.key.lexicographicallyPrecedes(y.key)
    }

    // MARK: - The file

    /// The first line of a trail file, before its fingerprint.
    static let header = "invoices-trail 1"

    /// The first line of a trail file whose books have the fingerprint `books`: the next build reads only this line
    /// when its books have the same fingerprint (nothing can have changed).
    public static func firstLine(books: UInt64) -> String { header + " " + String(books, radix: 16) }

    /// The trail as text: a header line, then one line per record, tab-separated (kind, key, day, values), with
    /// backslash, tab, line feed and carriage return escaped.
    public var text: String { text(books: nil) }

    /// ``text`` with the fingerprint of the books it was made from in its first line (``firstLine(books:)``).
    public func text(books: UInt64?) -> String {
        var bytes: [UInt8] = []
        write(books: books) { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``text(books:)`` handed out a megabyte at a time, never whole: at 2,000,000 invoices it is 600 MB.
    public func write(books: UInt64?, into emit: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        var piece = Array(((books.map(Self.firstLine) ?? Self.header) + "\n").utf8)
        piece.reserveCapacity((1 << 20) + 4096)
        for line in lines {
            piece.append(contentsOf: line.utf8)
            piece.append(0x0A)
            if piece.count >= 1 << 20 {
                try piece.withUnsafeBytes(emit)
                piece.removeAll(keepingCapacity: true)
            }
        }
        if !piece.isEmpty { try piece.withUnsafeBytes(emit) }
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
