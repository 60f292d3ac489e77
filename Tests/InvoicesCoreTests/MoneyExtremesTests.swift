import InvoicesCore
import Testing

/// The extremes of 64-bit minor units format and parse back (found by the FuzzCoreParsing fuzzer, issue 10).
struct MoneyExtremesTests {
    @Test(arguments: ["EUR", "JPY", "KWD", "CLF"])
    func theLargestAndSmallestAmountsRoundTrip(_ code: String) throws {
        let currency = try CurrencyCode(code)
        for minorUnits in [Int64.min, Int64.min + 1, -1, 0, 1, Int64.max - 1, Int64.max] {
            let money = Money(minorUnits: minorUnits, currency: currency)
            #expect(try Money(parsing: money.decimalString, currency: currency) == money)
        }
    }

    @Test func oneBeyondEitherEndOverflows() throws {
        let eur = try CurrencyCode("EUR")
        #expect(throws: MoneyError.overflow(eur)) { try Money(parsing: "-92233720368547758.09", currency: eur) }
        #expect(throws: MoneyError.overflow(eur)) { try Money(parsing: "92233720368547758.08", currency: eur) }
        #expect(throws: MoneyError.overflow(eur)) { try Money(parsing: "18446744073709551616", currency: eur) }
    }
}
