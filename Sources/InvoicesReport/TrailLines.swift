import Foundation
public import InvoicesCore
#if canImport(Glibc)
import Glibc
#endif

extension Trail {
    /// The records of the trail of a set of books, in the file's order (kind, then the key's bytes): each kind's
    /// rows in order, as indices into the books' and the report's tables. Positions count across the kinds
    /// (``sections``), so a run of records (a piece of the file) is a range of positions.
    ///
    /// Each kind's documents are put in order by their keys alone, kept for that kind as one run of bytes while it
    /// is sorted (at 2,000,000 invoices, 40 MB of keys where the lines are 600 MB); what is kept is 4 bytes a record.
    public struct Order: Sendable {
        /// One month of one client's figures in one currency: indices into ``Report/clients``, its
        /// ``Report/ClientTotals/currencies`` and ``Report/months``.
        public struct ClientMonth: Sendable {
            public var client: Int32
            public var currency: Int32
            public var month: Int32
        }

        /// One month of one tax's figures: indices into ``Report/taxes`` and ``Report/months``.
        public struct TaxMonth: Sendable {
            public var tax: Int32
            public var month: Int32
        }

        /// Indices into ``Books/invoices``, ``Books/payments``, ``Books/writeOffs`` and ``Books/taxLines``, in order.
        public let invoices: [Int32], payments: [Int32], writeOffs: [Int32], taxLines: [Int32]
        /// Per row of ``Books/payments``, ``Books/writeOffs`` and ``Books/taxLines`` (in the books' order), its place
        /// among its invoice's (`INV-7 payment 2`).
        public let paymentPlaces: [Int32], writeOffPlaces: [Int32], taxLinePlaces: [Int32]
        public let figures: [ClientMonth]
        public let taxFigures: [TaxMonth]

        /// Each kind's positions, in the file's order.
        public var sections: [(kind: Kind, positions: Range<Int>)] {
            let counts: [(Kind, Int)] = [
                (.invoice, invoices.count), (.payment, payments.count), (.writeOff, writeOffs.count), (.taxLine, taxLines.count),
                (.figures, figures.count), (.taxFigures, taxFigures.count),
            ]
            var start = 0
            var sections: [(kind: Kind, positions: Range<Int>)] = []
            for (kind, count) in counts {
                sections.append((kind, start..<start + count))
                start += count
            }
            return sections
        }

        /// How many records there are.
        public var count: Int { sections.last.map(\.positions.upperBound) ?? 0 }

        /// The order of the trail of `books` with the figures of `report`.
        public init(books: Books, report: Report) {
            let all = books.invoices
            invoices = TrailLines.order(all.count, bytes: TrailLines.invoiceKeyBytes(all)) { $1.append(all[$0].identifier) }
            func placed(_ invoiceIndices: [Int32], _ label: String) -> (order: [Int32], places: [Int32]) {
                let places = TrailLines.places(invoiceIndices)
                let bytes = TrailLines.documentKeyBytes(all, invoiceIndices, label, places)
                let order = TrailLines.order(invoiceIndices.count, bytes: bytes) { index, key in
                    key.append(all[Int(invoiceIndices[index])].identifier)
                    key.append(label)
                    key.append(places[index])
                }
                return (order, places)
            }
            let payments = placed(books.payments.map(\.invoiceIndex), " payment ")
            self.payments = payments.order
            paymentPlaces = payments.places
            let writeOffs = placed(books.writeOffs.map(\.invoiceIndex), " write-off ")
            self.writeOffs = writeOffs.order
            writeOffPlaces = writeOffs.places
            let taxLines = placed(books.taxLines.map(\.invoiceIndex), " tax line ")
            self.taxLines = taxLines.order
            taxLinePlaces = taxLines.places

            // Figures per client, currency and month (`C-1 EUR 2025-09`), for each month with any.
            var figures: [ClientMonth] = []
            for (client, totals) in report.clients.enumerated() {
                for (currency, entry) in totals.currencies.enumerated() {
                    for (month, monthFigures) in entry.months.enumerated() where monthFigures.isActive {
                        figures.append(ClientMonth(client: Int32(client), currency: Int32(currency), month: Int32(month)))
                    }
                }
            }
            let unsorted = figures
            self.figures = TrailLines.order(figures.count) { TrailLines.figuresKey(unsorted[$0], books, report, &$1) }.map { unsorted[Int($0)] }
            // Tax figures per currency, tax and month (`EUR MWST 7.7% 2025-09`).
            var taxFigures: [TaxMonth] = []
            for (tax, totals) in report.taxes.enumerated() {
                for (month, monthFigures) in totals.months.enumerated() where monthFigures.isActive {
                    taxFigures.append(TaxMonth(tax: Int32(tax), month: Int32(month)))
                }
            }
            let unsortedTaxes = taxFigures
            self.taxFigures = TrailLines.order(taxFigures.count) { TrailLines.taxKey(unsortedTaxes[$0], books, report, &$1) }
                .map { unsortedTaxes[Int($0)] }
        }
    }
}

/// The lines of the trail of a set of books, made one at a time in the trail's order (``Trail/Order``) and handed
/// out as bytes: no line, key or record is kept after it is handed out; the lines are written into one reused buffer.
struct TrailLines {
    let books: Books
    let report: Report
    let order: Trail.Order

    /// Calls `body` with each line, in the order of the trail file (kind, then the key's bytes).
    func forEach(_ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        try forEach(in: 0..<order.count, body)
    }

    /// Calls `body` with the line of each record at a position in `positions`, in order.
    func forEach(in positions: Range<Int>, _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        var line = Line()
        let invoices = books.invoices
        // The tables the lines read, taken out of `self` once: a closure that read them through `self` made a copy of
        // the whole value (the books, the report, the order) per line (docs/performance.md, "The L render's
        // statements and trail lines"); the keys are written into the line in place, without a closure.
        let paymentPlaces = order.paymentPlaces, writeOffPlaces = order.writeOffPlaces, taxLinePlaces = order.taxLinePlaces
        func money(_ minorUnits: Int64, _ invoice: InvoiceSnapshot) -> String {
            Money.decimalString(minorUnits, digits: books.currencies[Int(invoice.currencyIndex)].minorUnitDigits)
        }
        for (kind, section) in order.sections {
            let range = section.clamped(to: positions)
            guard !range.isEmpty else { continue }
            let rows = (range.lowerBound - section.lowerBound)..<(range.upperBound - section.lowerBound)
            switch kind {
            // Invoices and credit notes, by identifier.
            case .invoice:
                for index in order.invoices[rows] {
                    let invoice = invoices[Int(index)]
                    let corrects = invoice.corrects >= 0 && Int(invoice.corrects) < invoices.count ? invoices[Int(invoice.corrects)].identifier : ""
                    line.start(.invoice)
                    line.buffer.append(invoice.identifier)
                    line.endKey(invoice.issued)
                    line.add(invoice.kind == .invoice ? "invoice" : "credit note")
                    line.add(books.clients[Int(invoice.clientIndex)].number)
                    line.add(invoice.status.name)
                    line.add(invoice.issued.description)
                    line.add(invoice.due.description)
                    line.add(books.currencies[Int(invoice.currencyIndex)].code)
                    line.add(money(invoice.amount, invoice))
                    line.add(money(invoice.net, invoice))
                    line.add(corrects)
                    line.add(invoice.applied?.description ?? "")
                    line.add(invoice.notes)
                    try line.hand(to: body)
                }
            // Payments, write-offs and tax lines: by their invoice and their place among its own, in the books' order
            // (`INV-7 payment 2`).
            case .payment:
                let payments = books.payments
                for index in order.payments[rows].map(Int.init) {
                    let payment = payments[index]
                    let invoice = invoices[Int(payment.invoiceIndex)]
                    let details = payment.details >= 0 ? books.paymentDetails[Int(payment.details)] : PaymentDetails(method: "", reference: "")
                    line.start(.payment)
                    Self.documentKey(invoice, " payment ", paymentPlaces[index], &line.buffer)
                    line.endKey(payment.date)
                    line.add(payment.date.description)
                    line.add(money(payment.amount, invoice))
                    line.add(details.method)
                    line.add(details.reference)
                    try line.hand(to: body)
                }
            case .writeOff:
                let writeOffs = books.writeOffs
                for index in order.writeOffs[rows].map(Int.init) {
                    let writeOff = writeOffs[index]
                    let invoice = invoices[Int(writeOff.invoiceIndex)]
                    line.start(.writeOff)
                    Self.documentKey(invoice, " write-off ", writeOffPlaces[index], &line.buffer)
                    line.endKey(writeOff.date)
                    line.add(writeOff.date.description)
                    line.add(money(writeOff.amount, invoice))
                    line.add(writeOff.reason)
                    try line.hand(to: body)
                }
            case .taxLine:
                let taxLines = books.taxLines
                for index in order.taxLines[rows].map(Int.init) {
                    let taxLine = taxLines[index]
                    let invoice = invoices[Int(taxLine.invoiceIndex)]
                    let tax = books.taxes[Int(taxLine.taxIndex)]
                    line.start(.taxLine)
                    Self.documentKey(invoice, " tax line ", taxLinePlaces[index], &line.buffer)
                    line.endKey(invoice.issued)
                    line.add(tax.name)
                    line.add(tax.percent + "%")
                    line.add(money(taxLine.net, invoice))
                    line.add(money(taxLine.amount, invoice))
                    try line.hand(to: body)
                }
            // Figures per client, currency and month (`C-1 EUR 2025-09`), for each month with any.
            case .figures:
                for entry in order.figures[rows] {
                    let currency = report.clients[Int(entry.client)].currencies[Int(entry.currency)]
                    let month = currency.months[Int(entry.month)]
                    line.start(.figures)
                    Self.figuresKey(entry, books, report, &line.buffer)
                    line.endKey(report.months[Int(entry.month)].lastDay)
                    let digits = currency.currency.minorUnitDigits
                    for value in [month.invoiced, month.net, month.tax, month.paid, month.credited, month.writtenOff, month.outstanding, month.overdue, month.credit] {
                        line.add(Money.decimalString(value, digits: digits))
                    }
                    line.add(String(month.invoices))
                    try line.hand(to: body)
                }
            // Tax figures per currency, tax and month (`EUR MWST 7.7% 2025-09`).
            case .taxFigures:
                for entry in order.taxFigures[rows] {
                    let totals = report.taxes[Int(entry.tax)]
                    let month = totals.months[Int(entry.month)]
                    line.start(.taxFigures)
                    Self.taxKey(entry, books, report, &line.buffer)
                    line.endKey(report.months[Int(entry.month)].lastDay)
                    let digits = totals.currency.minorUnitDigits
                    for value in [month.accrualNet, month.accrualTax, month.cashNet, month.cashTax] { line.add(Money.decimalString(value, digits: digits)) }
                    try line.hand(to: body)
                }
            }
        }
    }

    /// A payment's, write-off's or tax line's key: its invoice's identifier, `label`, its place.
    static func documentKey(_ invoice: InvoiceSnapshot, _ label: String, _ place: Int32, _ key: inout Key) {
        key.append(invoice.identifier)
        key.append(label)
        key.append(place)
    }

    /// `C-1 EUR 2025-09`.
    static func figuresKey(_ entry: Trail.Order.ClientMonth, _ books: Books, _ report: Report, _ key: inout Key) {
        let totals = report.clients[Int(entry.client)]
        key.append(books.clients[totals.clientIndex].number)
        key.append(" ")
        key.append(totals.currencies[Int(entry.currency)].currency.code)
        key.append(" ")
        key.append(report.months[Int(entry.month)].description)
    }

    /// `EUR MWST 7.7% 2025-09`.
    static func taxKey(_ entry: Trail.Order.TaxMonth, _ books: Books, _ report: Report, _ key: inout Key) {
        let totals = report.taxes[Int(entry.tax)]
        key.append(totals.currency.code)
        key.append(" ")
        key.append("\(books.taxes[totals.taxIndex])")
        key.append(" ")
        key.append(report.months[Int(entry.month)].description)
    }

    /// Each row's place among its invoice's rows, in the books' order: the tables are sorted by invoice
    /// (``Books``), so a row's place follows from the one before it.
    static func places(_ invoiceIndices: [Int32]) -> [Int32] {
        var places = [Int32](repeating: 1, count: invoiceIndices.count)
        for index in invoiceIndices.indices.dropFirst() where invoiceIndices[index] == invoiceIndices[index - 1] {
            places[index] = places[index - 1] + 1
        }
        return places
    }

    /// The indices `0..<count` ordered by their keys' bytes (unsigned, a key before any longer key it begins); equal
    /// keys keep their order. The keys are written once into one run of bytes (``keys(_:bytes:key:)``), compared
    /// with `memcmp`.
    static func order(_ count: Int, bytes: Int? = nil, key: (Int, inout Key) -> Void) -> [Int32] {
        let (keys, ends) = Self.keys(count, bytes: bytes, key: key)
        var order = (0..<Int32(count)).map { $0 }
        keys.bytes.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            func precedes(_ a: Int32, _ b: Int32) -> Bool {
                let a = Int(a), b = Int(b)
                let aStart = a == 0 ? 0 : ends[a - 1], bStart = b == 0 ? 0 : ends[b - 1]
                let aCount = ends[a] - aStart, bCount = ends[b] - bStart
                let common = memcmp(base + aStart, base + bStart, min(aCount, bCount))
                if common != 0 { return common < 0 }
                return aCount != bCount ? aCount < bCount : a < b
            }
            order.sort(by: precedes)
        }
        return order
    }

    /// The keys of the indices `0..<count` written one after the other into one run of bytes, and where each ends.
    /// With `bytes` (what the keys add up to: the documents', millions at L) the run is reserved once at its final
    /// size: grown by doubling, each growth held the old run beside the new one while it was copied, at the L peak
    /// (docs/performance.md, "The trail's order in one reserved run, the exports after it"). Without it (the
    /// figures', made after the documents' runs are let go) the run grows as the keys are written.
    static func keys(_ count: Int, bytes: Int?, key: (Int, inout Key) -> Void) -> (keys: Key, ends: [Int]) {
        var keys = Key()
        if let bytes { keys.bytes.reserveCapacity(bytes) }
        var ends = [Int](repeating: 0, count: count)
        for index in 0..<count {
            key(index, &keys)
            ends[index] = keys.bytes.count
        }
        return (keys, ends)
    }

    /// What the invoices' keys (their identifiers) add up to, in bytes.
    static func invoiceKeyBytes(_ invoices: [InvoiceSnapshot]) -> Int {
        invoices.withUnsafeBufferPointer { invoices in
            var total = 0
            for index in invoices.indices { total += invoices[index].identifier.utf8.count }
            return total
        }
    }

    /// What the keys of the rows whose invoices are `invoiceIndices` and places `places` add up to, in bytes
    /// (``documentKey(_:_:_:_:)``: the invoice's identifier, `label`, the place in decimal).
    static func documentKeyBytes(_ invoices: [InvoiceSnapshot], _ invoiceIndices: [Int32], _ label: String, _ places: [Int32]) -> Int {
        let labelBytes = label.utf8.count
        var total = 0
        invoices.withUnsafeBufferPointer { invoices in
            for (invoice, place) in zip(invoiceIndices, places) {
                total += invoices[Int(invoice)].identifier.utf8.count + labelBytes + decimalDigits(place)
            }
        }
        return total
    }

    /// How many characters `number` has in decimal (`String(number).utf8.count`), without making the text.
    static func decimalDigits(_ number: Int32) -> Int {
        var digits = number < 0 ? 2 : 1
        var rest = number.magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        return digits
    }

    /// Bytes a key or a line is written into.
    struct Key {
        var bytes: [UInt8] = []

        mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

        /// A place, in decimal.
        mutating func append(_ number: Int32) { append(String(number)) }
    }

    /// One line of the trail, written cell by cell into a buffer that is reused for every line: ``start(_:)``, the
    /// key appended to ``buffer``, ``endKey(_:)``, then each value (``add(_:)``).
    struct Line {
        /// The line so far: its key is appended here between ``start(_:)`` and ``endKey(_:)``.
        var buffer = Key()
        private var keyStart = 0

        /// Starts a line: its kind; its key is appended next.
        mutating func start(_ kind: Trail.Kind) {
            buffer.bytes.removeAll(keepingCapacity: true)
            buffer.append(kind.rawValue)
            buffer.bytes.append(0x09)
            keyStart = buffer.bytes.count
        }

        /// Ends the key appended since ``start(_:)`` (escaped), then the line's day.
        mutating func endKey(_ date: CalendarDate) {
            if buffer.bytes[keyStart...].contains(where: Self.needsEscape) {
                let raw = Array(buffer.bytes[keyStart...])
                buffer.bytes.removeSubrange(keyStart...)
                appendEscaped(raw)
            }
            buffer.bytes.append(0x09)
            buffer.append(date.description)
        }

        /// Adds a value (escaped).
        mutating func add(_ value: String) {
            buffer.bytes.append(0x09)
            var value = value
            value.withUTF8 { appendEscaped($0) }
        }

        /// Hands the line to `body`.
        func hand(to body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
            try buffer.bytes.withUnsafeBytes(body)
        }

        private static func needsEscape(_ byte: UInt8) -> Bool { byte == 0x5C || byte == 0x09 || byte == 0x0A || byte == 0x0D }

        /// Backslash, tab, line feed and carriage return as `\\`, `\t`, `\n`, `\r` (``Trail/escape(_:)``).
        private mutating func appendEscaped(_ bytes: some Collection<UInt8>) {
            guard bytes.contains(where: Self.needsEscape) else { return buffer.bytes.append(contentsOf: bytes) }
            for byte in bytes {
                switch byte {
                case 0x5C: buffer.bytes.append(contentsOf: [0x5C, 0x5C])
                case 0x09: buffer.bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                case 0x0A: buffer.bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: buffer.bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                default: buffer.bytes.append(byte)
                }
            }
        }
    }
}
