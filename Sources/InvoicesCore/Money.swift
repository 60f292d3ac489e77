/// An exact amount of money: an integer count of a currency's minor units (cents, yen, fils).
///
/// Never a `Double`. Amounts in different currencies are never added: ``adding(_:)`` refuses them.
public struct Money: Hashable, Sendable {
    /// The amount in minor units (for USD, cents).
    public var minorUnits: Int64
    /// The currency.
    public var currency: CurrencyCode

    public init(minorUnits: Int64, currency: CurrencyCode) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// Zero in `currency`.
    public static func zero(_ currency: CurrencyCode) -> Money { Money(minorUnits: 0, currency: currency) }

    /// The sum of two amounts in the same currency.
    /// - Throws: ``MoneyError`` when the currencies differ or the sum overflows.
    public func adding(_ other: Money) throws(MoneyError) -> Money {
        guard other.currency == currency else { throw .currencyMismatch(currency, other.currency) }
        let (sum, overflow) = minorUnits.addingReportingOverflow(other.minorUnits)
        guard !overflow else { throw .overflow(currency) }
        return Money(minorUnits: sum, currency: currency)
    }

    /// The amount as a plain decimal string with exactly the currency's number of decimals: `1234.50`, `98765`
    /// for JPY, `-0.005` for KWD. No symbol, no grouping: for CSV and JSON exports.
    public var decimalString: String { Money.decimalString(minorUnits, digits: currency.minorUnitDigits) }

    /// Formats `minorUnits` as a plain decimal with `digits` decimals.
    public static func decimalString(_ minorUnits: Int64, digits: Int) -> String {
        // Laid out right to left in the string's own storage: one allocation at most (none up to 15 bytes, which
        // Swift keeps inline), where joining the parts made five. The exports write millions of these.
        var magnitude = minorUnits.magnitude
        var length = digits > 0 ? digits + 2 : 1  // at least "0.00…" or "0"
        var rest = magnitude
        var wholeDigits = 0
        for _ in 0..<max(digits, 0) { rest /= 10 }
        while rest > 0 {
            wholeDigits += 1
            rest /= 10
        }
        if wholeDigits > 1 { length += wholeDigits - 1 }
        if minorUnits < 0 { length += 1 }
        return String(unsafeUninitializedCapacity: length) { buffer in
            var index = length
            for _ in 0..<max(digits, 0) {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            if digits > 0 {
                index -= 1
                buffer[index] = UInt8(ascii: ".")
            }
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if minorUnits < 0 {
                index -= 1
                buffer[index] = UInt8(ascii: "-")
            }
            return length
        }
    }

    /// Parses a plain decimal string (`1234.5`, `-3`, `0.125`) into exact minor units of `currency`.
    ///
    /// No `Double` is involved. A value with more decimals than the currency allows is an error, not a rounding.
    /// - Throws: ``MoneyError/invalidDecimal(_:_:)`` or ``MoneyError/tooManyDecimals(_:_:)``.
    public init(parsing text: String, currency: CurrencyCode) throws(MoneyError) {
        var bytes = Substring(text).utf8[...]
        var negative = false
        if bytes.first == UInt8(ascii: "-") { negative = true; bytes = bytes.dropFirst() }
        else if bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        // Magnitudes, so that the most negative amount (-9223372036854775808 minor units) parses too.
        var whole: UInt64 = 0
        var fraction: UInt64 = 0
        var fractionDigits = 0
        var seenPoint = false
        var seenDigit = false
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard !seenPoint else { throw .invalidDecimal(text, currency) }
                seenPoint = true
                continue
            }
            guard byte >= 48, byte <= 57 else { throw .invalidDecimal(text, currency) }
            seenDigit = true
            let digit = UInt64(byte - 48)
            if seenPoint {
                fractionDigits += 1
                if fractionDigits > currency.minorUnitDigits {
                    guard digit == 0 else { throw .tooManyDecimals(text, currency) }
                    continue
                }
                fraction = fraction * 10 + digit
            } else {
                let (times10, o1) = whole.multipliedReportingOverflow(by: 10)
                let (next, o2) = times10.addingReportingOverflow(digit)
                guard !o1, !o2 else { throw .overflow(currency) }
                whole = next
            }
        }
        guard seenDigit else { throw .invalidDecimal(text, currency) }
        for _ in min(fractionDigits, currency.minorUnitDigits)..<currency.minorUnitDigits { fraction *= 10 }
        let (scaled, o1) = whole.multipliedReportingOverflow(by: UInt64(currency.minorUnitsPerMajorUnit))
        let (total, o2) = scaled.addingReportingOverflow(fraction)
        guard !o1, !o2, total <= (negative ? Int64.min.magnitude : UInt64(Int64.max)) else { throw .overflow(currency) }
        self.init(minorUnits: negative ? Int64(bitPattern: 0 &- total) : Int64(total), currency: currency)
    }
}

/// Why an amount of money could not be computed or read.
public enum MoneyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Two amounts in different currencies were to be added.
    case currencyMismatch(CurrencyCode, CurrencyCode)
    /// A sum or a parsed value does not fit in 64-bit minor units.
    case overflow(CurrencyCode)
    /// The text is not a plain decimal number.
    case invalidDecimal(String, CurrencyCode)
    /// The text has more decimals than the currency's minor unit.
    case tooManyDecimals(String, CurrencyCode)

    public var description: String {
        switch self {
        case .currencyMismatch(let a, let b): "cannot add \(a) and \(b): amounts in different currencies are kept apart"
        case .overflow(let c): "the \(c) amount does not fit in 64-bit minor units"
        case .invalidDecimal(let text, let c): "'\(text)' is not a decimal \(c) amount (expected e.g. '1234.50')"
        case .tooManyDecimals(let text, let c):
            "'\(text)' has more decimals than \(c) allows (\(c.minorUnitDigits)); it is not rounded"
        }
    }
}
