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
        #expect(noBIC.payload.split(separator: "\n", omittingEmptySubsequences: false)[4] == "")
        #expect(noBIC.payload.contains("\nEUR0.01\n"))
    }

    @Test func onlyAmountsTheCodeCarriesGetACode() {
        #expect(EPCPayment(payee: Self.payee, cents: 0, remittance: "x") == nil)
        #expect(EPCPayment(payee: Self.payee, cents: -500, remittance: "x") == nil)
        #expect(EPCPayment(payee: Self.payee, cents: 100_000_000_000, remittance: "x") == nil)
        #expect(EPCPayment(payee: Self.payee, cents: 99_999_999_999, remittance: "x")?.payload.contains("EUR999999999.99") == true)
        #expect(EPCPayment(payee: Payee(name: "A", paymentURL: "https://p.example/"), cents: 100, remittance: "x") == nil)
    }

    /// Line breaks, controls and bidi overrides cannot add or move a field; long values are cut to the limits.
    @Test func hostileValuesStayInTheirFieldAndAreCutToTheLimits() throws {
        let hostile = "INV-1\nBCD\r\n002\u{0}\u{1B}[2J\u{2028}\u{202E}evil\u{2066}" + String(repeating: "é", count: 300)
        let payee = Payee(name: "Name\nwith\tbreaks " + String(repeating: "N", count: 100), iban: "DE89370400440532013000")
        let payment = try #require(EPCPayment(payee: payee, cents: 1234, remittance: hostile))
        let fields = payment.payload.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(fields.count == 11, "\(fields)")
        #expect(fields[5].count == 70 && fields[5].hasPrefix("Name with breaks NNN"))
        #expect(fields[7] == "EUR12.34")
        #expect(fields[10].hasPrefix("INV-1 BCD  002  [2J  evil "), "\(fields[10])")
        #expect(fields[10].count <= 140)
        #expect(payment.payload.utf8.count <= 331, "the payload's byte limit: \(payment.payload.utf8.count)")
        #expect(!payment.payload.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" })
        // ASCII text gets the full 140 characters.
        let long = try #require(EPCPayment(payee: Self.payee, cents: 1, remittance: String(repeating: "R", count: 200)))
        #expect(long.payload.split(separator: "\n", omittingEmptySubsequences: false)[10].count == 140)
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
}
