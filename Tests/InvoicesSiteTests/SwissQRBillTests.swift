@testable import InvoicesSite
import Foundation
import InvoicesCore
import Testing

/// The Swiss QR-bill's payload, reference and choice (issue 43); the pages, a real scan and the comparison with the
/// `qrbill` library are in `SwissQRBillPagesTests` (InvoicesCLITests).
struct SwissQRBillTests {
    static let payee = Payee(
        name: "Robert Schneider AG", iban: "DE89 3704 0044 0532 0130 00",
        address: Payee.Address(street: "Rue du Lac", number: "1268", zip: "2501", city: "Biel", country: "ch"),
        qrBillIBAN: "CH44 3199 9123 0008 8901 2")
    static let swiss = ClientSnapshot(id: 42, number: "C-42", name: "Pia Rutschmann", street: "Grosse Marktgasse 28", city: "Rorschach", zip: "9400", country: "Schweiz")
    static let french = ClientSnapshot(id: 7, number: "C-7", name: "Bistro Lyon", city: "Lyon", zip: "69001", country: "FR")
    static let end = CalendarDate(iso: "2025-05-31")!
    static func code(_ text: String) throws -> CurrencyCode { try CurrencyCode(text) }

    /// The guidelines' published vectors: the QR reference `21 00000 00003 13947 14300 09017` (check digit 7) and
    /// ISO 11649's `RF18 5390 0754 7034`.
    @Test func checkDigitsMatchThePublishedExamples() {
        #expect(SwissQRBill.mod10Recursive("21000000000313947143000901") == 7)
        #expect(SwissQRBill.creditorReference(body: "539007547034") == "RF18539007547034")
        #expect(SwissQRBill.Reference.qr("210000000003139471430009017").printed == "21 00000 00003 13947 14300 09017")
        #expect(SwissQRBill.Reference.creditor("RF18539007547034").printed == "RF18 5390 0754 7034")
    }

    @Test func theReferenceComesFromTheClientsIdAndTheStatementsEnd() {
        let qr = SwissQRBill.reference(clientID: 42, end: Self.end, iban: "CH4431999123000889012")
        #expect(qr == .qr("00000000000000004220250531" + String(SwissQRBill.mod10Recursive("00000000000000004220250531"))))
        #expect(qr?.text.count == 27)
        let rf = SwissQRBill.reference(clientID: 42, end: Self.end, iban: "CH9300762011623852957")
        #expect(rf == .creditor(SwissQRBill.creditorReference(body: "2025053142")))
        #expect(rf?.text.hasPrefix("RF") == true && (rf?.text.count ?? 0) <= 25)
        // The examples of docs/cli.md ("The Swiss QR-bill"), whose digits python-stdnum computed.
        #expect(qr?.printed == "00 00000 00000 00004 22025 05312")
        #expect(rf?.printed == "RF12 2025 0531 42")
        // Another day or another client is another reference.
        #expect(SwissQRBill.reference(clientID: 43, end: Self.end, iban: "CH4431999123000889012") != qr)
        #expect(SwissQRBill.reference(clientID: 42, end: Self.end.adding(days: 1), iban: "CH9300762011623852957") != rf)
        // Ids that do not fit: 19 digits for a QR reference, 14 for a creditor reference.
        #expect(SwissQRBill.reference(clientID: 1_000_000_000_000_000_000, end: Self.end, iban: "CH4431999123000889012") == nil)
        #expect(SwissQRBill.reference(clientID: 99_999_999_999_999, end: Self.end, iban: "CH9300762011623852957") == nil)
        #expect(SwissQRBill.reference(clientID: 9_999_999_999_999, end: Self.end, iban: "CH9300762011623852957") != nil)
    }

    @Test func qrIBANsAreTheInstitutionIds30000To31999() {
        #expect(SwissQRBill.isQRIBAN("CH4431999123000889012"))
        #expect(!SwissQRBill.isQRIBAN("CH9300762011623852957"))
        #expect(Payee.qrBillIBANProblem("CH93 0076 2011 6238 5295 7") == nil)
        #expect(Payee.qrBillIBANProblem("LI21 0881 0000 2324 013A A") == nil)
        #expect(Payee.qrBillIBANProblem("DE89 3704 0044 0532 0130 00")?.contains("not a Swiss or Liechtenstein IBAN") == true)
        #expect(Payee.qrBillIBANProblem("CH93 0076 2011 6238 5295 8")?.contains("check digits") == true)
    }

    @Test(arguments: [("Schweiz", "CH"), ("suisse", "CH"), ("Svizzera", "CH"), ("Switzerland", "CH"), ("Svizra", "CH"), ("ch", "CH"),
                      ("Liechtenstein", "LI"), ("LI", "LI"), ("Deutschland", "DE"), ("Germany", "DE"), ("Österreich", "AT"), ("France", "FR")])
    func countriesAreReadAsCodesOrNames(name: String, code: String) {
        #expect(SwissQRBill.countryCode(name) == code)
    }

    @Test func unknownCountriesHaveNoCode() {
        #expect(SwissQRBill.countryCode("Atlantis") == nil && SwissQRBill.countryCode("") == nil && SwissQRBill.countryCode("ZZ") == nil)
    }

    @Test func theChoiceFollowsTheCurrencyTheClientsCountryAndTheAccount() throws {
        func choice(_ payee: Payee, _ client: ClientSnapshot, _ currency: String, end: CalendarDate? = Self.end) throws -> SwissQRBill.Choice {
            SwissQRBill.choice(payee: payee, client: client, minorUnits: 12_000, currency: try Self.code(currency), end: end, message: "C")
        }
        guard case .bill(let chf) = try choice(Self.payee, Self.french, "CHF") else { Issue.record("a CHF balance gets a QR-bill"); return }
        #expect(chf.currency == "CHF" && chf.iban == "CH4431999123000889012" && chf.debtor?.country == "FR")
        guard case .bill(let eur) = try choice(Self.payee, Self.swiss, "EUR") else { Issue.record("a Swiss client's EUR gets a QR-bill"); return }
        #expect(eur.currency == "EUR" && eur.debtor?.country == "CH")
        #expect(try choice(Self.payee, Self.french, "EUR") == .other)
        #expect(try choice(Self.payee, Self.swiss, "USD") == .other)
        // An invoice of its own (the client page's To pay) keeps what it had: the statement's bill pays the balance.
        #expect(try choice(Self.payee, Self.swiss, "CHF", end: nil) == .other)
        #expect(try choice(Self.payee, Self.swiss, "EUR", end: nil) == .other)
        // Without a Swiss account: a CHF balance gets no code, a Swiss client's EUR keeps the EPC code.
        let german = Payee(name: "Studio GmbH", iban: "DE89 3704 0044 0532 0130 00", address: Self.payee.address)
        #expect(try choice(german, Self.swiss, "CHF") == .none)
        #expect(try choice(german, Self.swiss, "EUR") == .other)
        // A CH payee.iban is the Swiss account without qr_bill.
        let swissIBAN = Payee(name: "Studio AG", iban: "CH93 0076 2011 6238 5295 7", address: Self.payee.address)
        guard case .bill(let plain) = try choice(swissIBAN, Self.swiss, "CHF") else { Issue.record("a CH payee.iban is the account"); return }
        #expect(plain.reference == .creditor(SwissQRBill.creditorReference(body: "2025053142")))
    }

    @Test func thePayloadHas31FieldsAndNoValueCanAddOne() throws {
        var client = Self.swiss
        client.name = "Pia\r\nEPD\n<b>日本</b>" + String(repeating: "x", count: 100)
        guard case .bill(let bill) = SwissQRBill.choice(payee: Self.payee, client: client, minorUnits: 194_975, currency: try Self.code("CHF"), end: Self.end, message: "C-42\nSPC")
        else { Issue.record("no bill"); return }
        let fields = bill.payload.components(separatedBy: "\r\n")
        #expect(fields.count == 31, "\(fields)")
        #expect(fields[0...3] == ["SPC", "0200", "1", "CH4431999123000889012"])
        #expect(fields[4...10] == ["S", "Robert Schneider AG", "Rue du Lac", "1268", "2501", "Biel", "CH"])
        #expect(fields[11...17].allSatisfy { $0.isEmpty })
        #expect(fields[18...19] == ["1949.75", "CHF"])
        #expect(fields[21] == String(("Pia  EPD <b>..</b>" + String(repeating: "x", count: 100)).prefix(70)))
        #expect(fields[27] == "QRR" && fields[29] == "C-42 SPC" && fields[30] == "EPD")
        let svg = try #require(bill.svg(language: "de-CH"))
        #expect(svg.contains("Zahlteil") && svg.contains("Empfangsschein") && svg.contains("1 949.75"))
        #expect(!svg.contains("<b>") && svg.contains("&lt;b&gt;"))
        #expect(bill.svg(language: "fr")?.contains("Récépissé") == true)
        #expect(bill.svg(language: "nl")?.contains("Payment part") == true)
    }

    @Test func theAmountPrintsWithSpacesBetweenThousands() throws {
        var bill = SwissQRBill(
            iban: "CH4431999123000889012", creditor: .init(name: "A", street: "", number: "", zip: "1", city: "B", country: "CH"), amount: 99_999_999_999,
            currency: "CHF", debtor: nil, reference: .none, message: "")
        #expect(bill.printedAmount == "999 999 999.99")
        bill.amount = 5
        #expect(bill.printedAmount == "0.05")
        #expect(bill.payload.components(separatedBy: "\r\n")[20...26].allSatisfy { $0.isEmpty })
    }
}
