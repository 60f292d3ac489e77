public import InvoicesCore

/// A client's statement of account in one currency over the report's period: the balance the client owes at the
/// start, each document and payment that moved it, in date order with a running balance, and the balance at the end.
///
/// The balance is the sum of the client's invoice balances (``Ledger``): a sent invoice adds its gross on its issue
/// date, a sent credit note subtracts its gross on its issue date, every payment subtracts its amount (a refund, a
/// negative payment, adds), and a write-off of a sent invoice subtracts its amount. Applying a credit note to an
/// invoice moves its amount between two of the client's balances in the same currency, so it leaves the statement's
/// balance as it was and is not a line. The closing balance is therefore the client's outstanding less its credit
/// at ``Report/asOf`` (``Figures/outstanding`` minus ``Figures/credit``); docs/exports.md and the statement page
/// say so.
public struct ClientStatement: Sendable, Equatable {
    /// One line of a statement.
    public struct Line: Sendable, Equatable {
        public enum Kind: UInt8, Sendable, Comparable {
            case invoice, creditNote, payment, refund, writeOff

            public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
        }

        public var day: CalendarDate
        public var kind: Kind
        /// The document the line belongs to: index in ``Books/invoices``.
        public var invoiceIndex: Int
        /// What the line adds to the balance: positive for an invoice or a refund, negative otherwise.
        public var delta: Int64
        /// A payment's index in ``Books/payments`` or a write-off's in ``Books/writeOffs``; -1 for a document.
        public var source: Int
        /// The balance after this line; nil when it does not fit in 64-bit minor units (the closing balance always does).
        public var balance: Int64?
    }

    /// Index of the client in ``Books/clients``.
    public var clientIndex: Int
    public var currency: CurrencyCode
    /// The first and last day the statement covers: the first reported month's first day and ``Report/asOf``.
    public var from: CalendarDate
    public var to: CalendarDate
    /// The balance at the end of the day before ``from``.
    public var opening: Int64
    /// In date order; within a day documents first, then payments and refunds, then write-offs, each by identifier.
    public var lines: [Line]
    /// The sum of the lines' positive and negative deltas.
    public var charges: Int64
    public var credits: Int64
    /// The balance at the end of ``to``: ``opening`` plus every line.
    public var closing: Int64
}

extension Report {
    /// The first and last day statements cover: the first reported month's first day and the as-of date; nil
    /// without a period.
    public var statementPeriod: (from: CalendarDate, to: CalendarDate)? {
        guard let first = months.first, let asOf else { return nil }
        return (first.firstDay, asOf)
    }

    /// The statements of a client, one per currency of its figures (``ClientTotals/currencies``), in that order.
    ///
    /// - Parameters:
    ///   - totals: the client's entry in ``clients``.
    ///   - invoices: the indexes in ``Books/invoices`` of the client's invoices and credit notes (any order).
    /// - Throws: ``ReportError`` when the opening balance or a sum does not fit in 64-bit minor units.
    public func statements(of totals: ClientTotals, invoices: [Int], in books: Books) throws(ReportError) -> [ClientStatement] {
        try statements(of: totals, invoices: invoices, in: books) { index in Self.first(of: index, in: books.payments) { $0.invoiceIndex } }
    }

    /// The same statements, each invoice's first payment found by `firstPayment` (the first position in
    /// ``Books/payments`` whose invoice index is the invoice's or more): ``ClientStatements`` hands a table of them,
    /// made once per build, as a binary search over every payment misses the cache at each probe between the pages.
    func statements(
        of totals: ClientTotals, invoices: [Int], in books: Books, firstPayment: (Int) -> Int
    ) throws(ReportError) -> [ClientStatement] {
        guard let (from, to) = statementPeriod else { return [] }
        var lines: [Int16: [ClientStatement.Line]] = [:]
        var opening: [Int16: Int64] = [:]
        let client = books.clients[totals.clientIndex]
        func add(_ line: ClientStatement.Line, currency: Int16) throws(ReportError) {
            guard line.day <= to else { return }
            if line.day < from {
                guard checkedAdd(&opening[currency, default: 0], line.delta) else {
                    throw ReportError(client: "\(client.number) '\(client.name)'", currency: books.currencies[Int(currency)])
                }
            } else {
                lines[currency, default: []].append(line)
            }
        }
        for index in invoices {
            let invoice = books.invoices[index]
            let currency = invoice.currencyIndex
            if invoice.counts {
                let isInvoice = invoice.kind == .invoice
                try add(
                    ClientStatement.Line(
                        day: invoice.issued, kind: isInvoice ? .invoice : .creditNote, invoiceIndex: index,
                        delta: isInvoice ? invoice.amount : 0 &- invoice.amount, source: -1),
                    currency: currency)
            }
            var payment = firstPayment(index)
            while payment < books.payments.count, books.payments[payment].invoiceIndex == Int32(index) {
                let paid = books.payments[payment]
                try add(
                    ClientStatement.Line(
                        day: paid.date, kind: paid.amount < 0 ? .refund : .payment, invoiceIndex: index, delta: 0 &- paid.amount,
                        source: payment),
                    currency: currency)
                payment += 1
            }
            guard invoice.counts, invoice.kind == .invoice else { continue }
            var writeOff = Self.first(of: index, in: books.writeOffs) { $0.invoiceIndex }
            while writeOff < books.writeOffs.count, books.writeOffs[writeOff].invoiceIndex == Int32(index) {
                let entry = books.writeOffs[writeOff]
                try add(
                    ClientStatement.Line(day: entry.date, kind: .writeOff, invoiceIndex: index, delta: 0 &- entry.amount, source: writeOff),
                    currency: currency)
                writeOff += 1
            }
        }
        return try totals.currencies.map { entry throws(ReportError) in
            let code = Int16(books.currencies.firstIndex(of: entry.currency) ?? -1)
            var entryLines = lines[code] ?? []
            entryLines.sort { a, b in
                if a.day != b.day { return a.day < b.day }
                if a.kind != b.kind { return a.kind < b.kind }
                if a.invoiceIndex != b.invoiceIndex {
                    let x = books.invoices[a.invoiceIndex].identifier, y = books.invoices[b.invoiceIndex].identifier
                    return x != y ? x < y : a.invoiceIndex < b.invoiceIndex
                }
                return a.source < b.source
            }
            let start = opening[code] ?? 0
            var charges: Int64 = 0
            var credits: Int64 = 0
            var closing = start
            // The running balance may pass 64 bits on the way to a closing balance that fits: wrapping arithmetic
            // keeps it exact modulo 2^64, and `wraps` counts the passes, so it is exact whenever `wraps` is 0.
            var wraps = 0
            let error = ReportError(client: "\(client.number) '\(client.name)'", currency: entry.currency)
            for position in entryLines.indices {
                let delta = entryLines[position].delta
                guard delta >= 0 ? checkedAdd(&charges, delta) : checkedAdd(&credits, 0 &- delta) else { throw error }
                let (sum, overflow) = closing.addingReportingOverflow(delta)
                if overflow { wraps += delta > 0 ? 1 : -1 }
                closing = sum
                entryLines[position].balance = wraps == 0 ? sum : nil
            }
            guard wraps == 0 else { throw error }
            return ClientStatement(
                clientIndex: totals.clientIndex, currency: entry.currency, from: from, to: to, opening: start, lines: entryLines,
                charges: charges, credits: credits, closing: closing)
        }
    }

    /// The first position in `table` (sorted by invoice index) whose invoice index is `index` or more.
    ///
    /// `key` is a closure, not a key path: a key path is read through the runtime on every probe, which made
    /// these searches a sixth of a build's time (perf, issue 20).
    @inline(__always)
    static func first<T>(of index: Int, in table: [T], _ key: (T) -> Int32) -> Int {
        first(of: index, in: table, within: 0..<table.count, key)
    }

    /// The same position, searched for within `positions` only: the caller knows it lies there (the first position
    /// at or past the table's end gives `positions.upperBound`).
    @inline(__always)
    static func first<T>(of index: Int, in table: [T], within positions: Range<Int>, _ key: (T) -> Int32) -> Int {
        var low = positions.lowerBound
        var high = positions.upperBound
        let target = Int32(index)
        while low < high {
            let middle = (low + high) / 2
            if key(table[middle]) < target { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
