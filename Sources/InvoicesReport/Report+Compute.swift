public import InvoicesCore

extension Report {
    /// Computes every figure of `books` for `period` in one pass over the invoices (two when the period spans every
    /// month: the first finds the span).
    ///
    /// This is the one computation of the totals: `build` runs it in a private child context, over the books that
    /// context hands out (``InvoicesApp/BooksAndReport``). Each invoice's balance is walked through its
    /// ``InvoicesCore/Ledger`` events (issue, payments, applied credit notes, write-offs), in day order: its positive
    /// part is outstanding (and overdue after the due date), its negative part the client's credit.
    /// - Throws: ``ReportError`` when a sum overflows.
    public init(books: Books, period: ReportPeriod = ReportPeriod()) throws(ReportError) {
        let clientCount = books.clients.count
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

        var slotOf: [Int] = Array(repeating: -1, count: clientCount * currencyCount)
        var slotKeys: [(client: Int, currency: Int)] = []
        // Per slot and column: invoiced, net, paid, credited, written off (five cells, in that order).
        var sums: [Int64] = []
        var counts: [Int] = []
        // Per slot and column: payments, refunds, credit notes and write-offs dated in the column.
        var movements: [Int] = []
        var outstandingDelta: [Int64] = []
        var overdueDelta: [Int64] = []
        var creditDelta: [Int64] = []
        var periodOutstanding: [Int64] = []
        var periodCredit: [Int64] = []
        var agings: [Aging] = []
        var overflowSlot: Int?
        // Taxes per currency and tax, per column: accrual and cash net and tax (``TaxRule``).
        let taxCount = books.taxes.count
        var taxSlotOf: [Int] = Array(repeating: -1, count: taxCount * currencyCount)
        var taxKeys: [(currency: Int, tax: Int)] = []
        var taxCells: [TaxFigures] = []
        var taxOverflow = false
        let taxLines = books.taxLines
        var taxLine = 0
        var balances: [Int: Int64] = [:]

        var ledger = Ledger(books: books)
        var events: [BalanceEvent] = []
        for index in invoices.indices {
            let invoice = Facts(invoices[index])
            let key = Int(invoice.clientIndex) * currencyCount + Int(invoice.currencyIndex)
            var slot = slotOf[key]
            if slot < 0 {
                slot = slotKeys.count
                slotOf[key] = slot
                slotKeys.append((Int(invoice.clientIndex), Int(invoice.currencyIndex)))
                sums.append(contentsOf: repeatElement(0, count: columns * 5))
                counts.append(contentsOf: repeatElement(0, count: columns))
                movements.append(contentsOf: repeatElement(0, count: columns))
                outstandingDelta.append(contentsOf: repeatElement(0, count: columns + 1))
                overdueDelta.append(contentsOf: repeatElement(0, count: columns + 1))
                creditDelta.append(contentsOf: repeatElement(0, count: columns + 1))
                periodOutstanding.append(0)
                periodCredit.append(0)
                agings.append(Aging(agingBuckets))
            }
            let base = slot * columns * 5
            let deltaBase = slot * (columns + 1)
            let issuedColumn = columnOf[invoice.issued]
            let issuedInRange = issuedColumn >= 0 && issuedColumn < columns
            let counting = invoice.status == .sent
            if counting, issuedInRange {
                if invoice.kind == .invoice {
                    if !checkedAdd(&sums[base + issuedColumn * 5], invoice.amount) { overflowSlot = slot }
                    if !checkedAdd(&sums[base + issuedColumn * 5 + 1], invoice.net) { overflowSlot = slot }
                    counts[slot * columns + issuedColumn] += 1
                } else {
                    movements[slot * columns + issuedColumn] += 1
                    if !checkedAdd(&sums[base + issuedColumn * 5 + 3], invoice.amount) { overflowSlot = slot }
                }
            }
            ledger.events(of: index, into: &events)

            // Taxes on the accrual basis (issue date) and the cash basis (each payment's share).
            while taxLine < taxLines.count, taxLines[taxLine].invoiceIndex < Int32(index) { taxLine += 1 }
            if counting, taxLine < taxLines.count, taxLines[taxLine].invoiceIndex == Int32(index) {
                while taxLine < taxLines.count, taxLines[taxLine].invoiceIndex == Int32(index) {
                    let line = taxLines[taxLine]
                    taxLine += 1
                    let taxKey = Int(invoice.currencyIndex) * taxCount + Int(line.taxIndex)
                    var taxSlot = taxSlotOf[taxKey]
                    if taxSlot < 0 {
                        taxSlot = taxKeys.count
                        taxSlotOf[taxKey] = taxSlot
                        taxKeys.append((Int(invoice.currencyIndex), Int(line.taxIndex)))
                        taxCells.append(contentsOf: repeatElement(TaxFigures(), count: columns))
                    }
                    let cells = taxSlot * columns
                    if issuedInRange, !TaxRule.addAccrual(line, kind: invoice.kind, to: &taxCells[cells + issuedColumn]) {
                        taxOverflow = true
                    }
                    for event in events where event.kind == .payment {
                        let column = columnOf[event.day]
                        guard column >= 0, column < columns else { continue }
                        // A payment event's delta is minus the payment's amount (``Ledger``).
                        if !TaxRule.addCash(0 &- event.delta, line, gross: invoice.amount, to: &taxCells[cells + column]) {
                            taxOverflow = true
                        }
                    }
                }
            }

            // The balance, event by event: positive is outstanding (overdue after the due date), negative is credit.
            // A positive balance is overdue from the day after the due date, a credit note's too (a refund larger than
            // the credit), as aging.csv and report.json count it at the as-of date.
            let overdueColumn = columnOf[invoice.due.adding(days: 1)]
            var balance: Int64 = 0
            var asOfBalance: Int64 = 0
            var plain = events.count <= 2 && invoice.kind == .invoice && counting
            var position = 0
            while position < events.count {
                let column = min(max(columnOf[events[position].day], 0), columns)
                // Every event of this column: only the balance at the column's end counts.
                while position < events.count, min(max(columnOf[events[position].day], 0), columns) == column {
                    let event = events[position]
                    if !checkedAdd(&balance, event.delta) { overflowSlot = slot }
                    if event.day <= asOf, !checkedAdd(&asOfBalance, event.delta) { overflowSlot = slot }
                    if event.kind != .issued, event.kind != .payment || event.delta != 0 - invoice.amount { plain = false }
                    let amount = 0 &- event.delta
                    let eventColumn = columnOf[event.day]
                    if eventColumn >= 0, eventColumn < columns {
                        switch event.kind {
                        case .payment:
                            movements[slot * columns + eventColumn] += 1
                            if !checkedAdd(&sums[base + eventColumn * 5 + 2], amount) { overflowSlot = slot }
                        case .writeOff:
                            movements[slot * columns + eventColumn] += 1
                            if !checkedAdd(&sums[base + eventColumn * 5 + 4], amount) { overflowSlot = slot }
                        case .issued, .credit: break
                        }
                    }
                    position += 1
                }
                let next = position < events.count ? min(max(columnOf[events[position].day], 0), columns) : columns
                guard column < next else { continue }
                if balance > 0 {
                    outstandingDelta[deltaBase + column] &+= balance
                    outstandingDelta[deltaBase + next] &-= balance
                    let overdueStart = max(column, overdueColumn)
                    if overdueStart < next {
                        overdueDelta[deltaBase + overdueStart] &+= balance
                        overdueDelta[deltaBase + next] &-= balance
                    }
                } else if balance < 0 {
                    creditDelta[deltaBase + column] &-= balance
                    creditDelta[deltaBase + next] &+= balance
                }
            }
            // Outstanding, aging and credit at the as-of date.
            if asOfBalance > 0 {
                if !checkedAdd(&periodOutstanding[slot], asOfBalance) { overflowSlot = slot }
                let late = Int(asOf.dayNumber - invoice.due.dayNumber)
                let ok: Bool
                ok = checkedAdd(&agings[slot].buckets[agingBuckets.index(daysLate: late)], asOfBalance)
                if !ok { overflowSlot = slot }
            } else if asOfBalance < 0, !checkedAdd(&periodCredit[slot], 0 &- asOfBalance) {
                overflowSlot = slot
            }
            if !plain, !events.isEmpty {
                let simple: Int64 = counting && invoice.kind == .invoice && invoice.issued <= asOf
                    ? (invoice.paid.map { $0 <= asOf } == true ? 0 : invoice.amount) : 0
                if asOfBalance != simple { balances[index] = asOfBalance }
            }
        }
        func overflow(_ slot: Int) -> ReportError {
            let key = slotKeys[slot]
            let client = books.clients[key.client]
            return ReportError(client: "\(client.number) '\(client.name)'", currency: currencies[key.currency])
        }
        if let overflowSlot { throw overflow(overflowSlot) }

        // Assemble per client, in client order, currencies in code order.
        var order = Array(slotKeys.indices)
        order.sort { slotKeys[$0].client != slotKeys[$1].client ? slotKeys[$0].client < slotKeys[$1].client : slotKeys[$0].currency < slotKeys[$1].currency }
        var clients: [ClientTotals] = []
        var grand: [Int: CurrencyTotals] = [:]
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
                guard checkedAdd(&outstanding, outstandingDelta[delta]), checkedAdd(&overdue, overdueDelta[delta]),
                    checkedAdd(&credit, creditDelta[delta])
                else { throw overflow(slot) }
                let cell = (slot * columns + column) * 5
                let figures = Figures(
                    invoiced: sums[cell], net: sums[cell + 1], tax: sums[cell] &- sums[cell + 1], paid: sums[cell + 2],
                    credited: sums[cell + 3], writtenOff: sums[cell + 4], outstanding: outstanding, overdue: overdue,
                    credit: credit, invoices: counts[slot * columns + column], movements: movements[slot * columns + column])
                months.append(figures)
                if column > 0 {
                    guard checkedAdd(&period.invoiced, figures.invoiced), checkedAdd(&period.net, figures.net),
                        checkedAdd(&period.tax, figures.tax), checkedAdd(&period.paid, figures.paid),
                        checkedAdd(&period.credited, figures.credited), checkedAdd(&period.writtenOff, figures.writtenOff)
                    else { throw overflow(slot) }
                    period.invoices += figures.invoices
                    period.movements += figures.movements
                }
            }
            let aging = agings[slot]
            period.outstanding = periodOutstanding[slot]
            period.credit = periodCredit[slot]
            period.overdue = aging.pastDue.reduce(0, &+)
            guard period.overdue <= period.outstanding, period.overdue >= 0 else { throw overflow(slot) }
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
        self.balances = balances
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

/// The fields of an invoice the figures need: integers only, read without copying the snapshot's strings.
private struct Facts {
    var clientIndex: Int32
    var currencyIndex: Int16
    var status: InvoiceStatus
    var kind: InvoiceKind
    var amount: Int64
    var net: Int64
    var issued: CalendarDate
    var due: CalendarDate
    var paid: CalendarDate?
    var applied: CalendarDate?

    @inline(__always)
    init(_ invoice: borrowing InvoiceSnapshot) {
        clientIndex = invoice.clientIndex
        currencyIndex = invoice.currencyIndex
        status = invoice.status
        kind = invoice.kind
        amount = invoice.amount
        net = invoice.net
        issued = invoice.issued
        due = invoice.due
        paid = invoice.paid
        applied = invoice.applied
    }
}

/// The report column of a day, from a table over the reported months: no calendar arithmetic per invoice.
///
/// Column 0 is the month before the first reported one; a day before it is column -1, a day after the last reported
/// month is `columns` (every figure treats all such days alike).
private struct MonthColumns {
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
