import Foundation
import InvoicesCore
import Testing

struct MoneyTests {
    @Test func minorUnitDigitsComeFromISO4217() throws {
        #expect(try CurrencyCode("JPY").minorUnitDigits == 0)
        #expect(try CurrencyCode("USD").minorUnitDigits == 2)
        #expect(try CurrencyCode("KWD").minorUnitDigits == 3)
        #expect(throws: CurrencyError(code: "EURO")) { try CurrencyCode("EURO") }
        #expect(throws: CurrencyError(code: "eur")) { try CurrencyCode("eur") }
    }

    @Test func decimalStringsHaveExactlyTheCurrencysDecimals() throws {
        #expect(Money(minorUnits: 123450, currency: try CurrencyCode("USD")).decimalString == "1234.50")
        #expect(Money(minorUnits: 98765, currency: try CurrencyCode("JPY")).decimalString == "98765")
        #expect(Money(minorUnits: 5, currency: try CurrencyCode("KWD")).decimalString == "0.005")
        #expect(Money(minorUnits: -5, currency: try CurrencyCode("KWD")).decimalString == "-0.005")
    }

    /// The digit-by-digit layout agrees with plain integer printing, at both ends of Int64 and for 0 to 4 decimals.
    @Test func decimalStringsAgreeWithIntegerPrinting() {
        func reference(_ minorUnits: Int64, _ digits: Int) -> String {
            let magnitude = minorUnits.magnitude
            let sign = minorUnits < 0 ? "-" : ""
            guard digits > 0 else { return sign + String(magnitude) }
            var divisor: UInt64 = 1
            for _ in 0..<digits { divisor *= 10 }
            let fraction = String(magnitude % divisor)
            return sign + String(magnitude / divisor) + "." + String(repeating: "0", count: digits - fraction.count) + fraction
        }
        var generator = SystemRandomNumberGenerator()
        var values: [Int64] = [0, 1, -1, 9, 10, 99, 100, 101, -100, 12_345, .max, .min, .max - 1, .min + 1]
        for _ in 0..<2_000 {
            values.append(Int64.random(in: .min ... .max, using: &generator) >> UInt64.random(in: 0...62, using: &generator))
        }
        for value in values {
            for digits in 0...4 {
                #expect(Money.decimalString(value, digits: digits) == reference(value, digits), "\(value), \(digits) decimals")
            }
        }
    }

    @Test func parsingIsExactAndNeverRounds() throws {
        let usd = try CurrencyCode("USD")
        #expect(try Money(parsing: "1234.5", currency: usd).minorUnits == 123450)
        #expect(try Money(parsing: "0.10", currency: usd).minorUnits == 10)
        #expect(try Money(parsing: "7", currency: usd).minorUnits == 700)
        #expect(try Money(parsing: "1.500", currency: usd).minorUnits == 150)
        #expect(throws: MoneyError.tooManyDecimals("1.005", usd)) { try Money(parsing: "1.005", currency: usd) }
        #expect(throws: MoneyError.tooManyDecimals("5.5", try CurrencyCode("JPY"))) {
            try Money(parsing: "5.5", currency: try CurrencyCode("JPY"))
        }
        #expect(throws: MoneyError.invalidDecimal("1,000", usd)) { try Money(parsing: "1,000", currency: usd) }
        #expect(throws: MoneyError.overflow(usd)) { try Money(parsing: "999999999999999999999", currency: usd) }
    }

    @Test func sumsAreOverflowCheckedAndNeverMixCurrencies() throws {
        let eur = try CurrencyCode("EUR")
        let usd = try CurrencyCode("USD")
        #expect(try Money(minorUnits: 1, currency: eur).adding(Money(minorUnits: 2, currency: eur)).minorUnits == 3)
        #expect(throws: MoneyError.currencyMismatch(eur, usd)) {
            try Money(minorUnits: 1, currency: eur).adding(Money(minorUnits: 2, currency: usd))
        }
        #expect(throws: MoneyError.overflow(eur)) {
            try Money(minorUnits: .max, currency: eur).adding(Money(minorUnits: 1, currency: eur))
        }
    }

    @Test func defaultFormattingIsStable() throws {
        let formatter = MoneyFormatter(currencies: [try CurrencyCode("USD"), try CurrencyCode("JPY"), try CurrencyCode("KWD")])
        #expect(formatter.string(for: Money(minorUnits: 123456789, currency: try CurrencyCode("USD"))) == "USD\u{A0}1,234,567.89")
        #expect(formatter.string(for: Money(minorUnits: 1000, currency: try CurrencyCode("JPY"))) == "JPY\u{A0}1,000")
        #expect(formatter.string(for: Money(minorUnits: 1, currency: try CurrencyCode("KWD"))) == "KWD\u{A0}0.001")
        #expect(formatter.string(for: Money(minorUnits: -1, currency: try CurrencyCode("USD"))) == "-USD\u{A0}0.01")
        #expect(formatter.string(for: Money(minorUnits: 0, currency: try CurrencyCode("JPY"))) == "JPY\u{A0}0")
        #expect(formatter.string(for: Money(minorUnits: 100_000, currency: try CurrencyCode("USD"))) == "USD\u{A0}1,000.00")
        #expect(formatter.string(for: Money(minorUnits: .min, currency: try CurrencyCode("USD"))) == "-USD\u{A0}92,233,720,368,547,758.08")
        #expect(formatter.string(for: Money(minorUnits: .max, currency: try CurrencyCode("KWD"))) == "KWD\u{A0}9,223,372,036,854,775.807")
    }

    @Test(arguments: ["de_DE", "fr_FR", "en_US", "ja_JP"])
    func localeFormattingMatchesFoundation(_ locale: String) throws {
        let eur = try CurrencyCode("EUR")
        let formatter = MoneyFormatter(localeIdentifier: locale, currencies: [eur])
        let foundation = NumberFormatter()
        foundation.locale = Locale(identifier: locale)
        foundation.numberStyle = .currency
        foundation.currencyCode = "EUR"
        for minorUnits: Int64 in [0, 5, 99, 100, 123456, 100_000_000, -5, -123456, -100_000_000, 1_234_567_890_123] {
            let expected = foundation.string(from: Decimal(minorUnits) / 100 as NSDecimalNumber)
            #expect(formatter.string(for: Money(minorUnits: minorUnits, currency: eur)) == expected)
        }
    }
}
