/// An ISO 4217 currency code with the number of minor-unit digits the standard gives it.
///
/// ```swift
/// let yen = try CurrencyCode("JPY")   // yen.minorUnitDigits == 0
/// let dinar = try CurrencyCode("KWD") // dinar.minorUnitDigits == 3
/// ```
public struct CurrencyCode: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The three-letter code, e.g. `EUR`.
    public let code: String
    /// How many decimal digits the currency's minor unit has (JPY 0, USD 2, KWD 3).
    public let minorUnitDigits: Int

    /// Looks a code up in ISO 4217.
    /// - Throws: ``CurrencyError`` when the code is not an active ISO 4217 code.
    public init(_ code: String) throws(CurrencyError) {
        guard let digits = ISO4217.minorUnits[code] else { throw CurrencyError(code: code) }
        self.code = code
        self.minorUnitDigits = digits
    }

    /// Whether `code` is an active ISO 4217 code.
    public static func isKnown(_ code: String) -> Bool { ISO4217.minorUnits[code] != nil }

    /// 10 to the power of ``minorUnitDigits``: minor units per major unit.
    public var minorUnitsPerMajorUnit: Int64 {
        var value: Int64 = 1
        for _ in 0..<minorUnitDigits { value *= 10 }
        return value
    }

    public var description: String { code }

    public static func < (lhs: CurrencyCode, rhs: CurrencyCode) -> Bool { lhs.code < rhs.code }
}

/// A currency code that is not in ISO 4217.
public struct CurrencyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The code as found.
    public let code: String

    public init(code: String) { self.code = code }

    public var description: String {
        "'\(code)' is not an ISO 4217 currency code (expected three capital letters such as 'EUR', 'USD' or 'JPY')"
    }
}
