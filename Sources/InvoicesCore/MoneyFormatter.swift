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
        let magnitude = amount.minorUnits.magnitude
        var divisor: UInt64 = 1
        for _ in 0..<digits { divisor *= 10 }
        let whole = String(magnitude / divisor)
        var grouped = ""
        if pattern.groupingSize > 0, whole.count > pattern.groupingSize {
            let characters = Array(whole)
            for (offset, character) in characters.enumerated() {
                if offset > 0, (characters.count - offset) % pattern.groupingSize == 0 { grouped += pattern.grouping }
                grouped.append(character)
            }
        } else {
            grouped = whole
        }
        if digits > 0 {
            let fraction = String(magnitude % divisor)
            grouped += pattern.decimal + String(repeating: "0", count: digits - fraction.count) + fraction
        }
        return amount.minorUnits < 0
            ? pattern.negativePrefix + grouped + pattern.negativeSuffix
            : pattern.positivePrefix + grouped + pattern.positiveSuffix
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
