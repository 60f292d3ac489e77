import Foundation

/// Formats money for display with the conventions of a locale, as Foundation's currency formatting does.
///
/// The symbols, separators and patterns come from Foundation's `NumberFormatter` for the locale, read once per
/// currency; the digits are then laid out from the exact integer, so no amount goes through `Double` and
/// formatting millions of amounts stays cheap. The default locale, `en_US_POSIX`, gives stable output
/// (`USD 1,234.50`) so builds are reproducible on any machine.
public struct MoneyFormatter: Sendable {
    struct Pattern: Sendable {
        var positivePrefix: String
        var positiveSuffix: String
        var negativePrefix: String
        var negativeSuffix: String
        var grouping: String
        var decimal: String
        var groupingSize: Int
    }

    /// The locale identifier used.
    public let localeIdentifier: String
    private let patterns: [CurrencyCode: Pattern]

    /// A formatter for `currencies` in the locale `localeIdentifier`.
    public init(localeIdentifier: String = "en_US_POSIX", currencies: [CurrencyCode]) {
        self.localeIdentifier = localeIdentifier
        var patterns: [CurrencyCode: Pattern] = [:]
        for currency in currencies {
            patterns[currency] = MoneyFormatter.pattern(for: currency, localeIdentifier: localeIdentifier)
        }
        self.patterns = patterns
    }

    /// `amount` for display, e.g. `USD 1,234.50` (en_US_POSIX) or `1.234,50 €` (de_DE).
    public func string(for amount: Money) -> String {
        let pattern = patterns[amount.currency]
            ?? MoneyFormatter.pattern(for: amount.currency, localeIdentifier: localeIdentifier)
        let digits = amount.currency.minorUnitDigits
        // The magnitude's decimal digits, least significant first (UInt64.max has 20).
        var magnitude = amount.minorUnits.magnitude
        var decimal: [UInt8] = []
        decimal.reserveCapacity(20)
        repeat {
            decimal.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        while decimal.count <= digits { decimal.append(UInt8(ascii: "0")) }
        let negative = amount.minorUnits < 0
        var output: [UInt8] = []
        output.reserveCapacity(32)
        output.append(contentsOf: negative ? pattern.negativePrefix.utf8 : pattern.positivePrefix.utf8)
        let wholeDigits = decimal.count - digits
        for offset in 0..<wholeDigits {
            if offset > 0, pattern.groupingSize > 0, (wholeDigits - offset) % pattern.groupingSize == 0 {
                output.append(contentsOf: pattern.grouping.utf8)
            }
            output.append(decimal[decimal.count - 1 - offset])
        }
        if digits > 0 {
            output.append(contentsOf: pattern.decimal.utf8)
            for offset in (0..<digits).reversed() { output.append(decimal[offset]) }
        }
        output.append(contentsOf: negative ? pattern.negativeSuffix.utf8 : pattern.positiveSuffix.utf8)
        return String(decoding: output, as: UTF8.self)
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
            formatter.groupingSeparator = ","
            formatter.decimalSeparator = "."
            formatter.groupingSize = 3
            formatter.usesGroupingSeparator = true
        }
        return Pattern(
            positivePrefix: formatter.positivePrefix ?? "",
            positiveSuffix: formatter.positiveSuffix ?? "",
            negativePrefix: formatter.negativePrefix ?? "-",
            negativeSuffix: formatter.negativeSuffix ?? "",
            grouping: formatter.usesGroupingSeparator ? (formatter.groupingSeparator ?? ",") : "",
            decimal: formatter.currencyDecimalSeparator ?? formatter.decimalSeparator ?? ".",
            groupingSize: formatter.usesGroupingSeparator ? formatter.groupingSize : 0
        )
    }
}
