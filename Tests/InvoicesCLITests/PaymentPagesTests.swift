import Foundation
import InvoicesTesting
import Testing

/// Payment codes and pay links on real pages (issue 33): a SQLite store of our own, the project file's `payee:`,
/// the private client pages served by `invoices serve`, screenshots by headless Chromium, and the codes read back
/// by zbarimg (Debian's zbar-tools), as a banking app would scan them.
@Suite(.serialized)
struct PaymentPagesTests {
    /// C-1 owes EUR 1,500.00 on two invoices (one paid in full, one in part); C-2 owes CHF; C-3 owes nothing; C-4
    /// overpaid; C-5's number and invoice identifier are hostile (markup, a line break, 200 more characters).
    static let books = """
        INSERT INTO client (id, number, name) VALUES (1, 'C-1', 'Müller & Söhne'), (2, 'C-2', 'Zürich AG'), (3, 'C-3', 'Paid Up'),
          (4, 'C-4', 'Overpaid'), (5, 'C-5"><script>alert(1)</script>', 'Hostile');
        INSERT INTO invoice (id, identifier, clientId, amount, net, currency, issuedOn, dueOn, status, kind, correctsId, appliedOn) VALUES
          (1, 'INV-10', 1, 120000, NULL, 'EUR', '2025-05-01', '2025-05-31', 'sent', 'invoice', NULL, NULL),
          (2, 'INV-11', 1, 50000, NULL, 'EUR', '2025-05-10', '2025-06-09', 'sent', 'invoice', NULL, NULL),
          (3, 'INV-12', 1, 80000, NULL, 'EUR', '2025-04-01', '2025-04-30', 'sent', 'invoice', NULL, NULL),
          (4, 'INV-20', 2, 107700, NULL, 'CHF', '2025-05-01', '2025-05-31', 'sent', 'invoice', NULL, NULL),
          (5, 'INV-30', 3, 40000, NULL, 'EUR', '2025-05-01', '2025-05-31', 'sent', 'invoice', NULL, NULL),
          (6, 'INV-40', 4, 30000, NULL, 'EUR', '2025-05-01', '2025-05-31', 'sent', 'invoice', NULL, NULL),
          (7, 'INV-50' || char(10) || 'BCD <b>x</b>&"' || hex(zeroblob(100)), 5, 2500, NULL, 'EUR', '2025-06-01', '2025-06-30', 'sent', 'invoice', NULL, NULL);
        INSERT INTO payment (invoiceId, paidOn, amount, method, reference) VALUES
          (2, '2025-05-20', 20000, '', ''), (3, '2025-04-15', 80000, '', ''), (5, '2025-05-15', 40000, '', ''), (6, '2025-05-20', 35000, '', '');
        """
    static let iban = "DE89370400440532013000"
    static let config = """
        store: books.sqlite
        output: site
        client_links: link.key
        payee:
          name: Example Studio GmbH
          iban: DE89 3704 0044 0532 0130 00
          bic: COBADEFFXXX
          payment_url: https://pay.example.com/{client}/{invoice}?amount={amount}&currency={currency}

        """

    /// The books, the payee's settings and the link key, in the test's folder.
    static func project() throws -> TestProject {
        let project = try TestProject()
        try StoreFixture.make(at: project.store, sql: PaymentPagesTests.books, version: 2)
        try project.write("invoices.yaml", PaymentPagesTests.config)
        try project.write("link.key", String(repeating: "k3y", count: 16))
        return project
    }

    /// The EPC payloads of the QR codes on `url`, as zbarimg reads them from a headless Chromium screenshot.
    static func scan(_ url: String, in folder: TemporaryFolder) throws -> [String] {
        let png = try screenshot(url, in: folder)
        let result = try CLI.shell("zbarimg --xml -q '\(png)' 2>/dev/null")
        return result.stdout.matches(of: /<data><!\[CDATA\[((?s).*?)\]\]><\/data>/).map { String($0.output.1) }.sorted()
    }

    /// A headless Chromium screenshot of `url` (1000 px wide, at twice the pixels), as a PNG file in `folder`.
    static func screenshot(_ url: String, in folder: TemporaryFolder) throws -> String {
        let browser = try #require(ClientSearchTests.chromium(), "headless Chromium is needed: make test installs Debian's chromium")
        let png = folder.path("shot-\(UUID().uuidString).png")
        let flags = "--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --hide-scrollbars"
        _ = try CLI.shell("'\(browser)' \(flags) --force-device-scale-factor=2 --window-size=1000,3200 --screenshot='\(png)' '\(url)' 2>/dev/null")
        #expect(FileManager.default.fileExists(atPath: png), "Chromium wrote no screenshot of \(url)")
        return png
    }

    /// A payload's fields, by their EPC069-12 position.
    static func fields(_ payload: String) -> [String] { payload.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    static func epc(_ amount: String, _ remittance: String) -> String {
        "BCD\n002\n1\nSCT\nCOBADEFFXXX\nExample Studio GmbH\n\(iban)\nEUR\(amount)\n\n\n\(remittance)"
    }

    @Test(.temporaryFolder) func aClientScansTheirPrivateStatementAndGetsTheAmountIBANAndReference() async throws {
        let project = try Self.project()
        let build = try CLI.run(["build", "--quiet"], in: project.url)
        #expect(build.status == 0, "\(build.stderr)")
        let links = try project.links()
        let c1 = try #require(links["C-1"]), c5 = try #require(links.first { $0.key.hasPrefix("C-5") }?.value)
        let serve = try await ServeProcess.start(in: project.url)
        defer { serve.terminate() }

        // The private address opens the statement: one code for the whole EUR balance, the client number as reference.
        let statement = serve.base.absoluteString + c1
        #expect(try Self.scan(statement, in: project.folder) == [Self.epc("1500.00", "C-1")])
        // The client page beside it: one code per open invoice, each with its balance (INV-11 is partly paid).
        #expect(try Self.scan(statement + "client.html", in: project.folder) == [Self.epc("1200.00", "INV-10"), Self.epc("300.00", "INV-11")])

        // Hostile values stay in their field and are cut to the limit; the page shows them as text.
        let hostile = try Self.scan(serve.base.absoluteString + c5 + "client.html", in: project.folder)
        #expect(hostile.count == 1)
        let fields = Self.fields(hostile.first ?? "")
        #expect(fields.count == 11 && fields[7] == "EUR25.00", "\(fields)")
        #expect(fields.last == String(("INV-50 BCD <b>x</b>&\"" + String(repeating: "0", count: 200)).prefix(140)))
        let c5Statement = try Self.scan(serve.base.absoluteString + c5, in: project.folder)
        #expect(c5Statement.map { Self.fields($0).last } == ["C-5\"><script>alert(1)</script>"])
        for page in ["index.html", "client.html"] {
            let html = try project.text(c5 + page)
            #expect(!html.contains("<script>alert") && !html.contains("<b>x</b>"))
        }
    }

    @Test(.temporaryFolder) func onlyOwedEuroAmountsGetACodeAndPayLinksAreEncoded() throws {
        let project = try Self.project()
        #expect(try CLI.run(["build", "--quiet"], in: project.url).status == 0)
        let links = try project.links()
        func pages(_ number: String) throws -> [String] {
            let folder = try #require(links[number])
            return try [project.text(folder + "index.html"), project.text(folder + "client.html")]
        }
        // CHF: the pay link, no code, no IBAN.
        for html in try pages("C-2") {
            #expect(!html.contains("<svg class=\"qr\"") && !html.contains("DE89 3704"))
            #expect(html.contains("href=\"https://pay.example.com/C-2/INV-20?amount=1077.00&amp;currency=CHF\"")
                || html.contains("href=\"https://pay.example.com/C-2/?amount=1077.00&amp;currency=CHF\""))
        }
        // Nothing owed (zero) or the client's credit (negative): nothing to pay.
        for number in ["C-3", "C-4"] {
            for html in try pages(number) { #expect(!html.contains("<div class=\"pay\">") && !html.contains("<svg class=\"qr\""), "\(number)") }
        }
        // The transfer details as text beside the code, the IBAN in groups of four.
        let c1 = try pages("C-1")
        #expect(c1[0].contains("<dd class=\"iban\">DE89 3704 0044 0532 0130 00</dd>") && c1[0].contains("<dd>EUR\u{A0}1,500.00</dd>"))
        #expect(c1[0].contains("href=\"https://pay.example.com/C-1/?amount=1500.00&amp;currency=EUR\""))
        #expect(c1[1].contains("href=\"https://pay.example.com/C-1/INV-10?amount=1200.00&amp;currency=EUR\""))
        // A hostile number is percent-encoded into one path segment: the link stays on the payment host.
        let hostile = try pages(try #require(links.keys.first { $0.hasPrefix("C-5") }))
        let hrefs = hostile[0].matches(of: /href="([^"]*)"/).map { String($0.output.1) }
        let pay = try #require(hrefs.first { $0.hasPrefix("https://") })
        #expect(pay == "https://pay.example.com/C-5%22%3E%3Cscript%3Ealert%281%29%3C%2Fscript%3E/?amount=25.00&amp;currency=EUR")
        // The public statement has the same code and link; the site's own pages link to each other as before.
        #expect(try project.text("statements/c-1-muller-sohne.html").contains("<svg class=\"qr\""))
    }

    /// The private pages link only to each other, `mailto:` and the pay links, and name no other client.
    @Test(.temporaryFolder) func thePrivatePagesShowNothingOfAnyOtherClient() throws {
        let project = try Self.project()
        #expect(try CLI.run(["build", "--quiet"], in: project.url).status == 0)
        let c1 = try #require(try project.links()["C-1"])
        for page in ["index.html", "client.html"] {
            let html = try project.text(c1 + page)
            for other in ["C-2", "Zürich", "C-3", "Paid Up", "C-4", "Overpaid", "C-5", "INV-20", "INV-30", "INV-40", "INV-50"] {
                #expect(!html.contains(other), "\(page) names \(other)")
            }
            for href in html.matches(of: /href="([^"]*)"/).map({ String($0.output.1) }) {
                #expect(["index.html", "client.html"].contains(href) || href.hasPrefix("https://pay.example.com/C-1/"), "\(page): \(href)")
            }
            #expect(!html.contains("<link rel=\"stylesheet\""), "the style is inline")
        }
        #expect(try project.text(c1 + "index.html").contains("<a href=\"client.html\">C-1</a>"))
        #expect(try project.text(c1 + "client.html").contains("<a href=\"index.html\">Statement of account</a>"))
    }

    @Test(.temporaryFolder) func aBadIBANExits65NamingTheKeyAndCheckSaysSo() throws {
        let project = try Self.project()
        #expect(try CLI.run(["check"], in: project.url).status == 0)
        let bad = Self.config.replacingOccurrences(of: "0130 00", with: "0130 01")
        try bad.write(toFile: project.folder.path("invoices.yaml"), atomically: true, encoding: .utf8)
        for command in [["check"], ["build", "--quiet"]] {
            let result = try CLI.run(command, in: project.url)
            // `check` reports on standard output, `build` on standard error.
            let output = result.stdout + result.stderr
            #expect(result.status == 65, "\(command): \(output)")
            #expect(output.contains("invoices.yaml:6:") && output.contains("payee.iban") && output.contains("check digits"), "\(output)")
            #expect(!output.contains("0532"), "the message never repeats the account")
        }
        #expect(!FileManager.default.fileExists(atPath: project.folder.path("site")))
        let noWay = Self.config.replacingOccurrences(of: "  iban: DE89 3704 0044 0532 0130 00\n", with: "")
            .replacingOccurrences(of: "  payment_url: https://pay.example.com/{client}/{invoice}?amount={amount}&currency={currency}\n", with: "")
        try noWay.write(toFile: project.folder.path("invoices.yaml"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["check"], in: project.url)
        #expect(result.status == 65 && result.stdout.contains("payee needs an iban") && result.stdout.contains("payment_url"), "\(result.stdout)")
    }
}

fileprivate extension TestProject {
    /// The private folder (`c/<token>/`) of each client number, from `invoices links`.
    func links() throws -> [String: String] {
        let result = try CLI.run(["links", "--store", store, "--client-links", path("link.key")])
        #expect(result.status == 0, "\(result.stderr)")
        var links: [String: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            links[String(fields[0])] = String(fields[2])
        }
        return links
    }
}
