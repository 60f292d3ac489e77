internal import InvoicesCore
internal import ObjectContexts

/// What an invoice row says about its payments when the source lists none of them.
enum PaymentStatement {
    /// Paid in full on a day (a paid date).
    case paidInFull(CalendarDate)
    /// Not paid in full (no paid date): partial payments may stand.
    case notPaidInFull
    /// So much received to date, the last of it on a day (Zoho: `Total − Balance` on `Last Payment Date`).
    case received(Int64, CalendarDate?)

    init(_ invoice: ImportedInvoice) {
        if let receipts = invoice.receipts {
            self = .received(receipts.received ?? 0, receipts.receivedOn)
        } else if let paid = invoice.paid {
            self = .paidInFull(paid)
        } else {
            self = .notPaidInFull
        }
    }

    /// Whether stored payments (day, amount) already say what this statement says, so that they stand. Paid in
    /// full on a day: the payments first add up to the amount on that day (a refund later does not unpay it); not
    /// paid in full: they never do; received: they add up to that, the last of them on that day.
    func agrees(with payments: [(day: CalendarDate, amount: Int64)], amount: Int64) -> Bool {
        switch self {
        case .paidInFull(let day): amount == 0 ? payments.isEmpty : Self.settledDay(payments, amount: amount) == day
        case .notPaidInFull: amount == 0 ? payments.isEmpty : Self.settledDay(payments, amount: amount) == nil
        case .received(let received, let day):
            MinorUnits.sum(payments.map(\.amount)) == received && (received == 0 || payments.map(\.day).max() == day)
        }
    }

    /// The payments that say it, when the stored ones do not: one payment, or none.
    func payments(amount: Int64) -> [[Value]] {
        switch self {
        case .paidInFull(let day): amount == 0 ? [] : [ImportSession.paymentValues(day: day, amount: amount)]
        case .notPaidInFull: []
        case .received(let received, let day):
            day.map { received == 0 ? [] : [ImportSession.paymentValues(day: $0, amount: received)] } ?? []
        }
    }

    /// The day payments first add up to `amount` (nil when they never do).
    static func settledDay(_ payments: [(day: CalendarDate, amount: Int64)], amount: Int64) -> CalendarDate? {
        var running: Int64 = 0
        return payments.sorted { ($0.day, $0.amount) < ($1.day, $1.amount) }.first { payment in
            // Saturating: payments past 64 bits have added up to any amount.
            running = MinorUnits.add(running, payment.amount) ?? (payment.amount > 0 ? .max : .min)
            return running >= amount
        }?.day
    }
}

extension ImportSession {
    /// A `Payment`'s attributes (paidOn, amount, currency, method, reference): the currency is the invoice's (NULL).
    static func paymentValues(day: CalendarDate, amount: Int64, method: String = "", reference: String = "") -> [Value] {
        [.integer(Int64(day.dayNumber)), .integer(amount), .null, .text(method), .text(reference)]
    }

    /// Makes `invoice`'s payments agree with what its row states: the stored payments stand when they say the same
    /// (partial payments imported from another file survive a re-import of the invoices), otherwise they are
    /// replaced. Whether anything changed.
    @discardableResult
    mutating func settlePayments(of invoice: Invoice, _ statement: PaymentStatement, in context: isolated PrivateContext) throws -> Bool {
        let stored = (details["payments"]?[invoice.objectID] ?? []).compactMap { $0 as? Payment }.compactMap { payment in
            payment.paid.map { (day: $0, amount: payment.amount) }
        }
        guard !statement.agrees(with: stored, amount: invoice.amount) else { return false }
        var counts = ImportSummary.Counts()
        return try replaceRows(of: invoice, "payments", Payment.self, with: statement.payments(amount: invoice.amount), counts: &counts, in: context)
    }

    /// Gives `invoice` exactly the rows `desired` (attribute values in the entity's order) in its to-many
    /// `relationship`: stored rows with the same values stay as they are (not rewritten), the others are deleted,
    /// the missing ones inserted. Whether anything changed.
    @discardableResult
    mutating func replaceRows<T: ManagedObject>(
        of invoice: Invoice, _ relationship: String, _ type: T.Type, with desired: [[Value]], counts: inout ImportSummary.Counts,
        in context: isolated PrivateContext
    ) throws -> Bool {
        var unmatched = details[relationship]?[invoice.objectID] ?? []
        var kept: [ManagedObject] = []
        var missing: [[Value]] = []
        for values in desired {
            if let index = unmatched.firstIndex(where: { row in values.indices.allSatisfy { row.value(at: $0) == values[$0] } }) {
                kept.append(unmatched.remove(at: index))
                counts.unchanged += 1
            } else {
                missing.append(values)
            }
        }
        for row in unmatched { try context.delete(row) }
        counts.removed += unmatched.count
        for values in missing {
            let created = try context.insert(T.self)
            for (index, value) in values.enumerated() { try created.setValue(value, at: index) }
            try created.setObject(invoice, forKey: "invoice")
            kept.append(created)
        }
        details[relationship, default: [:]][invoice.objectID] = kept
        counts.added += missing.count
        return !unmatched.isEmpty || !missing.isEmpty
    }

    /// Applies the batch's own payments: each invoice named gets exactly the payments the batch lists for it.
    /// A payment naming an invoice neither imported nor stored, in another currency than its invoice's, dated
    /// before its issue date or of 0 is a problem at its file, line and column. Into a v1 store (no payment table)
    /// an invoice's payments set its paid date: the day they first add up to its amount, if they do.
    mutating func apply(
        _ payments: [ImportedPayment], to invoices: [String: Invoice], skipping skipped: Set<String>, in context: isolated PrivateContext
    ) throws {
        var order: [String] = []
        var byInvoice: [String: [ImportedPayment]] = [:]
        for payment in payments where !skipped.contains(payment.invoice) {
            if byInvoice[payment.invoice] == nil { order.append(payment.invoice) }
            byInvoice[payment.invoice, default: []].append(payment)
        }
        var counts = ImportSummary.Counts()
        for identifier in order {
            let listed = byInvoice[identifier] ?? []
            guard let invoice = invoices[identifier] else {
                for payment in listed {
                    problems.append(
                        ImportProblem(
                            location: payment.source, column: payment.columns["invoice"],
                            message: "invoice '\(identifier)' is neither in the imported invoices nor in the store; import its invoice too"))
                }
                continue
            }
            var valid = true
            for payment in listed {
                let violations = BooksRules.paymentViolations(
                    amount: payment.amount.minorUnits, date: payment.date, issued: invoice.issued, currency: payment.amount.currency.code,
                    invoiceCurrency: invoice.currencyCode)
                for violation in violations {
                    problems.append(
                        ImportProblem(
                            location: payment.source, column: payment.columns[violation.attribute] ?? violation.attribute,
                            message: "payment of invoice '\(identifier)': " + violation.message))
                }
                valid = valid && violations.isEmpty
            }
            guard valid else { continue }
            if schemaVersion < 2 {
                let settled = PaymentStatement.settledDay(listed.map { ($0.date, $0.amount.minorUnits) }, amount: invoice.amount)
                try Self.set(invoice, "paidOn", settled.map { .integer(Int64($0.dayNumber)) } ?? .null)
            } else {
                let desired = listed.map {
                    Self.paymentValues(day: $0.date, amount: $0.amount.minorUnits, method: $0.method, reference: $0.reference)
                }
                try replaceRows(of: invoice, "payments", Payment.self, with: desired, counts: &counts, in: context)
            }
        }
        summary.payments = counts
    }
}
