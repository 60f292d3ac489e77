import Foundation
import InvoicesTesting
import Testing

/// The DATEV Buchungsstapel (issue 45 item 3): its header fields by position, its columns by name, Windows-1252 with
/// `;` and decimal commas, and per debtor account and currency the same movements as books.journal's receivables;
/// refusals name the client.
struct DATEVExportTests {
    static let config = """
        store: books.sqlite
        output: site
        datev:
          adviser: 1001
          client: 42
          chart: SKR04
          revenue:
            20: 4400
            7.7: 4300
            0: 4120

        """

    /// Rates to EUR for the sample's other currencies but KWD (`--rates`): DATEV books them with Kurs and Basisumsatz.
    static let rates = "date,from,to,rate\n2023-12-31,USD,EUR,0.9215\n2023-12-31,GBP,EUR,1.165\n2023-12-31,JPY,EUR,0.00612\n"

    /// The site-checks books (sample --clients 40 --invoices 1200 --seed 1) in `folder` without their KWD invoices
    /// (DATEV's Umsatz has two decimals, KWD three: `kuwaitiFilsAreRefused`), and `rates.csv`; with `latin`, each
    /// client name Windows-1252 cannot hold renamed `Latin <id>` (the others, with ä, é, Ü, stay).
    static func store(_ folder: TemporaryFolder, latin: Bool, dinars: Bool = false) throws {
        let store = folder.path("books.sqlite")
        let sample = try CLI.run(["sample", "--clients", "40", "--invoices", "1200", "--seed", "1", "--output", store])
        #expect(sample.status == 0, "\(sample.stderr)")
        try Data(rates.utf8).write(to: folder.url.appendingPathComponent("rates.csv"))
        if !dinars {
            let kwd = "(select id from invoice where currency = 'KWD')"
            let drop = try CLI.shell(
                "sqlite3 '\(store)' \"delete from payment where invoiceId in \(kwd); delete from taxLine where invoiceId in \(kwd); delete from writeOff where invoiceId in \(kwd); delete from invoice where currency = 'KWD'\" </dev/null")
            #expect(drop.status == 0, "\(drop.stderr)")
        }
        guard latin else { return }
        let names = try CLI.shell("sqlite3 -separator '|' '\(store)' 'select id, name from client' </dev/null")
        for line in names.stdout.split(separator: "\n") {
            let parts = line.split(separator: "|", maxSplits: 1)
            guard parts.count == 2, String(parts[1]).data(using: .windowsCP1252) == nil else { continue }
            let update = try CLI.shell("sqlite3 '\(store)' \"update client set name = 'Latin \(parts[0])' where id = \(parts[0])\" </dev/null")
            #expect(update.status == 0, "\(update.stderr)")
        }
    }

    static func build(_ folder: TemporaryFolder, extra: String = "", options: [String] = [], rates: Bool = true) throws -> CLI.Result {
        try Data((config + extra).utf8).write(to: folder.url.appendingPathComponent("invoices.yaml"))
        return try CLI.run(["build", "--quiet"] + (rates ? ["--rates", "rates.csv", "--base-currency", "EUR"] : []) + options, in: folder.url)
    }

    /// A file's records, decoded as Windows-1252, split on CRLF and `;` (no text holds `;` in these books).
    static func records(_ path: String) throws -> [[String]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let text = try #require(String(data: data, encoding: .windowsCP1252))
        #expect(text.hasSuffix("\r\n"))
        return text.split(separator: "\r\n").map { $0.split(separator: ";", omittingEmptySubsequences: false).map(String.init) }
    }

    @Test(.temporaryFolder) func buchungsstapelEqualsTheJournalsReceivables() throws {
        let folder = try TemporaryFolder.current
        try Self.store(folder, latin: true)
        let build = try Self.build(folder)
        #expect(build.status == 0, "\(build.stderr)")
        let site = try JournalExportTests.Site(folder.path("site"))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path("site/datev")).sorted()
        // Every month of the books: one file per calendar (fiscal) year from the first month to the as-of date.
        let firstYear = Int(site.start.prefix(4))!, lastYear = Int(site.asOf.prefix(4))!
        #expect(files == (firstYear...lastYear).map { "EXTF_Buchungsstapel_\($0).csv" })
        var datev: [String: Int64] = [:]
        var sawComma = false, sawUmlaut = false
        for (offset, name) in files.enumerated() {
            let year = firstYear + offset
            let records = try Self.records(folder.path("site/datev/\(name)"))
            let header = records[0]
            #expect(header.count == 31)
            #expect(Array(header[0...4]) == ["\"EXTF\"", "700", "21", "\"Buchungsstapel\"", "13"])
            #expect(header[10] == "1001" && header[11] == "42" && header[12] == "\(year)0101" && header[13] == "4")
            let from = year == firstYear ? site.start.replacingOccurrences(of: "-", with: "") : "\(year)0101"
            let to = year == lastYear ? site.asOf.replacingOccurrences(of: "-", with: "") : "\(year)1231"
            #expect(header[14] == from && header[15] == to, "\(header)")
            #expect(header[26] == "\"04\"")
            let columns = records[1]
            let column = { (name: String) in try #require(columns.firstIndex(of: name), "\(name)") }
            let umsatz = try column("Umsatz (ohne Soll/Haben-Kz)"), side = try column("Soll/Haben-Kennzeichen")
            let currency = try column("WKZ Umsatz"), konto = try column("Konto")
            let gegenkonto = try column("Gegenkonto (ohne BU-Schlüssel)"), date = try column("Belegdatum")
            let beleg = try column("Belegfeld 1"), text = try column("Buchungstext")
            let kurs = try column("Kurs"), basis = try column("Basisumsatz"), basisCurrency = try column("WKZ Basisumsatz")
            for row in records.dropFirst(2) {
                #expect(row.count == columns.count)
                // Umsatz and Basisumsatz: ^\d{1,10},\d{2}$; another currency than EUR has Kurs, Basisumsatz and its
                // currency, Basisumsatz the amount times the rates file's rate to the cent, and Kurs 1 / rate.
                #expect(row[umsatz].wholeMatch(of: /\d{1,10},\d{2}/) != nil, "\(row)")
                let code = row[currency].replacingOccurrences(of: "\"", with: "")
                if code == "EUR" {
                    #expect(row[kurs].isEmpty && row[basis].isEmpty && row[basisCurrency].isEmpty, "\(row)")
                } else {
                    let rate = ["USD": Decimal(string: "0.9215")!, "GBP": Decimal(string: "1.165")!, "JPY": Decimal(string: "0.00612")!][code]!
                    #expect(row[basisCurrency] == "\"EUR\"" && row[basis].wholeMatch(of: /\d{1,10},\d{2}/) != nil, "\(row)")
                    let amount = Decimal(string: row[umsatz].replacingOccurrences(of: ",", with: "."))!
                    var euros = amount * rate, rounded = Decimal()
                    NSDecimalRound(&rounded, &euros, 2, .bankers)
                    #expect(Decimal(string: row[basis].replacingOccurrences(of: ",", with: ".")) == rounded, "\(row)")
                    var inverse = 1 / rate, kursValue = Decimal()
                    NSDecimalRound(&kursValue, &inverse, 6, .bankers)
                    #expect(Decimal(string: row[kurs].replacingOccurrences(of: ",", with: ".")) == kursValue, "\(row)")
                    #expect(row[kurs].wholeMatch(of: /\d{1,4},\d{6}/) != nil, "\(row)")
                }
                #expect(!row[umsatz].contains(".") && !row[umsatz].hasPrefix("-"))
                if row[umsatz].contains(",") { sawComma = true }
                if row[text].contains("Ü") || row[text].contains("é") { sawUmlaut = true }
                #expect(row[date].count == 4 && row[beleg].count <= 38 && row[text].count <= 62)
                #expect(["1800", "6930", "4400", "4300", "4120"].contains(row[gegenkonto]), "\(row)")
                // Umsatz has two decimals whatever the currency's (JPY 1234 is 1234,00): cut or padded to its own.
                let minor = JournalExportTests.minor(
                    row[umsatz].replacingOccurrences(of: ",", with: "."), digits: site.digits[code] ?? 0)
                datev[row[konto] + " " + code, default: 0] += row[side] == "\"S\"" ? minor : -minor
            }
        }
        #expect(sawComma && sawUmlaut)
        // books.journal's receivable postings other than the opening balances (which have no code), per client.
        var journal: [String: Int64] = [:]
        for posting in try JournalExportTests.hledgerPostings(site)
        where posting[3].hasPrefix("assets:receivables:") && !posting[1].isEmpty {
            let number = Int(posting[3].filter(\.isNumber))!
            journal["\(10000 + number) \(posting[4])", default: 0] += Int64(posting[5])!
        }
        #expect(!journal.isEmpty)
        #expect(datev.filter { $0.value != 0 } == journal.filter { $0.value != 0 })
    }

    @Test(.temporaryFolder) func refusalsNameTheClients() throws {
        let folder = try TemporaryFolder.current
        try Self.store(folder, latin: true)
        let store = folder.path("books.sqlite")
        let chineseName = try CLI.shell("sqlite3 '\(store)' \"update client set name = 'Tanaka 株式会社' where id = 5\" </dev/null")
        #expect(chineseName.status == 0, "\(chineseName.stderr)")
        let chinese = try Self.build(folder)
        #expect(chinese.status == 65)
        #expect(chinese.stderr.contains("client C-00005 ('Tanaka 株式会社')"), "\(chinese.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("site/datev")))

        let rename = try CLI.shell(
            "sqlite3 '\(store)' \"update client set name = 'Tanaka KK' where id = 5; update client set number = 'C-42' where id = 1; update client set number = 'K-42' where id = 2; update client set number = 'NONE' where id = (select min(clientId) from invoice where clientId > 5)\" </dev/null")
        #expect(rename.status == 0, "\(rename.stderr)")
        let collision = try Self.build(folder)
        #expect(collision.status == 65)
        #expect(collision.stderr.contains("has no DATEV debtor account") && collision.stderr.contains("client NONE"), "\(collision.stderr)")
        // With an account for NONE, the two clients on 10042 are named.
        let shared = try Self.build(folder, extra: "  debtors:\n    NONE: 10003\n")
        #expect(shared.status == 65)
        #expect(shared.stderr.contains("clients C-42 (") && shared.stderr.contains(" and K-42 (") && shared.stderr.contains("10042"), "\(shared.stderr)")
        // datev.debtors settles it.
        let settled = try Self.build(folder, extra: "  debtors:\n    NONE: 10003\n    K-42: 20042\n")
        #expect(settled.status == 0, "\(settled.stderr)")
        let records = try Self.records(folder.path("site/datev/EXTF_Buchungsstapel_2025.csv"))
        #expect(records.contains { $0[6] == "20042" } && records.contains { $0[6] == "10042" })
    }

    /// `check` refuses what `build` refuses (issue 45): a client name Windows-1252 cannot hold gives the same line,
    /// `<store>: DATEV: ...`, and exit 65, in text and JSON; with the name in Latin letters check passes.
    @Test(.temporaryFolder) func checkRefusesWhatBuildRefuses() throws {
        let folder = try TemporaryFolder.current
        try Self.store(folder, latin: true)
        let store = folder.path("books.sqlite")
        let rename = try CLI.shell("sqlite3 '\(store)' \"update client set name = 'Tanaka 株式会社' where id = 5\" </dev/null")
        #expect(rename.status == 0, "\(rename.stderr)")
        let build = try Self.build(folder)
        #expect(build.status == 65)
        let message = try #require(build.stderr.split(separator: "\n").first { $0.contains("DATEV: ") }).replacingOccurrences(of: "Error: ", with: "")
        #expect(message.hasPrefix(store + ": DATEV: ") && message.contains("client C-00005 ('Tanaka 株式会社')"), "\(build.stderr)")
        let rates = ["--rates", "rates.csv", "--base-currency", "EUR"]
        let check = try CLI.run(["check"] + rates, in: folder.url)
        #expect(check.status == 65, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.split(separator: "\n").contains { $0 == message }, "\(check.stdout)")
        let json = try CLI.run(["check", "--format", "json"] + rates, in: folder.url)
        #expect(json.status == 65)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["exitCode"] as? Int == 65)
        let problems = try #require(object["problems"] as? [[String: Any]])
        #expect(problems.contains { $0["kind"] as? String == "datev" && $0["severity"] as? String == "error" && $0["text"] as? String == message },
            "\(json.stdout)")

        let latin = try CLI.shell("sqlite3 '\(store)' \"update client set name = 'Tanaka KK' where id = 5\" </dev/null")
        #expect(latin.status == 0, "\(latin.stderr)")
        let good = try CLI.run(["check"] + rates, in: folder.url)
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        #expect(good.stdout.contains("OK: ") && !good.stdout.contains("DATEV"), "\(good.stdout)")
    }

    /// Another currency than EUR without a rate to EUR, an amount of three decimals (KWD fils DATEV's two cannot
    /// hold), and an invoice identifier outside Belegfeld 1's characters are refused, naming the invoice.
    @Test(.temporaryFolder) func currenciesAndIdentifiersDATEVCannotHoldAreRefused() throws {
        let folder = try TemporaryFolder.current
        try Self.store(folder, latin: true, dinars: true)
        let noRates = try Self.build(folder, rates: false)
        #expect(noRates.status == 65)
        #expect(noRates.stderr.contains("is in JPY: DATEV books another currency with its rate to EUR") && noRates.stderr.contains("--rates"), "\(noRates.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("site/datev")))
        let fils = try Self.build(folder)
        #expect(fils.status == 65)
        #expect(fils.stderr.contains(" KWD has 3 decimals, and DATEV's Umsatz holds two"), "\(fils.stderr)")
        let store = folder.path("books.sqlite")
        let kwd = "(select id from invoice where currency = 'KWD')"
        let drop = try CLI.shell(
            "sqlite3 '\(store)' \"delete from payment where invoiceId in \(kwd); delete from taxLine where invoiceId in \(kwd); delete from writeOff where invoiceId in \(kwd); delete from invoice where currency = 'KWD'; update invoice set identifier = 'RE 2024.7' where id = (select min(id) from invoice)\" </dev/null")
        #expect(drop.status == 0, "\(drop.stderr)")
        let spaced = try Self.build(folder)
        #expect(spaced.status == 65)
        #expect(spaced.stderr.contains("invoice 'RE 2024.7' of client ") && spaced.stderr.contains("Belegfeld 1 takes letters, digits and _ $ % - / only"), "\(spaced.stderr)")
    }

    /// Hostile client numbers and names (a newline, a carriage return, `;`, quotes, a tab, a formula start) stay data:
    /// Python's csv module, reading the file as DATEV's import does (Windows-1252, `;`, `"`), finds one record per
    /// booking of 14 fields, each name back in its Buchungstext with control characters as spaces, and the accounts
    /// the numbers' digits give.
    @Test(.temporaryFolder) func hostileValuesStayData() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        try StoreFixture.make(at: store, sql: StoreFixture.v2Cases, version: 2)
        let numbers = ["C-1\ninclude", "C-2;x", "C-3\"q", "=C-4", "C-5\r\n", "C-6\t", "C-7 \"\";", "Ü-8"]
        let names = ["Evil\n0,01;\"S\";\"EUR\"", "a ; b", "\"quoted\"", "=HYPERLINK(1)", "cr\rlf", "tab\tx", "Zoë ; \"", "x\u{85}y"]
        var sql = ""
        for (index, (number, name)) in zip(numbers, names).enumerated() {
            sql += "UPDATE client SET number = '\(number.replacingOccurrences(of: "'", with: "''"))', name = '\(name.replacingOccurrences(of: "'", with: "''"))' WHERE id = \(index + 1);\n"
        }
        try StoreFixture.execute(store, sql)
        try Data("date,from,to,rate\n2025-01-01,CHF,EUR,1.05\n".utf8).write(to: folder.url.appendingPathComponent("rates.csv"))
        try Data("store: books.sqlite\noutput: site\ndatev:\n  adviser: 1001\n  client: 42\n  chart: SKR03\n  revenue:\n    7.7: 8300\n    0: 8120\n".utf8)
            .write(to: folder.url.appendingPathComponent("invoices.yaml"))
        let build = try CLI.run(["build", "--quiet", "--rates", "rates.csv", "--base-currency", "EUR"], in: folder.url)
        #expect(build.status == 0, "\(build.stderr)")
        let script = """
            import csv, json, sys
            with open(sys.argv[1], encoding="cp1252", newline="") as f:
                print(json.dumps(list(csv.reader(f, delimiter=";", quotechar='"'))))
            """
        try Data(script.utf8).write(to: folder.url.appendingPathComponent("read.py"))
        let read = try CLI.shell("python3 '\(folder.path("read.py"))' '\(folder.path("site/datev/EXTF_Buchungsstapel_2025.csv"))'")
        #expect(read.status == 0, "\(read.stderr)")
        let records = try JSONDecoder().decode([[String]].self, from: Data(read.stdout.utf8))
        #expect(records.count > 2 && records[0].count == 31 && records[1] == DATEVExportTests.columnNames)
        // The file's own line count: no value added a record (each record one CRLF-ended line).
        let raw = try Data(contentsOf: URL(fileURLWithPath: folder.path("site/datev/EXTF_Buchungsstapel_2025.csv")))
        #expect(raw.split(separator: 0x0A).count == records.count)
        for row in records.dropFirst(2) {
            #expect(row.count == 14, "\(row)")
            let client = Int(row[6])! - 10000
            #expect((1...8).contains(client), "\(row)")
            let name = names[client - 1].unicodeScalars.map { $0.properties.generalCategory == .control ? " " : String($0) }.joined()
            #expect(row[13].hasSuffix(" " + name), "\(row[13]) does not end with \(name)")
        }
    }

    static let columnNames = [
        "Umsatz (ohne Soll/Haben-Kz)", "Soll/Haben-Kennzeichen", "WKZ Umsatz", "Kurs", "Basisumsatz", "WKZ Basisumsatz",
        "Konto", "Gegenkonto (ohne BU-Schlüssel)", "BU-Schlüssel", "Belegdatum", "Belegfeld 1", "Belegfeld 2", "Skonto",
        "Buchungstext",
    ]

    /// A fiscal year from July splits the files at July; a changed `datev:` key rewrites them on the next build (it is
    /// part of the exports' fingerprint), and leaving `datev:` out writes none.
    @Test(.temporaryFolder) func fiscalYearsAndChangedSettings() throws {
        let folder = try TemporaryFolder.current
        try Self.store(folder, latin: true)
        let first = try Self.build(folder, extra: "fiscal_year_start: 07\n", options: ["--year", "2025"])
        #expect(first.status == 0, "\(first.stderr)")
        // Fiscal year 2025 runs July 2025 to June 2026.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("site/datev")).sorted() == ["EXTF_Buchungsstapel_2025.csv"])
        let header = try Self.records(folder.path("site/datev/EXTF_Buchungsstapel_2025.csv"))[0]
        #expect(header[12] == "20250701" && header[14] == "20250701", "\(header)")
        let all = try Self.build(folder, extra: "fiscal_year_start: 07\n")
        #expect(all.status == 0, "\(all.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path("site/datev")).sorted()
        for name in files {
            let year = name.dropFirst("EXTF_Buchungsstapel_".count).prefix(4)
            let records = try Self.records(folder.path("site/datev/\(name)"))
            #expect(records[0][12] == "\(year)0701")
            // Datum vom and bis lie within the fiscal year: July of its year to June of the next.
            #expect(records[0][14] >= "\(year)0701" && records[0][15] <= "\(Int(year)! + 1)0630", "\(records[0])")
        }
        #expect(files.count >= 2)
        let bank = try Self.build(folder, extra: "  bank: 1810\n")
        #expect(bank.status == 0, "\(bank.stderr)")
        let text = try String(data: Data(contentsOf: URL(fileURLWithPath: folder.path("site/datev/EXTF_Buchungsstapel_2025.csv"))), encoding: .windowsCP1252) ?? ""
        #expect(text.contains(";1810;") && !text.contains(";1800;"))
        try Data("store: books.sqlite\noutput: site\n".utf8).write(to: folder.url.appendingPathComponent("invoices.yaml"))
        #expect(try CLI.run(["build", "--quiet"], in: folder.url).status == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.path("site/datev")))
    }

    /// `datev:` needs adviser, client, chart and revenue; values out of range are refused with their key and line.
    @Test(.temporaryFolder) func configurationIsChecked() throws {
        let folder = try TemporaryFolder.current
        try Self.store(folder, latin: true)
        try Data("store: books.sqlite\noutput: site\ndatev:\n  adviser: 12\n  chart: SKR05\n  debtors:\n    C-1: 70000\n".utf8)
            .write(to: folder.url.appendingPathComponent("invoices.yaml"))
        let bad = try CLI.run(["build", "--quiet"], in: folder.url)
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("invoices.yaml:4:12: datev.adviser '12' must be a Beraternummer"), "\(bad.stderr)")
        #expect(bad.stderr.contains("datev.chart 'SKR05' must be SKR03 or SKR04"), "\(bad.stderr)")
        #expect(bad.stderr.contains("datev.debtors.C-1 '70000' must be an account from 10000 to 69999"), "\(bad.stderr)")
        #expect(bad.stderr.contains("datev needs client, revenue"), "\(bad.stderr)")
    }
}
