import Foundation
import InvoicesCore
import InvoicesTesting
import Testing

/// `--csv-dialect excel` / `csv_dialect: excel` end to end (issue 45, item 4): every CSV a build writes (the exports,
/// the quarters' CSV, changes.csv) reads back, by its own dialect, to exactly the default dialect's values; the
/// default's bytes are those the tool wrote before the option existed.
struct CSVDialectBuildTests {
    /// The columns docs/exports.md names as decimals: in the spreadsheet dialect they take the locale's separator.
    static let decimalColumns: Set<String> = [
        "invoiced", "paid", "outstanding", "overdue", "net", "tax", "credited", "written_off", "credit", "amount", "rate",
        "accrual_net", "accrual_tax", "cash_net", "cash_tax", "not_due", "days_1_30", "days_31_60", "days_61_90", "days_over_90",
    ]

    /// Names, methods and references a spreadsheet could take for formulas, or that need quoting in one dialect.
    static let hostileSQL = """
        UPDATE client SET name = '=SUM(A1:A9)' WHERE id = 1;
        UPDATE client SET name = '-12,50' WHERE id = 2;
        UPDATE client SET name = 'Smith; "Jr", & Co' || char(13) || char(10) || 'Ltd' WHERE id = 3;
        UPDATE client SET name = '@cmd,x' WHERE id = 4;
        UPDATE client SET name = '1.5' WHERE id = 5;
        UPDATE payment SET method = '+1;2', reference = '-3.25' WHERE id IN (1, 2, 3);
        """

    /// The CSV files of a built site, by path.
    static func csvFiles(_ folder: String) throws -> [String: Data] {
        try SiteFiles.read(folder).filter { $0.key.hasSuffix(".csv") }
    }

    /// The values of `data` read by the dialect of `separator` and `decimal`: the byte order mark checked, decimal
    /// columns read back with a `.`.
    /// With `decimal` nil, the fields are returned as written.
    static func values(_ data: Data, separator: UInt8, decimal: Character?, bom: Bool) throws -> [[String]] {
        let bytes = [UInt8](data)
        #expect(bytes.starts(with: [0xEF, 0xBB, 0xBF]) == bom)
        let document = try CSVDocument(bytes: bytes, separator: separator)
        return [document.header] + document.records.map { record in
            #expect(record.fields.count == document.header.count, "line \(record.line)")
            return zip(document.header, record.fields).map { name, value in
                guard let decimal, decimalColumns.contains(name) else { return value }
                return value.replacingOccurrences(of: String(decimal), with: ".")
            }
        }
    }

    /// de_DE through the project file's key (`;` and `,`), en_US through the flag (`,` and `.`, a byte order mark).
    @Test(.temporaryFolder, arguments: [("de_DE", true), ("en_US", false)])
    func everyCSVReadsBackToTheDefaultValues(locale: String, projectKey: Bool) throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        #expect(try CLI.run(["sample", "--clients", "12", "--invoices", "400", "--seed", "3", "--output", store]).status == 0)
        try StoreFixture.execute(store, Self.hostileSQL)
        try "store: books.sqlite\nlocale: \(locale)\noutput: sheet\n\(projectKey ? "csv_dialect: excel\n" : "")".write(
            toFile: folder.path("invoices.yaml"), atomically: true, encoding: .utf8)
        func buildBoth() throws {
            let plain = try CLI.run(["build", "--store", store, "--locale", locale, "--output", folder.path("plain"), "--quiet"])
            #expect(plain.status == 0, "\(plain.stderr)")
            let sheet = try CLI.run(["build", "--quiet"] + (projectKey ? [] : ["--csv-dialect", "excel"]), in: folder.url)
            #expect(sheet.status == 0, "\(sheet.stderr)")
        }
        try buildBoth()
        // A change, so that changes.csv has rows too.
        try StoreFixture.execute(store, "UPDATE invoice SET amount = amount + 1, net = net + 1 WHERE id IN (5, 6, 7);")
        try buildBoth()

        let plain = try Self.csvFiles(folder.path("plain"))
        let sheet = try Self.csvFiles(folder.path("sheet"))
        #expect(Set(sheet.keys) == Set(plain.keys))
        #expect(plain.keys.contains("changes.csv") && plain.keys.contains { $0.hasPrefix("quarters/") } && plain.count >= 7)
        let comma = locale == "de_DE"
        for (path, data) in plain {
            let expected = try Self.values(data, separator: UInt8(ascii: ","), decimal: ".", bom: false)
            let read = try Self.values(
                try #require(sheet[path]), separator: UInt8(ascii: comma ? ";" : ","), decimal: comma ? "," : ".", bom: true)
            #expect(read == expected, "\(path)")
            #expect(expected.count > 1, "\(path)")
        }
        let changes = try Self.values(try #require(plain["changes.csv"]), separator: UInt8(ascii: ","), decimal: ".", bom: false)
        #expect(changes.count > 1)
        // The hostile values arrived, neutralised alike in both; amounts take the locale's separator, nothing else does.
        let totals = try Self.values(
            try #require(sheet["totals.csv"]), separator: UInt8(ascii: comma ? ";" : ","), decimal: nil, bom: true)
        let names = Set(totals.map { $0[1] })
        #expect(names.isSuperset(of: ["'=SUM(A1:A9)", "'-12,50", "Smith; \"Jr\", & Co\r\nLtd", "'@cmd,x", "1.5"]), "\(names)")
        let euros = totals.filter { $0[2] == "EUR" }
        #expect(!euros.isEmpty)
        let amount = comma ? /-?[0-9]+,[0-9][0-9]/ : /-?[0-9]+\.[0-9][0-9]/
        #expect(euros.allSatisfy { row in
            row[4...7].allSatisfy { $0.wholeMatch(of: amount) != nil } && row[3].wholeMatch(of: /[0-9]{4}-[0-9]{2}/) != nil
                && row[8].wholeMatch(of: /[0-9]+/) != nil && row[14].wholeMatch(of: /[0-9]{4}/) != nil
        })
    }

    /// FNV-1a over the bytes: a digest for the test's own comparisons.
    static func digest(_ data: Data) -> UInt64 {
        data.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    /// The CSV files the tool wrote, before `--csv-dialect` existed, for `sample --clients 40 --invoices 1200 --seed 1`
    /// built with the defaults.
    static let defaultDigests: [String: UInt64] = [
        "aging.csv": 0xabe1_9728_e632_7542, "changes.csv": 0x03cd_2901_1af0_7945, "payments.csv": 0x1471_0bc5_45ca_17b5,
        "quarters/2024-Q1.csv": 0x8f03_c7d3_8a13_b14b, "quarters/2024-Q2.csv": 0xd2aa_7577_e69d_852b,
        "quarters/2024-Q3.csv": 0x9aed_cddd_1ea5_a333, "quarters/2024-Q4.csv": 0x8737_9199_3c39_53bc,
        "quarters/2025-Q1.csv": 0x784e_a99b_c82c_a643, "quarters/2025-Q2.csv": 0xf1d3_2724_e9dc_e3de,
        "quarters/2025-Q3.csv": 0xe12c_e9b7_7c9f_7466, "quarters/2025-Q4.csv": 0x8949_f51f_7ee7_6caa,
        "taxes.csv": 0xd215_5529_b416_c47c, "totals.csv": 0x31ce_cea3_0c8c_9312,
    ]

    /// The default dialect's bytes do not change, whatever the locale, and naming it changes nothing.
    @Test(.temporaryFolder) func theDefaultDialectsBytesAreUnchanged() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        #expect(try CLI.run(["sample", "--clients", "40", "--invoices", "1200", "--seed", "1", "--output", store]).status == 0)
        for (name, options) in [("a", [String]()), ("b", ["--locale", "de_DE"]), ("c", ["--locale", "fr_FR", "--csv-dialect", "rfc4180"])] {
            let build = try CLI.run(["build", "--store", store, "--output", folder.path(name), "--quiet"] + options)
            #expect(build.status == 0, "\(build.stderr)")
            let files = try Self.csvFiles(folder.path(name))
            #expect(files.mapValues(Self.digest) == Self.defaultDigests, "\(options)")
        }
    }

    /// Switching dialects rewrites the CSV files in an incremental build (the dialect is in the fingerprint).
    @Test(.temporaryFolder) func switchingTheDialectRebuildsTheCSVFiles() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        #expect(try CLI.run(["sample", "--clients", "6", "--invoices", "120", "--seed", "4", "--output", store]).status == 0)
        func build(_ output: String, _ options: [String]) throws -> [String: Data] {
            let result = try CLI.run(["build", "--store", store, "--output", folder.path(output), "--locale", "nl_NL", "--quiet"] + options)
            #expect(result.status == 0, "\(result.stderr)")
            return try Self.csvFiles(folder.path(output))
        }
        let plain = try build("site", [])
        let freshSheet = try build("fresh", ["--csv-dialect", "excel"])
        let sheet = try build("site", ["--csv-dialect", "excel"])
        #expect(!plain.isEmpty && sheet == freshSheet && sheet != plain)
        #expect(sheet.values.allSatisfy { $0.starts(with: [0xEF, 0xBB, 0xBF]) })
        #expect(try build("site", []) == plain)
    }

    @Test(.temporaryFolder) func anUnknownDialectIsRefused() throws {
        let folder = try TemporaryFolder.current
        try StoreFixture.make(at: folder.path("s.sqlite"), sql: StoreFixture.small)
        let flag = try CLI.run(["build", "--store", "s.sqlite", "--output", "site", "--csv-dialect", "xlsx"], in: folder.url)
        #expect(flag.status == 64 && flag.stderr.contains("--csv-dialect 'xlsx' is not a CSV dialect; expected 'rfc4180' or 'excel'"), "\(flag.stderr)")
        try "store: s.sqlite\ncsv_dialect: Excel\n".write(toFile: folder.path("invoices.yaml"), atomically: true, encoding: .utf8)
        let key = try CLI.run(["build", "--output", "site"], in: folder.url)
        #expect(key.status == 65 && key.stderr.contains("invoices.yaml:2:") && key.stderr.contains("csv_dialect 'Excel' is not a CSV dialect"), "\(key.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("site")))
    }
}
