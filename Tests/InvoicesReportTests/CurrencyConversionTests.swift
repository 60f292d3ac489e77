import Foundation
import InvoicesCore
import InvoicesReport
import InvoicesStore
import InvoicesTesting
import Testing

struct CurrencyConversionTests {
    static let rates = """
        date,from,to,rate\r
        2025-02-01,JPY,EUR,0.0061\r
        2025-03-01,JPY,EUR,0.0062\r
        2025-01-15,JPY,EUR,0.0059\r
        2025-02-01,EUR,JPY,163.9\r
        """

    func report() throws -> (Books, Report) {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try StoreFixture.make(at: folder.path("s.sqlite"), sql: StoreFixture.small)
        let books = try BooksStore(path: folder.path("s.sqlite")).books
        return (books, try Report(books: books))
    }

    @Test func aConvertedTotalUsesTheLatestRateOnOrBeforeTheAsOfDate() throws {
        let (books, report) = try report()
        let rates = try ExchangeRates(csv: Self.rates, path: "rates.csv")
        let eur = try CurrencyCode("EUR")
        let converted = try ConvertedTotals(report: report, rates: rates, base: eur)
        #expect(report.asOf?.description == "2025-02-28")
        let jpy = try #require(converted.lines.first { $0.currency.code == "JPY" })
        #expect(jpy.rate?.date.description == "2025-02-01")  // not 2025-03-01, after the as-of date
        #expect(jpy.rate?.rate == Decimal(string: "0.0061"))
        let yen = try #require(report.currencies.first { $0.currency.code == "JPY" }).period
        // Yen have no minor unit: yen * 61 / 10000 euro = yen * 61 / 100 cents, exact here.
        #expect(yen.outstanding % 100 == 0)
        #expect(jpy.converted?.outstanding == yen.outstanding * 61 / 100)
        // The base currency converts 1:1 to itself; KWD has no rate and stays unconverted, still listed.
        let euro = try #require(report.currencies.first { $0.currency == eur }).period
        #expect(converted.lines.first { $0.currency == eur }?.converted == euro)
        let kwd = try #require(converted.lines.first { $0.currency.code == "KWD" })
        #expect(kwd.converted == nil)
        #expect(kwd.figures == report.currencies.first { $0.currency.code == "KWD" }?.period)
        #expect(converted.unconverted.map(\.code) == ["KWD"])
        #expect(converted.lines.count == report.currencies.count)
        #expect(converted.total.outstanding == euro.outstanding + yen.outstanding * 61 / 100)

        // report.json carries the conversion, labelled, with the rate date and the unconverted currency.
        let data = ReportExports(books: books, report: report, conversion: converted).json()
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let conversion = try #require(json["conversion"] as? [String: Any])
        #expect(conversion["base_currency"] as? String == "EUR")
        #expect(conversion["unconverted"] as? [String] == ["KWD"])
        let lines = try #require(conversion["lines"] as? [[String: Any]])
        let yenLine = try #require(lines.first { $0["currency"] as? String == "JPY" })
        #expect(yenLine["rate_date"] as? String == "2025-02-01")
        #expect(yenLine["rate"] as? String == "0.0061")
        #expect(yenLine["converted"] as? Bool == true)
        let kwdLine = try #require(lines.first { $0["currency"] as? String == "KWD" })
        #expect(kwdLine["converted"] as? Bool == false)
        #expect((kwdLine["outstanding"] as? [String: Any])?["minor_units"] as? Int == Int(kwd.figures.outstanding))
        let total = try #require(conversion["outstanding"] as? [String: Any])
        #expect((total["minor_units"] as? NSNumber)?.int64Value == converted.total.outstanding)
    }

    @Test(arguments: [
        ("JPY", 1, "0.005", "EUR", 0),  // 0.5 cent: half to even, 0
        ("JPY", 3, "0.005", "EUR", 2),  // 1.5 cents: 2
        ("JPY", 5, "0.005", "EUR", 2),  // 2.5 cents: 2
        ("KWD", 12_345, "3", "EUR", 3_704),  // 12.345 KWD = 37.035 EUR: 3703.5 cents, 3704
        ("EUR", 123_456, "163.9", "JPY", 202_344),  // 1234.56 EUR = 202344.384 yen
        ("USD", 100, "0.9215", "KWD", 922),  // 1 USD = 0.9215 KWD: 921.5 fils, 922
    ])
    func roundingIsHalfEvenToTheBaseMinorUnit(from: String, amount: Int64, rate: String, to: String, expected: Int64) throws {
        let value = ConvertedTotals.convert(
            amount, from: try CurrencyCode(from), rate: try #require(Decimal(string: rate)), to: try CurrencyCode(to))
        #expect(value == expected)
    }

    @Test func theRatesFileIsReadAsCSVLikeAnImport() throws {
        // Quoted fields, CRLF line ends and a byte order mark, as spreadsheets write them.
        let text = "\u{FEFF}\"date\",\"from\",\"to\",\"rate\"\r\n\"2025-01-01\",JPY,EUR,\"0.00612\"\r\n\r\n"
        let rates = try ExchangeRates(csv: text, path: "rates.csv")
        #expect(rates.rates.map(\.date.description) == ["2025-01-01"])
        #expect(rates.rates.first?.rate == Decimal(string: "0.00612"))
        let unclosed = #expect(throws: ExchangeRateError.self) {
            try ExchangeRates(csv: "date,from,to,rate\n2025-01-01,JPY,EUR,\"0.1\n", path: "rates.csv")
        }
        #expect(unclosed?.line == 2)
    }

    @Test(arguments: [
        ("from,to,rate\n", 1),
        ("date,from,to,rate\n2025-01-01,JPY,EUR,1e-3\n", 2),
        ("date,from,to,rate\n2025-01-01,JPY,EUR,-0.1\n", 2),
        ("date,from,to,rate\n2025-01-01,JPY,EURO,0.1\n", 2),
        ("date,from,to,rate\n2025-01-01,JPY,EUR,0.1\n2025-13-01,JPY,EUR,0.1\n", 3),
        ("date,from,to,rate\n2025-01-01,JPY,EUR,0.1\n2025-01-01,JPY,EUR,0.2\n", 3),
    ])
    func aBadRatesFileNamesTheLine(text: String, line: Int) throws {
        let error = try #require(throws: ExchangeRateError.self) { try ExchangeRates(csv: text, path: "r.csv") }
        #expect(error.line == line)
        #expect(error.description.hasPrefix("r.csv:\(line): "))
    }
}
