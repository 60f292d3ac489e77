public import InvoicesCore

extension Report {
    /// Computes every figure of `books` for `period` in one pass over the invoices (two when the period spans every
    /// month: the first finds the span).
    ///
    /// This is the one computation of the totals: `build` runs it in a private child context, over the books that
    /// context hands out (``InvoicesApp/BooksAndReport``).
    /// - Throws: ``ReportError`` when a sum overflows.
    public init(books: Books, period: ReportPeriod = ReportPeriod()) throws(ReportError) {
        let clientCount = books.clients.count
        let currencies = books.currencies
        // Only the typed fields are read, straight from the table: binding whole snapshots would retain and release
        // their identifier and notes strings on every iteration.
        let invoices = books.invoices
        var bounds: (low: CalendarDate, high: CalendarDate)?
        if period.month == nil {
            for index in invoices.indices {
                let invoice = Facts(invoices[index])
                let high = max(invoice.issued, invoice.paid ?? invoice.issued)
                bounds = bounds.map { (min($0.low, invoice.issued), max($0.high, high)) } ?? (invoice.issued, high)
            }
        }
        let span: ClosedRange<YearMonth>
        if let month = period.month {
            span = month...month
        } else if let bounds {
            span = bounds.low.month...bounds.high.month
        } else {
            // No invoices and no month asked for: no period at all, rather than an invented one.
            self.init(months: [], asOf: period.asOf, clients: [], currencies: [])
            return
        }
        let asOf = period.asOf ?? span.upperBound.lastDay
        // Column 0 is the month before the first reported one; columns 1... are the reported months.
        let first = span.lowerBound.index - 1
        let columns = span.upperBound.index - first + 1
        let currencyCount = max(currencies.count, 1)
        let columnOf = MonthColumns(first: first, columns: columns)

        var slotOf: [Int] = Array(repeating: -1, count: clientCount * currencyCount)
        var slotKeys: [(client: Int, currency: Int)] = []
        var invoiced: [Int64] = []
        var paid: [Int64] = []
        var counts: [Int] = []
        var outstandingDelta: [Int64] = []
        var overdueDelta: [Int64] = []
        var periodOutstanding: [Int64] = []
        var agings: [Aging] = []
        var overflowSlot: Int?

        for index in invoices.indices {
            let invoice = Facts(invoices[index])
            let key = Int(invoice.clientIndex) * currencyCount + Int(invoice.currencyIndex)
            var slot = slotOf[key]
            if slot < 0 {
                slot = slotKeys.count
                slotOf[key] = slot
                slotKeys.append((Int(invoice.clientIndex), Int(invoice.currencyIndex)))
                invoiced.append(contentsOf: repeatElement(0, count: columns))
                paid.append(contentsOf: repeatElement(0, count: columns))
                counts.append(contentsOf: repeatElement(0, count: columns))
                outstandingDelta.append(contentsOf: repeatElement(0, count: columns + 1))
                overdueDelta.append(contentsOf: repeatElement(0, count: columns + 1))
                periodOutstanding.append(0)
                agings.append(Aging())
            }
            let amount = invoice.amount
            let base = slot * columns
            let deltaBase = slot * (columns + 1)
            let issuedColumn = columnOf[invoice.issued]
            if issuedColumn >= 0, issuedColumn < columns {
                if !checkedAdd(&invoiced[base + issuedColumn], amount) { overflowSlot = slot }
                counts[base + issuedColumn] += 1
            }
            var paidColumn = columns  // paid after the last column (or never)
            if let paidOn = invoice.paid {
                let column = columnOf[paidOn]
                if column >= 0, column < columns {
                    if !checkedAdd(&paid[base + column], amount) { overflowSlot = slot }
                }
                paidColumn = min(max(column, 0), columns)
            }
            // Outstanding at the end of columns [issuedColumn, paidColumn).
            let start = max(issuedColumn, 0)
            if start < paidColumn {
                if !checkedAdd(&outstandingDelta[deltaBase + start], amount) { overflowSlot = slot }
                if !checkedAdd(&outstandingDelta[deltaBase + paidColumn], -amount) { overflowSlot = slot }
                // Overdue from the month of the day after the due date.
                let overdueColumn = columnOf[invoice.due.adding(days: 1)]
                let overdueStart = max(start, overdueColumn)
                if overdueStart < paidColumn {
                    if !checkedAdd(&overdueDelta[deltaBase + overdueStart], amount) { overflowSlot = slot }
                    if !checkedAdd(&overdueDelta[deltaBase + paidColumn], -amount) { overflowSlot = slot }
                }
            }
            // Outstanding and aging at the as-of date.
            if invoice.issued <= asOf, invoice.paid.map({ $0 > asOf }) ?? true {
                if !checkedAdd(&periodOutstanding[slot], amount) { overflowSlot = slot }
                let late = Int(asOf.dayNumber - invoice.due.dayNumber)
                let ok: Bool
                switch late {
                case ...0: ok = checkedAdd(&agings[slot].notDue, amount)
                case 1...30: ok = checkedAdd(&agings[slot].days1to30, amount)
                case 31...60: ok = checkedAdd(&agings[slot].days31to60, amount)
                case 61...90: ok = checkedAdd(&agings[slot].days61to90, amount)
                default: ok = checkedAdd(&agings[slot].over90, amount)
                }
                if !ok { overflowSlot = slot }
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
            var period = Figures()
            for column in 0..<columns {
                guard checkedAdd(&outstanding, outstandingDelta[slot * (columns + 1) + column]),
                    checkedAdd(&overdue, overdueDelta[slot * (columns + 1) + column])
                else { throw overflow(slot) }
                let figures = Figures(
                    invoiced: invoiced[slot * columns + column], paid: paid[slot * columns + column],
                    outstanding: outstanding, overdue: overdue, invoices: counts[slot * columns + column])
                months.append(figures)
                if column > 0 {
                    guard checkedAdd(&period.invoiced, figures.invoiced), checkedAdd(&period.paid, figures.paid) else {
                        throw overflow(slot)
                    }
                    period.invoices += figures.invoices
                }
            }
            let aging = agings[slot]
            period.outstanding = periodOutstanding[slot]
            period.overdue = aging.days1to30 &+ aging.days31to60 &+ aging.days61to90 &+ aging.over90
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
                previousMonth: Figures(), period: Figures(), aging: Aging())
            let grandError = ReportError(client: nil, currency: entry.currency)
            for index in total.months.indices {
                guard total.months[index].add(entry.months[index]) else { throw grandError }
            }
            guard total.previousMonth.add(entry.previousMonth), total.period.add(entry.period),
                total.aging.add(entry.aging)
            else { throw grandError }
            grand[key.currency] = total
        }
        self.init(
            months: (span.lowerBound.index...span.upperBound.index).map(YearMonth.init(index:)), asOf: asOf,
            clients: clients, currencies: grand.keys.sorted().map { grand[$0]! })
    }
}

extension Figures {
    /// Adds `other` into these figures; false on overflow.
    mutating func add(_ other: Figures) -> Bool {
        invoices += other.invoices
        return checkedAdd(&invoiced, other.invoiced) && checkedAdd(&paid, other.paid)
            && checkedAdd(&outstanding, other.outstanding) && checkedAdd(&overdue, other.overdue)
    }
}

extension Aging {
    /// Adds `other` into these buckets; false on overflow.
    mutating func add(_ other: Aging) -> Bool {
        checkedAdd(&notDue, other.notDue) && checkedAdd(&days1to30, other.days1to30)
            && checkedAdd(&days31to60, other.days31to60) && checkedAdd(&days61to90, other.days61to90)
            && checkedAdd(&over90, other.over90)
    }
}

/// The fields of an invoice the figures need: integers only, read without copying the snapshot's strings.
private struct Facts {
    var clientIndex: Int32
    var currencyIndex: Int16
    var amount: Int64
    var issued: CalendarDate
    var due: CalendarDate
    var paid: CalendarDate?

    @inline(__always)
    init(_ invoice: borrowing InvoiceSnapshot) {
        clientIndex = invoice.clientIndex
        currencyIndex = invoice.currencyIndex
        amount = invoice.amount
        issued = invoice.issued
        due = invoice.due
        paid = invoice.paid
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
