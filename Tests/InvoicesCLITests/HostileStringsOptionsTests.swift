import Foundation
import InvoicesTesting
import Testing

/// The hostile strings again, with every option that draws more of the page on (issue 41): a payee with an IBAN and
/// a pay link (payment codes on statements and client pages), client links (the private `c/<token>/` copies),
/// `public`, a base URL, a fiscal year from April, a page size of 10 (every long list on pages of its own), the
/// spreadsheet CSV dialect and exchange rates; and the values arriving through e-invoices (UBL and CII, one Factur-X PDF with hostile attachment
/// names) as well as through the store.
extension HostileStringsTests {
    /// The link injection of issue 41: two line feeds in an invoice number ended the HTML block the QR code's
    /// `aria-label` sat in, and cmark rendered the rest as Markdown (a link, a `javascript:` link and an image).
    static let linkInjection =
        "INV-1\n\n[Pay to our NEW bank account](https://evil.example/steal) [js](javascript:alert(1)) ![t](https://evil.example/t.png)"

    static let paymentPrefix = "https://pay.example.com/"
    static let baseURL = "https://reports.example.com/books/"

    /// The project file of site `name` (`plain` or `hostile`): every option on.
    static func optionsConfig(_ name: String) -> String {
        """
        title: Hostile options
        store: \(name).sqlite
        output: \(name)
        base_url: \(baseURL)
        public: true
        fiscal_year_start: 04
        page_size: 10
        csv_dialect: excel
        aging_buckets: [15, 45, 120]
        client_links: link.key
        payee:
          name: Example Studio GmbH
          iban: DE89 3704 0044 0532 0130 00
          bic: COBADEFFXXX
          payment_url: \(paymentPrefix){client}/{invoice}?amount={amount}&currency={currency}

        """
    }

    /// Whether an e-invoice can carry `value` in its XML: no control characters XML 1.0 forbids, and short enough to
    /// stay far from the importer's limits.
    static func fitsXML(_ value: String) -> Bool {
        value.utf8.count < 2000 && !value.unicodeScalars.contains {
            ($0.value < 0x20 && !["\t", "\n", "\r"].contains($0)) || $0.value == 0xFFFE || $0.value == 0xFFFF
        }
    }

    /// `text` escaped for XML character data; CR as a reference, so the parser keeps it.
    static func xml(_ text: String) -> String {
        [("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("\"", "&quot;"), ("\r", "&#13;")]
            .reduce(text) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }

    /// The e-invoices of one site: one per value, UBL and CII in turn, the value (after `E<n> `) as the invoice
    /// number (BT-1), the buyer's identifier (BT-46), name (BT-44), street, city, postcode and a note (BT-22); the
    /// first one's number is `firstNumber` as it is.
    func eInvoices(_ values: [String], firstNumber: String, in folder: TemporaryFolder, name: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: folder.path("\(name)-einvoices"), withIntermediateDirectories: true)
        var files: [String] = []
        for (index, value) in values.enumerated() {
            // A prefix keeps each buyer and invoice apart from the store's own rows holding the same value.
            let text = Self.xml("E\(index) " + value)
            var document = EInvoiceImportTests.Document()
            document.number = index == 0 ? Self.xml(firstNumber) : text
            document.buyerID = text
            document.buyerName = text
            document.notes = [text]
            document.issued = "2025-05-01"
            document.due = "2025-05-31"
            // The last one goes into the Factur-X PDF, which carries CII.
            var xml = index % 2 == 0 && index < values.count - 1 ? document.ubl : document.cii
            for (field, tag) in [("Hauptstraße 1", "street"), ("Berlin", "city"), ("10115", "zip")] {
                xml = xml.replacingOccurrences(of: ">\(field)<", with: ">\(tag) \(text)<")
            }
            let path = folder.path("\(name)-einvoices/\(String(format: "%03d", index)).xml")
            try xml.write(toFile: path, atomically: true, encoding: .utf8)
            files.append(path)
        }
        return files
    }

    @Test(.temporaryFolder) func hostileStringsWithEveryOptionOnStayText() throws {
        let folder = try TemporaryFolder.current
        let corpus = Self.corpus + ["C-1\n\n[Pay to our NEW bank account](https://evil.example/steal) [js](javascript:alert(1)) ![t](https://evil.example/t.png)"]
        let eValues = [Self.linkInjection] + Self.corpus.filter(Self.fitsXML)
        try String(repeating: "k3y", count: 16).write(toFile: folder.path("link.key"), atomically: true, encoding: .utf8)
        try "date,from,to,rate\n2025-01-01,USD,EUR,0.9\n".write(toFile: folder.path("rates.csv"), atomically: true, encoding: .utf8)
        for name in ["plain", "hostile"] {
            let hostile = name == "hostile"
            let store = folder.path("\(name).sqlite")
            // E-invoices first (the import makes the store), one PDF among them with hostile attachment names.
            var files = try eInvoices(
                hostile ? eValues : eValues.indices.map { "eplain\($0)" }, firstNumber: hostile ? Self.linkInjection : "INV-1",
                in: folder, name: name)
            let pdf = folder.path("\(name)-einvoices/facturx.pdf")
            var attach = "--add-attachment '\(files.removeLast())' --key=factur-x.xml --filename=factur-x.xml --mimetype=text/xml --"
            let attachments: [String] = hostile ? ["<img src=x onerror=alert(1)>.xml", "[a](javascript:alert(1))\n\n.xml"] : ["a.xml", "b.xml"]
            for (index, attachment) in attachments.enumerated() {
                let extra = folder.path("\(name)-einvoices/extra\(index).txt")
                try "x".write(toFile: extra, atomically: true, encoding: .utf8)
                let quoted = "'" + attachment.replacingOccurrences(of: "'", with: "'\\''") + "'"
                attach += " --add-attachment '\(extra)' --key=\(quoted) --filename=\(quoted) --"
            }
            let qpdf = try CLI.shell("qpdf --empty \(attach) '\(pdf)'")
            #expect(qpdf.status == 0, "qpdf (make test installs it): \(qpdf.stderr)")
            let imported = try CLI.run(["import", "--store", store] + files + [pdf])
            #expect(imported.status == 0, "\(imported.stderr)")
            // Then the store's own rows, and one client in dollars for the rates.
            var sql = ""
            for (index, value) in (hostile ? corpus : corpus.indices.map { "plain\($0)" }).enumerated() {
                let text = "CAST(x'\(value.utf8.map { String(format: "%02x", $0) }.joined())' AS TEXT)"
                sql += """
                    INSERT INTO client (id, number, name, email, street, city, zip, country)
                      VALUES (\(1000 + index), \(text), \(text), \(text), \(text), \(text), \(text), \(text));
                    INSERT INTO invoice (id, identifier, clientId, amount, currency, notes, issuedOn, dueOn)
                      VALUES (\(1000 + index), \(text), \(1000 + index), \(100 + index), 'EUR', \(text), '2025-01-10', '2025-02-10');

                    """
            }
            sql += """
                INSERT INTO client (id, number, name) VALUES (999, 'R-1', 'Dollar client');
                INSERT INTO invoice (id, identifier, clientId, amount, currency, issuedOn, dueOn) VALUES (999, 'R-INV', 999, 5000, 'USD', '2025-04-10', '2025-05-10');
                """
            try StoreFixture.make(at: store, sql: sql, withSchema: false)
            try Self.optionsConfig(name).write(toFile: folder.path("\(name).yaml"), atomically: true, encoding: .utf8)
            let result = try CLI.run([
                "build", "--config", folder.path("\(name).yaml"), "--rates", folder.path("rates.csv"), "--base-currency", "EUR", "--quiet",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(FileManager.default.fileExists(atPath: folder.path("\(name)/c")), "client links write c/<token>/")
            let totals = try Data(contentsOf: URL(fileURLWithPath: folder.path("\(name)/totals.csv")))
            #expect(totals.starts(with: [0xEF, 0xBB, 0xBF]), "csv_dialect: excel writes a byte order mark")
        }
        // What each client's fields hold: the store's rows as written, the imported ones as the store has them (the
        // XML parser's line-end normalization included).
        let imported = try StoreFixture.query(
            folder.path("hostile.sqlite"),
            "SELECT c.number, c.name, c.email, c.street, c.city, c.zip, c.country, i.identifier, i.notes FROM client c JOIN invoice i ON i.clientId = c.id WHERE c.id < 999")
        #expect(imported.count == eValues.count)
        #expect(imported.contains { $0["identifier"] == Self.linkInjection }, "the e-invoice's BT-1 reached the store as it is")
        let expected = corpus.map { value in Dictionary(uniqueKeysWithValues: Self.fields.map { ($0, value) }) }
            + imported.map { row in Dictionary(uniqueKeysWithValues: Self.fields.map { ($0, row[$0] ?? "") }) }
        try JSONSerialization.data(withJSONObject: expected).write(to: folder.url.appendingPathComponent("expected.json"))
        let options: [String: Any] = ["lists": true, "external": [Self.paymentPrefix, Self.baseURL]]
        try JSONSerialization.data(withJSONObject: options).write(to: folder.url.appendingPathComponent("options.json"))
        try Data(hostileStringsChecker.utf8).write(to: folder.url.appendingPathComponent("check.py"))
        let hasHTML5Lib = ensureHTML5Lib()
        let check = try runShell(
            "python3 '\(folder.path("check.py"))' '\(folder.path("plain"))' '\(folder.path("hostile"))' '\(folder.path("expected.json"))' '\(folder.path("options.json"))'")
        #expect(check.status == 0, "\(check.stderr)")
        var lines = check.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "parser: \(hasHTML5Lib ? "html5lib" : "html.parser")")
        if !lines.isEmpty { lines.removeFirst() }
        #expect(lines.isEmpty, "\(lines.count) problems:\n\(lines.prefix(30).joined(separator: "\n"))")
        // The payment codes were drawn: the options did what they say on the hostile site too.
        let hostileClients = try FileManager.default.subpathsOfDirectory(atPath: folder.path("hostile/c"))
        let codes = try hostileClients.filter { $0.hasSuffix("client.html") }.filter {
            try String(contentsOfFile: folder.path("hostile/c/\($0)"), encoding: .utf8).contains("<svg class=\"qr\"")
        }
        #expect(codes.count >= eValues.count, "\(codes.count) private client pages with a payment code")
    }

    /// A payee name no payment code can hold, a letter with 200 combining marks (401 bytes, one character), is
    /// refused by `check` and `build` alike: exit 65 naming the key and the limit. 70 emoji of 25 bytes are cut to
    /// the four that fit. Before issue 41, `check` passed both and `build` crashed on them.
    @Test(.temporaryFolder) func aPayeeNameThatCannotFitIsRefusedByCheckAndBuildAlike() throws {
        let folder = try TemporaryFolder.current
        try StoreFixture.make(at: folder.path("books.sqlite"), sql: """
            INSERT INTO client (id, number, name) VALUES (1, 'C-1', 'Acme');
            INSERT INTO invoice (identifier, clientId, amount, currency, issuedOn, dueOn) VALUES ('INV-1', 1, 100, 'EUR', '2025-01-10', '2025-02-10');
            """)
        func configure(_ name: String) throws {
            try "store: books.sqlite\noutput: site\npayee:\n  name: \"\(name)\"\n  iban: DE89 3704 0044 0532 0130 00\n"
                .write(toFile: folder.path("invoices.yaml"), atomically: true, encoding: .utf8)
        }
        try configure(String(repeating: "👩‍👩‍👧‍👦", count: 70))
        #expect(try CLI.run(["check"], in: folder.url).status == 0)
        let built = try CLI.run(["build", "--quiet"], in: folder.url)
        #expect(built.status == 0, "\(built.stderr)")
        let statements = try FileManager.default.contentsOfDirectory(atPath: folder.path("site/statements"))
        let statement = try String(contentsOfFile: folder.path("site/statements/" + (statements.first ?? "")), encoding: .utf8)
        #expect(statement.contains("<svg class=\"qr\""))
        try configure("A" + String(repeating: "\u{0301}", count: 200))
        for command in [["check"], ["build", "--quiet"]] {
            let result = try CLI.run(command, in: folder.url)
            let output = result.stdout + result.stderr
            #expect(result.status == 65, "\(command): \(output)")
            #expect(output.contains("invoices.yaml:4:") && output.contains("payee.name") && output.contains("111 bytes"), "\(output)")
        }
    }
}
