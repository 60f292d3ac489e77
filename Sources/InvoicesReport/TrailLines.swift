import Foundation
import InvoicesCore
#if canImport(Glibc)
import Glibc
#endif

/// The lines of the trail of a set of books, made one at a time in the trail's order and handed out as bytes: no
/// line, key or record is kept after it is handed out.
///
/// Each kind's documents are put in order by their keys alone, kept for that kind as one run of bytes (at
/// 2,000,000 invoices, 40 MB of keys where the lines are 600 MB); the lines are then written into one reused buffer.
struct TrailLines {
    let books: Books
    let report: Report

    /// Calls `body` with each line, in the order of the trail file (kind, then the key's bytes).
    func forEach(_ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        var line = Line()
        let invoices = books.invoices
        func money(_ minorUnits: Int64, _ invoice: InvoiceSnapshot) -> String {
            Money.decimalString(minorUnits, digits: books.currencies[Int(invoice.currencyIndex)].minorUnitDigits)
        }

        // Invoices and credit notes, by identifier.
        for index in Self.order(invoices.count, key: { $1.append(invoices[$0].identifier) }) {
            let invoice = invoices[index]
            let corrects = invoice.corrects >= 0 && Int(invoice.corrects) < invoices.count ? invoices[Int(invoice.corrects)].identifier : ""
            line.start(.invoice, key: { $0.append(invoice.identifier) }, invoice.issued)
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
        // The tables are sorted by invoice (``Books``), so a document's place follows from the one before it.
        func places(_ invoiceIndices: [Int32]) -> [Int32] {
            var places = [Int32](repeating: 1, count: invoiceIndices.count)
            for index in invoiceIndices.indices.dropFirst() where invoiceIndices[index] == invoiceIndices[index - 1] {
                places[index] = places[index - 1] + 1
            }
            return places
        }
        func documents(
            _ kind: Trail.Kind, _ label: String, invoices invoiceIndices: [Int32], date: (Int) -> CalendarDate,
            values: (Int, inout Line) -> Void
        ) throws {
            let places = places(invoiceIndices)
            func key(_ index: Int, _ key: inout Key) {
                key.append(invoices[Int(invoiceIndices[index])].identifier)
                key.append(label)
                key.append(places[index])
            }
            for index in Self.order(invoiceIndices.count, key: key) {
                line.start(kind, key: { key(index, &$0) }, date(index))
                values(index, &line)
                try line.hand(to: body)
            }
        }
        let payments = books.payments
        try documents(.payment, " payment ", invoices: payments.map(\.invoiceIndex), date: { payments[$0].date }) { index, line in
            let payment = payments[index]
            let details = payment.details >= 0 ? books.paymentDetails[Int(payment.details)] : PaymentDetails(method: "", reference: "")
            line.add(payment.date.description)
            line.add(money(payment.amount, invoices[Int(payment.invoiceIndex)]))
            line.add(details.method)
            line.add(details.reference)
        }
        let writeOffs = books.writeOffs
        try documents(.writeOff, " write-off ", invoices: writeOffs.map(\.invoiceIndex), date: { writeOffs[$0].date }) { index, line in
            let writeOff = writeOffs[index]
            line.add(writeOff.date.description)
            line.add(money(writeOff.amount, invoices[Int(writeOff.invoiceIndex)]))
            line.add(writeOff.reason)
        }
        let taxLines = books.taxLines
        try documents(.taxLine, " tax line ", invoices: taxLines.map(\.invoiceIndex), date: { invoices[Int(taxLines[$0].invoiceIndex)].issued }) {
            index, line in
            let taxLine = taxLines[index]
            let invoice = invoices[Int(taxLine.invoiceIndex)]
            let tax = books.taxes[Int(taxLine.taxIndex)]
            line.add(tax.name)
            line.add(tax.percent + "%")
            line.add(money(taxLine.net, invoice))
            line.add(money(taxLine.amount, invoice))
        }

        // Figures per client, currency and month (`C-1 EUR 2025-09`), for each month with any.
        var figures: [(client: Int32, currency: Int32, month: Int32)] = []
        for (client, totals) in report.clients.enumerated() {
            for (currency, entry) in totals.currencies.enumerated() {
                for (month, monthFigures) in entry.months.enumerated() where monthFigures.isActive {
                    figures.append((Int32(client), Int32(currency), Int32(month)))
                }
            }
        }
        func figuresKey(_ entry: (client: Int32, currency: Int32, month: Int32), _ key: inout Key) {
            let totals = report.clients[Int(entry.client)]
            key.append(books.clients[totals.clientIndex].number)
            key.append(" ")
            key.append(totals.currencies[Int(entry.currency)].currency.code)
            key.append(" ")
            key.append(report.months[Int(entry.month)].description)
        }
        for index in Self.order(figures.count, key: { figuresKey(figures[$0], &$1) }) {
            let entry = figures[index]
            let currency = report.clients[Int(entry.client)].currencies[Int(entry.currency)]
            let month = currency.months[Int(entry.month)]
            line.start(.figures, key: { figuresKey(entry, &$0) }, report.months[Int(entry.month)].lastDay)
            let digits = currency.currency.minorUnitDigits
            for value in [month.invoiced, month.net, month.tax, month.paid, month.credited, month.writtenOff, month.outstanding, month.overdue, month.credit] {
                line.add(Money.decimalString(value, digits: digits))
            }
            line.add(String(month.invoices))
            try line.hand(to: body)
        }
        figures = []

        // Tax figures per currency, tax and month (`EUR MWST 7.7% 2025-09`).
        var taxFigures: [(tax: Int32, month: Int32)] = []
        for (tax, totals) in report.taxes.enumerated() {
            for (month, monthFigures) in totals.months.enumerated() where monthFigures.isActive { taxFigures.append((Int32(tax), Int32(month))) }
        }
        func taxKey(_ entry: (tax: Int32, month: Int32), _ key: inout Key) {
            let totals = report.taxes[Int(entry.tax)]
            key.append(totals.currency.code)
            key.append(" ")
            key.append("\(books.taxes[totals.taxIndex])")
            key.append(" ")
            key.append(report.months[Int(entry.month)].description)
        }
        for index in Self.order(taxFigures.count, key: { taxKey(taxFigures[$0], &$1) }) {
            let entry = taxFigures[index]
            let totals = report.taxes[Int(entry.tax)]
            let month = totals.months[Int(entry.month)]
            line.start(.taxFigures, key: { taxKey(entry, &$0) }, report.months[Int(entry.month)].lastDay)
            let digits = totals.currency.minorUnitDigits
            for value in [month.accrualNet, month.accrualTax, month.cashNet, month.cashTax] { line.add(Money.decimalString(value, digits: digits)) }
            try line.hand(to: body)
        }
    }

    /// The indices `0..<count` ordered by their keys' bytes (unsigned, a key before any longer key it begins); equal
    /// keys keep their order. The keys are written once into one run of bytes, compared with `memcmp`.
    static func order(_ count: Int, key: (Int, inout Key) -> Void) -> [Int] {
        var keys = Key()
        var ends = [Int](repeating: 0, count: count)
        for index in 0..<count {
            key(index, &keys)
            ends[index] = keys.bytes.count
        }
        var order = Array(0..<count)
        keys.bytes.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            func precedes(_ a: Int, _ b: Int) -> Bool {
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

    /// Bytes a key or a line is written into.
    struct Key {
        var bytes: [UInt8] = []

        mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

        /// A place, in decimal.
        mutating func append(_ number: Int32) { append(String(number)) }
    }

    /// One line of the trail, written cell by cell into a buffer that is reused for every line.
    struct Line {
        private var buffer = Key()

        /// Starts a line: its kind, its key (escaped), its day.
        mutating func start(_ kind: Trail.Kind, key write: (inout Key) -> Void, _ date: CalendarDate) {
            buffer.bytes.removeAll(keepingCapacity: true)
            buffer.append(kind.rawValue)
            buffer.bytes.append(0x09)
            let keyStart = buffer.bytes.count
            write(&buffer)
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
