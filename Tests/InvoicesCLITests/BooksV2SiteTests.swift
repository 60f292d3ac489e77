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

    @Test func aV1StoreAndItsMigrationBuildTheSamePages() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
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

    @Test(arguments: ["accrual", "cash"])
    func aV2StoreShowsBalancesCreditsVoidsAndTaxes(basis: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
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
        #expect(taxed.contains("<td class=\"num\">CHF\u{A0}577.00</td><td>partial</td>"))
        let void = try page("C-6")
        #expect(void.contains("<h2>Drafts and void invoices</h2>"))
        #expect(void.contains("<td>void</td>"))
        #expect(void.contains("EUR\u{A0}100.00"))  // the payment, the client's credit
        let draft = try page("C-8")
        #expect(draft.contains("<td>draft</td>"))
    }

    @Test func aWrongBasisIsAUsageError() throws {
        let result = try CLI.run(["build", "--store", "x.sqlite", "--basis", "both"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--basis 'both' is not a tax basis"))
    }
}
