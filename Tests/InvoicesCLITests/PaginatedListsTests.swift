import Foundation
import InvoicesTesting
import Testing

/// A quarter's invoices behind each tax, cut into pages (issue 30), through the built binary on a sample store with
/// a small page size: every row once and in order, working links, and an incremental rebuild equal to a full one
/// after a change that moves rows from one page to another.
@Suite(.serialized)
struct PaginatedListsTests {
    /// The invoice identifiers of a tax list's rows.
    static func identifiers(_ html: String) -> [String] {
        html.matches(of: /<tr><th>([^<]*)<td>\d{4}-\d\d-\d\d/).map { String($0.output.1) }
    }

    /// The anchors of a quarter page's tax lists, in order: a table when the list is on the page, the page links
    /// when the lists have pages of their own.
    static func anchors(_ html: String) -> [String] {
        html.matches(of: /<(?:table class="figures tax-invoices"|nav class="pages") id="([^"]*)"/).map { String($0.output.1) }
    }

    /// Whether the quarter page `html` links the tax list `anchor` to its print pack's table (the pack lists the rows
    /// when the lists are more than a page and at most ten pages together: issue 46, item 5).
    static func inPack(_ html: String, _ anchor: String) -> Bool {
        let nav = html.components(separatedBy: "<nav class=\"pages\" id=\"\(anchor)\"").dropFirst().first?.prefix { $0 != "\n" } ?? ""
        return nav.contains("/print.html#\(anchor)\"")
    }

    /// Per quarter, per tax list, the identifiers on each of its pages (one page: the quarter's own table, or its
    /// print pack's).
    static func lists(in site: String) throws -> [String: [[String]]] {
        var result: [String: [[String]]] = [:]
        let quarters = site + "/quarters/"
        for page in try FileManager.default.contentsOfDirectory(atPath: quarters) where page.hasSuffix(".html") {
            let name = String(page.dropLast(5))
            let html = try String(contentsOfFile: quarters + page, encoding: .utf8)
            for anchor in anchors(html) {
                if let table = html.components(separatedBy: "<table class=\"figures tax-invoices\" id=\"\(anchor)\"").dropFirst().first {
                    result["\(name)/\(anchor)"] = [identifiers(table.components(separatedBy: "</table>")[0])]
                    continue
                }
                if inPack(html, anchor) {
                    let pack = try String(contentsOfFile: "\(quarters)\(name)/print.html", encoding: .utf8)
                    let table = pack.components(separatedBy: "<table class=\"figures tax-invoices\" id=\"\(anchor)\">").dropFirst().first ?? ""
                    result["\(name)/\(anchor)"] = [identifiers(table.components(separatedBy: "</table>")[0])]
                    continue
                }
                var pages: [[String]] = []
                var number = 1
                while let more = try? String(contentsOfFile: "\(quarters)\(name)/\(anchor)/\(number).html", encoding: .utf8) {
                    pages.append(identifiers(more))
                    number += 1
                }
                result["\(name)/\(anchor)"] = pages
            }
        }
        return result
    }

    @Test(.temporaryFolder) func everyRowIsOnOnePageInOrderAndEveryPageLinkWorks() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite"), site = folder.path("site")
        // Quarters' lists long enough for three pages and more at a page size of 10.
        #expect(try CLI.run(["sample", "--clients", "12", "--invoices", "1200", "--seed", "4", "--output", store]).status == 0)
        let build = try CLI.run(["build", "--store", store, "--output", site, "--page-size", "10", "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        let lists = try Self.lists(in: site)
        #expect(lists.values.contains { $0.count > 2 }, "some lists have several pages")
        var paged = 0
        // The CSV beside each quarter has the same rows, list by list, in the same order.
        for quarter in Set(lists.keys.map { String($0.prefix { $0 != "/" }) }) {
            let csv = try String(contentsOfFile: "\(site)/quarters/\(quarter).csv", encoding: .utf8)
            var groups: [(key: String, rows: [String])] = []
            for line in csv.split(separator: "\r\n").dropFirst() {
                let cells = line.split(separator: ",", omittingEmptySubsequences: false)
                let key = cells[0...2].joined(separator: ",")
                if groups.last?.key == key { groups[groups.count - 1].rows.append(String(cells[3])) } else { groups.append((key, [String(cells[3])])) }
            }
            let html = try String(contentsOfFile: "\(site)/quarters/\(quarter).html", encoding: .utf8)
            let anchors = Self.anchors(html)
            #expect(anchors.count == groups.count, "\(quarter)")
            for (anchor, group) in zip(anchors, groups) {
                let pages = try #require(lists["\(quarter)/\(anchor)"])
                #expect(pages.flatMap { $0 } == group.rows, "\(quarter) \(anchor): every row once, in order")
                #expect(pages.allSatisfy { $0.count <= 20 && !$0.isEmpty } || pages.count == 1)
                // The floor (issue 42): no page but the last under a quarter of the page size.
                #expect(pages.dropLast().allSatisfy { 4 * $0.count >= 10 }, "\(quarter) \(anchor): \(pages.map(\.count))")
                // The quarter's page links every page; each page links the quarter and its neighbours, which exist.
                guard html.contains("<nav class=\"pages\" id=\"\(anchor)\""), !Self.inPack(html, anchor) else { continue }
                paged += 1
                // The pages' figures add up to the tax's row on the quarter's page.
                let total = try #require(Self.cells(ofRowsStartingWith: "<tr><th><a href=\"#\(anchor)\">", in: html).first)
                var rows: [[String]] = []
                for number in 1...pages.count {
                    let page = try String(contentsOfFile: "\(site)/quarters/\(quarter)/\(anchor)/\(number).html", encoding: .utf8)
                    rows += Self.cells(ofRowsStartingWith: "<tr><th>", in: page)
                }
                #expect(Self.sums(rows, [3, 4, 5, 6]) == Self.sums([total], [3, 4, 5, 6]), "\(quarter) \(anchor): the pages add up to the row")
                for number in 1...pages.count {
                    #expect(html.contains("<a href=\"\(quarter)/\(anchor)/\(number).html\">\(number)</a>"))
                    let path = "\(site)/quarters/\(quarter)/\(anchor)/\(number).html"
                    let page = try String(contentsOfFile: path, encoding: .utf8)
                    #expect(page.contains("<a href=\"../../\(quarter).html#\(anchor)\">"))
                    for href in page.matches(of: /rel="(?:prev|next)" href="([^"]*)"/).map({ String($0.output.1) }) {
                        let target = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(href)
                        #expect(FileManager.default.fileExists(atPath: target.standardized.path), "\(path): \(href)")
                    }
                    #expect(page.contains("rel=\"next\"") == (number < pages.count))
                    #expect(page.contains("rel=\"prev\"") == (number > 1))
                }
            }
        }
        #expect(paged > 0)
    }

    /// The 60-client sample (seed 6, 1,500 invoices) and its site built with `--page-size 10`, sampled and built once
    /// for the two tests that only read them (a month's clients, the collections' lists): one sample and one build
    /// fewer (docs/performance.md). Left in the temporary folder, as the other suites' shared stores are.
    static let sixtyClients: Result<(store: String, paged: String), any Error> = Result {
        let folder = try TemporaryFolder("paginated-lists")
        let store = folder.path("books.sqlite"), paged = folder.path("paged")
        for arguments in [
            ["sample", "--clients", "60", "--invoices", "1500", "--seed", "6", "--output", store],
            ["build", "--store", store, "--output", paged, "--page-size", "10", "--quiet"],
        ] {
            let result = try CLI.run(arguments)
            guard result.status == 0 else { throw FixtureFailure(description: "invoices \(arguments[0]): \(result.stderr)") }
        }
        return (store, paged)
    }

    struct FixtureFailure: Error, CustomStringConvertible { var description: String }

    /// A month's clients in one currency, across its pages: each client (by its page's slug, which starts with its
    /// number) once, in the order of totals.csv, which lists exactly the clients with figures that month.
    @Test func aMonthsClientsAreEachOnOnePageInOrder() throws {
        let site = try Self.sixtyClients.get().paged
        var expected: [String: [String]] = [:]
        let totals = try String(contentsOfFile: site + "/totals.csv", encoding: .utf8)
        for line in totals.split(separator: "\r\n").dropFirst() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            guard cells.count == 16 else { continue }  // a name with a comma is quoted; the sample has none
            expected["\(cells[3]) \(cells[2])", default: []].append(cells[0].lowercased())
        }
        var paginated = 0
        for (key, numbers) in expected {
            let parts = key.split(separator: " "), month = parts[0], currency = parts[1]
            let html = try String(contentsOfFile: "\(site)/months/\(month).html", encoding: .utf8)
            let section = try #require(html.components(separatedBy: "id=\"clients-\(currency)\"").dropFirst().first)
            func slugs(_ text: String) -> [String] {
                text.matches(of: /<th><a href="?[.\/]*clients\/(c-[0-9]+)-/).map { String($0.output.1) }
            }
            var listed = slugs(section.components(separatedBy: "</section>")[0])
            var rows = Self.cells(ofRowsStartingWith: "<tr><th><a ", in: section.components(separatedBy: "</section>")[0])
            var number = 1
            while let more = try? String(contentsOfFile: "\(site)/months/\(month)/\(currency)/\(number).html", encoding: .utf8) {
                #expect(listed.isEmpty || number > 1, "a list is on the month's page or on pages of its own, not both")
                #expect(more.contains("<a href=\"../../\(month).html#clients-\(currency)\">"))
                listed += slugs(more)
                rows += Self.cells(ofRowsStartingWith: "<tr><th><a ", in: more)
                number += 1
            }
            // Invoiced, paid, outstanding, overdue and invoices add up to the total on the month's page.
            let total = try #require(Self.cells(ofRowsStartingWith: "<tr><th>Total \(currency)", in: section).first)
            #expect(Self.sums(rows, [1, 3, 4, 5, 6]) == Self.sums([total], [1, 3, 4, 5, 6]), "\(key): the rows add up to the total")
            if number > 2 { paginated += 1 }
            #expect(listed == numbers, "\(key): every client once, in order")
        }
        #expect(paginated > 5, "lists of several pages were checked")
    }

    /// collections.html's lists on pages of their own hold exactly the rows the page shows when they fit in one page
    /// (links aside, which are one folder deeper), in the same order.
    @Test(.temporaryFolder) func collectionsListsInPagesHoldTheSameRowsInTheSameOrder() throws {
        let folder = try TemporaryFolder.current
        let (store, site) = try Self.sixtyClients.get()
        let result = try CLI.run(["build", "--store", store, "--output", folder.path("whole"), "--page-size", "100000", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        func rows(_ html: String) -> [String] {
            html.matches(of: /<tr><th><a href="[^"]*">.*/).map { String($0.output).replacingOccurrences(of: "../../", with: "") }
        }
        let whole = try String(contentsOfFile: folder.path("whole/collections.html"), encoding: .utf8)
        let paged = try String(contentsOfFile: site + "/collections.html", encoding: .utf8)
        let names = paged.matches(of: /<nav class="pages" id="([^"]*)"/).map { String($0.output.1) }
        #expect(names.first == "overdue-EUR" && names.last == "days-to-pay", "\(names)")
        var pagedRows: [String] = []
        for name in names {
            var number = 1
            while let page = try? String(contentsOfFile: "\(site)/collections/\(name)/\(number).html", encoding: .utf8) {
                #expect(page.contains("<a href=\"../../collections.html#\(name)\">"))
                pagedRows += rows(page)
                number += 1
            }
            #expect(number > 1, "\(name) has pages")
        }
        // Up to the days sales outstanding, which stay on the page either way.
        func lists(_ html: String) -> String { html.components(separatedBy: "<table class=\"figures dso\">")[0] }
        #expect(!pagedRows.isEmpty && pagedRows == rows(lists(whole)))
        #expect(rows(lists(paged)).isEmpty, "collections.html keeps the page links only")
    }

    /// The contents of a row's `th` and `td` cells, in order.
    static func cells(_ row: Substring) -> [String] { row.matches(of: /<t[hd](?: [^>]*)?>(.*?)(?=<t[hd][ >]|$)/).map { String($0.output.1) } }

    /// The cells of each row (one line of HTML) that starts with `prefix`.
    static func cells(ofRowsStartingWith prefix: String, in html: String) -> [[String]] {
        html.split(separator: "\n").filter { $0.hasPrefix(prefix) }.map(cells)
    }

    /// The sums of `columns` over `rows`, amounts in minor units.
    static func sums(_ rows: [[String]], _ columns: [Int]) -> [Int] {
        columns.map { column in rows.reduce(0) { $0 + minorUnits($1[column]) } }
    }

    /// An amount as the pages write it (`EUR 1,234.56`, `−JPY 300`), in minor units.
    static func minorUnits(_ text: String) -> Int {
        let digits = Int(text.filter(\.isNumber)) ?? 0
        return text.contains("\u{2212}") || text.contains("-") ? -digits : digits
    }

    /// The cells of each row of `html` (a line starting with `<tr`) whose attributes match `attributes` (a pattern:
    /// `""` for a row without any, ` class="opening"`), the row's header cell among them.
    static func rows(_ html: String, attributes: String) -> [[String]] {
        html.matches(of: try! Regex<(Substring, Substring)>("(?m)^<tr\(attributes)>(.*)")).map { cells($0.output.1) }
    }

    /// A statement's lines: its rows without a class (the opening and closing balances have one).
    static let lineRow = ""
    /// An invoice row: a class only when it is overdue.
    static let invoiceRow = "(?: class=overdue)?"

    /// A client's invoices and each currency of its statement, built with pages of 10 rows and with one page: the
    /// pages hold every row of the whole list once, in order; the client page and statement link every page and
    /// each page its neighbours; each statement page brings forward the balance the page before carried forward,
    /// from the opening balance to the closing balance, and its charges and credits add up to the statement's; the
    /// print view is the whole statement. The private copies stay whole.
    @Test(.temporaryFolder) func aClientsInvoicesAndStatementLinesAreEachOnOnePageInOrder() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite"), config = folder.path("invoices.yaml")
        try Data(String(repeating: "7", count: 64).utf8).write(to: URL(fileURLWithPath: folder.path("link.key")))
        try Data("client_links: link.key\n".utf8).write(to: URL(fileURLWithPath: config))
        #expect(try CLI.run(["sample", "--clients", "6", "--invoices", "400", "--seed", "9", "--output", store]).status == 0)
        for (site, size) in [("paged", "10"), ("whole", "100000")] {
            let result = try CLI.run(["build", "--store", store, "--output", folder.path(site), "--page-size", size, "--config", config, "--quiet"])
            #expect(result.status == 0, "\(result.stderr)")
        }
        func read(_ path: String) throws -> String { try String(contentsOfFile: folder.path(path), encoding: .utf8) }
        /// The pages of a list, from `1.html` on; each page's links to its neighbours exist.
        func pages(_ list: String) throws -> [String] {
            var pages: [String] = []
            while let page = try? read("\(list)\(pages.count + 1).html") {
                let number = pages.count + 1
                #expect(page.contains("rel=\"prev\" href=\"\(number - 1).html\"") == (number > 1), "\(list)\(number)")
                #expect(page.contains("rel=\"next\" href=\"\(number + 1).html\"") == (FileManager.default.fileExists(atPath: folder.path("\(list)\(number + 1).html"))))
                pages.append(page)
            }
            return pages
        }
        func links(_ html: String, to list: String) -> [String] {
            html.matches(of: try! Regex<(Substring, Substring)>("<a href=\"\(list)([0-9]+)\\.html\">")).map { String($0.output.1) }
        }
        let slugs = try FileManager.default.contentsOfDirectory(atPath: folder.path("whole/clients")).filter { $0.hasSuffix(".html") }.map { String($0.dropLast(5)) }.sorted()
        #expect(slugs.count == 6)
        var pagedInvoices = 0, pagedStatements = 0
        for slug in slugs {
            // The client's invoices.
            func invoiceTable(_ html: String) -> String { html.components(separatedBy: "<table class=\"figures invoices\">")[1].components(separatedBy: "</table>")[0] }
            let whole = Self.rows(invoiceTable(try read("whole/clients/\(slug).html")), attributes: Self.invoiceRow)
            let client = try read("paged/clients/\(slug).html")
            let invoicePages = try pages("paged/clients/\(slug)/invoices/")
            #expect(invoicePages.count > 1, "\(slug): \(whole.count) invoices")
            pagedInvoices += invoicePages.count
            #expect(links(client, to: "\(slug)/invoices/") == (1...invoicePages.count).map(String.init))
            #expect(!client.contains("<table class=\"figures invoices\">"), "the client page keeps the links only")
            #expect(invoicePages.flatMap { Self.rows(invoiceTable($0), attributes: Self.invoiceRow) } == whole, "\(slug): every invoice once, in order")
            #expect(invoicePages.allSatisfy { $0.contains("<a href=\"../../\(slug).html\">") })

            // Its statement, currency by currency.
            let statement = try read("paged/statements/\(slug).html")
            let wholeStatement = try read("whole/statements/\(slug).html")
            #expect(statement.contains("<a href=\"\(slug)/print.html\">"))
            // The print view is the whole statement: the same page, one folder deeper.
            let print = try read("paged/statements/\(slug)/print.html")
            func main(_ html: String) -> String { html.components(separatedBy: "<main>")[1].components(separatedBy: "</main>")[0] }
            #expect(main(print).replacingOccurrences(of: "../../", with: "../") == main(wholeStatement))
            let currencies = statement.matches(of: /<section class="statement" id="balance-([A-Z]{3})">/).map { String($0.output.1) }
            #expect(!currencies.isEmpty)
            for currency in currencies {
                let section = wholeStatement.components(separatedBy: "id=\"balance-\(currency)\"")[1].components(separatedBy: "</section>")[0]
                let lines = Self.rows(section.components(separatedBy: "<tfoot>")[0], attributes: Self.lineRow)
                let pagedSection = statement.components(separatedBy: "id=\"balance-\(currency)\"")[1].components(separatedBy: "</section>")[0]
                let opening = try #require(Self.rows(pagedSection, attributes: " class=\"opening\"").first?.last)
                let closing = try #require(Self.rows(pagedSection, attributes: " class=\"closing\"").first)
                let linePages = try pages("paged/statements/\(slug)/\(currency)/")
                guard lines.count > 10 || !linePages.isEmpty else { continue }
                #expect(links(pagedSection, to: "\(slug)/\(currency)/") == (1...max(linePages.count, 1)).map(String.init))
                pagedStatements += linePages.count
                #expect(linePages.flatMap { Self.rows($0, attributes: Self.lineRow) } == lines, "\(slug) \(currency): every line once, in order")
                var balance = opening, charges = 0, credits = 0
                for page in linePages {
                    #expect(Self.rows(page, attributes: " class=\"opening\"").first?.last == balance, "brought forward: carried forward by the page before")
                    for line in Self.rows(page, attributes: Self.lineRow) {
                        charges += Self.minorUnits(line[3])
                        credits += Self.minorUnits(line[4])
                    }
                    balance = try #require(Self.rows(page, attributes: " class=\"closing\"").first?.last)
                    #expect(page.contains("<a href=\"../../\(slug).html#balance-\(currency)\">"))
                }
                #expect(balance == closing.last, "\(slug) \(currency): the last page carries forward the closing balance")
                #expect(charges == Self.minorUnits(closing[2]) && credits == Self.minorUnits(closing[3]), "\(slug) \(currency): \(closing)")
            }
        }
        #expect(pagedInvoices > 12 && pagedStatements > 12)
        // The private copies are whole: the same as with one page.
        let privateFiles = try SiteFiles.read(folder.path("paged")).filter { $0.key.hasPrefix("c/") }
        let wholeFiles = try SiteFiles.read(folder.path("whole"))
        #expect(privateFiles.count == 12)
        for (path, data) in privateFiles { #expect(wholeFiles[path] == data, "\(path)") }
    }

    @Test(.temporaryFolder) func anIncrementalRebuildThatMovesRowsBetweenPagesEqualsAFullBuild() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        // Quarters past the print pack's row limit at a page size of 10 (100 rows: below it the lists are the pack's).
        #expect(try CLI.run(["sample", "--clients", "12", "--invoices", "1200", "--seed", "4", "--output", store]).status == 0)
        func build(_ site: String, _ extra: [String] = []) throws {
            let result = try CLI.run(["build", "--store", store, "--output", folder.path(site), "--page-size", "10", "--quiet"] + extra)
            #expect(result.status == 0, "\(result.stderr)")
        }
        try build("incremental")
        try build("full")
        let before = try Self.lists(in: folder.path("incremental"))
        // New identifiers for a quarter's invoices: new boundaries, so rows move between pages; and one more invoice.
        try StoreFixture.execute(store, """
            UPDATE invoice SET identifier = identifier || '-R' WHERE issuedOn BETWEEN '2025-01-01' AND '2025-02-15';
            """)
        try build("incremental")
        try build("full", ["--full"])
        let after = try Self.lists(in: folder.path("incremental"))
        func pageOf(_ lists: [String: [[String]]]) -> [String: Int] {
            var pages: [String: Int] = [:]
            for (key, list) in lists { for (number, rows) in list.enumerated() { for row in rows { pages["\(key) \(row.replacingOccurrences(of: "-R", with: ""))"] = number } } }
            return pages
        }
        let moved = pageOf(after).filter { key, page in pageOf(before)[key].map { $0 != page } ?? false }
        #expect(!moved.isEmpty, "some rows moved to another page")
        let incremental = try SiteFiles.read(folder.path("incremental")), full = try SiteFiles.read(folder.path("full"))
        #expect(incremental.keys.sorted() == full.keys.sorted())
        for (path, data) in full where incremental[path] != data { Issue.record("\(path) differs from the full build") }
    }
}
