import Foundation
import InvoicesCore
import InvoicesTesting
import Testing

/// `aging_buckets` / `--aging-buckets` end to end (issue 45, item 6): aging.csv's columns, report.json's aging keys,
/// the aging tables' heads follow the list; the buckets sum to report.json's outstanding and overdue and to the
/// collections page's overdue; the default list changes no byte; a bad list is refused naming the value.
struct AgingBucketsBuildTests {
    /// The header of aging.csv as the tool wrote it before the option (docs/exports.md's example).
    static let standardHeader = "client_number,client_name,currency,as_of,not_due,days_1_30,days_31_60,days_61_90,days_over_90"

    static func sample(_ folder: TemporaryFolder) throws -> String {
        let store = folder.path("books.sqlite")
        #expect(try CLI.run(["sample", "--clients", "12", "--invoices", "400", "--seed", "3", "--output", store]).status == 0)
        return store
    }

    /// Minor units of an amount the pages show (`EUR 1,234.56`, `JPY 98,700`): its digits.
    static func minorUnits(_ shown: String) -> Int64 { Int64(shown.filter(\.isNumber)) ?? -1 }

    /// `--aging-buckets` through the flag, and `aging_buckets:` as a YAML list through the project file.
    @Test(.temporaryFolder, arguments: [
        ([15, 45], ["not_due", "days_1_15", "days_16_45", "days_over_45"], true),
        ([30, 60, 90, 120, 180], ["not_due", "days_1_30", "days_31_60", "days_61_90", "days_91_120", "days_121_180", "days_over_180"], false),
    ])
    func bucketsFollowTheListAndSumToTheReport(limits: [Int], columns: [String], projectKey: Bool) throws {
        let folder = try TemporaryFolder.current
        let store = try Self.sample(folder)
        let list = limits.map(String.init)
        try "store: books.sqlite\noutput: site\n\(projectKey ? "aging_buckets: [\(list.joined(separator: ", "))]\n" : "")".write(
            toFile: folder.path("invoices.yaml"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["build", "--quiet"] + (projectKey ? [] : ["--aging-buckets", list.joined(separator: ",")]), in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        _ = store
        let site = folder.path("site")

        // aging.csv: the columns follow the rule.
        let aging = try CSVDocument(bytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: site + "/aging.csv"))))
        #expect(aging.header == ["client_number", "client_name", "currency", "as_of"] + columns)

        // report.json: per client and currency, period outstanding and overdue, and the aging by the same names.
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: site + "/report.json"))) as! [String: Any]
        var period: [String: (outstanding: Int64, overdue: Int64, aging: [String: Int64])] = [:]
        for client in json["clients"] as! [[String: Any]] {
            for entry in client["currencies"] as! [[String: Any]] {
                let figures = entry["period"] as! [String: Any]
                func units(_ value: Any?) -> Int64 { ((value as! [String: Any])["minor_units"] as! NSNumber).int64Value }
                let buckets = entry["aging"] as! [String: Any]
                #expect(Set(buckets.keys) == Set(columns))
                period["\(client["number"]!) \(entry["currency"]!)"] = (
                    units(figures["outstanding"]), units(figures["overdue"]), buckets.mapValues(units))
            }
        }
        #expect(!aging.records.isEmpty)
        var overdueByRow: [String: Int64] = [:]
        var someOverdueInANewBucket = false
        for record in aging.records {
            let key = "\(record.fields[0]) \(record.fields[2])"
            let amounts = record.fields.dropFirst(4).map { Int64($0.filter { $0 != "." }) ?? -1 }
            let expected = try #require(period[key], "\(key) is in report.json")
            #expect(amounts.reduce(0, +) == expected.outstanding, "\(key): the buckets sum to outstanding")
            #expect(amounts.dropFirst().reduce(0, +) == expected.overdue, "\(key): the buckets past due sum to overdue")
            #expect(zip(columns, amounts).allSatisfy { expected.aging[$0] == $1 }, "\(key): report.json's aging is aging.csv's")
            overdueByRow[key] = amounts.dropFirst().reduce(0, +)
            if amounts.last! > 0 || amounts.count > 6 && amounts[4...5].contains(where: { $0 > 0 }) { someOverdueInANewBucket = true }
        }
        #expect(someOverdueInANewBucket, "the sample has amounts in the buckets the list adds")

        // The collections page: each client's overdue is the sum of its buckets past due.
        let collections = try String(contentsOfFile: site + "/collections.html", encoding: .utf8)
        let row = /<tr><th><a href="[^"]*">[^<]*<\/a><td>([^<]*)<td>[^<]*<td>\d+<td>\d+<td><a href="[^"]*">([^<]*)<\/a>/
        var checked = 0
        for match in collections.matches(of: row) {
            let shown = String(match.output.1)
            let key = "\(match.output.2) \(shown.prefix(3))"
            #expect(Self.minorUnits(shown) == overdueByRow[key], "\(key) on the collections page")
            checked += 1
        }
        #expect(checked == overdueByRow.values.filter { $0 > 0 }.count)

        // The aging tables' heads: the overview and a statement.
        var heads = ["Not yet due", "1–\(limits[0]) days"]
        for (low, high) in zip(limits, limits.dropFirst()) { heads.append("\(low + 1)–\(high) days") }
        heads.append("Over \(limits.last!) days")
        let expectedHead = heads.map { "<th>\($0)" }.joined()
        let overview = try String(contentsOfFile: site + "/index.html", encoding: .utf8)
        #expect(overview.contains("<th>Currency" + expectedHead))
        let statements = try FileManager.default.contentsOfDirectory(atPath: site + "/statements").filter { $0.hasSuffix(".html") }
        let statement = try String(contentsOfFile: site + "/statements/" + statements.sorted()[0], encoding: .utf8)
        #expect(statement.contains("<thead><tr>" + expectedHead + "\n<tbody>"))
        #expect(!statement.contains("31–60 days") || limits.contains(60))
    }

    /// No list, `[30, 60, 90]` in the project file and `--aging-buckets 30,60,90` write the same bytes, with
    /// aging.csv's header as before; changing the list rebuilds the pages that show it.
    @Test(.temporaryFolder) func theDefaultListChangesNoByte() throws {
        let folder = try TemporaryFolder.current
        let store = try Self.sample(folder)
        func build(_ output: String, _ extra: [String] = [], config: String? = nil) throws -> [String: Data] {
            var arguments = ["build", "--store", store, "--output", folder.path(output), "--quiet"] + extra
            if let config {
                try "aging_buckets: \(config)\n".write(toFile: folder.path("\(output).yaml"), atomically: true, encoding: .utf8)
                arguments += ["--config", folder.path("\(output).yaml")]
            }
            let result = try CLI.run(arguments)
            #expect(result.status == 0, "\(result.stderr)")
            return try SiteFiles.read(folder.path(output))
        }
        let plain = try build("plain")
        let header = String(decoding: plain["aging.csv"]!, as: UTF8.self).prefix { $0 != "\r\n" }
        #expect(header == Self.standardHeader)
        #expect(try build("key", config: "[30, 60, 90]") == plain)
        #expect(try build("flag", ["--aging-buckets", "30,60,90"]) == plain)

        // The same output folder built again with another list: every aging table follows it.
        let other = try build("plain", ["--aging-buckets", "10,20"])
        let pages = other.filter { $0.key.hasSuffix(".html") && String(decoding: $0.value, as: UTF8.self).contains("class=\"figures aging\"") }
        #expect(pages.count > 2)
        for (path, data) in pages {
            let text = String(decoding: data, as: UTF8.self)
            #expect(text.contains("11–20 days") && !text.contains("1–30 days"), "\(path)")
        }
    }

    /// A bad list is refused naming the value: 64 as a flag, 65 in the project file.
    @Test(.temporaryFolder, arguments: ["30,30", "60,30", "0,30", "-5", "", "1,2,3,4,5,6,7,8,9", "30,abc", "10000"])
    func aBadListIsRefused(text: String) throws {
        let folder = try TemporaryFolder.current
        let store = try Self.sample(folder)
        let flag = try CLI.run(["build", "--store", store, "--output", folder.path("site"), "--aging-buckets=\(text)"])
        #expect(flag.status == 64)
        // An empty value is refused by the argument parser itself, which names the option.
        #expect(flag.stderr.contains(text.isEmpty ? "--aging-buckets" : "--aging-buckets '\(text)'"), "\(flag.stderr)")
        let yaml = "[" + text.split(separator: ",", omittingEmptySubsequences: false).joined(separator: ", ") + "]"
        try "store: books.sqlite\naging_buckets: \(text.isEmpty ? "[]" : yaml)\n".write(
            toFile: folder.path("invoices.yaml"), atomically: true, encoding: .utf8)
        let key = try CLI.run(["build", "--quiet"], in: folder.url)
        #expect(key.status == 65)
        #expect(key.stderr.contains("aging_buckets '\(text.split(separator: ",", omittingEmptySubsequences: false).joined(separator: ","))'"), "\(key.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("site")))
    }
}
