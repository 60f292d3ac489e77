internal import InvoicesCore

/// Stripe's customer balance in the Dashboard's invoices export (docs/import.md, "Stripe's customer balance"): each
/// finalized invoice has a `Starting Balance` and an `Ending Balance` (negative: a credit the customer has, positive: a
/// debit it owes), and moves `Ending − Starting` through it. The books hold no balance of their own; they hold its
/// documents instead, as the Invoice Ninja credits are held:
/// - a credit put on the balance is a credit note (a negative `Total`, turned, as a negative e-invoice is; or the
///   balance a customer had before its first invoice of the export, or one moved outside the invoices);
/// - a debit put on it is the invoice that carried it (a total below Stripe's minimum charge: it stays owed) or such a
///   document of its own;
/// - a credit used against a debit (an invoice paid from the balance) is two payments of method
///   ``stripeBalanceMethod`` on the day it was used: one on the invoice, and a refund (negative) on the credit note,
///   oldest credit first, so the cash received nets to nothing and every figure stays a whole number of minor units;
/// - a debit collected with a later invoice's charge is a payment of that debit's document, out of that charge.
/// Then each client's outstanding is Stripe's `Amount Remaining` over its invoices plus a positive balance, and its
/// credit Stripe's negative balance (plus the credit notes of the credit-notes export).
struct StripeBalanceEvent: Sendable, Hashable {
    var customer: String
    var currency: CurrencyCode
    var identifier: String
    var issued: CalendarDate
    /// The finalization (else creation) time, `YYYY-MM-DD HH:MM:SS`, that orders a customer's invoices.
    var time: String
    var source: SourceLocation
    var start: Int64
    var end: Int64
    /// A negative total: the credit note of its opposite, put on the balance whole.
    var isCreditNote: Bool
    /// Of `Amount Paid`, what paid debits carried on the balance by earlier invoices (`Starting Balance` above 0), and
    /// the day it was paid.
    var collected: Int64
    var cashDay: CalendarDate?
}

extension RowContext {
    /// The amounts the customer balance's arithmetic takes: a quarter of 64 bits either way.
    static let stripeBalanceRange = (Int64.min / 4)...(Int64.max / 4)

    /// The payment method of money moved through Stripe's customer balance.
    static let stripeBalanceMethod = "Stripe customer balance"
    /// The payment method of a paid invoice's rest that nothing in the export paid: marked paid in the Dashboard.
    static let stripeOutOfBandMethod = "paid outside Stripe"

    /// `Starting Balance` and `Ending Balance` of a finalized invoice row, when the file has both filled; `.some(nil)`
    /// without them; nil after a problem. `total` is the signed `Total`: a negative one must be what the balance took.
    mutating func stripeBalance(_ row: CSVTable.Row, _ code: CurrencyCode, total: Int64, totalColumn: String) -> (start: Int64, end: Int64)?? {
        let (startText, endText) = (row.optional("Starting Balance") ?? "", row.optional("Ending Balance") ?? "")
        guard !startText.isEmpty, !endText.isEmpty else { return .some(nil) }
        guard let start = money(startText, code, row.location, "Starting Balance", allowNegative: true),
            let end = money(endText, code, row.location, "Ending Balance", allowNegative: true)
        else { return nil }
        // Within a quarter of 64 bits, the balance's sums (a gap, a move, a credit note of the opposite total) never overflow.
        guard [start.minorUnits, end.minorUnits, total].allSatisfy(RowContext.stripeBalanceRange.contains) else {
            problem(row.location, "Ending Balance", MinorUnits.tooLarge)
            return nil
        }
        let moved = end.minorUnits - start.minorUnits
        if total < 0, moved != total {
            problem(
                row.location, "Ending Balance",
                "is \(endText), its Starting Balance \(startText): a negative \(totalColumn) (\(row[totalColumn])) goes to the customer's balance whole, "
                    + "so the Ending Balance must be the Starting Balance plus it")
            return nil
        }
        // Cash does not put money on the balance: a positive total moves it up (a credit used, or a total below the
        // minimum charge carried), or down only by a debit collected with the charge.
        if total >= 0, moved < 0, end.minorUnits < 0 {
            problem(
                row.location, "Ending Balance",
                "is \(endText), its Starting Balance \(startText): an invoice of a positive \(totalColumn) takes no credit onto the customer's "
                    + "balance; Stripe's figures disagree, so the invoice is not imported")
            return nil
        }
        return .some((start.minorUnits, end.minorUnits))
    }

    /// `Finalized At (UTC)`, else `Date (UTC)`, checked already, as a sortable text: `2025-02-27 9:56` is `2025-02-27 09:56:00`.
    static func stripeTimeKey(_ row: CSVTable.Row) -> String {
        let text = row.optional("Finalized At (UTC)").flatMap { $0.isEmpty ? nil : $0 } ?? row["Date (UTC)"]
        let parts = text.split(separator: " ")
        guard parts.count == 2 else { return text + " 00:00:00" }
        var clock = parts[1].split(separator: ":").map(String.init)
        if clock.first?.count == 1 { clock[0] = "0" + clock[0] }
        if clock.count == 2 { clock.append("00") }
        return parts[0] + " " + clock.joined(separator: ":")
    }
}

extension ImportReader {
    /// Walks each customer's invoices (per currency) in the order Stripe finalized them and turns what moved through the
    /// customer's balance into credit notes and payments (``StripeBalanceEvent``); then gives every invoice that got
    /// payments here its own cash besides (`Amount Paid`), since the payments a batch names are all of an invoice's.
    func linkStripeBalances(_ batch: inout ImportBatch, extra explicit: inout [String: [ImportedPayment]], problems: inout ProblemList) {
        let events = batch.links.stripe.balanceEvents
        guard !events.isEmpty else { return }
        var groups: [String: [StripeBalanceEvent]] = [:]
        var order: [String] = []
        for event in events {
            let key = event.customer + " " + event.currency.code
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(event)
        }
        var documents: [ImportedInvoice] = []
        var adjustments = 0
        // The credit notes of the credit notes export that may have gone to their customer's balance (issued, applied to no
        // invoice, not refunded whole), per customer and currency, oldest first, with the credit each has left.
        var notes: [String: [(identifier: String, issued: CalendarDate, left: Int64)]] = [:]
        for note in batch.invoices where batch.links.stripe.creditFiles.contains(note.source.file) {
            guard note.status == .sent, note.applied == nil, case .number(let customer) = note.client,
                let left = MinorUnits.add(note.amount.minorUnits, note.receipts?.received ?? 0), left > 0
            else { continue }
            notes[customer + " " + note.amount.currency.code, default: []].append((note.identifier, note.issued, left))
        }
        for key in notes.keys { notes[key]?.sort { ($0.issued, $0.identifier) < ($1.issued, $1.identifier) } }
        func pay(_ identifier: String, _ amount: Int64, _ day: CalendarDate, _ currency: CurrencyCode, _ method: String, _ source: SourceLocation) {
            guard amount != 0 else { return }
            explicit[identifier, default: []].append(
                ImportedPayment(
                    invoice: identifier, date: day, amount: Money(minorUnits: amount, currency: currency), method: method, source: source,
                    columns: ["amount": "Ending Balance", "paidOn": "Finalized At (UTC)"]))
        }
        for key in order {
            let events = Self.chained(groups[key] ?? [])
            // What is on the balance, oldest first: negative a credit note's credit left, positive a debit still owed.
            var queue: [(identifier: String, amount: Int64)] = []
            var running: Int64?
            // Puts `amount` (negative: a credit, positive: a debit) from `identifier` on the balance; a credit settles
            // debits and a debit uses credits first, each as a pair of payments on `day`.
            func put(_ amount: Int64, _ identifier: String, _ day: CalendarDate, _ event: StripeBalanceEvent) {
                var left = amount
                while left != 0, let first = queue.first, (first.amount < 0) != (left < 0) {
                    let used = min(abs(left), abs(first.amount))
                    let (debit, credit) = left > 0 ? (identifier, first.identifier) : (first.identifier, identifier)
                    pay(debit, used, day, event.currency, RowContext.stripeBalanceMethod, event.source)
                    pay(credit, -used, day, event.currency, RowContext.stripeBalanceMethod, event.source)
                    left += left > 0 ? -used : used
                    queue[0].amount += first.amount > 0 ? -used : used
                    if queue[0].amount == 0 { queue.removeFirst() }
                }
                if left != 0 { queue.append((identifier, left)) }
            }
            for event in events {
                // Credit the balance gained before the first invoice or between two is first the customer's credit notes
                // issued by then (credited to the balance, as Stripe does by default for a paid invoice's credit note).
                let first = running == nil
                if var gained = MinorUnits.subtract(running ?? 0, event.start), gained > 0, notes[key]?.isEmpty == false {
                    while gained > 0, let index = notes[key]?.firstIndex(where: { $0.issued <= event.issued }) {
                        let note = notes[key]![index]
                        let used = min(gained, note.left)
                        put(-used, note.identifier, event.issued, event)
                        gained -= used
                        notes[key]![index].left -= used
                        if notes[key]![index].left == 0 { notes[key]!.remove(at: index) }
                    }
                    running = MinorUnits.add(event.start, gained)
                }
                if let gap = MinorUnits.subtract(event.start, running ?? 0), gap != 0 {
                    // A balance the export does not explain: before the customer's first invoice in it, or moved outside
                    // the invoices (a balance adjustment, a credit note credited to the balance).
                    let opening = first
                    let identifier = opening ? "\(event.customer)-starting-balance-\(event.currency.code.lowercased())" : "\(event.identifier)-balance-adjustment"
                    var document = ImportedInvoice(
                        identifier: identifier, client: .number(event.customer), clientColumn: "Customer",
                        amount: Money(minorUnits: abs(gap), currency: event.currency), issued: event.issued, due: event.issued, paid: nil,
                        notes: opening ? "Stripe customer balance before the first invoice of the export" : "Stripe customer balance moved outside the invoices",
                        source: event.source, status: .sent)
                    document.kind = gap < 0 ? .creditNote : .invoice
                    document.tax = ImportedTax(net: abs(gap), lines: [])
                    documents.append(document)
                    if !opening { adjustments += 1 }
                    put(gap, identifier, event.issued, event)
                }
                let moved = MinorUnits.subtract(event.end, event.start) ?? 0
                if moved > 0 || event.isCreditNote {
                    put(moved, event.identifier, event.issued, event)
                } else if moved < 0 {
                    // A debit carried by earlier invoices, collected with this one's charge: paid out of Amount Paid.
                    var debit = -moved
                    var cash = event.collected
                    while debit > 0, let first = queue.first, first.amount > 0 {
                        let taken = min(debit, first.amount)
                        let paid = min(taken, cash)
                        if let day = event.cashDay { pay(first.identifier, paid, day, event.currency, "", event.source) }
                        cash -= paid
                        debit -= taken
                        queue[0].amount -= taken
                        if queue[0].amount == 0 { queue.removeFirst() }
                    }
                }
                running = event.end
            }
        }
        batch.invoices += documents
        if adjustments > 0, let file = events.first?.source.file {
            batch.warnings.append(
                ImportProblem(
                    location: SourceLocation(file: file),
                    message: "\(adjustments) customer balance(s) moved between two invoices outside them (a balance adjustment, or a credit note "
                        + "credited to the balance that is not imported): each is a document '…-balance-adjustment' of its own; import the credit "
                        + "notes export with the invoices to have such credit notes instead"))
        }
    }

    /// A customer's invoices in the order Stripe finalized them. Of those finalized in the same minute (the export's times
    /// have no seconds), one whose `Starting Balance` is the balance the one before left comes first, and of those one
    /// that moved nothing, so that the others' chain holds.
    static func chained(_ events: [StripeBalanceEvent]) -> [StripeBalanceEvent] {
        var sorted = events.sorted { ($0.time, $0.source.line ?? 0) < ($1.time, $1.source.line ?? 0) }
        var running: Int64?
        for index in sorted.indices {
            let time = sorted[index].time
            let sameMinute = sorted[index...].prefix { $0.time == time }.indices
            let follows = sameMinute.filter { running == nil || sorted[$0].start == running }
            if let pick = follows.first(where: { sorted[$0].start == sorted[$0].end }) ?? follows.first, pick != index {
                let event = sorted.remove(at: pick)
                sorted.insert(event, at: index)
            }
            running = sorted[index].end
        }
        return sorted
    }

    /// Makes the payments gathered for invoices (balance, paid outside Stripe) theirs, with each one's own cash
    /// (`Amount Paid` less what collected earlier debits) besides.
    static func settleExplicit(_ explicit: [String: [ImportedPayment]], _ batch: inout ImportBatch) {
        guard !explicit.isEmpty else { return }
        for invoice in batch.invoices {
            guard let payments = explicit[invoice.identifier] else { continue }
            if let receipts = invoice.receipts, let received = receipts.received, received != 0, let day = receipts.receivedOn {
                batch.payments.append(
                    ImportedPayment(
                        invoice: invoice.identifier, date: day, amount: Money(minorUnits: received, currency: invoice.amount.currency),
                        source: invoice.source, columns: ["amount": "Amount Paid"]))
            }
            batch.payments += payments
        }
    }
}
