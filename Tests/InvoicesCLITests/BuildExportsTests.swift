import Foundation
import InvoicesTesting
import Testing

struct BuildExportsTests {
    @Test func buildWritesTheExportsAndConvertsWithRates() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = folder.path("books.sqlite")
        let sample = try CLI.run(["sample", "--clients", "8", "--invoices", "200", "--seed", "5", "--output", store])
        #expect(sample.status == 0, "\(sample.stderr)")
        try Data("date,from,to,rate\r\n2025-06-30,USD,EUR,0.9215\r\n".utf8).write(to: folder.url.appendingPathComponent("rates.csv"))
        let build = try CLI.run([
            "build", "--store", store, "--output", folder.path("site"), "--rates", folder.path("rates.csv"),
            "--base-currency", "EUR",
        ])
        #expect(build.status == 0, "\(build.stderr)")
        let totals = try String(contentsOfFile: folder.path("site/totals.csv"), encoding: .utf8)
        #expect(totals.hasPrefix("client_number,client_name,currency,month,invoiced,paid,outstanding,overdue,invoices,net,tax,credited,written_off,credit,fiscal_year,fiscal_quarter\r\n"))
        let payments = try String(contentsOfFile: folder.path("site/payments.csv"), encoding: .utf8)
        #expect(payments.hasPrefix("invoice,client_number,client_name,currency,date,amount,kind,method,reference,fiscal_year,fiscal_quarter\r\n"))
        let taxes = try String(contentsOfFile: folder.path("site/taxes.csv"), encoding: .utf8)
        #expect(taxes.hasPrefix("currency,tax,rate,month,accrual_net,accrual_tax,cash_net,cash_tax,fiscal_year,fiscal_quarter\r\n") && taxes.contains(",VAT,20,"))
        let aging = try String(contentsOfFile: folder.path("site/aging.csv"), encoding: .utf8)
        #expect(aging.hasPrefix("client_number,client_name,currency,as_of,not_due,days_1_30,days_31_60,days_61_90,days_over_90\r\n"))
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.url.appendingPathComponent("site/report.json")))
        let conversion = try #require((json as? [String: Any])?["conversion"] as? [String: Any])
        #expect(conversion["base_currency"] as? String == "EUR")
        let index = try String(contentsOfFile: folder.path("site/index.html"), encoding: .utf8)
        #expect(index.contains("Totals converted into EUR"))
        #expect(index.contains("2025-06-30"))
    }

    @Test(arguments: [
        (["--rates", "missing.csv", "--base-currency", "EUR"], Int32(66), "missing.csv: cannot read the rates file"),
        (["--rates", "bad.csv", "--base-currency", "EUR"], Int32(65), "bad.csv:2: 'EURO' is not an ISO 4217"),
        (["--rates", "bad.csv"], Int32(64), "--rates needs --base-currency"),
        (["--rates", "bad.csv", "--base-currency", "EURO"], Int32(64), "--base-currency 'EURO' is not"),
    ])
    func badRatesOptionsNameTheProblem(options: [String], status: Int32, message: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try StoreFixture.make(at: folder.path("s.sqlite"), sql: StoreFixture.small)
        try Data("date,from,to,rate\n2025-01-01,JPY,EURO,0.1\n".utf8).write(to: folder.url.appendingPathComponent("bad.csv"))
        let result = try CLI.run(["build", "--store", "s.sqlite", "--output", "site"] + options, in: folder.url)
        #expect(result.status == status)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("site")))
    }
}
