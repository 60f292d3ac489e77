internal import InvoicesCore

/// What Stripe says of one invoice's state, read alike from the API's invoice list (ImportReader+Stripe.swift) and the
/// Dashboard's CSV export (RowContext+StripeCSV.swift): one mapping of Stripe's statuses to the store's, written down in
/// docs/import.md ("Stripe").
struct StripeState {
    /// The fields a problem names: a JSON path in the list, a column in the CSV export.
    enum Field { case status, total, paid, remaining, paidAt, uncollectibleAt }

    var status: String
    var paid: Int64
    var owed: Int64
    var paidAt: CalendarDate?
    var uncollectibleAt: CalendarDate?
    /// How a field without a value is written: `null` in JSON, `empty` in a CSV cell.
    var missing: String
    /// Where each field is, and its name as messages spell it.
    var at: (Field) -> (location: SourceLocation, column: String?)
    var name: (Field) -> String
}

extension RowContext {
    /// Gives `invoice` the status, payment and write-off Stripe's `status` means, or records a problem and returns false:
    /// draft is a draft; void is void and must have nothing paid; open, paid and uncollectible are sent, owing
    /// `total − paid`, which must be Stripe's balance (``StripeState/owed``) unless `checkBalance` is false (the caller
    /// checks it later, against credit notes); paid is paid on its paid day; uncollectible writes the balance off on its
    /// day. A payment without a day (a partial one) is dated the issue day and counted in `paidOnIssue`.
    mutating func stripeSettle(_ invoice: inout ImportedInvoice, _ state: StripeState, checkBalance: Bool = true, paidOnIssue: inout Int) -> Bool {
        let currency = invoice.amount.currency
        let money = { (amount: Int64) in Money(minorUnits: amount, currency: currency).decimalString + " " + currency.code }
        let amount = invoice.amount.minorUnits
        let (paid, owed) = (state.paid, state.owed)
        func report(_ field: StripeState.Field, _ message: String) {
            let (location, column) = state.at(field)
            problem(location, column, message)
        }
        switch state.status {
        case "draft":
            invoice.status = .draft
        case "void":
            invoice.status = .void
            if paid != 0 {
                report(.paid, "is \(money(paid)) on a void invoice; Stripe voids only invoices without payments")
                return false
            }
        case "open", "paid", "uncollectible":
            invoice.status = .sent
            if checkBalance, MinorUnits.subtract(amount, paid) != owed {
                report(
                    .remaining,
                    "Stripe's balance \(money(owed)) is not \(state.name(.total)) less \(state.name(.paid)) "
                        + "(\(MinorUnits.subtract(amount, paid).map(money) ?? "beyond 64 bits")); "
                        + "something the file does not show settled it (a credit note, the customer's balance), so it is not imported")
                return false
            }
            var receivedOn = state.status == "paid" ? state.paidAt : nil
            if state.status == "paid", receivedOn == nil {
                report(.paidAt, "is \(state.missing) on a paid invoice; a paid invoice needs the time it was paid")
                return false
            }
            if paid != 0, receivedOn == nil {
                receivedOn = invoice.issued
                paidOnIssue += 1
            }
            invoice.receipts = ImportedReceipts(received: paid == 0 ? nil : paid, receivedOn: paid == 0 ? nil : receivedOn)
            if state.status == "paid" {
                guard owed == 0 else {
                    report(.remaining, "is \(money(owed)), but the status is paid; Stripe's balance and status disagree")
                    return false
                }
                invoice.paid = receivedOn
            } else if state.status == "uncollectible", owed != 0 {
                guard let day = state.uncollectibleAt else {
                    report(.uncollectibleAt, "is \(state.missing) on an uncollectible invoice; the write-off of \(state.name(.remaining)) needs its day")
                    return false
                }
                invoice.receipts?.writtenOff = owed
                invoice.receipts?.writtenOffOn = day
                invoice.paid = max(day, receivedOn ?? day)
            }
        default:
            report(.status, "\"\(state.status)\" is not a Stripe invoice status; expected draft, open, paid, uncollectible or void")
            return false
        }
        return true
    }
}
