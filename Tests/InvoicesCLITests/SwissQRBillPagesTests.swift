import Foundation
import InvoicesTesting
import Testing

/// The Swiss QR-bill on real statements (issue 43): built from a store and a project file, screenshot by headless
/// Chromium, read back by zbarimg, and compared field by field with what PyPI's `qrbill` library makes of the same
/// data; the reference's check digit verified by python-stdnum (qrbill's own dependency), apart from our code.
@Suite(.serialized)
struct SwissQRBillPagesTests {
    /// C-1 (Schweiz) owes CHF 1,949.75 and EUR 120.00; C-2 (France) owes EUR 500.00 and CHF 80.00.
    static let books = """
        INSERT INTO client (id, number, name, street, city, zip, country) VALUES
          (1, 'C-1', 'Pia-Maria Rutschmann-Schnyder', 'Grosse Marktgasse 28', 'Rorschach', '9400', 'Schweiz'),
          (2, 'C-2', 'Bistro Lyon', 'Rue de la République 1', 'Lyon', '69001', 'France');
        INSERT INTO invoice (id, identifier, clientId, amount, currency, issuedOn, dueOn) VALUES
          (1, 'INV-1', 1, 194975, 'CHF', '2025-05-01', '2025-05-31'), (2, 'INV-2', 1, 12000, 'EUR', '2025-05-02', '2025-06-01'),
          (3, 'INV-3', 2, 50000, 'EUR', '2025-05-03', '2025-06-02'), (4, 'INV-4', 2, 8000, 'CHF', '2025-05-04', '2025-06-03');
        """
    static func config(account: String = "qr_bill:\n    iban: CH44 3199 9123 0008 8901 2", address: String? = nil) -> String {
        """
        store: books.sqlite
        output: site
        payee:
          name: Robert Schneider AG
          iban: DE89 3704 0044 0532 0130 00
          bic: COBADEFFXXX
        \(address ?? "  address:\n    street: Rue du Lac\n    number: \"1268\"\n    zip: \"2501\"\n    city: Biel\n    country: CH")
          \(account)

        """
    }

    /// The books and `config`, in the test's folder.
    static func project(config: String = SwissQRBillPagesTests.config()) throws -> TestProject {
        let project = try TestProject()
        try StoreFixture.make(at: project.store, sql: SwissQRBillPagesTests.books, version: 3)
        try project.write("invoices.yaml", config)
        return project
    }

    /// Every code zbarimg reads on a Chromium screenshot of `url`, as the bytes the code holds (`-Sbinary`: zbar would
    /// otherwise guess a legacy character set for UTF-8 text without an ECI header and garble `é`), split where each
    /// payload starts (`SPC` CR LF `0200`, or the EPC code's `BCD` LF `002`): zbar writes them one after the other.
    static func scan(_ url: String, in folder: TemporaryFolder) throws -> [String] {
        let png = try PaymentPagesTests.screenshot(url, in: folder)
        let result = try CLI.shell("zbarimg -q --raw -Sbinary '\(png)' 2>/dev/null")
        let text = result.stdout
        var starts: [String.Index] = []
        for marker in ["SPC\r\n0200", "BCD\n002\n"] {
            var search = text.startIndex..<text.endIndex
            while let found = text.range(of: marker, options: .literal, range: search) {
                starts.append(found.lowerBound)
                search = found.upperBound..<text.endIndex
            }
        }
        starts.sort()
        return zip(starts, starts.dropFirst().map(Optional.some) + [nil]).map { start, end in String(text[start..<(end ?? text.endIndex)]) }.sorted()
    }

    /// Runs `script` with python3; the qrbill library (and python-stdnum with it) must be installed (make test-deps).
    static func python(_ script: String, in folder: TemporaryFolder) throws -> String {
        let file = folder.path("script-\(UUID().uuidString).py")
        try script.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try CLI.shell("python3 '\(file)'")
        #expect(result.status == 0, "python3 with qrbill failed (make test-deps installs it): \(result.stderr)")
        return result.stdout
    }

    /// qrbill's payload for the same bill, and stdnum's verdict on the reference.
    static func qrbill(account: String, amount: String, currency: String, reference: String, in folder: TemporaryFolder) throws -> (payload: String, valid: String) {
        let payload = try python(
            """
            import sys
            from qrbill import QRBill
            from stdnum.ch import esr
            from stdnum import iso11649
            bill = QRBill(account='\(account)', amount='\(amount)', currency='\(currency)',
                creditor={'name': 'Robert Schneider AG', 'street': 'Rue du Lac', 'house_num': '1268', 'pcode': '2501', 'city': 'Biel', 'country': 'CH'},
                debtor={'name': 'Pia-Maria Rutschmann-Schnyder', 'street': 'Grosse Marktgasse 28', 'pcode': '9400', 'city': 'Rorschach', 'country': 'CH'},
                reference_number='\(reference)', additional_information='C-1')
            sys.stdout.write(bill.qr_data())
            sys.stdout.write('\\n--valid--' + str(esr.is_valid('\(reference)') if '\(reference)'[:2] != 'RF' else iso11649.is_valid('\(reference)')))
            """, in: folder)
        let parts = payload.components(separatedBy: "\n--valid--")
        return (parts[0], parts.count > 1 ? parts[1] : "")
    }

    static func fields(_ payload: String) -> [String] { payload.components(separatedBy: "\r\n") }

    @Test(.temporaryFolder) func aQRIBANsBillScansAsQrbillMakesItWithAValidQRReference() throws {
        let project = try Self.project()
        let build = try CLI.run(["build", "--quiet"], in: project.url)
        #expect(build.status == 0, "\(build.stderr)")
        let codes = try Self.scan(try project.statement("C-1"), in: project.folder)
        #expect(codes.count == 2, "\(codes)")
        let chf = try #require(codes.first { Self.fields($0).count > 19 && Self.fields($0)[19] == "CHF" })
        let fields = Self.fields(chf)
        #expect(fields.count == 31 && fields[27] == "QRR", "\(fields)")
        let reference = fields[28]
        // 18 digits of the client id, the statement's end (2025-05-31, the last reported month's end), the check digit.
        #expect(reference.hasPrefix("000000000000000001" + "20250531") && reference.count == 27, "\(reference)")
        let python = try Self.qrbill(account: "CH4431999123000889012", amount: "1949.75", currency: "CHF", reference: reference, in: project.folder)
        #expect(python.valid == "True", "stdnum says the QR reference's check digit is wrong: \(reference)")
        let expected = Self.fields(python.payload)
        #expect(fields.count == expected.count)
        for (index, (ours, theirs)) in zip(fields, expected).enumerated() where ours != theirs {
            Issue.record("field \(index): ours \(ours.debugDescription), qrbill's \(theirs.debugDescription)")
        }
        // The Swiss client's EUR balance: a QR-bill too, in EUR, with the same reference.
        let eur = try #require(codes.first { Self.fields($0).count > 19 && Self.fields($0)[19] == "EUR" })
        #expect(Self.fields(eur)[18] == "120.00" && Self.fields(eur)[28] == reference && Self.fields(eur)[3] == "CH4431999123000889012")
        // The page shows the reference in blocks and the bill's headings, and no EPC code for the Swiss client.
        let html = try String(contentsOf: URL(string: try project.statement("C-1"))!, encoding: .utf8)
        #expect(html.contains("class=\"qr-bill\"") && html.contains("Payment part") && html.contains("Acceptance point"))
        #expect(!html.contains("<svg class=\"qr\""))
        // The bill alone: no list of amount, reference and IBAN under it (the EPC code's).
        let bills = html.components(separatedBy: "<div class=\"pay\">").dropFirst()
        #expect(bills.count == 2 && bills.allSatisfy { !($0.components(separatedBy: "</div>").first ?? "").contains("<dl>") })

        // The French client: EUR keeps the EPC code, CHF gets the QR-bill with the French client as debtor.
        let french = try Self.scan(try project.statement("C-2"), in: project.folder)
        #expect(french.contains { $0.hasPrefix("BCD\n002\n1\nSCT\nCOBADEFFXXX\nRobert Schneider AG\nDE89370400440532013000\nEUR500.00") }, "\(french)")
        let frenchBill = try #require(french.first { $0.hasPrefix("SPC") })
        // Its EPC code keeps the list under it; its QR-bill has none.
        let frenchHTML = try String(contentsOf: URL(string: try project.statement("C-2"))!, encoding: .utf8)
        let blocks = frenchHTML.components(separatedBy: "<div class=\"pay\">").dropFirst().map { $0.components(separatedBy: "</div>").first ?? "" }
        #expect(blocks.contains { $0.contains("<svg class=\"qr\"") && $0.contains("<dl>\n<dt>Amount</dt>") })
        #expect(blocks.contains { $0.contains("<svg class=\"qr-bill\"") && !$0.contains("<dl>") })
        #expect(Self.fields(frenchBill)[20...26] == ["S", "Bistro Lyon", "Rue de la République 1", "", "69001", "Lyon", "FR"])
    }

    @Test(.temporaryFolder) func aPlainSwissIBANsBillHasAValidCreditorReference() throws {
        let project = try Self.project(config: Self.config(account: "qr_bill:\n    iban: CH93 0076 2011 6238 5295 7"))
        #expect(try CLI.run(["build", "--quiet"], in: project.url).status == 0)
        let codes = try Self.scan(try project.statement("C-1"), in: project.folder)
        let chf = Self.fields(try #require(codes.first { Self.fields($0).count > 19 && Self.fields($0)[19] == "CHF" }))
        #expect(chf[27] == "SCOR" && chf[28].hasPrefix("RF") && chf[28].hasSuffix("202505311"), "\(chf)")
        let python = try Self.qrbill(account: "CH9300762011623852957", amount: "1949.75", currency: "CHF", reference: chf[28], in: project.folder)
        #expect(python.valid == "True", "stdnum says the creditor reference's check digits are wrong: \(chf[28])")
        #expect(chf == Self.fields(python.payload))
    }

    @Test(.temporaryFolder) func checkRefusesANonSwissAccountAndAMissingAddressField() throws {
        let project = try Self.project()
        #expect(try CLI.run(["check"], in: project.url).status == 0)
        let german = Self.config(account: "qr_bill:\n    iban: DE89 3704 0044 0532 0130 00")
        try german.write(toFile: project.folder.path("invoices.yaml"), atomically: true, encoding: .utf8)
        for command in [["check"], ["build", "--quiet"]] {
            let result = try CLI.run(command, in: project.url)
            let output = result.stdout + result.stderr
            #expect(result.status == 65, "\(command): \(output)")
            #expect(output.contains("invoices.yaml:14:") && output.contains("payee.qr_bill.iban is not a Swiss or Liechtenstein IBAN"), "\(output)")
            #expect(!output.contains("0532"), "the message never repeats the account")
        }
        let noCity = Self.config(address: "  address:\n    street: Rue du Lac\n    zip: \"2501\"\n    country: CH")
        try noCity.write(toFile: project.folder.path("invoices.yaml"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["check"], in: project.url)
        #expect(result.status == 65 && result.stdout.contains("payee.address needs 'city'"), "\(result.stdout)")
        // A CH payee.iban needs the address too.
        let swissIBAN = Self.config(account: "", address: "").replacingOccurrences(of: "DE89 3704 0044 0532 0130 00", with: "CH93 0076 2011 6238 5295 7")
        try swissIBAN.write(toFile: project.folder.path("invoices.yaml"), atomically: true, encoding: .utf8)
        let missing = try CLI.run(["check"], in: project.url)
        #expect(missing.status == 65 && missing.stdout.contains("payee.address needs 'street', 'zip', 'city', 'country'"), "\(missing.stdout)")
        #expect(!FileManager.default.fileExists(atPath: project.folder.path("site")))
    }

    @Test(.temporaryFolder) func withoutASwissAccountCHFGetsNoCodeAndCheckWarns() throws {
        let project = try Self.project(config: Self.config(account: ""))
        let check = try CLI.run(["check"], in: project.url)
        #expect(check.status == 0, "\(check.stdout)")
        #expect(check.stdout.contains("warning: ") && check.stdout.contains("invoices.yaml: 2 client(s) owe CHF (C-1, C-2) and the payee has no Swiss account"), "\(check.stdout)")
        let json = try CLI.run(["check", "--format", "json"], in: project.url)
        #expect(json.status == 0 && json.stdout.contains("\"kind\" : \"qrBill\"") && json.stdout.contains("\"severity\" : \"warning\""), "\(json.stdout)")
        #expect(try CLI.run(["build", "--quiet"], in: project.url).status == 0)
        // The Swiss client's EUR keeps the EPC code; its CHF gets none.
        let codes = try Self.scan(try project.statement("C-1"), in: project.folder)
        #expect(codes.count == 1 && codes[0].hasPrefix("BCD") && codes[0].contains("\nEUR120.00\n"), "\(codes)")
    }
}

fileprivate extension TestProject {
    /// The `file://` address of client `number`'s statement page.
    func statement(_ number: String) throws -> String {
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: path("site/statements")).first { $0.hasPrefix(number.lowercased() + "-") })
        return "file://" + path("site/statements/" + name)
    }
}
