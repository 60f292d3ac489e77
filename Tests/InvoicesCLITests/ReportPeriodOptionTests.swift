import Foundation
import InvoicesTesting
import Testing

/// `--quarter` and `--year` (keys `quarter`, `year`): the report, its statements and its period pages cover a fiscal
/// quarter or year; bad or conflicting values are refused with the documented exit codes.
struct ReportPeriodOptionTests {
    @Test func badQuartersAndYearsAreUsageErrors() throws {
        for value in ["2025-Q5", "2025-Q0", "2025Q1", "25-Q1", "2025-q1", "Q1", "all", "+202-Q1"] {
            let result = try CLI.run(["build", "--store", "x.sqlite", "--quarter", value])
            #expect(result.status == 64, "\(value)")
            #expect(result.stderr.contains("--quarter '\(value)' is not a quarter; expected YYYY-QN, e.g. 2025-Q1"), "\(result.stderr)")
        }
        for value in ["25", "2025-26", "FY2025", "all", "２０２５", "+202", " 202"] {
            let result = try CLI.run(["build", "--store", "x.sqlite", "--year", value])
            #expect(result.status == 64, "\(value)")
            #expect(result.stderr.contains("--year '\(value)' is not a year; expected YYYY, e.g. 2025"), "\(result.stderr)")
        }
        let both = try CLI.run(["build", "--store", "x.sqlite", "--month", "2025-01", "--quarter", "current"])
        #expect(both.status == 64)
        #expect(both.stderr.contains("--month and --quarter both choose the report's period; give only one of --month, --quarter and --year"), "\(both.stderr)")
    }

    @Test(.temporaryFolder) func theProjectFileNamesABadOrSecondPeriodKey() throws {
        let folder = try TemporaryFolder.current
        let cases: [(String, String)] = [
            ("store: x.sqlite\nquarter: 2025-Q9\n", "invoices.yaml:2:10: quarter '2025-Q9' is not a quarter; expected YYYY-QN"),
            ("store: x.sqlite\nyear: last\n", "invoices.yaml:2:7: year 'last' is not a year; expected YYYY"),
            ("store: x.sqlite\nmonth: 2025-01\nyear: 2025\n", "invoices.yaml:3:7: 'year' and 'month' both choose the report's period"),
        ]
        for (text, message) in cases {
            try Data(text.utf8).write(to: URL(fileURLWithPath: folder.path("invoices.yaml")))
            let result = try CLI.run(["build", "--config", folder.path("invoices.yaml")])
            #expect(result.status == 65, "\(text)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
        // `month: all` is the default and chooses nothing: a quarter beside it is fine.
        try StoreFixture.make(at: folder.path("v2.sqlite"), sql: StoreFixture.v2Cases, version: 2)
        try Data("store: v2.sqlite\nmonth: all\nquarter: 2025-Q2\noutput: site\n".utf8).write(to: URL(fileURLWithPath: folder.path("invoices.yaml")))
        let result = try CLI.run(["build", "--config", folder.path("invoices.yaml")])
        #expect(result.status == 0, "\(result.stderr)")
        let months = try FileManager.default.contentsOfDirectory(atPath: folder.path("site/months")).sorted()
        #expect(months == ["2025-04.html", "2025-05.html", "2025-06.html"])
        // A flag wins over the file's period key.
        let flag = try CLI.run(["build", "--config", folder.path("invoices.yaml"), "--year", "2025"])
        #expect(flag.status == 0, "\(flag.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("site/months")).count == 12)
    }

    func statementRows(_ site: String, _ number: String) throws -> [String] {
        let statements = site + "/statements"
        let files = try FileManager.default.contentsOfDirectory(atPath: statements)
        let file = try #require(files.first { $0.hasPrefix(number.lowercased() + "-") })
        let html = try String(contentsOfFile: statements + "/" + file, encoding: .utf8)
        return html.split(separator: "\n").filter { $0.hasPrefix("<tr") }.map(String.init)
    }

    /// A fiscal quarter and a fiscal year (years from April, then from July): the months, the overview's period
    /// text, the period pages, and a statement's opening balance, lines and closing balance.
    @Test(.temporaryFolder) func aFiscalQuarterOrYearIsTheReportsAndTheStatementsPeriod() throws {
        let folder = try TemporaryFolder.current
        try StoreFixture.make(at: folder.path("v2.sqlite"), sql: StoreFixture.v2Cases, version: 2)
        /// Builds into `output` with `options` and reads the overview.
        func build(_ output: String, _ options: [String]) throws -> String {
            let result = try CLI.run(["build", "--store", folder.path("v2.sqlite"), "--output", folder.path(output)] + options)
            #expect(result.status == 0, "\(result.stderr)")
            return try String(contentsOfFile: folder.path(output + "/index.html"), encoding: .utf8)
        }
        let index = try build("q", ["--fiscal-year-start", "04", "--quarter", "2025-Q1"])
        #expect(index.contains("Invoices issued from <strong>April 2025</strong> to <strong>June 2025</strong> (3 months"))
        #expect(index.contains("Fiscal years start in April: these months fall in <strong>Q1 FY 2025/26</strong>."))
        #expect(FileManager.default.fileExists(atPath: folder.path("q/quarters/2025-Q1.html")))
        // The quarter's page and its folder, which holds its print pack (quarters/2025-Q1/print.html), and no other.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("q/quarters")).sorted() == ["2025-Q1", "2025-Q1.html"])
        #expect(FileManager.default.fileExists(atPath: folder.path("q/quarters/2025-Q1/print.html")))
        // C-2: INV-2 (500.00) and its credit note (100.00) in March are the opening balance; paid in April.
        // (The statement's table names its currency in its headings, `Balance (EUR)`; its amounts are bare.)
        let rows = try statementRows(folder.path("q"), "C-2")
        #expect(rows.first == "<tr class=\"opening\"><td>2025-04-01<th scope=\"row\" colspan=\"4\">Opening balance<td>400.00")
        #expect(rows.count == 3 && rows[1].hasPrefix("<tr><td>2025-04-20<th>Payment "))
        #expect(rows.last?.hasPrefix("<tr class=\"closing\"><td>2025-06-30") == true)
        #expect(rows.last?.hasSuffix("<td>0.00") == true)

        let yearIndex = try build("y", ["--fiscal-year-start", "07", "--year", "2024"])
        #expect(yearIndex.contains("Invoices issued from <strong>July 2024</strong> to <strong>June 2025</strong> (12 months"))
        #expect(yearIndex.contains("these months fall in <strong>FY 2024/25</strong>."))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("y/years")) == ["2024.html"])
        let yearRows = try statementRows(folder.path("y"), "C-2")
        #expect(yearRows.first?.hasPrefix("<tr class=\"opening\"><td>2024-07-01") == true)
        #expect(yearRows.first?.hasSuffix("<td>0.00") == true)
        #expect(yearRows.dropFirst().dropLast().map { String($0.split(separator: " ")[0]) } == [
            "<tr><td>2025-03-01<th>Invoice", "<tr><td>2025-03-10<th>Credit", "<tr><td>2025-04-20<th>Payment",
        ])
        #expect(yearRows.last?.hasPrefix("<tr class=\"closing\"><td>2025-06-30") == true)
    }
}
