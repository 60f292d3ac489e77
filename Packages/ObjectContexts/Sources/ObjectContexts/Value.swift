/// A single attribute value as stored in a row.
///
/// `Value` is the only currency between contexts, stores and objects, so it is
/// deliberately small: no dates or decimals (encode them as integers or text).
public enum Value: Sendable, Hashable, CustomStringConvertible {
    /// No value (SQL `NULL`).
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// A double-precision floating point number.
    case double(Double)
    /// A string.
    case text(String)

    /// Whether this is `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The integer payload, or `nil` if this is not `.integer`.
    public var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The numeric payload as a `Double` (integers are converted), or `nil`.
    public var doubleValue: Double? {
        switch self {
        case .double(let value): return value
        case .integer(let value): return Double(value)
        default: return nil
        }
    }

    /// The text payload, or `nil` if this is not `.text`.
    public var textValue: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// Whether this value may be stored in an attribute of `type` (`.null` always may).
    public func conforms(to type: AttributeType) -> Bool {
        switch (self, type) {
        case (.null, _), (.integer, .integer), (.double, .double), (.text, .text): return true
        default: return false
        }
    }

    /// A debugging representation such as `42`, `1.5`, `"abc"` or `null`.
    public var description: String {
        switch self {
        case .null: return "null"
        case .integer(let value): return String(value)
        case .double(let value): return String(value)
        case .text(let value): return "\"\(value)\""
        }
    }
}

/// Lets tests and callers write `"text"` where a `Value` is expected.
extension Value: ExpressibleByStringLiteral {
    /// Creates a `.text` value from a string literal.
    public init(stringLiteral value: String) { self = .text(value) }
}

/// Lets callers write `42` where a `Value` is expected.
extension Value: ExpressibleByIntegerLiteral {
    /// Creates an `.integer` value from an integer literal.
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

/// Lets callers write `1.5` where a `Value` is expected.
extension Value: ExpressibleByFloatLiteral {
    /// Creates a `.double` value from a floating point literal.
    public init(floatLiteral value: Double) { self = .double(value) }
}
