internal import Dispatch
internal import InvoicesCore

/// The sums of one pass over the invoices of a range of clients: every cell of their client slots, the tax cells of
/// their invoices and the balances that differ from a paid-in-full reading. ``Report/init(books:period:parts:)`` makes
/// one over every client, or two side by side over two halves of the clients and folds them.
///
/// A client slot belongs to one client, so its cells get the same additions in the same order as in one pass: their
/// values and their overflows are one pass's. The tax cells are shared by every client: the fold adds the second
/// part's into the first's, which gives one pass's values only when no sum could overflow in either order, so each
/// part notes a tax cell whose running sum passes half of 64 bits (``taxLarge``) and the fold is then refused.
struct ReportSums {
    let columns: Int
    let currencyCount: Int
    let taxCount: Int
    /// Per client and currency: the slot, or -1.
    var slotOf: [Int]
    var slotKeys: [(client: Int, currency: Int)] = []
    /// Per slot and column: invoiced, net, paid, credited, written off (five cells, in that order).
    var sums: [Int64] = []
    var counts: [Int] = []
    /// Per slot and column: payments, refunds, credit notes and write-offs dated in the column.
    var movements: [Int] = []
    var outstandingDelta: [Int64] = []
    var overdueDelta: [Int64] = []
    var creditDelta: [Int64] = []
    var periodOutstanding: [Int64] = []
    var periodCredit: [Int64] = []
    var agings: [Aging] = []
    /// The last slot a sum overflowed in, in invoice order, and the invoice (index in ``Books/invoices``) whose sum it was.
    var overflow: (slot: Int, invoice: Int)?
    /// Per currency and tax: the tax slot, or -1.
    var taxSlotOf: [Int]
    var taxKeys: [(currency: Int, tax: Int)] = []
    /// Per tax slot and column: accrual and cash net and tax (``TaxRule``).
    var taxCells: [TaxFigures] = []
    var taxOverflow = false
    /// Whether a tax cell's running sum ever passed half of Int64's range (or overflowed).
    var taxLarge = false
    var balances: [Int: Int64] = [:]

    init(clients: Int, currencyCount: Int, taxCount: Int, columns: Int) {
        self.columns = columns
        self.currencyCount = currencyCount
        self.taxCount = taxCount
        slotOf = Array(repeating: -1, count: clients * currencyCount)
        taxSlotOf = Array(repeating: -1, count: taxCount * currencyCount)
    }

    /// Adds the invoices of the clients `clients` (indexes in ``Books/clients``), in invoice order.
    mutating func add(
        _ books: Books, clients: Range<Int32>, ledger start: Ledger, columnOf: MonthColumns, asOf: CalendarDate,
        agingBuckets: AgingBuckets
    ) {
        let invoices = books.invoices
        let taxLines = books.taxLines
        var taxLine = 0
        var ledger = start
        var events: [BalanceEvent] = []
        let half = Int64.max / 2
        for index in invoices.indices {
            guard clients.contains(invoices[index].clientIndex) else { continue }
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
                    if !checkedAdd(&sums[base + issuedColumn * 5], invoice.amount) { overflow = (slot, index) }
                    if !checkedAdd(&sums[base + issuedColumn * 5 + 1], invoice.net) { overflow = (slot, index) }
                    counts[slot * columns + issuedColumn] += 1
                } else {
                    movements[slot * columns + issuedColumn] += 1
                    if !checkedAdd(&sums[base + issuedColumn * 5 + 3], invoice.amount) { overflow = (slot, index) }
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
                    if issuedInRange {
                        if !TaxRule.addAccrual(line, kind: invoice.kind, to: &taxCells[cells + issuedColumn]) {
                            taxOverflow = true
                        }
                        let cell = taxCells[cells + issuedColumn]
                        if cell.accrualNet.magnitude > half || cell.accrualTax.magnitude > half { taxLarge = true }
                    }
                    for event in events where event.kind == .payment {
                        let column = columnOf[event.day]
                        guard column >= 0, column < columns else { continue }
                        // A payment event's delta is minus the payment's amount (``Ledger``).
                        if !TaxRule.addCash(0 &- event.delta, line, gross: invoice.amount, to: &taxCells[cells + column]) {
                            taxOverflow = true
                        }
                        let cell = taxCells[cells + column]
                        if cell.cashNet.magnitude > half || cell.cashTax.magnitude > half { taxLarge = true }
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
                    if !checkedAdd(&balance, event.delta) { overflow = (slot, index) }
                    if event.day <= asOf, !checkedAdd(&asOfBalance, event.delta) { overflow = (slot, index) }
                    if event.kind != .issued, event.kind != .payment || event.delta != 0 - invoice.amount { plain = false }
                    let amount = 0 &- event.delta
                    let eventColumn = columnOf[event.day]
                    if eventColumn >= 0, eventColumn < columns {
                        switch event.kind {
                        case .payment:
                            movements[slot * columns + eventColumn] += 1
                            if !checkedAdd(&sums[base + eventColumn * 5 + 2], amount) { overflow = (slot, index) }
                        case .writeOff:
                            movements[slot * columns + eventColumn] += 1
                            if !checkedAdd(&sums[base + eventColumn * 5 + 4], amount) { overflow = (slot, index) }
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
                if !checkedAdd(&periodOutstanding[slot], asOfBalance) { overflow = (slot, index) }
                let late = Int(asOf.dayNumber - invoice.due.dayNumber)
                let ok: Bool
                ok = checkedAdd(&agings[slot].buckets[agingBuckets.index(daysLate: late)], asOfBalance)
                if !ok { overflow = (slot, index) }
            } else if asOfBalance < 0, !checkedAdd(&periodCredit[slot], 0 &- asOfBalance) {
                overflow = (slot, index)
            }
            if !plain, !events.isEmpty {
                let simple: Int64 = counting && invoice.kind == .invoice && invoice.issued <= asOf
                    ? (invoice.paid.map { $0 <= asOf } == true ? 0 : invoice.amount) : 0
                if asOfBalance != simple { balances[index] = asOfBalance }
            }
        }
        if taxOverflow { taxLarge = true }
    }

    /// Adds `other`'s tax cells into these (a key new here gets a slot after these'): the caller
    /// checked that neither part's tax sums came near overflowing.
    mutating func takeTaxes(of other: ReportSums) {
        for (otherSlot, key) in other.taxKeys.enumerated() {
            let taxKey = key.currency * taxCount + key.tax
            let theirs = other.taxCells[otherSlot * columns..<(otherSlot + 1) * columns]
            var taxSlot = taxSlotOf[taxKey]
            if taxSlot < 0 {
                taxSlot = taxKeys.count
                taxSlotOf[taxKey] = taxSlot
                taxKeys.append(key)
                taxCells.append(contentsOf: theirs)
                continue
            }
            for (column, cell) in theirs.enumerated() {
                if !taxCells[taxSlot * columns + column].add(cell) { taxOverflow = true }
            }
        }
    }

    /// The sums of `books`: one pass when `parts` is 1, else two halves of the clients (by their invoices) side by
    /// side, folded; one pass again when a tax sum of either half came near overflowing. Each element covers clients
    /// after the previous one's. Throws the overflow of the last slot that overflowed in invoice order.
    static func make(
        _ books: Books, parts: Int, columns: Int, currencyCount: Int, columnOf: MonthColumns, asOf: CalendarDate,
        agingBuckets: AgingBuckets
    ) -> [ReportSums] {
        let clientCount = books.clients.count
        let ledger = Ledger(books: books)
        @Sendable func sums(_ clients: Range<Int32>) -> ReportSums {
            var made = ReportSums(
                clients: clientCount, currencyCount: currencyCount, taxCount: books.taxes.count, columns: columns)
            made.add(books, clients: clients, ledger: ledger, columnOf: columnOf, asOf: asOf, agingBuckets: agingBuckets)
            return made
        }
        let all = Int32(0)..<Int32(clientCount)
        guard parts > 1, clientCount > 1 else { return [sums(all)] }
        // The first client whose invoices, with the ones before, reach half of the invoices.
        var perClient = [Int](repeating: 0, count: clientCount)
        for index in books.invoices.indices { perClient[Int(books.invoices[index].clientIndex)] += 1 }
        var split = 0
        var seen = 0
        while split < clientCount - 1, seen + perClient[split] <= books.invoices.count / 2 {
            seen += perClient[split]
            split += 1
        }
        if split == 0 { split = 1 }
        let middle = Int32(split)
        let (made, second) = sideBySide({ sums(0..<middle) }, { sums(middle..<Int32(clientCount)) })
        var first = made
        if first.overflow != nil || second.overflow != nil { return [first, second] }
        guard !first.taxLarge, !second.taxLarge else { return [sums(all)] }
        first.takeTaxes(of: second)
        return [first, second]
    }
}

/// The fields of an invoice the figures need: integers only, read without copying the snapshot's strings.
struct Facts {
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
