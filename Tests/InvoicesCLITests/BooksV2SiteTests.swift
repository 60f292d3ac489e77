import Foundation
import InvoicesTesting
import Testing

/// The site of a schema v2 store shows partial balances, credits, drafts and voids apart, and a tax summary; a v1
/// store's pages are those of the same store migrated to v2.
struct BooksV2SiteTests {
    func pages(_ folder: String) throws -> [String: Data] {
        var pages: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".html") { pages[path] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + path)) }
        }
        return pages
    }

    @Test(.temporaryFolder) func aV1StoreAndItsMigrationBuildTheSamePages() throws {
        let folder = try TemporaryFolder.current
        try StoreFixture.make(at: folder.path("v1.sqlite"), sql: StoreFixture.small)
        try FileManager.default.copyItem(atPath: folder.path("v1.sqlite"), toPath: folder.path("v2.sqlite"))
        try StoreFixture.migrateToV2(folder.path("v2.sqlite"))
        for name in ["v1", "v2"] {
            let result = try CLI.run(["build", "--store", folder.path("\(name).sqlite"), "--output", folder.path("\(name)-site")])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let old = try pages(folder.path("v1-site"))
        #expect(old.count > 4)
        #expect(old == (try pages(folder.path("v2-site"))))
        let index = try String(contentsOfFile: folder.path("v1-site/index.html"), encoding: .utf8)
        #expect(!index.contains("Taxes") && !index.contains("Credits and write-offs"))
    }

    @Test(.temporaryFolder, arguments: ["accrual", "cash"])
    func aV2StoreShowsBalancesCreditsVoidsAndTaxes(basis: String) throws {
        let folder = try TemporaryFolder.current
        try StoreFixture.make(at: folder.path("v2.sqlite"), sql: StoreFixture.v2Cases, version: 2)
        let result = try CLI.run([
            "build", "--store", folder.path("v2.sqlite"), "--output", folder.path("site"), "--as-of", "2025-09-30", "--basis", basis,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        // Amounts are formatted with a no-break space between the code and the number.
        let index = try String(contentsOfFile: folder.path("site/index.html"), encoding: .utf8)
        #expect(index.contains("<h2>Taxes</h2>"))
        // MWST 7.7 % on 1,000.00 net, 500.00 of 1,077.00 paid: accrual tax 77.00, cash tax 35.75.
        #expect(index.contains(basis == "accrual" ? "CHF\u{A0}77.00" : "CHF\u{A0}35.75"))
        #expect(index.contains("<h2>Credits and write-offs</h2>"))
        let clients = folder.path("site/clients")
        let files = try FileManager.default.contentsOfDirectory(atPath: clients)
        func page(_ number: String) throws -> String {
            let file = try #require(files.first { $0.hasPrefix(number.lowercased() + "-") })
            return try String(contentsOfFile: clients + "/" + file, encoding: .utf8)
        }
        let taxed = try page("C-7")
        #expect(taxed.contains("<h2>Balances</h2>"))
        #expect(taxed.contains("<td>CHF\u{A0}577.00<td>partial"))
        let void = try page("C-6")
        #expect(void.contains("<h2>Drafts and void invoices</h2>"))
        #expect(void.contains("<td>void"))
        #expect(void.contains("EUR\u{A0}100.00"))  // the payment, the client's credit
        let draft = try page("C-8")
        #expect(draft.contains("<td>draft"))
    }

    /// Statements of the hand-computed cases: every line, its running balance, and the closing balance.
    @Test(.temporaryFolder) func statementsListEveryLineWithARunningBalance() throws {
        let folder = try TemporaryFolder.current
        try StoreFixture.make(at: folder.path("v2.sqlite"), sql: StoreFixture.v2Cases, version: 2)
        let result = try CLI.run(["build", "--store", folder.path("v2.sqlite"), "--output", folder.path("site")])
        #expect(result.status == 0, "\(result.stderr)")
        let statements = folder.path("site/statements")
        let files = try FileManager.default.contentsOfDirectory(atPath: statements)
        func rows(_ number: String) throws -> [String] {
            let file = try #require(files.first { $0.hasPrefix(number.lowercased() + "-") })
            let html = try String(contentsOfFile: statements + "/" + file, encoding: .utf8)
            return html.split(separator: "\n").filter { $0.hasPrefix("<tr") }.map(String.init)
        }
        // The statement's table is in one currency: its headings name it (`Charges (EUR)`), its amounts are bare.
        func cell(_ text: String) -> String { text }
        // A line's kind is in its document cell (`Invoice INV-4`); the row carries no class.
        func row(_ date: String, _ document: String, _ detail: String, _ charge: String, _ credit: String, _ balance: String) -> String {
            "<tr><td>\(date)<th>\(document)<td>\(detail)"
                + "<td>\(cell(charge))<td>\(cell(credit))<td>\(cell(balance))"
        }
        let opening = "<tr class=\"opening\"><td>2025-01-01<th scope=\"row\" colspan=\"4\">Opening balance<td>0.00"
        func closing(_ charges: String, _ credits: String, _ balance: String) -> String {
            "<tr class=\"closing\"><td>2025-09-30<th scope=\"row\" colspan=\"2\">Closing balance<td>\(cell(charges))"
                + "<td>\(cell(credits))<td>\(cell(balance))"
        }
        // A refund after a payment in full: the balance goes back up.
        #expect(try rows("C-3") == [
            opening,
            row("2025-05-01", "Invoice INV-4", "due 2025-05-31", "200.00", "", "200.00"),
            row("2025-05-05", "Payment INV-4", "", "", "200.00", "0.00"),
            row("2025-05-20", "Refund INV-4", "bank transfer REFUND-4", "50.00", "", "50.00"),
            closing("250.00", "200.00", "50.00"),
        ])
        // A credit note (its application moves credit between the client's invoices: no line), then the rest paid.
        #expect(try rows("C-2") == [
            opening,
            row("2025-03-01", "Invoice INV-2", "due 2025-03-15", "500.00", "", "500.00"),
            row("2025-03-10", "Credit note CN-1", "for INV-2", "", "100.00", "400.00"),
            row("2025-04-20", "Payment INV-2", "card", "", "400.00", "0.00"),
            closing("500.00", "500.00", "0.00"),
        ])
        // A payment of a void invoice is the client's credit: a negative closing balance.
        #expect(try rows("C-6") == [
            opening,
            row("2025-08-05", "Payment INV-7", "", "", "100.00", "-100.00"),
            closing("0.00", "100.00", "-100.00"),
        ])
        // A write-off of what was left.
        #expect(try rows("C-5").last == closing("100.00", "100.00", "0.00"))
        #expect(try rows("C-5").dropLast().last == row("2025-09-30", "Write-off INV-6", "uncollectable", "", "70.00", "0.00"))
    }

    @Test func aWrongFiscalYearStartIsAUsageError() throws {
        for value in ["13", "0", "April", "004"] {
            let result = try CLI.run(["build", "--store", "x.sqlite", "--fiscal-year-start", value])
            #expect(result.status == 64)
            #expect(result.stderr.contains("--fiscal-year-start '\(value)' is not a month"), "\(result.stderr)")
        }
    }

    @Test func aWrongBasisIsAUsageError() throws {
        let result = try CLI.run(["build", "--store", "x.sqlite", "--basis", "both"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--basis 'both' is not a tax basis"))
    }
}
