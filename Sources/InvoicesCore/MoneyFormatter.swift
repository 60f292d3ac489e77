import Foundation

/// Formats money for display with the conventions of a locale, as Foundation's currency formatting does.
///
/// The symbols, separators and patterns come from Foundation's `NumberFormatter` for the locale, read once per
/// currency; the digits are then laid out from the exact integer, so no amount goes through `Double` and
/// formatting millions of amounts stays cheap. The default locale, `en_US_POSIX`, gives stable output
/// (`USD 1,234.50`) so builds are reproducible on any machine.
public struct MoneyFormatter: Sendable {
    /// A locale's layout of an amount in one currency, as UTF-8.
    struct Pattern: Sendable {
        var positivePrefix: [UInt8]
        var positiveSuffix: [UInt8]
        var negativePrefix: [UInt8]
        var negativeSuffix: [UInt8]
        var grouping: [UInt8]
        var decimal: [UInt8]
        var groupingSize: Int
    }

    /// The locale identifier used.
    public let localeIdentifier: String
    private let patterns: [CurrencyCode: Pattern]
    /// The locale's layout of a plain decimal number (``number(_:fractionDigits:)``): its grouping and decimal
    /// separator, no symbol.
    private let numberPattern: Pattern

    /// A formatter for `currencies` in the locale `localeIdentifier`.
    public init(localeIdentifier: String = "en_US_POSIX", currencies: [CurrencyCode]) {
        self.localeIdentifier = localeIdentifier
        var patterns: [CurrencyCode: Pattern] = [:]
        for currency in currencies {
            patterns[currency] = MoneyFormatter.pattern(for: currency, localeIdentifier: localeIdentifier)
        }
        self.patterns = patterns
        numberPattern = MoneyFormatter.numberPattern(localeIdentifier: localeIdentifier)
    }

    /// `amount` for display, e.g. `USD 1,234.50` (en_US_POSIX) or `1.234,50 €` (de_DE).
    ///
    /// Laid out straight into the string's own storage: one allocation per amount, none for a short one (perf,
    /// issue 20: formatting was a tenth of a build).
    public func string(for amount: Money) -> String {
        let pattern = patterns[amount.currency]
            ?? MoneyFormatter.pattern(for: amount.currency, localeIdentifier: localeIdentifier)
        let digits = amount.currency.minorUnitDigits
        let negative = amount.minorUnits < 0
        let prefix = negative ? pattern.negativePrefix : pattern.positivePrefix
        let suffix = negative ? pattern.negativeSuffix : pattern.positiveSuffix
        // At most 20 digits of a UInt64 (`digits` is at most 4: ISO 4217), with a separator between groups.
        let wholeDigitsBound = 20
        let capacity = prefix.count + suffix.count + wholeDigitsBound * (1 + pattern.grouping.count) + pattern.decimal.count
        return String(unsafeUninitializedCapacity: capacity) { output in
            MoneyFormatter.layOut(amount.minorUnits.magnitude, digits: digits, pattern: pattern, prefix: prefix, suffix: suffix, into: output)
        }
    }

    /// A plain decimal number in the locale's form, laid out as amounts are (the same grouping, the locale's decimal
    /// separator, no symbol): `units` with its last `fractionDigits` (0 to 4) after the separator. 77 and 1 is `7.7`
    /// in en_US_POSIX, `7,7` in de_DE; 1200 and 0 is `1,200`, `1.200`, `1 200` in fr_FR (a narrow no-break space).
    public func number(_ units: Int64, fractionDigits: Int) -> String {
        let digits = min(max(fractionDigits, 0), 4)
        let prefix = units < 0 ? numberPattern.negativePrefix : numberPattern.positivePrefix
        let suffix = units < 0 ? numberPattern.negativeSuffix : numberPattern.positiveSuffix
        let capacity = prefix.count + suffix.count + 20 * (1 + numberPattern.grouping.count) + numberPattern.decimal.count
        return String(unsafeUninitializedCapacity: capacity) { output in
            MoneyFormatter.layOut(units.magnitude, digits: digits, pattern: numberPattern, prefix: prefix, suffix: suffix, into: output)
        }
    }

    /// Writes the amount into `output` and returns how many bytes it took: prefix, grouped whole digits, decimal
    /// separator and `digits` fraction digits, suffix. (A free function over locals: a closure capturing the write
    /// position was checked for exclusive access on every byte.)
    private static func layOut(
        _ magnitude: UInt64, digits: Int, pattern: Pattern, prefix: [UInt8], suffix: [UInt8], into output: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        // The magnitude's decimal digits, least significant first, padded to `digits + 1`.
        var decimal: (UInt64, UInt64, UInt64) = (0, 0, 0)
        return withUnsafeMutableBytes(of: &decimal) { raw -> Int in
            let decimal = raw.bindMemory(to: UInt8.self)
            var count = 0
            var rest = magnitude
            repeat {
                decimal[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                count += 1
                rest /= 10
            } while rest > 0
            while count <= digits {
                decimal[count] = UInt8(ascii: "0")
                count += 1
            }
            var position = 0
            for byte in prefix {
                output[position] = byte
                position += 1
            }
            let wholeDigits = count - digits
            for offset in 0..<wholeDigits {
                if offset > 0, pattern.groupingSize > 0, (wholeDigits - offset) % pattern.groupingSize == 0 {
                    for byte in pattern.grouping {
                        output[position] = byte
                        position += 1
                    }
                }
                output[position] = decimal[count - 1 - offset]
                position += 1
            }
            if digits > 0 {
                for byte in pattern.decimal {
                    output[position] = byte
                    position += 1
                }
                for offset in (0..<digits).reversed() {
                    output[position] = decimal[offset]
                    position += 1
                }
            }
            for byte in suffix {
                output[position] = byte
                position += 1
            }
            return position
        }
    }

    /// The layout of a plain decimal number in `localeIdentifier` (Foundation's decimal style); en_US_POSIX's is
    /// its amounts' without the currency code (`1,234.5`).
    static func numberPattern(localeIdentifier: String) -> Pattern {
        let formatter = NumberFormatter()
        formatter.locale = Locale(identifier: localeIdentifier)
        formatter.numberStyle = .decimal
        if localeIdentifier == "en_US_POSIX" { posixSeparators(formatter) }
        return Pattern(formatter, decimal: formatter.decimalSeparator)
    }

    static func pattern(for currency: CurrencyCode, localeIdentifier: String) -> Pattern {
        let formatter = NumberFormatter()
        formatter.locale = Locale(identifier: localeIdentifier)
        formatter.numberStyle = .currency
        formatter.currencyCode = currency.code
        if localeIdentifier == "en_US_POSIX" {
            // POSIX has no currency symbols of its own; spell the code out, as ISO does.
            formatter.currencySymbol = currency.code + "\u{00A0}"
            formatter.positivePrefix = currency.code + "\u{00A0}"
            formatter.negativePrefix = "-" + currency.code + "\u{00A0}"
            formatter.positiveSuffix = ""
            formatter.negativeSuffix = ""
            posixSeparators(formatter)
        }
        return Pattern(formatter, decimal: formatter.currencyDecimalSeparator ?? formatter.decimalSeparator)
    }

    /// en_US_POSIX's separators: `1,234.50`.
    private static func posixSeparators(_ formatter: NumberFormatter) {
        formatter.groupingSeparator = ","
        formatter.decimalSeparator = "."
        formatter.groupingSize = 3
        formatter.usesGroupingSeparator = true
    }
}

extension MoneyFormatter.Pattern {
    /// `formatter`'s layout, with `decimal` as its decimal separator.
    init(_ formatter: NumberFormatter, decimal: String?) {
        self.init(
            positivePrefix: Array((formatter.positivePrefix ?? "").utf8),
            positiveSuffix: Array((formatter.positiveSuffix ?? "").utf8),
            negativePrefix: Array((formatter.negativePrefix ?? "-").utf8),
            negativeSuffix: Array((formatter.negativeSuffix ?? "").utf8),
            grouping: Array((formatter.usesGroupingSeparator ? (formatter.groupingSeparator ?? ",") : "").utf8),
            decimal: Array((decimal ?? ".").utf8),
            groupingSize: formatter.usesGroupingSeparator ? formatter.groupingSize : 0
        )
    }
}
