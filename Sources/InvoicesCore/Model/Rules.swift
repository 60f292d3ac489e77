internal import Foundation

/// A broken rule of the model: the attribute it is about and what is wrong with its value.
public struct RuleViolation: Sendable, Equatable, CustomStringConvertible {
    /// The model's attribute name (`amount`, `dueOn`, `name`, …); readers map it to their own column.
    public var attribute: String
    /// What is wrong, quoting the value: `is negative (-5); amounts are never negative`.
    public var message: String

    public init(attribute: String, message: String) {
        self.attribute = attribute
        self.message = message
    }

    public var description: String { "\(attribute) \(message)" }
}

/// The rules every client obeys, written once: the store readers, import and the model's validation at save all
/// call ``violations(number:name:)``.
public enum ClientRules {
    /// The rules a client's values break: a number and a name that is not blank.
    public static func violations(number: String, name: String) -> [RuleViolation] {
        var violations: [RuleViolation] = []
        if number.isEmpty { violations.append(RuleViolation(attribute: "number", message: "is empty; every client needs a number")) }
        if name.trimmingCharacters(in: .whitespaces).isEmpty {
            violations.append(RuleViolation(attribute: "name", message: "is empty; every client needs a name"))
        }
        return violations
    }
}

/// The rules every invoice obeys, written once: the store readers, import and the model's validation at save all
/// call ``violations(identifier:amount:issued:due:paid:)``.
public enum InvoiceRules {
    /// The first and last days a store's `YYYY-MM-DD` dates can hold (a date computed past them, such as an issue
    /// date of 9999-12-31 plus 30 days' terms, would be written as `10000-01-30`, which no reader takes back).
    public static let firstDay = CalendarDate(year: 1, month: 1, day: 1)!
    public static let lastDay = CalendarDate(year: 9999, month: 12, day: 31)!

    /// The rules an invoice's values break: an identifier, an amount that is not negative, and due and paid dates
    /// that are not before the issue date. Dates that are `nil` are not checked here (readers report them).
    /// - Parameter amountText: The amount as the source holds it, to quote (a Core Data store's `-5.0`); the minor
    ///   units by default.
    public static func violations(
        identifier: String, amount: Int64, amountText: String? = nil, issued: CalendarDate?, due: CalendarDate?,
        paid: CalendarDate?
    ) -> [RuleViolation] {
        var violations: [RuleViolation] = []
        if identifier.isEmpty {
            violations.append(RuleViolation(attribute: "identifier", message: "is empty; every invoice needs an identifier"))
        }
        if amount < 0 {
            violations.append(RuleViolation(attribute: "amount", message: "is negative (\(amountText ?? String(amount))); amounts are never negative"))
        }
        for (attribute, date) in [("issuedOn", issued), ("dueOn", due), ("paidOn", paid)] {
            if let date, !(firstDay...lastDay).contains(date) {
                violations.append(
                    RuleViolation(attribute: attribute, message: "\(date) is outside \(firstDay) to \(lastDay), the days the books hold"))
            }
        }
        if let issued, let due, due < issued {
            violations.append(RuleViolation(attribute: "dueOn", message: "\(due) is before the issue date \(issued)"))
        }
        if let issued, let paid, paid < issued {
            violations.append(RuleViolation(attribute: "paidOn", message: "\(paid) is before the issue date \(issued)"))
        }
        return violations
    }
}

/// The rules of schema v2's rows beside the invoice, written once: the native loader, the PostgreSQL loader and
/// import call them.
public enum BooksRules {
    /// An invoice's status, kind and credit-note fields. `corrects` is the corrected invoice, when found.
    public static func violations(
        kind: InvoiceKind, issued: CalendarDate?, applied: CalendarDate?, hasCorrects: Bool
    ) -> [RuleViolation] {
        var violations: [RuleViolation] = []
        if kind == .invoice, hasCorrects {
            violations.append(RuleViolation(attribute: "correctsId", message: "is set on an invoice; only a credit note corrects an invoice"))
        }
        if kind == .invoice, applied != nil {
            violations.append(RuleViolation(attribute: "appliedOn", message: "is set on an invoice; only a credit note is applied"))
        }
        if kind == .creditNote, applied != nil, !hasCorrects {
            violations.append(RuleViolation(attribute: "appliedOn", message: "is set, but the credit note corrects no invoice (correctsId is NULL)"))
        }
        if let issued, let applied, applied < issued {
            violations.append(RuleViolation(attribute: "appliedOn", message: "\(applied) is before the issue date \(issued)"))
        }
        return violations
    }

    /// Gross = net + taxes, exactly.
    public static func taxViolations(gross: Int64, net: Int64, taxes: [Int64]) -> [RuleViolation] {
        var sum = net
        for tax in taxes {
            let (result, overflow) = sum.addingReportingOverflow(tax)
            if overflow { return [RuleViolation(attribute: "net", message: "plus the tax lines does not fit in 64-bit minor units")] }
            sum = result
        }
        guard sum != gross else { return [] }
        let detail = taxes.isEmpty ? "no tax lines" : "tax lines " + taxes.map(String.init).joined(separator: " + ")
        return [RuleViolation(attribute: "net", message: "\(net) plus \(detail) is \(sum), not the amount \(gross); the gross must be net plus taxes exactly")]
    }

    /// A payment: not zero (a refund is negative), not before the invoice's issue date, in the invoice's currency.
    public static func paymentViolations(
        amount: Int64, date: CalendarDate?, issued: CalendarDate?, currency: String?, invoiceCurrency: String?
    ) -> [RuleViolation] {
        var violations: [RuleViolation] = []
        if amount == 0 { violations.append(RuleViolation(attribute: "amount", message: "is 0; a payment moves money (a refund is negative)")) }
        if let date, let issued, date < issued {
            violations.append(RuleViolation(attribute: "paidOn", message: "\(date) is before the invoice's issue date \(issued)"))
        }
        if let currency, let invoiceCurrency, currency != invoiceCurrency {
            violations.append(
                RuleViolation(
                    attribute: "currency",
                    message: "'\(currency)' is not the invoice's currency \(invoiceCurrency); a payment is in its invoice's currency (convert it first)"))
        }
        return violations
    }

    /// What a source says was received for a document to date (an e-invoice's paid amount, BT-113), in the books'
    /// sign of that document: money received, so not negative (that would be a refund of money never received).
    /// It may be more than the document's amount: the rest is the client's credit (an e-invoice states it as a
    /// negative amount due, BT-115).
    /// - Parameter format: How an amount is quoted (minor units by default; a reader passes its decimal format).
    public static func receivedViolations(received: Int64, format: (Int64) -> String = { String($0) }) -> [RuleViolation] {
        guard received < 0 else { return [] }
        return [
            RuleViolation(
                attribute: "received", message: "is negative (\(format(received))); an amount received is never negative (a refund is not received)")
        ]
    }

    /// A write-off: a positive amount, not before the invoice's issue date.
    public static func writeOffViolations(amount: Int64, date: CalendarDate?, issued: CalendarDate?) -> [RuleViolation] {
        var violations: [RuleViolation] = []
        if amount <= 0 { violations.append(RuleViolation(attribute: "amount", message: "is \(amount); a write-off is a positive amount")) }
        if let date, let issued, date < issued {
            violations.append(RuleViolation(attribute: "writtenOffOn", message: "\(date) is before the invoice's issue date \(issued)"))
        }
        return violations
    }

    /// A tax line: a rate that is a decimal percentage (at most three decimals), a tax amount not negative, and a
    /// net not negative unless the line levies no tax: a negative zero-rated or exempt line (an e-invoice's
    /// returned goods at 0 %) nets within its invoice's tax lines, which still add up to the invoice's net. The
    /// signs are the books': a credit note's lines are positive and subtract.
    public static func taxLineViolations(rate: String, net: Int64, amount: Int64) -> [RuleViolation] {
        var violations: [RuleViolation] = []
        if TaxRate.milliPercent(rate) == nil {
            violations.append(RuleViolation(attribute: "rate", message: "'\(rate)' is not a percentage (expected a decimal such as 7.7, 20 or 0)"))
        }
        if net < 0, amount != 0 {
            violations.append(
                RuleViolation(
                    attribute: "net",
                    message: "is negative (\(net)) with a tax amount of \(amount); only a line without tax (zero-rated or exempt) has a negative net"))
        }
        if amount < 0 { violations.append(RuleViolation(attribute: "amount", message: "is negative (\(amount)); a tax amount is never negative (a credit note's is positive and subtracts)")) }
        return violations
    }
}
