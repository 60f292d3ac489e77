/// One change of an invoice's balance: issued (plus its gross), paid, credited or written off (minus the amount).
public struct BalanceEvent: Sendable, Hashable {
    public enum Kind: UInt8, Sendable {
        case issued, payment, credit, writeOff
    }

    public var day: CalendarDate
    /// What the event adds to the balance: the gross when issued, minus a payment, credit or write-off.
    public var delta: Int64
    public var kind: Kind

    public init(day: CalendarDate, delta: Int64, kind: Kind) {
        self.day = day
        self.delta = delta
        self.kind = kind
    }
}

/// The balance of each invoice over time, written once: the loader's settled dates and the report's figures both
/// walk the events it gives.
///
/// An invoice that counts (sent, kind invoice) starts at its gross on its issue date. Payments lower it (refunds,
/// negative payments, raise it), on every invoice: money received for a draft or a void invoice is the client's
/// credit. Write-offs lower a counting invoice's balance. A sent credit note starts at minus its gross on its issue
/// date (the client's credit); applied to a counting invoice on a day, it moves there: plus its gross on its own
/// balance, minus its gross on the invoice's. A balance below zero is the client's credit, never netted against
/// another invoice.
///
/// Invoices must be visited in index order (``events(of:into:)``): the tables are sorted by invoice index and the
/// ledger walks them with one cursor each.
public struct Ledger: Sendable {
    /// A credit note applied to an invoice: the invoice, the day and the amount.
    struct Application: Sendable {
        var target: Int32
        var day: CalendarDate
        var amount: Int64
    }

    public let books: Books
    private let applications: [Application]
    private var payment = 0
    private var writeOff = 0
    private var application = 0

    public init(books: Books) {
        self.books = books
        var applications: [Application] = []
        for note in books.invoices where note.kind == .creditNote && note.counts {
            if let day = note.applied, Self.isApplicable(note, in: books) {
                applications.append(Application(target: note.corrects, day: day, amount: note.amount))
            }
        }
        applications.sort { $0.target != $1.target ? $0.target < $1.target : $0.day < $1.day }
        self.applications = applications
    }

    /// Whether a credit note's application moves it onto the invoice it corrects: that invoice counts, is an
    /// invoice, has the credit note's client and currency.
    static func isApplicable(_ note: InvoiceSnapshot, in books: Books) -> Bool {
        guard note.corrects >= 0, Int(note.corrects) < books.invoices.count else { return false }
        let target = books.invoices[Int(note.corrects)]
        return target.counts && target.kind == .invoice && target.clientIndex == note.clientIndex
            && target.currencyIndex == note.currencyIndex
    }

    /// Replaces `events` by the balance events of invoice `index`, sorted by day (issue first within a day).
    /// Call with increasing indexes.
    public mutating func events(of index: Int, into events: inout [BalanceEvent]) {
        events.removeAll(keepingCapacity: true)
        let invoice = books.invoices[index]
        let target = Int32(index)
        if invoice.counts {
            switch invoice.kind {
            case .invoice:
                events.append(BalanceEvent(day: invoice.issued, delta: invoice.amount, kind: .issued))
            case .creditNote:
                events.append(BalanceEvent(day: invoice.issued, delta: 0 &- invoice.amount, kind: .issued))
                if let day = invoice.applied, Self.isApplicable(invoice, in: books) {
                    events.append(BalanceEvent(day: day, delta: invoice.amount, kind: .credit))
                }
            }
        }
        let payments = books.payments
        while payment < payments.count, payments[payment].invoiceIndex < target { payment += 1 }
        while payment < payments.count, payments[payment].invoiceIndex == target {
            events.append(BalanceEvent(day: payments[payment].date, delta: 0 &- payments[payment].amount, kind: .payment))
            payment += 1
        }
        let writeOffs = books.writeOffs
        while writeOff < writeOffs.count, writeOffs[writeOff].invoiceIndex < target { writeOff += 1 }
        while writeOff < writeOffs.count, writeOffs[writeOff].invoiceIndex == target {
            if invoice.counts, invoice.kind == .invoice {
                events.append(BalanceEvent(day: writeOffs[writeOff].date, delta: 0 &- writeOffs[writeOff].amount, kind: .writeOff))
            }
            writeOff += 1
        }
        while application < applications.count, applications[application].target < target { application += 1 }
        while application < applications.count, applications[application].target == target {
            events.append(BalanceEvent(day: applications[application].day, delta: 0 &- applications[application].amount, kind: .credit))
            application += 1
        }
        // Few events per invoice: an insertion sort, stable, so the issue stays first within its day.
        if events.count > 1 {
            for i in 1..<events.count {
                let event = events[i]
                var j = i
                while j > 0, events[j - 1].day > event.day {
                    events[j] = events[j - 1]
                    j -= 1
                }
                events[j] = event
            }
        }
    }

    /// The day the balance of an invoice first reaches zero or less, at the end of a day with a payment, credit or
    /// write-off; nil when it never does, or when the events do not start with an issue.
    public static func settledDay(_ events: [BalanceEvent]) -> CalendarDate? {
        guard events.first?.kind == .issued, events.first!.delta >= 0 else { return nil }
        var balance: Int64 = 0
        var index = 0
        while index < events.count {
            let day = events[index].day
            var moved = false
            while index < events.count, events[index].day == day {
                balance &+= events[index].delta
                if events[index].kind != .issued { moved = true }
                index += 1
            }
            if moved, balance <= 0 { return day }
        }
        return nil
    }
}

extension Books {
    /// Sets each invoice's ``InvoiceSnapshot/paid`` to its settled day (``Ledger/settledDay(_:)``).
    public mutating func settle() {
        var settled: [CalendarDate?] = []
        do {
            var ledger = Ledger(books: self)
            var events: [BalanceEvent] = []
            settled.reserveCapacity(invoices.count)
            for index in invoices.indices {
                ledger.events(of: index, into: &events)
                settled.append(invoices[index].kind == .invoice ? Ledger.settledDay(events) : nil)
            }
        }
        for index in invoices.indices { invoices[index].paid = settled[index] }
    }
}
