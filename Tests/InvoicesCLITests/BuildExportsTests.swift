import Foundation
import InvoicesTesting
import Testing

struct BuildExportsTests {
    @Test(.temporaryFolder) func buildWritesTheExportsAndConvertsWithRates() throws {
        let folder = try TemporaryFolder.current
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

    @Test(.temporaryFolder, arguments: [
        (["--rates", "missing.csv", "--base-currency", "EUR"], Int32(66), "missing.csv: no such file; check --rates"),
        (["--rates", "bad.csv", "--base-currency", "EUR"], Int32(65), "bad.csv:2: 'EURO' is not an ISO 4217"),
        (["--rates", "bad.csv"], Int32(64), "--rates needs --base-currency"),
        (["--rates", "bad.csv", "--base-currency", "EURO"], Int32(64), "--base-currency 'EURO' is not"),
    ])
    func badRatesOptionsNameTheProblem(options: [String], status: Int32, message: String) throws {
        let folder = try TemporaryFolder.current
        try StoreFixture.make(at: folder.path("s.sqlite"), sql: StoreFixture.small)
        try Data("date,from,to,rate\n2025-01-01,JPY,EURO,0.1\n".utf8).write(to: folder.url.appendingPathComponent("bad.csv"))
        let result = try CLI.run(["build", "--store", "s.sqlite", "--output", "site"] + options, in: folder.url)
        #expect(result.status == status)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("site")))
    }
}

/// A quarter's invoices as CSV (issue 30): beside its page, linked from it, one row per invoice and tax as the page
/// lists them, and each currency and tax's sums are that quarter's figures in taxes.csv.
struct QuarterCSVTests {
    /// Minor units of a plain decimal (`-12.50` is -1250).
    static func cents(_ text: Substring) -> Int64 {
        let negative = text.hasPrefix("-")
        let parts = text.drop { $0 == "-" }.split(separator: ".", omittingEmptySubsequences: false)
        let whole = Int64(parts[0]) ?? 0, fraction = parts.count > 1 ? Int64(parts[1].padding(toLength: 2, withPad: "0", startingAt: 0)) ?? 0 : 0
        return (negative ? -1 : 1) * (whole * 100 + fraction)
    }

    @Test(.temporaryFolder) func eachQuarterCSVHoldsThePageRowsAndSumsToTheQuarterTaxes() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        #expect(try CLI.run(["sample", "--clients", "12", "--invoices", "400", "--seed", "3", "--output", store]).status == 0)
        let build = try CLI.run(["build", "--store", store, "--output", folder.path("site"), "--fiscal-year-start", "04", "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        // taxes.csv: the sums per fiscal quarter, currency, tax and rate, both bases (amounts with two decimals here).
        var expected: [String: [Int64]] = [:]
        let taxes = try String(contentsOfFile: folder.path("site/taxes.csv"), encoding: .utf8)
        for line in taxes.split(separator: "\r\n").dropFirst() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            guard cells[0] != "JPY", cells[0] != "KWD" else { continue }
            let key = "\(cells[8])-\(cells[9]) \(cells[0]) \(cells[1]) \(cells[2])"
            let figures = cells[4...7].map(Self.cents)
            expected[key] = zip(expected[key] ?? [0, 0, 0, 0], figures).map { $0 + $1 }
        }
        let quarters = try FileManager.default.contentsOfDirectory(atPath: folder.path("site/quarters")).filter { $0.hasSuffix(".html") }
        var checked = 0
        for page in quarters.sorted() {
            let name = String(page.dropLast(5))
            let html = try String(contentsOfFile: folder.path("site/quarters/" + page), encoding: .utf8)
            let listed = html.matches(of: /<tr><th>[^<]*<td>\d{4}-\d\d-\d\d/).count
            guard html.contains("class=\"figures taxes\"") else {
                #expect(!FileManager.default.fileExists(atPath: folder.path("site/quarters/\(name).csv")), "no taxes, no CSV")
                continue
            }
            #expect(html.contains("<a href=\"\(name).csv\" download>"), "\(page) links its CSV")
            let csv = try String(contentsOfFile: folder.path("site/quarters/\(name).csv"), encoding: .utf8)
            let lines = csv.split(separator: "\r\n")
            #expect(lines.first == "currency,tax,rate,invoice,issued,client_number,client,accrual_net,accrual_tax,cash_net,cash_tax")
            #expect(lines.count - 1 == listed, "\(name): the CSV has a row for each row of the page's lists")
            var sums: [String: [Int64]] = [:]
            for line in lines.dropFirst() {
                let cells = line.split(separator: ",", omittingEmptySubsequences: false)
                guard cells[0] != "JPY", cells[0] != "KWD", cells.count == 11 else { continue }
                let key = "\(name) \(cells[0]) \(cells[1]) \(cells[2])"
                sums[key] = zip(sums[key] ?? [0, 0, 0, 0], cells[7...10].map(Self.cents)).map { $0 + $1 }
            }
            for (key, figures) in sums {
                #expect(figures == expected[key], "\(key)")
                checked += 1
            }
        }
        #expect(checked > 4, "quarters with taxes were compared")
    }
}
