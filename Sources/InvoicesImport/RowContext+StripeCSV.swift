internal import InvoicesCore

/// The Stripe Dashboard's CSV exports (docs/import.md, "Stripe Dashboard exports"): Invoices › Export (`invoices.csv`) and
/// Credit notes › Export (`credit_notes.csv`). Amounts in major units (`1234.50`; none for zero-decimal currencies such
/// as `jpy`), currencies lower case, times `YYYY-MM-DD HH:MM[:SS]` in UTC. Statuses mean what they mean in the API's
/// invoice list: one mapping for both, ``RowContext/stripeSettle(_:_:checkBalance:paidOnIssue:)``. The invoices export
/// is told without `Number`: the export lets its columns be chosen, and a real export without it is on record
/// (docs/import.md, "Where the layout comes from").
extension ImportFormat {
    static let stripeInvoiceColumns = ["id", "Customer", "Currency", "Amount Due", "Amount Paid", "Status", "Date (UTC)"]
    static let stripeCreditNoteColumns = ["id", "Number", "Invoice", "Customer", "Currency", "Status", "Created (UTC)"]
}

/// What the Stripe CSV exports leave for the link step (``ImportReader/linkStripe(_:problems:)``).
struct StripeCSVLinks: Sendable, Hashable {
    /// An invoice whose `Total − Amount Paid` is not its `Amount Remaining`: credit notes must account for the rest.
    struct Unsettled: Sendable, Hashable {
        var identifier: String
        var difference: Int64
        var owed: Int64
        var currency: CurrencyCode
        var source: SourceLocation
        /// The column a problem names: `Amount Remaining`, or `Amount Paid` in a file without it; nil in the API's list,
        /// whose `source` is the field's path (`data[3].paid_out_of_band`).
        var column: String?
        /// A paid invoice's paid day: a rest that no credit note of the import makes up was paid outside Stripe.
        var paidOn: CalendarDate?
    }

    /// Stripe's invoice ids (`in_…`) to the invoices' identifiers (their numbers), for the credit notes' `Invoice` column.
    var identifiers: [String: String] = [:]
    var unsettled: [Unsettled] = []
    /// The credit-note files read.
    var creditFiles: Set<String> = []
    /// The credit notes (by identifier) whose refund columns say some of them went back to the customer: credited after
    /// payment, so they make up no invoice's `Amount Remaining`.
    var refunded: Set<String> = []
    /// The finalized invoices with `Starting Balance` and `Ending Balance`, for the customer balance's documents.
    var balanceEvents: [StripeBalanceEvent] = []
}

extension RowContext {
    /// The invoices export: one invoice a row, its customer as a client.
    mutating func stripeCSVInvoices(_ rows: [CSVTable.Row], links: inout StripeCSVLinks) -> (clients: [ImportedClient], invoices: [ImportedInvoice], warnings: [ImportProblem]) {
        var clients: [ImportedClient] = []
        var invoices: [ImportedInvoice] = []
        var customers: Set<String> = []
        var paidOnIssue = 0
        var writtenOffOnIssue = 0
        let amountColumn = rows.first?.optional("Total") != nil ? "Total" : "Amount Due"
        for row in rows {
            let location = row.location
            let id = required(row["id"], location, "id", what: "Stripe invoice")
            let customer = required(row["Customer"], location, "Customer", what: "Stripe invoice")
            // The customer is a client from its first row, even one refused for its figures: its other problems are
            // reported, not that its client is missing.
            if let customer, customers.insert(customer).inserted {
                let email = row.filled("Customer Email")
                clients.append(
                    ImportedClient(
                        number: customer, name: row.filled("Customer Name") ?? email ?? customer, email: email, street: nil, city: nil, zip: nil,
                        country: nil, source: location))
            }
            let code = currency(row["Currency"], location, "Currency")
            let created = stripeTime(row, "Date (UTC)", required: true)
            let finalized = stripeTime(row, "Finalized At (UTC)", required: false)
            let paidAt = stripeTime(row, "Paid At (UTC)", required: false)
            let due = stripeTime(row, "Due Date (UTC)", required: false)
            let marked = stripeTime(row, "Marked Uncollectible At (UTC)", required: false)
            let finalizedStatus = ["open", "paid", "uncollectible"].contains(row["Status"])
            guard let id, let customer, let code, let created = created ?? nil, let finalized, let paidAt, let due, let marked,
                let signed = money(row[amountColumn], code, location, amountColumn, allowNegative: true),
                let paid = money(row["Amount Paid"], code, location, "Amount Paid"),
                let balance = finalizedStatus ? stripeBalance(row, code, total: signed.minorUnits, totalColumn: amountColumn) : .some(nil)
            else {
                rejectedInvoice(naming: .number(row["Customer"]), column: "Customer", at: location)
                continue
            }
            // A negative total went to the customer's balance: the credit note of its opposite (docs/store.md, "Signs").
            let isCreditNote = signed.minorUnits < 0
            if isCreditNote, balance == nil || paid.minorUnits != 0 {
                problem(
                    location, amountColumn,
                    balance == nil
                        ? "'\(row[amountColumn])' is negative, and the file has no Starting Balance and Ending Balance to show it went to the customer's balance"
                        : "'\(row[amountColumn])' is negative with an Amount Paid of \(row["Amount Paid"]); Stripe charges nothing for a negative total")
                rejectedInvoice(naming: .number(customer), column: "Customer", at: location)
                continue
            }
            let amount = Money(minorUnits: isCreditNote ? -signed.minorUnits : signed.minorUnits, currency: code)
            // What this invoice moved through the customer's balance (Ending less Starting Balance): above 0 a credit
            // used or a debit carried, below 0 a debit of earlier invoices collected with its charge.
            let moved = balance.map { $0.end - $0.start } ?? 0
            let collected = min(paid.minorUnits, max(-moved, 0))
            // `Amount Remaining` is Stripe's balance; without the column the balance is what the figures leave, but nothing
            // of a paid invoice (a credit note or money outside Stripe may have settled the rest: checked below).
            var owed: Int64
            if row.optional("Amount Remaining") != nil {
                guard let remaining = money(row["Amount Remaining"], code, location, "Amount Remaining") else { continue }
                owed = remaining.minorUnits
            } else if row["Status"] == "paid" {
                owed = 0
            } else {
                guard let left = MinorUnits.subtract(signed.minorUnits, paid.minorUnits).flatMap({ MinorUnits.subtract($0, moved) }) else {
                    problem(location, "Amount Paid", MinorUnits.tooLarge)
                    continue
                }
                owed = left
            }
            var tax: ImportedTax?
            // An empty `Tax` cell (Stripe computed no tax, as real exports leave it) is no tax.
            if let taxText = row.optional("Tax") {
                var taxAmount: Int64 = 0
                if !taxText.isEmpty {
                    guard let parsed = money(taxText, code, location, "Tax", allowNegative: isCreditNote) else { continue }
                    guard let turned = isCreditNote ? MinorUnits.subtract(0, parsed.minorUnits) : parsed.minorUnits else {
                        problem(location, "Tax", MinorUnits.tooLarge)
                        continue
                    }
                    taxAmount = turned
                    guard taxAmount >= 0 else {
                        problem(location, "Tax", "'\(taxText)' is positive on a negative \(amountColumn); the tax of a credit has the total's sign")
                        continue
                    }
                }
                guard let net = MinorUnits.subtract(amount.minorUnits, taxAmount), net >= 0 else {
                    problem(location, "Tax", "'\(row["Tax"])' is more than the \(amountColumn) '\(row[amountColumn])'")
                    continue
                }
                tax = taxAmount == 0 ? ImportedTax(net: net, lines: [])
                    : ImportedTax(
                        net: net, name: "Tax",
                        rate: TaxRate(name: "Tax", milliPercent: Int32(clamping: net > 0 ? proportionalMilli(taxAmount, net) : 0)).percent,
                        amount: taxAmount)
            }
            let issued = finalized ?? created
            let identifier = row.filled("Number") ?? id
            var invoice = ImportedInvoice(
                identifier: identifier, client: .number(customer), clientColumn: "Customer", amount: amount, issued: issued,
                due: due ?? issued.adding(days: defaultTerms), dueIsDerived: due == nil, paid: nil,
                notes: row.optional("Description") ?? "", source: location, tax: tax)
            let status = row["Status"]
            let difference = MinorUnits.subtract(signed.minorUnits, paid.minorUnits).flatMap { MinorUnits.subtract($0, owed) }
                .flatMap { MinorUnits.subtract($0, moved) }
            // A difference that credit notes may explain is checked once every file is read.
            let deferred = ["open", "paid", "uncollectible"].contains(status) && difference != 0 && difference != nil
            let columns: [StripeState.Field: String] = [
                .status: "Status", .total: amountColumn, .paid: "Amount Paid", .remaining: "Amount Remaining", .paidAt: "Paid At (UTC)",
                .uncollectibleAt: marked == nil ? "Status" : "Marked Uncollectible At (UTC)",
            ]
            // The write-off is dated the day Stripe marked the invoice uncollectible, where the export has it.
            let state = StripeState(
                status: status, paid: paid.minorUnits, owed: owed, paidAt: paidAt, uncollectibleAt: marked ?? issued, missing: "empty",
                at: { (location, columns[$0]) }, name: { "'\(columns[$0] ?? "")'" })
            guard stripeSettle(&invoice, state, checkBalance: !deferred && moved == 0, paidOnIssue: &paidOnIssue) else {
                rejectedInvoice(naming: .number(customer), column: "Customer", at: location)
                continue
            }
            if isCreditNote {
                invoice.kind = .creditNote
                invoice.paid = nil
                invoice.receipts = nil
            } else if collected != 0 {
                // The part of Amount Paid that collected earlier invoices' debits is theirs (StripeCustomerBalance.swift).
                invoice.receipts?.received = paid.minorUnits == collected ? nil : paid.minorUnits - collected
            }
            if status == "uncollectible", owed != 0, marked == nil { writtenOffOnIssue += 1 }
            guard checkOrder(issued: invoice.issued, due: invoice.due, paid: invoice.paid, location, dueColumn: "Due Date (UTC)", paidColumn: "Paid At (UTC)")
            else { continue }
            links.identifiers[id] = identifier
            if let balance {
                links.balanceEvents.append(
                    StripeBalanceEvent(
                        customer: customer, currency: code, identifier: identifier, issued: issued, time: Self.stripeTimeKey(row), source: location,
                        start: balance.start, end: balance.end, isCreditNote: isCreditNote, collected: collected,
                        cashDay: invoice.receipts?.receivedOn ?? (status == "paid" ? paidAt : issued)))
            }
            if deferred, let difference {
                links.unsettled.append(
                    .init(
                        identifier: identifier, difference: difference, owed: owed, currency: code, source: location,
                        column: row.optional("Amount Remaining") == nil ? "Amount Paid" : "Amount Remaining",
                        paidOn: status == "paid" ? invoice.paid : nil))
            }
            invoices.append(invoice)
        }
        var warnings: [ImportProblem] = []
        let file = rows.first?.table.file ?? ""
        if paidOnIssue > 0 {
            warnings.append(
                ImportProblem(
                    location: SourceLocation(file: file),
                    message: "\(paidOnIssue) open or uncollectible invoice(s) with an Amount Paid: each amount is recorded as one payment on the "
                        + "invoice's issue date; the export does not say when a partial payment was made"))
        }
        if writtenOffOnIssue > 0 {
            warnings.append(
                ImportProblem(
                    location: SourceLocation(file: file),
                    message: "\(writtenOffOnIssue) uncollectible invoice(s): each Amount Remaining is written off on the invoice's issue date; "
                        + "the export does not say when the invoice was marked uncollectible (add the Marked Uncollectible At (UTC) column)"))
        }
        return (clients, invoices, warnings)
    }

    /// The credit notes export: one credit note a row, correcting the invoice its `Invoice` column names (resolved once
    /// every file is read); void ones are void. Where the file has the refund columns (`Refund Amount`, `Out of Band
    /// Amount`), what they add up to went back to the customer: one refund (a negative payment) on the credit note's
    /// day, so it leaves no credit for that part; the rest stays the client's credit (or is applied to its invoice).
    mutating func stripeCSVCreditNotes(_ rows: [CSVTable.Row], links: inout StripeCSVLinks) -> [ImportedInvoice] {
        var notes: [ImportedInvoice] = []
        guard let first = rows.first else { return [] }
        links.creditFiles.insert(first.table.file)
        let amountColumn = first.optional("Total") != nil ? "Total" : "Amount"
        let refundColumns = Self.stripeRefundColumns.filter { first.optional($0) != nil }
        for row in rows {
            let location = row.location
            let id = required(row["id"], location, "id", what: "Stripe credit note")
            let customer = required(row["Customer"], location, "Customer", what: "Stripe credit note")
            let code = currency(row["Currency"], location, "Currency")
            let created = stripeTime(row, "Created (UTC)", required: true)
            guard let id, let customer, let code, let created = created ?? nil, let amount = money(row[amountColumn], code, location, amountColumn)
            else {
                rejectedInvoice(naming: .number(row["Customer"]), column: "Customer", at: location)
                continue
            }
            let status: InvoiceStatus
            switch row["Status"] {
            case "issued": status = .sent
            case "void": status = .void
            default:
                problem(location, "Status", "'\(row["Status"])' is not a Stripe credit note status; expected issued or void")
                rejectedInvoice(naming: .number(customer), column: "Customer", at: location)
                continue
            }
            guard let refunded = stripeRefunded(row, refundColumns, code, amount: amount, amountColumn: amountColumn, void: status == .void) else {
                rejectedInvoice(naming: .number(customer), column: "Customer", at: location)
                continue
            }
            var note = ImportedInvoice(
                identifier: row.filled("Number") ?? id, client: .number(customer), clientColumn: "Customer", amount: amount, issued: created,
                due: created, paid: nil, notes: row.filled("Memo") ?? row.filled("Reason") ?? "", source: location, status: status)
            note.kind = .creditNote
            if refunded > 0 {
                note.receipts = ImportedReceipts(received: -refunded, receivedOn: created)
                links.refunded.insert(note.identifier)
            }
            note.corrects = row.filled("Invoice")
            note.unappliedWhenUncorrected = true
            notes.append(note)
        }
        return notes
    }

    /// The columns of a credit note row that say how much of it went back to the customer (docs/import.md: their names
    /// could not be checked against a real export).
    static let stripeRefundColumns = ["Refund Amount", "Out of Band Amount"]

    /// What a credit note row's refund columns add up to (0 without them or with empty cells), at most the credit note's
    /// amount, and 0 on a void one; nil after a problem.
    mutating func stripeRefunded(_ row: CSVTable.Row, _ columns: [String], _ code: CurrencyCode, amount: Money, amountColumn: String, void: Bool) -> Int64? {
        var refunded: Int64 = 0
        for column in columns where !row[column].isEmpty {
            guard let part = money(row[column], code, row.location, column) else { return nil }
            guard !void || part.minorUnits == 0 else {
                problem(row.location, column, "is \(row[column]) on a void credit note; a void credit note refunds nothing")
                return nil
            }
            guard let sum = MinorUnits.add(refunded, part.minorUnits), sum <= amount.minorUnits else {
                problem(
                    row.location, column,
                    "the refunds (\(columns.joined(separator: " + "))) are more than the credit note's \(amountColumn) '\(row[amountColumn])'")
                return nil
            }
            refunded = sum
        }
        return refunded
    }

    /// A time of the export, `YYYY-MM-DD HH:MM` or `YYYY-MM-DD HH:MM:SS` in UTC (or the day alone), as its day; `.some(nil)`
    /// for an empty cell, a missing column or the zero timestamp (`1970-01-01 00:00`) when not `required`; nil after a
    /// problem. The hour may have one digit (`2025-02-27 9:56`), as a spreadsheet writes the export back.
    mutating func stripeTime(_ row: CSVTable.Row, _ column: String, required: Bool) -> CalendarDate?? {
        let text = row[column]
        if text.isEmpty {
            if required {
                problem(row.location, column, "is empty; expected a time YYYY-MM-DD HH:MM:SS (UTC)")
                return nil
            }
            return .some(nil)
        }
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        let clock = parts.count == 2 ? parts[1].split(separator: ":", omittingEmptySubsequences: false) : []
        let limits = [23, 59, 59]
        let clockIsValid = parts.count == 1
            || (parts.count == 2 && (2...3).contains(clock.count)
                && clock.enumerated().allSatisfy { index, field in
                    (field.count == 2 || (index == 0 && field.count == 1)) && field.allSatisfy { $0.isASCII && $0.isNumber }
                        && (Int(field) ?? 99) <= limits[index]
                })
        guard clockIsValid, let day = CalendarDate(iso: String(parts[0])) else {
            problem(row.location, column, "'\(text)' is not a time YYYY-MM-DD HH:MM:SS (UTC) as Stripe exports it, naming a real day")
            return nil
        }
        // Stripe writes an unset time as its zero timestamp (a real export's drafts have `Due Date (UTC)` 1970-01-01 0:00).
        if !required, day.description == "1970-01-01", clock.allSatisfy({ Int($0) == 0 }) { return .some(nil) }
        return .some(day)
    }
}

extension ImportReader {
    /// Resolves the credit notes' `Invoice` (a Stripe invoice id) to the invoice imported with it, and checks each invoice
    /// whose balance is not `Total − Amount Paid` against the credit notes that correct it: they are applied on their
    /// own day when they make up the difference; otherwise the invoice is reported at `Amount Remaining`.
    func linkStripe(_ batch: inout ImportBatch, problems: inout ProblemList) {
        let links = batch.links.stripe
        guard !links.creditFiles.isEmpty || !links.unsettled.isEmpty || !links.balanceEvents.isEmpty else { return }
        // Payments made here (the customer balance's, those outside Stripe), per invoice: all of its payments.
        var explicit: [String: [ImportedPayment]] = [:]
        defer { Self.settleExplicit(explicit, &batch) }
        // Per file, the paid invoices whose rest was paid outside Stripe.
        var outside: [String: Int] = [:]
        var credited: [String: Int64] = [:]
        var notesOf: [String: [Int]] = [:]
        for index in batch.invoices.indices where links.creditFiles.contains(batch.invoices[index].source.file) {
            guard let named = batch.invoices[index].corrects else { continue }
            let identifier = links.identifiers[named] ?? named
            batch.invoices[index].corrects = identifier
            guard batch.invoices[index].status != .void else {
                batch.invoices[index].corrects = nil
                continue
            }
            guard !links.refunded.contains(batch.invoices[index].identifier) else { continue }
            credited[identifier] = MinorUnits.add(credited[identifier] ?? 0, batch.invoices[index].amount.minorUnits) ?? .max
            notesOf[identifier, default: []].append(index)
        }
        for invoice in links.unsettled {
            let money = { (amount: Int64) in Money(minorUnits: amount, currency: invoice.currency).decimalString + " " + invoice.currency.code }
            // Stripe says paid, and no credit note of the import corrects it: the rest was paid outside Stripe (marked
            // paid in the Dashboard; the export leaves such a payment out of Amount Paid).
            if let day = invoice.paidOn, invoice.difference > 0, credited[invoice.identifier] == nil {
                explicit[invoice.identifier, default: []].append(
                    ImportedPayment(
                        invoice: invoice.identifier, date: day, amount: Money(minorUnits: invoice.difference, currency: invoice.currency),
                        method: RowContext.stripeOutOfBandMethod, source: invoice.source, columns: invoice.column.map { ["amount": $0] } ?? [:]))
                outside[invoice.source.file, default: 0] += 1
                continue
            }
            guard credited[invoice.identifier] == invoice.difference else {
                problems.add(
                    ImportProblem(
                        location: invoice.source, column: invoice.column,
                        message: "Stripe's balance \(money(invoice.owed)) is not the total less Amount Paid less the credit notes of this import "
                            + "(\(money(credited[invoice.identifier] ?? 0)), \(money(invoice.difference)) expected); something the files do not show "
                            + "settled it (the customer's balance, a credit note not imported, money paid outside Stripe), so it is not imported"))
                continue
            }
            for index in notesOf[invoice.identifier] ?? [] { batch.invoices[index].applied = batch.invoices[index].issued }
        }
        // After the credit notes applied to their invoices: the others may be what a customer's balance gained.
        linkStripeBalances(&batch, extra: &explicit, problems: &problems)
        var warned: Set<String> = []
        for invoice in links.unsettled {
            guard let count = outside[invoice.source.file], warned.insert(invoice.source.file).inserted else { continue }
            // The API's list (a JSON path) says it with paid_out_of_band; the Dashboard export by what its columns leave.
            let message = invoice.source.element != nil
                ? "\(count) paid invoice(s) marked paid outside Stripe (paid_out_of_band true) with an amount_paid below what was due: each rest is a "
                    + "payment '\(RowContext.stripeOutOfBandMethod)' on its status_transitions.paid_at day; the invoice object does not say how it was paid"
                : "\(count) paid invoice(s) with an Amount Paid below what was due and no credit note of this import: each rest is a "
                    + "payment '\(RowContext.stripeOutOfBandMethod)' on its Paid At day (marked paid in the Dashboard); if credit notes settled "
                    + "them, import the credit notes export with the invoices"
            batch.warnings.append(ImportProblem(location: SourceLocation(file: invoice.source.file), message: message))
        }
    }
}
