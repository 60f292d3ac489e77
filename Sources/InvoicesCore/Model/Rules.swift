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
        if let issued, let due, due < issued {
            violations.append(RuleViolation(attribute: "dueOn", message: "\(due) is before the issue date \(issued)"))
        }
        if let issued, let paid, paid < issued {
            violations.append(RuleViolation(attribute: "paidOn", message: "\(paid) is before the issue date \(issued)"))
        }
        return violations
    }
}
