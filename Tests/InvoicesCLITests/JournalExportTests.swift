import Foundation
import InvoicesTesting
import Testing

/// `books.journal` (issue 45): hledger 1.25 and Ledger 3.3 read it clean, and its balances are the report's:
/// each client's receivable at the as-of date is report.json's balance, revenue and tax payable per tax and rate are
/// taxes.csv's accrual figures, the bank is payments.csv's payments less refunds in the journal's range. Hostile
/// names stay data: both tools read the same accounts and postings, and no value adds a line or a directive.
struct JournalExportTests {
    /// A built site's exports, parsed.
    struct Site {
        let folder: String
        var journal: String { folder + "/books.journal" }
        var beancount: String { folder + "/books.beancount" }
        let report: [String: Any]
        /// Decimals per currency code.
        let digits: [String: Int]
        let start: String
        let asOf: String

        init(_ folder: String) throws {
            self.folder = folder
            report = try #require(
                JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/report.json")))
                    as? [String: Any])
            var digits: [String: Int] = [:]
            for total in report["totals"] as? [[String: Any]] ?? [] {
                digits[total["currency"] as? String ?? ""] = total["minor_unit_digits"] as? Int
            }
            self.digits = digits
            let period = try #require(report["period"] as? [String: Any])
            start = (period["first_month"] as? String ?? "") + "-01"
            asOf = period["as_of"] as? String ?? ""
        }

        /// The files of a journal (``journal`` or ``beancount``): the main file, then each file it includes
        /// (`include books/2025.journal`, `include "books/2025.beancount"`), in order, with their texts.
        static func files(_ main: String) throws -> [(path: String, text: String)] {
            let text = try String(contentsOfFile: main, encoding: .utf8)
            let folder = (main as NSString).deletingLastPathComponent
            var files = [(path: main, text: text)]
            for line in text.split(separator: "\n") where line.hasPrefix("include ") {
                let path = line.dropFirst("include ".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                files.append((path, try String(contentsOfFile: folder + "/" + path, encoding: .utf8)))
            }
            return files
        }

        /// The texts of a journal's files, joined.
        static func text(_ main: String) throws -> String { try files(main).map(\.text).joined() }

        func csv(_ name: String) throws -> [[String]] {
            let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
            return text.split(separator: "\r\n").dropFirst().map { JournalExportTests.cells(String($0)) }
        }
    }

    /// Minor units of a decimal (`-12.5` with 2 digits is -1250).
    static func minor(_ text: String, digits: Int) -> Int64 {
        var text = Substring(text.trimmingCharacters(in: .whitespaces))
        let negative = text.hasPrefix("-")
        if negative { text = text.dropFirst() }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        let value = Int64(String(parts[0]) + fraction.padding(toLength: digits, withPad: "0", startingAt: 0))!
        return negative ? -value : value
    }

    /// The cells of a CSV record (quoted fields with doubled quotes, as the exports and the tools write them).
    static func cells(_ line: String) -> [String] {
        var cells: [String] = []
        var cell = ""
        var quoted = false
        var previousQuote = false
        for character in line {
            if quoted {
                if character == "\"" {
                    quoted = false
                    previousQuote = true
                } else {
                    cell.append(character)
                }
            } else if character == "\"" {
                if previousQuote { cell.append("\"") }
                quoted = true
                previousQuote = false
            } else if character == "," {
                cells.append(cell)
                cell = ""
                previousQuote = false
            } else {
                cell.append(character)
                previousQuote = false
            }
        }
        cells.append(cell)
        return cells
    }

    static func tool(_ arguments: String) throws -> CLI.Result {
        try CLI.shell(arguments + " </dev/null")
    }

    /// Each posting as hledger reads it: date, code, payee, account, currency, minor units.
    static func hledgerPostings(_ site: Site) throws -> [[String]] {
        let result = try tool("hledger -f '\(site.journal)' register -O csv")
        #expect(result.status == 0, "\(result.stderr)")
        // The parser splits on newlines: a record holding one would break the count compared with Ledger's.
        // Ledger leaves out postings of zero (a 0 % tax), hledger writes them as `0`: compared without them.
        return result.stdout.split(separator: "\n").dropFirst().compactMap { line in
            let cells = Self.cells(String(line))
            guard cells[5] != "0" else { return nil }
            let amount = cells[5].split(separator: " ")
            let currency = String(amount.last ?? "")
            return [
                cells[1], cells[2], cells[3], cells[4], currency,
                String(Self.minor(String(amount.first ?? ""), digits: site.digits[currency] ?? 0)),
            ]
        }
    }

    /// Each posting as Ledger reads it, in the same shape.
    static func ledgerPostings(_ site: Site) throws -> [[String]] {
        let result = try tool("ledger --init-file /dev/null -f '\(site.journal)' csv")
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map { line in
            let cells = Self.cells(String(line))
            return [
                cells[0].replacingOccurrences(of: "/", with: "-"), cells[1], cells[2], cells[3], cells[4],
                String(Self.minor(cells[5], digits: site.digits[cells[4]] ?? 0)),
            ]
        }
    }

    /// Balances per account (percent-decoded, component by component) and currency from postings.
    static func balances(_ postings: [[String]]) -> [String: Int64] {
        var sums: [String: Int64] = [:]
        for posting in postings { sums[decoded(posting[3]) + " " + posting[4], default: 0] += Int64(posting[5])! }
        return sums
    }

    /// An account name with each component's escapes decoded: a tax's `<name> <rate>%` keeps its rate as it is.
    static func decoded(_ account: String) -> String {
        account.split(separator: ":", omittingEmptySubsequences: false).map { component in
            if component.hasSuffix("%"), let space = component.lastIndex(of: " ") {
                return (String(component[..<space]).removingPercentEncoding ?? "") + component[space...]
            }
            return String(component).removingPercentEncoding ?? String(component)
        }.joined(separator: ":")
    }

    /// A beancount account component decoded: `X` and then letters and digits as they are, `-XX` a byte.
    static func beancountDecoded(_ component: Substring) -> String {
        guard component.hasPrefix("X") else { return String(component) }
        var bytes: [UInt8] = []
        var rest = Array(component.utf8.dropFirst())
        while !rest.isEmpty {
            if rest[0] == UInt8(ascii: "-"), rest.count >= 3, let byte = UInt8(String(decoding: rest[1...2], as: UTF8.self), radix: 16) {
                bytes.append(byte)
                rest.removeFirst(3)
            } else {
                bytes.append(rest.removeFirst())
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A books.beancount account as the journal's default name: fixed parents mapped, components decoded.
    static func beancountAsJournal(_ account: String) -> String {
        let parents = [
            "Assets:Receivables": "assets:receivables", "Assets:Bank": "assets:bank", "Income:Sales": "income:sales",
            "Liabilities:Tax": "liabilities:tax", "Expenses:Write-Offs": "expenses:write-offs",
            "Equity:Opening-Balances": "equity:opening balances",
        ]
        let components = account.split(separator: ":", omittingEmptySubsequences: false)
        for count in [1, 2] where components.count >= count {
            guard let parent = parents[components.prefix(count).joined(separator: ":")] else { continue }
            let rest = components.dropFirst(count).map { $0 == "Untaxed" ? "untaxed" : beancountDecoded($0) }
            return ([parent] + rest).joined(separator: ":")
        }
        return "unknown " + account
    }

    /// books.beancount reads clean, and bean-query lists the journal's postings (date, code, payee, account,
    /// amount), each name decoded, so the same balances. bean-query loads the file with beancount's loader, as
    /// bean-check does, and writes the same validation errors to stderr (an unknown account, a transaction that does
    /// not balance: each is bean-check's message too): its empty stderr is bean-check's clean run, without loading the
    /// books a second time.
    static func checkBeancount(_ site: Site, journalPostings: [[String]]) throws {
        let query = try tool(
            "bean-query -f csv '\(site.beancount)' \"SELECT date, any_meta('code'), payee, account, currency, number\"")
        #expect(query.status == 0 && query.stderr.isEmpty, "\(query.stderr)")
        let postings: [[String]] = query.stdout.split(whereSeparator: \.isNewline).dropFirst().compactMap { line in
            // CRLF line ends.
            let cells = Self.cells(String(line))
            let minor = Self.minor(cells[5], digits: site.digits[cells[4]] ?? 0)
            guard minor != 0 else { return nil }
            return [
                cells[0], cells[1].removingPercentEncoding ?? "", cells[2].removingPercentEncoding ?? "",
                beancountAsJournal(cells[3]), cells[4], String(minor),
            ]
        }
        let journal = journalPostings.map {
            [$0[0], $0[1].removingPercentEncoding ?? "", $0[2].removingPercentEncoding ?? "", decoded($0[3]), $0[4], $0[5]]
        }
        #expect(!postings.isEmpty)
        #expect(postings.sorted { $0.lexicographicallyPrecedes($1) } == journal.sorted { $0.lexicographicallyPrecedes($1) })
    }

    /// Both tools check the journal clean, and its balances are the report's, the taxes' and the payments'.
    static func checkAgainstExports(_ site: Site, taxes checkTaxes: Bool = true) throws {
        // Declared accounts and commodities only, transactions in date order.
        let check = try tool("hledger -f '\(site.journal)' check --strict ordereddates")
        #expect(check.status == 0, "\(check.stderr)")
        let ledger = try tool("ledger --init-file /dev/null -f '\(site.journal)' --pedantic balance")
        #expect(ledger.status == 0 && ledger.stderr.isEmpty, "\(ledger.stderr)")

        // The same postings (date, code, payee, account, amount) in both tools, so the same balances.
        let hledgerPostings = try Self.hledgerPostings(site)
        let ledgerPostings = try Self.ledgerPostings(site)
        #expect(
            hledgerPostings.sorted { $0.lexicographicallyPrecedes($1) }
                == ledgerPostings.sorted { $0.lexicographicallyPrecedes($1) })
        let balances = Self.balances(hledgerPostings)
        #expect(!balances.isEmpty)
        try Self.checkBeancount(site, journalPostings: hledgerPostings)

        // Receivables: outstanding less credit at the as-of date, per client and currency.
        var receivables = 0
        for client in site.report["clients"] as? [[String: Any]] ?? [] {
            let number = client["number"] as? String ?? ""
            for entry in client["currencies"] as? [[String: Any]] ?? [] {
                let currency = entry["currency"] as? String ?? ""
                let period = entry["period"] as? [String: Any] ?? [:]
                let outstanding =
                    ((period["outstanding"] as? [String: Any])?["minor_units"] as? NSNumber)?.int64Value ?? 0
                let credit = ((period["credit"] as? [String: Any])?["minor_units"] as? NSNumber)?.int64Value ?? 0
                let account = "assets:receivables:\(number) \(currency)"
                #expect(balances[account] ?? 0 == outstanding - credit, "\(account)")
                if outstanding - credit != 0 { receivables += 1 }
            }
        }
        #expect(receivables > 0)
        #expect(balances.keys.filter { $0.hasPrefix("assets:receivables:") && balances[$0] != 0 }.count == receivables)

        // Bank: payments less refunds dated from the first reported day to the as-of date.
        var bank: [String: Int64] = [:]
        for row in try site.csv("payments.csv") where row[4] >= site.start && row[4] <= site.asOf {
            bank["assets:bank:\(row[3]) \(row[3])", default: 0] += Self.minor(row[5], digits: site.digits[row[3]] ?? 0)
        }
        #expect(!bank.isEmpty)
        #expect(balances.filter { $0.key.hasPrefix("assets:bank:") && $0.value != 0 } == bank.filter { $0.value != 0 })

        // Revenue and tax payable per tax and rate: taxes.csv's accrual figures, with the opposite sign.
        guard checkTaxes else { return }
        // The write-off expense: the period's written_off per currency.
        for total in site.report["totals"] as? [[String: Any]] ?? [] {
            let currency = total["currency"] as? String ?? ""
            let writtenOff =
                (((total["period"] as? [String: Any])?["written_off"] as? [String: Any])?["minor_units"] as? NSNumber)?
                .int64Value ?? 0
            #expect(balances["expenses:write-offs \(currency)"] ?? 0 == writtenOff, "\(currency)")
        }
        var taxes: [String: Int64] = [:]
        for row in try site.csv("taxes.csv") {
            let digits = site.digits[row[0]] ?? 0
            taxes["income:sales:\(row[1]) \(row[2])% \(row[0])", default: 0] -= Self.minor(row[4], digits: digits)
            taxes["liabilities:tax:\(row[1]) \(row[2])% \(row[0])", default: 0] -= Self.minor(row[5], digits: digits)
        }
        #expect(!taxes.isEmpty)
        let journalTaxes = balances.filter {
            ($0.key.hasPrefix("income:sales:") && !$0.key.hasPrefix("income:sales:untaxed "))
                || $0.key.hasPrefix("liabilities:tax:")
        }
        #expect(journalTaxes.filter { $0.value != 0 } == taxes.filter { $0.value != 0 })
    }

    static func build(_ folder: TemporaryFolder, clients: Int, invoices: Int, seed: Int, options: [String] = []) throws
        -> Site
    {
        let store = folder.path("books-\(clients)-\(invoices).sqlite")
        if !FileManager.default.fileExists(atPath: store) {
            let sample = try CLI.run([
                "sample", "--clients", "\(clients)", "--invoices", "\(invoices)", "--seed", "\(seed)", "--output",
                store,
            ])
            #expect(sample.status == 0, "\(sample.stderr)")
        }
        let output = folder.path("site\(options.joined().filter(\.isNumber))")
        let build = try CLI.run(["build", "--store", store, "--output", output, "--quiet"] + options)
        #expect(build.status == 0, "\(build.stderr)")
        return try Site(output)
    }

    /// The site-checks books (sample --clients 40 --invoices 1200 --seed 1), over every month, over one year (with
    /// opening balances) and up to an as-of date inside the period.
    @Test(.temporaryFolder) func siteChecksBooksJournalEqualsTheExports() throws {
        let folder = try TemporaryFolder.current
        try Self.checkAgainstExports(try Self.build(folder, clients: 40, invoices: 1200, seed: 1))
        let year = try Self.build(folder, clients: 40, invoices: 1200, seed: 1, options: ["--year", "2025"])
        let journal = try String(contentsOfFile: year.journal, encoding: .utf8)
        #expect(journal.contains("\n    ; opening balance\n    assets:receivables:"))
        try Self.checkAgainstExports(year)
        // taxes.csv covers the whole months; the journal stops at the as-of date, so only balances compare here.
        try Self.checkAgainstExports(
            try Self.build(
                folder, clients: 40, invoices: 1200, seed: 1, options: ["--year", "2025", "--as-of", "2025-07-17"]),
            taxes: false)
        // An as-of date after the period: the journal runs on to it, so the balances are those at that date.
        try Self.checkAgainstExports(
            try Self.build(
                folder, clients: 40, invoices: 1200, seed: 1, options: ["--month", "2025-03", "--as-of", "2025-06-30"]),
            taxes: false)
    }

    /// Each fiscal year's transactions are a file of their own (`books/2024.journal`, named by the year the fiscal
    /// year starts in), included by the main file in order, which holds no transaction but the opening balances;
    /// with `--fiscal-year-start 04` the years are cut at April, and both tools still read the books whole.
    @Test(.temporaryFolder) func eachFiscalYearIsAFileTheMainFileIncludes() throws {
        let folder = try TemporaryFolder.current
        let site = try Self.build(folder, clients: 40, invoices: 1200, seed: 1, options: ["--fiscal-year-start", "04"])
        try Self.checkAgainstExports(site)
        for (main, suffix) in [(site.journal, "journal"), (site.beancount, "beancount")] {
            let files = try Site.files(main)
            let years = files.dropFirst().map { Int($0.path.dropFirst("books/".count).prefix(4))! }
            #expect(files.dropFirst().map(\.path) == years.map { "books/\($0).\(suffix)" }, "\(main)")
            #expect(years.count >= 2 && years == Array(years[0]...years[0] + years.count - 1), "\(years)")
            // No transaction in the main file but the opening balances (none here: the period is every month).
            #expect(files[0].text.firstMatch(of: /\n\d{4}-\d\d-\d\d (\(|\*)/) == nil, "\(main)")
            for (file, year) in zip(files.dropFirst(), years) {
                let days = file.text.matches(of: /\n(\d{4})-(\d\d)-\d\d (\(|\*)/).map { (Int($0.1)!, Int($0.2)!) }
                #expect(!days.isEmpty, "\(file.path)")
                // April of `year` to March of the next.
                #expect(days.allSatisfy { $0.1 >= 4 ? $0.0 == year : $0.0 == year + 1 }, "\(file.path)")
            }
        }
    }

    /// The issue's large books: sample --clients 200 --invoices 20000.
    @Test(.temporaryFolder) func largeSampleJournalEqualsTheExports() throws {
        let folder = try TemporaryFolder.current
        try Self.checkAgainstExports(try Self.build(folder, clients: 200, invoices: 20000, seed: 1))
    }

    /// Hostile client numbers, names, invoice identifiers, tax names, payment references and write-off reasons: both
    /// tools read the same accounts and postings, each value comes back whole (percent-decoded), and every line of
    /// the journal is one the writer makes.
    @Test(.temporaryFolder) func hostileValuesStayData() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("v2.sqlite")
        try StoreFixture.make(at: store, sql: StoreFixture.v2Cases, version: 2)
        let numbers = [
            "C-1\ninclude /etc/passwd", "C-2;x", "C-3  two", "C-4\"q'", "Ünïcødé-5", "C-6:sub", "C%41", "(C-8)",
        ]
        let names = [
            "Evil\n2025-01-01 x\n    assets:cash  1 EUR", "a ; comment", "(paren) |pipe", " lead", "tab\tx",
            "* cleared", "Zoë Żak", "x  ",
        ]
        var sql = ""
        for (index, (number, name)) in zip(numbers, names).enumerated() {
            sql +=
                "UPDATE client SET number = '\(number.replacingOccurrences(of: "'", with: "''"))', name = '\(name)' WHERE id = \(index + 1);\n"
        }
        sql += """
            UPDATE invoice SET identifier = 'INV) x' || char(10) || 'account evil' WHERE id = 1;
            UPDATE invoice SET identifier = 'CN;1 ; [2020-01-01]' WHERE id = 3;
            UPDATE taxLine SET name = 'MWST:sub' || char(10) || 'commodity X';
            UPDATE payment SET reference = 'REF ; x:y' || char(10) || 'include z' WHERE reference = 'DEP-1';
            UPDATE writeOff SET reason = 'gone' || char(10) || 'P 2025-01-01 EUR 2 USD';
            """
        try StoreFixture.execute(store, sql)
        let build = try CLI.run(["build", "--store", store, "--output", folder.path("site"), "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        let site = try Site(folder.path("site"))
        try Self.checkAgainstExports(site)

        // Every client number comes back whole from the receivable accounts both tools list.
        let hledger = try Self.tool("hledger -f '\(site.journal)' accounts --used")
        let ledger = try Self.tool("ledger --init-file /dev/null -f '\(site.journal)' accounts")
        #expect(Set(hledger.stdout.split(separator: "\n")) == Set(ledger.stdout.split(separator: "\n")))
        // Declared ones too: the draft-only client has an account and no posting.
        let declared = try Self.tool("hledger -f '\(site.journal)' accounts --declared")
        let receivables = declared.stdout.split(separator: "\n").filter { $0.hasPrefix("assets:receivables:") }
        #expect(
            Set(receivables.map { String($0.dropFirst("assets:receivables:".count)).removingPercentEncoding ?? "" })
                == Set(numbers))
        let taxAccounts = declared.stdout.split(separator: "\n").filter { $0.hasPrefix("liabilities:tax:") }
        #expect(taxAccounts == ["liabilities:tax:MWST%3Asub%0Acommodity X 7.7%"])

        // Every line is one the writer makes: the header, directives of the books' currencies and accounts, blank
        // lines, transaction lines, comment lines and postings; as many transaction lines as hledger reads.
        // The main file after its four comment lines, then each year's file after its comment line.
        let journalFiles = try Site.files(site.journal)
        #expect(journalFiles.count >= 2 && journalFiles.dropFirst().allSatisfy { $0.path.wholeMatch(of: /books\/\d{4}\.journal/) != nil })
        let lines = journalFiles.enumerated().flatMap { index, file in
            file.text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(index == 0 ? 4 : 1)
        }
        var transactions = 0
        for line in lines {
            if line.isEmpty || line == "commodity CHF" || line == "commodity EUR"
                || line.wholeMatch(of: /include books\/\d{4}\.journal/) != nil
                || line.hasPrefix("    format 1000.00 ")
            {
                continue
            }
            if line.hasPrefix("account ") {
                #expect(
                    ["assets:", "income:", "liabilities:", "expenses:", "equity:"].contains {
                        line.dropFirst(8).hasPrefix($0)
                    }, "\(line)")
            } else if line.first?.isNumber == true {
                #expect(line.wholeMatch(of: /\d{4}-\d\d-\d\d( \([^()\t;]+\))?( [^;|\t]*)?/) != nil, "\(line)")
                transactions += 1
            } else {
                #expect(
                    line.wholeMatch(of: /\ {4}(; [^;\t]*|[a-z]+:[^;\t]*  -?\d+(\.\d+)? (EUR|CHF))/) != nil, "\(line)")
            }
        }
        let print = try Self.tool("hledger -f '\(site.journal)' print")
        #expect(
            print.stdout.split(separator: "\n", omittingEmptySubsequences: false).filter { $0.first?.isNumber == true }
                .count == transactions)
        #expect(transactions > 10)

        // books.beancount: every line one the writer makes, as many transactions, the numbers back whole.
        let beanFiles = try Site.files(site.beancount)
        #expect(beanFiles.count == journalFiles.count)
        let beanLines = beanFiles.enumerated().flatMap { index, file in
            file.text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(index == 0 ? 4 : 1)
        }
        var beanTransactions = 0
        var beanNumbers: Set<String> = []
        for line in beanLines where !line.isEmpty {
            if line.wholeMatch(of: /include "books\/\d{4}\.beancount"/) != nil { continue }
            if let open = line.wholeMatch(of: /\d{4}-\d\d-\d\d open ([A-Z][A-Za-z0-9-]*(?::[A-Z0-9][A-Za-z0-9-]*)+)/) {
                #expect(["Assets:", "Income:", "Liabilities:", "Expenses:", "Equity:"].contains { open.1.hasPrefix($0) })
                if open.1.hasPrefix("Assets:Receivables:") {
                    beanNumbers.insert(Self.beancountDecoded(open.1.dropFirst("Assets:Receivables:".count)))
                }
            } else if line.wholeMatch(of: /\d{4}-\d\d-\d\d \* "(?:[^"\\\t]|\\.)*" "(?:[^"\\\t]|\\.)*"/) != nil {
                beanTransactions += 1
            } else {
                #expect(
                    line.wholeMatch(
                        of: /\d{4}-\d\d-\d\d commodity (EUR|CHF)|\ {4}code: "(?:[^"\\\t]|\\.)*"|\ {4}[A-Z][A-Za-z0-9-]*(?::[A-Z0-9][A-Za-z0-9-]*)+  -?\d+(\.\d+)? (EUR|CHF)/
                    ) != nil, "\(line)")
            }
        }
        #expect(beanTransactions == transactions)
        #expect(beanNumbers == Set(numbers))
        #expect(lines.filter { $0.hasPrefix("account ") }.count == numbers.count + 2 + 2 + 3)
    }

    /// The `journal:` keys name the accounts; changing one rewrites books.journal on the next build (it is part of
    /// the exports' fingerprint); an account name that is not plain is refused with its key and line.
    @Test(.temporaryFolder) func journalKeysNameTheAccountsAndRewriteTheFile() throws {
        let folder = try TemporaryFolder.current
        try StoreFixture.make(at: folder.path("v2.sqlite"), sql: StoreFixture.v2Cases, version: 2)
        func build(_ journal: String) throws -> CLI.Result {
            try Data("store: v2.sqlite\noutput: site\njournal:\n\(journal)".utf8).write(
                to: folder.url.appendingPathComponent("invoices.yaml"))
            return try CLI.run(["build", "--quiet"], in: folder.url)
        }
        #expect(try build("  revenue: income:services\n  bank: assets:checking\n").status == 0)
        let first = try Site.text(folder.path("site/books.journal"))
        #expect(
            first.contains("\naccount income:services:MWST 7.7%\n")
                && first.contains("\n    assets:checking:EUR  400.00 EUR\n"))
        #expect(!first.contains("income:sales"))
        #expect(try build("  revenue: revenue:consulting\n  bank: assets:checking\n").status == 0)
        let second = try Site.text(folder.path("site/books.journal"))
        #expect(second.contains("\naccount revenue:consulting:untaxed\n") && !second.contains("income:services"))
        let check = try Self.tool("hledger -f '\(folder.path("site/books.journal"))' check --strict")
        #expect(check.status == 0, "\(check.stderr)")

        let bad = try build("  tax: liabilities:vat;x\n  opening: equity::open\n  bank: [a]\n")
        #expect(bad.status == 65)
        #expect(
            bad.stderr.contains("invoices.yaml:4:8: journal.tax 'liabilities:vat;x' holds 'vat;x', which is not plain"),
            "\(bad.stderr)")
        #expect(bad.stderr.contains("journal.opening 'equity::open' is not an account name"), "\(bad.stderr)")
        #expect(bad.stderr.contains("'journal.bank' must be a single value"), "\(bad.stderr)")
    }
}
