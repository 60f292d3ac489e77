public import InvoicesCore

extension Report {
    /// The number of invoices from which ``init(books:period:parts:)`` works out the figures on two cores.
    public static let sideBySideInvoices = 20_000

    /// Computes every figure of `books` for `period` in one pass over the invoices (two when the period spans every
    /// month: the first finds the span).
    ///
    /// This is the one computation of the totals: `build` runs it in a private child context, over the books that
    /// context hands out (``InvoicesApp/BooksAndReport``). Each invoice's balance is walked through its
    /// ``InvoicesCore/Ledger`` events (issue, payments, applied credit notes, write-offs), in day order: its positive
    /// part is outstanding (and overdue after the due date), its negative part the client's credit.
    ///
    /// From ``sideBySideInvoices`` invoices on (or with `parts` 2), the pass is two passes side by side over two halves
    /// of the clients (``ReportSums``), folded to the same figures, the same tax cells and the same overflow error.
    /// - Throws: ``ReportError`` when a sum overflows.
    public init(books: Books, period: ReportPeriod = ReportPeriod(), parts: Int? = nil) throws(ReportError) {
        let currencies = books.currencies
        // Only the typed fields are read, straight from the table: binding whole snapshots would retain and release
        // their identifier and notes strings on every iteration.
        let invoices = books.invoices
        var bounds: (low: CalendarDate, high: CalendarDate)?
        if period.month == nil, period.months == nil {
            for index in invoices.indices {
                let invoice = Facts(invoices[index])
                let high = max(invoice.issued, invoice.paid ?? invoice.issued, invoice.applied ?? invoice.issued)
                bounds = bounds.map { (min($0.low, invoice.issued), max($0.high, high)) } ?? (invoice.issued, high)
            }
            if let found = bounds {
                var high = found.high
                for payment in books.payments { high = max(high, payment.date) }
                for writeOff in books.writeOffs { high = max(high, writeOff.date) }
                bounds = (found.low, high)
            }
        }
        let span: ClosedRange<YearMonth>
        if let month = period.month {
            span = month...month
        } else if let months = period.months {
            span = months
        } else if let bounds {
            span = bounds.low.month...bounds.high.month
        } else {
            // No invoices and no month asked for: no period at all, rather than an invented one.
            self.init(months: [], asOf: period.asOf, clients: [], currencies: [])
            agingBuckets = period.agingBuckets
            return
        }
        let asOf = period.asOf ?? span.upperBound.lastDay
        let agingBuckets = period.agingBuckets
        // Column 0 is the month before the first reported one; columns 1... are the reported months.
        let first = span.lowerBound.index - 1
        let columns = span.upperBound.index - first + 1
        let currencyCount = max(currencies.count, 1)
        let columnOf = MonthColumns(first: first, columns: columns)

        let parts = ReportSums.make(
            books, parts: parts ?? (invoices.count >= Self.sideBySideInvoices ? 2 : 1), columns: columns,
            currencyCount: currencyCount, columnOf: columnOf, asOf: asOf, agingBuckets: agingBuckets)
        func overflow(_ part: ReportSums, _ slot: Int) -> ReportError {
            let key = part.slotKeys[slot]
            let client = books.clients[key.client]
            return ReportError(client: "\(client.number) '\(client.name)'", currency: currencies[key.currency])
        }
        // The last slot that overflowed in invoice order: each invoice is one part's.
        if let last = parts.filter({ $0.overflow != nil }).max(by: { $0.overflow!.invoice < $1.overflow!.invoice }) {
            throw overflow(last, last.overflow!.slot)
        }

        // Assemble per client, in client order, currencies in code order: each part's clients follow the previous'.
        var clients: [ClientTotals] = []
        var grand: [Int: CurrencyTotals] = [:]
        for part in parts {
            let slotKeys = part.slotKeys
            var order = Array(slotKeys.indices)
            order.sort { slotKeys[$0].client != slotKeys[$1].client ? slotKeys[$0].client < slotKeys[$1].client : slotKeys[$0].currency < slotKeys[$1].currency }
            for slot in order {
                let key = slotKeys[slot]
                var months: [Figures] = []
                months.reserveCapacity(columns)
                var outstanding: Int64 = 0
                var overdue: Int64 = 0
                var credit: Int64 = 0
                var period = Figures()
                for column in 0..<columns {
                    let delta = slot * (columns + 1) + column
                    guard checkedAdd(&outstanding, part.outstandingDelta[delta]), checkedAdd(&overdue, part.overdueDelta[delta]),
                        checkedAdd(&credit, part.creditDelta[delta])
                    else { throw overflow(part, slot) }
                    let cell = (slot * columns + column) * 5
                    let sums = part.sums
                    let figures = Figures(
                        invoiced: sums[cell], net: sums[cell + 1], tax: sums[cell] &- sums[cell + 1], paid: sums[cell + 2],
                        credited: sums[cell + 3], writtenOff: sums[cell + 4], outstanding: outstanding, overdue: overdue,
                        credit: credit, invoices: part.counts[slot * columns + column],
                        movements: part.movements[slot * columns + column])
                    months.append(figures)
                    if column > 0 {
                        guard checkedAdd(&period.invoiced, figures.invoiced), checkedAdd(&period.net, figures.net),
                            checkedAdd(&period.tax, figures.tax), checkedAdd(&period.paid, figures.paid),
                            checkedAdd(&period.credited, figures.credited), checkedAdd(&period.writtenOff, figures.writtenOff)
                        else { throw overflow(part, slot) }
                        period.invoices += figures.invoices
                        period.movements += figures.movements
                    }
                }
                let aging = part.agings[slot]
                period.outstanding = part.periodOutstanding[slot]
                period.credit = part.periodCredit[slot]
                period.overdue = aging.pastDue.reduce(0, &+)
                guard period.overdue <= period.outstanding, period.overdue >= 0 else { throw overflow(part, slot) }
                let entry = ClientCurrency(
                    currency: currencies[key.currency], months: Array(months.dropFirst()), previousMonth: months[0],
                    period: period, aging: aging)
                if clients.last?.clientIndex == key.client {
                    clients[clients.count - 1].currencies.append(entry)
                } else {
                    clients.append(ClientTotals(clientIndex: key.client, currencies: [entry]))
                }
                var total = grand[key.currency] ?? CurrencyTotals(
                    currency: entry.currency, months: Array(repeating: Figures(), count: columns - 1),
                    previousMonth: Figures(), period: Figures(), aging: Aging(agingBuckets))
                let grandError = ReportError(client: nil, currency: entry.currency)
                for index in total.months.indices {
                    guard total.months[index].add(entry.months[index]) else { throw grandError }
                }
                guard total.previousMonth.add(entry.previousMonth), total.period.add(entry.period),
                    total.aging.add(entry.aging)
                else { throw grandError }
                grand[key.currency] = total
            }
        }

        // The tax cells are every client's: the first part holds them all (``ReportSums/make``).
        let taxKeys = parts[0].taxKeys
        let taxCells = parts[0].taxCells
        var taxOverflow = parts[0].taxOverflow
        var taxes: [TaxTotals] = []
        for taxSlot in taxKeys.indices.sorted(by: { taxKeys[$0] < taxKeys[$1] }) {
            let key = taxKeys[taxSlot]
            var months: [TaxFigures] = []
            var period = TaxFigures()
            for column in 1..<columns {
                let figures = taxCells[taxSlot * columns + column]
                months.append(figures)
                if !period.add(figures) { taxOverflow = true }
            }
            if taxOverflow { throw ReportError(client: nil, currency: currencies[key.currency]) }
            taxes.append(TaxTotals(currency: currencies[key.currency], taxIndex: key.tax, months: months, period: period))
        }

        self.init(
            months: (span.lowerBound.index...span.upperBound.index).map(YearMonth.init(index:)), asOf: asOf,
            clients: clients, currencies: grand.keys.sorted().map { grand[$0]! })
        self.taxes = taxes
        self.balances = parts.count == 1 ? parts[0].balances : parts[0].balances.merging(parts[1].balances) { a, _ in a }
        self.agingBuckets = agingBuckets
    }
}

extension Figures {
    /// Adds `other` into these figures; false on overflow.
    mutating func add(_ other: Figures) -> Bool {
        invoices += other.invoices
        movements += other.movements
        return checkedAdd(&invoiced, other.invoiced) && checkedAdd(&net, other.net) && checkedAdd(&tax, other.tax)
            && checkedAdd(&paid, other.paid) && checkedAdd(&credited, other.credited)
            && checkedAdd(&writtenOff, other.writtenOff) && checkedAdd(&outstanding, other.outstanding)
            && checkedAdd(&overdue, other.overdue) && checkedAdd(&credit, other.credit)
    }
}

extension Aging {
    /// Adds `other` into these buckets; false on overflow.
    mutating func add(_ other: Aging) -> Bool {
        guard buckets.count == other.buckets.count else { return false }
        for index in buckets.indices where !checkedAdd(&buckets[index], other.buckets[index]) { return false }
        return true
    }
}

/// The report column of a day, from a table over the reported months: no calendar arithmetic per invoice.
///
/// Column 0 is the month before the first reported one; a day before it is column -1, a day after the last reported
/// month is `columns` (every figure treats all such days alike).
struct MonthColumns {
    let firstDay: Int32
    let columns: Int
    let table: [Int16]

    init(first: Int, columns: Int) {
        let start = YearMonth(index: first).firstDay.dayNumber
        var table: [Int16] = []
        for column in 0..<columns {
            let month = YearMonth(index: first + column)
            let days = Int(month.lastDay.dayNumber - month.firstDay.dayNumber) + 1
            table.append(contentsOf: repeatElement(Int16(clamping: column), count: days))
        }
        self.firstDay = start
        self.columns = columns
        self.table = table
    }

    @inline(__always)
    subscript(day: CalendarDate) -> Int {
        let offset = Int(day.dayNumber) - Int(firstDay)
        if offset < 0 { return -1 }
        if offset >= table.count { return columns }
        return Int(table[offset])
    }
}
