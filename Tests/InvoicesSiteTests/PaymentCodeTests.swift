@testable import InvoicesSite
import Foundation
import Testing

/// The payee's checks, the EPC069-12 payload and the QR symbol (issue 33); the pages and a real scan are in
/// `PaymentPagesTests` (InvoicesCLITests).
struct PaymentCodeTests {
    /// IBANs of the registry's examples, printed or electronic, any case.
    @Test(arguments: [
        "DE89370400440532013000", "DE89 3704 0044 0532 0130 00", "GB82WEST12345698765432", "gb82 west 1234 5698 7654 32",
        "FR1420041010050500013M02606", "NL91ABNA0417164300", "BE68539007547034", "MT84MALT011000012345MTLCAST001S",
    ])
    func validIBANsPass(iban: String) {
        #expect(Payee.ibanProblem(iban) == nil)
    }

    /// Wrong check digits, a swapped pair, wrong lengths, letters where digits go, unknown countries.
    @Test(arguments: [
        ("DE89370400440532013001", "check digits"),  // the last digit changed
        ("DE89370400440532010300", "check digits"),  // two digits swapped
        ("DE8937040044053201300", "has 21 characters; an IBAN of DE has 22"),
        ("DE893704004405320130000", "has 23 characters"),
        ("D889370400440532013000", "two-letter country code"),  // a digit where a letter goes
        ("DEX9370400440532013000", "two check digits"),  // a letter where a check digit goes
        ("ZZ89370400440532013000", "not a country of the IBAN registry"),
        ("DE89-3704-0044-0532-0130-00", "only letters, digits and spaces"),
        ("DE89\n370400440532013000", "only letters, digits and spaces"),
        ("", "two-letter country code"),
    ])
    func badIBANsAreRefusedSayingWhy(iban: String, expected: String) throws {
        let problem = try #require(Payee.ibanProblem(iban))
        #expect(problem.contains(expected), "\(problem)")
        #expect(!problem.contains("370400"), "the message never repeats the account")
    }

    @Test func bicsAreEightOrElevenCharacters() {
        #expect(Payee.bicProblem("COBADEFFXXX") == nil && Payee.bicProblem("cobadeff") == nil)
        for bad in ["COBADEF", "COBADEFFXX", "C0BADEFF", "COBA DEFF", "COBADEFFXXXX"] { #expect(Payee.bicProblem(bad) != nil, "\(bad)") }
    }

    @Test func paymentURLsTakeOnlyTheFourPlaceholdersAndNoneInTheHost() {
        #expect(Payee.paymentURLProblem("https://pay.example.com/{client}/{invoice}?amount={amount}&c={currency}") == nil)
        #expect(Payee.paymentURLProblem("https://pay.example.com/pay") == nil)
        #expect(Payee.paymentURLProblem("https://pay.example.com/{name}")?.contains("unknown placeholder {name}") == true)
        #expect(Payee.paymentURLProblem("https://pay.example.com/{client")?.contains("brace") == true)
        #expect(Payee.paymentURLProblem("https://pay.example.com/client}")?.contains("brace") == true)
        #expect(Payee.paymentURLProblem("https://{client}.example.com/")?.contains("host") == true)
        #expect(Payee.paymentURLProblem("https://pay.example.com{client}")?.contains("host") == true)
        #expect(Payee.paymentURLProblem("javascript:alert(1)//{client}")?.contains("absolute http") == true)
        #expect(Payee.paymentURLProblem("/pay/{client}")?.contains("absolute http") == true)
        #expect(Payee.paymentURLProblem("https://pay.example.com/\"><x>") != nil)
        #expect(Payee.paymentURLProblem("https://u:p@pay.example.com/") != nil)
    }

    /// Every value is percent-encoded but for the unreserved characters: none adds a path, query or fragment.
    @Test func payLinksEncodeEveryValue() throws {
        let payee = Payee(name: "X", paymentURL: "https://pay.example.com/{client}/{invoice}?amount={amount}&currency={currency}")
        let url = try #require(payee.payURL(client: "C-1/../admin?x=1#y", invoice: "INV 7&amount=0", amount: "12.50", currency: "EUR"))
        #expect(url == "https://pay.example.com/C-1%2F..%2Fadmin%3Fx%3D1%23y/INV%207%26amount%3D0?amount=12.50&currency=EUR")
        let components = try #require(URLComponents(string: url))
        #expect(components.host == "pay.example.com" && components.fragment == nil)
        #expect(components.queryItems?.map(\.name) == ["amount", "currency"])
        #expect(payee.payURL(client: "C-1", invoice: nil, amount: "1", currency: "CHF") == "https://pay.example.com/C-1/?amount=1&currency=CHF")
    }

    static let payee = Payee(name: "Example Studio GmbH", iban: "de89 3704 0044 0532 0130 00", bic: "cobadeffxxx")

    /// The twelve fields of EPC069-12 version 002, the trailing empty one left out.
    @Test func thePayloadHasTheEPCFieldsInOrder() throws {
        let payment = try #require(EPCPayment(payee: Self.payee, cents: 150_000, remittance: "INV-10"))
        #expect(payment.payload == "BCD\n002\n1\nSCT\nCOBADEFFXXX\nExample Studio GmbH\nDE89370400440532013000\nEUR1500.00\n\n\nINV-10")
        let noBIC = try #require(EPCPayment(payee: Payee(name: "A", iban: "DE89370400440532013000"), cents: 1, remittance: "C-1"))
        #expect(noBIC.payload?.split(separator: "\n", omittingEmptySubsequences: false)[4] == "")
        #expect(noBIC.payload?.contains("\nEUR0.01\n") == true)
    }

    @Test func onlyAmountsTheCodeCarriesGetACode() {
        #expect(EPCPayment(payee: Self.payee, cents: 0, remittance: "x") == nil)
        #expect(EPCPayment(payee: Self.payee, cents: -500, remittance: "x") == nil)
        #expect(EPCPayment(payee: Self.payee, cents: 100_000_000_000, remittance: "x") == nil)
        #expect(EPCPayment(payee: Self.payee, cents: 99_999_999_999, remittance: "x")?.payload?.contains("EUR999999999.99") == true)
        #expect(EPCPayment(payee: Payee(name: "A", paymentURL: "https://p.example/"), cents: 100, remittance: "x") == nil)
    }

    /// Line breaks, controls and bidi overrides cannot add or move a field; long values are cut to the limits.
    @Test func hostileValuesStayInTheirFieldAndAreCutToTheLimits() throws {
        let hostile = "INV-1\nBCD\r\n002\u{0}\u{1B}[2J\u{2028}\u{202E}evil\u{2066}" + String(repeating: "é", count: 300)
        let payee = Payee(name: "Name\nwith\tbreaks " + String(repeating: "N", count: 100), iban: "DE89370400440532013000")
        let payment = try #require(EPCPayment(payee: payee, cents: 1234, remittance: hostile))
        let payload = try #require(payment.payload)
        let fields = payload.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(fields.count == 11, "\(fields)")
        #expect(fields[5].count == 70 && fields[5].hasPrefix("Name with breaks NNN"))
        #expect(fields[7] == "EUR12.34")
        #expect(fields[10].hasPrefix("INV-1 BCD  002  [2J  evil "), "\(fields[10])")
        #expect(fields[10].count <= 140)
        #expect(payload.utf8.count <= 331, "the payload's byte limit: \(payload.utf8.count)")
        #expect(!payload.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" })
        // ASCII text gets the full 140 characters.
        let long = try #require(EPCPayment(payee: Self.payee, cents: 1, remittance: String(repeating: "R", count: 200)))
        #expect(long.payload?.split(separator: "\n", omittingEmptySubsequences: false)[10].count == 140)
    }

    /// The symbol is libqrencode's: a version-1 code is 21 modules with the three finder patterns; the SVG draws
    /// the dark runs inside a four-module quiet zone and escapes its label.
    @Test func theSymbolHasFinderPatternsAndTheSVGAQuietZone() throws {
        let code = try #require(QRCode(bytes: Array("HELLO".utf8)))
        #expect(code.width == 21)
        for (row, column) in [(0, 0), (0, 14), (14, 0)] {
            // A finder pattern: a dark 7×7 ring around a light ring around a dark 3×3 square.
            #expect((0..<7).allSatisfy { code[row, column + $0] && code[row + 6, column + $0] && code[row + $0, column] })
            #expect(!code[row + 1, column + 1] && code[row + 3, column + 3])
        }
        let svg = code.svg(label: "pay <me> & \"you\"")
        #expect(svg.contains("viewBox=\"0 0 29 29\"") && svg.contains("M4 4h7v1h-7z"))
        #expect(svg.contains("aria-label=\"pay &lt;me&gt; &amp; &quot;you&quot;\""))
        #expect(QRCode(bytes: []) == nil && QRCode(bytes: Array(repeating: 65, count: 3000)) == nil)
    }

    @Test func theIBANPrintsInGroupsOfFour() {
        #expect(Payee.printedIBAN("DE89370400440532013000") == "DE89 3704 0044 0532 0130 00")
        #expect(Payee.printedIBAN("BE68539007547034") == "BE68 5390 0754 7034")
    }

    /// The name and the remittance text are cut by characters and by bytes between grapheme clusters (issue 41): 70
    /// emoji or a letter with 200 combining marks made the head alone pass 331 bytes, and cutting the remittance
    /// text one character at a time ran past its start.
    @Test(arguments: [
        String(repeating: "👩‍👩‍👧‍👦", count: 70),  // 25 bytes each
        "A" + String(repeating: "\u{0301}", count: 200) + "BC",  // one character of 401 bytes, then two
        String(repeating: "🇩🇪", count: 100),  // flags: two regional indicators each
        "שלום עולם " + String(repeating: "\u{05D0}\u{05B8}", count: 100),  // Hebrew with points, right to left
        "\u{202E}مرحبا بالعالم\u{202C} " + String(repeating: "ب", count: 200),  // Arabic inside a right-to-left override
    ])
    func textsAreCutByBytesBetweenCharacters(text: String) throws {
        for (name, remittance) in [(text, "INV-1"), ("Example Studio GmbH", text), (text, text)] {
            let payee = Payee(name: name, iban: "DE89370400440532013000", bic: "COBADEFFXXX")
            guard let payment = EPCPayment(payee: payee, cents: 99_999_999_999, remittance: remittance) else {
                // Only a name whose first character alone is too long gets no code, and the check says so.
                #expect(Payee.nameProblem(name) != nil, "\(name.prefix(10))")
                continue
            }
            guard let payload = payment.payload else {
                // Only a remittance text whose first character alone is too long gives no code.
                #expect((remittance.first?.utf8.count ?? 0) > EPCPayment.remittanceLimit, "\(remittance.prefix(10))")
                continue
            }
            #expect(payload.utf8.count <= EPCPayment.payloadLimit, "\(payload.utf8.count) bytes")
            let got = payload.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(got.count == 11)
            // Each cut field is a prefix of the value, character by character: no emoji, mark or letter split.
            for (field, value, limit) in [(got[5], name, 70), (got[10], remittance, 140)] {
                let clean = EPCPayment.field(value, limit: .max, bytes: .max)
                #expect(clean.hasPrefix(field) && Array(clean.prefix(field.count)) == Array(field), "\(field.prefix(10))")
                #expect(field.count <= limit && !field.isEmpty)
            }
            #expect(got[5].utf8.count <= EPCPayment.nameByteLimit)
        }
    }

    /// A name with no character that fits is refused by `check` and `build` (Config+Values), never drawn.
    @Test func aNameThatCannotFitIsAProblem() {
        #expect(EPCPayment.nameByteLimit == 111)
        let marks = "A" + String(repeating: "\u{0301}", count: 200)
        #expect(Payee.nameProblem(marks)?.contains("111 bytes") == true)
        #expect(EPCPayment(payee: Payee(name: marks, iban: "DE89370400440532013000"), cents: 100, remittance: "x") == nil)
        #expect(Payee.nameProblem(" \n\t ") != nil && Payee.nameProblem("\u{202E}") != nil)
        #expect(Payee.nameProblem(String(repeating: "👩‍👩‍👧‍👦", count: 70)) == nil, "cut to 4 emoji, 100 bytes")
        // A remittance text with no character that fits gives no code at all, rather than one without a reference.
        let payment = EPCPayment(payee: Self.payee, cents: 100, remittance: "A" + String(repeating: "\u{0301}", count: 300))
        #expect(payment != nil && payment?.payload == nil)
    }

    /// The QR code joins the page after cmark (issue 41): a label with a blank line in it, written into the Markdown
    /// as it was, ended the HTML block and the rest became a link, a `javascript:` link and an image. As an HTML
    /// token it comes out as drawn, wherever the template puts it.
    @Test func drawnHTMLJoinsThePageAfterCmark() throws {
        let code = try #require(QRCode(bytes: Array("INV-1".utf8)))
        let svg = code.svg(label: "reference INV-1\n\n[Pay](https://evil.example/steal) [js](javascript:alert(1)) ![t](https://evil.example/t.png)")
        let renderer = MarkdownRenderer(options: [.allowsRawHTML])
        let before = renderer.html(from: "<div class=\"pay\">" + svg + "\n<dl>\n</dl>\n</div>\n")
        #expect(before.contains("<a href=\"javascript:alert(1)\">") && before.contains("<img src=\"https://evil.example/t.png\""))
        for (template, expected) in [
            ("<div class=\"pay\">X\n<dl>\n</dl>\n</div>\n", "<div class=\"pay\">\(svg)\n<dl>\n</dl>\n</div>\n"),  // pay.md
            ("<figure>\nX\n</figure>\n", "<figure>\n\(svg)\n</figure>\n"),  // overview.md's chart
            ("Scan *this*: X\n", "<p>Scan <em>this</em>: \(svg)</p>\n"),
            ("# X\n", "<h1>\(svg)</h1>\n"),
        ] {
            let html = MarkdownValues.decode(renderer.html(from: template.replacingOccurrences(of: "X", with: MarkdownValues.html(svg))))
            #expect(html == expected, "\(template)")
        }
        // In a link's address it is nothing; --debug-markdown shows the markup.
        #expect(MarkdownValues.decode(renderer.html(from: "[a](" + MarkdownValues.html("<b>") + ")")) == "<p><a href=\"\">a</a></p>\n")
        #expect(MarkdownValues.readable("x " + MarkdownValues.html("<b>\n\n</b>")) == "x <b>\n\n</b>")
        // A value never becomes one: its bytes are a value token's, whatever characters it holds.
        let forged = "\u{E002}\u{E13C}b\u{E13E}\u{E001}"
        #expect(MarkdownValues.decode(MarkdownValues.token(for: forged)) == forged.replacingOccurrences(of: "b", with: "b"))
        #expect(!MarkdownValues.decode(MarkdownValues.token(for: forged)).contains("<b>"))
    }
}
