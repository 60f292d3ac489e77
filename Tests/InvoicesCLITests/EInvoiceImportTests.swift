import Foundation
import InvoicesTesting
import Testing

/// `invoices import` of e-invoices (issue 31): EN 16931 documents in both syntaxes, laid out as the standard's
/// examples are (namespaces, element order, currency attributes), into a real SQLite store through the binary.
@Suite(.serialized)
struct EInvoiceImportTests {
    /// An EN 16931 document; each figure as its XML states it. Totals default to what the lines and the VAT
    /// breakdown add up to, so a case breaks a rule only by setting one.
    struct Document {
        var number = "RE-2025-001"
        var typeCode = "380"
        var currency = "EUR"
        var issued = "2025-03-01"
        var due: String? = "2025-03-31"
        var notes = ["Thank you for your order"]
        var preceding: String?
        var buyerID: String? = "K-100"
        var buyerName = "Buyer AG"
        var lines = ["100.00", "50.00"]
        var vat: [(category: String, rate: String, taxable: String, tax: String)] = [("S", "19.00", "100.00", "19.00"), ("S", "7.00", "50.00", "3.50")]
        var lineTotal = "150.00", net = "150.00", tax = "22.50", gross = "172.50", prepaid: String?, payable = "172.50"

        var isCredit: Bool { typeCode == "381" }

        /// OASIS UBL 2.1 (Peppol BIS 3 / XRechnung UBL layout).
        var ubl: String {
            let root = isCredit ? "CreditNote" : "Invoice"
            let line = isCredit ? "CreditNoteLine" : "InvoiceLine"
            let c = "currencyID=\"\(currency)\""
            return """
                <?xml version="1.0" encoding="UTF-8"?>
                <\(root) xmlns="urn:oasis:names:specification:ubl:schema:xsd:\(root)-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
                  <cbc:CustomizationID>urn:cen.eu:en16931:2017</cbc:CustomizationID>
                  <cbc:ID>\(number)</cbc:ID>
                  <cbc:IssueDate>\(issued)</cbc:IssueDate>
                \(!isCredit && due != nil ? "  <cbc:DueDate>\(due!)</cbc:DueDate>\n" : "")  <cbc:\(root)TypeCode>\(typeCode)</cbc:\(root)TypeCode>
                \(notes.map { "  <cbc:Note>\($0)</cbc:Note>" }.joined(separator: "\n"))
                  <cbc:DocumentCurrencyCode>\(currency)</cbc:DocumentCurrencyCode>
                \(preceding.map { "  <cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>\($0)</cbc:ID></cac:InvoiceDocumentReference></cac:BillingReference>\n" } ?? "")  <cac:AccountingSupplierParty><cac:Party><cac:PostalAddress><cac:Country><cbc:IdentificationCode>DE</cbc:IdentificationCode></cac:Country></cac:PostalAddress><cac:PartyLegalEntity><cbc:RegistrationName>Seller GmbH</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party></cac:AccountingSupplierParty>
                  <cac:AccountingCustomerParty>
                    <cac:Party>
                      <cbc:EndpointID schemeID="EM">ap@buyer.example</cbc:EndpointID>
                \(buyerID.map { "      <cac:PartyIdentification><cbc:ID>\($0)</cbc:ID></cac:PartyIdentification>\n" } ?? "")      <cac:PostalAddress><cbc:StreetName>Hauptstraße 1</cbc:StreetName><cbc:CityName>Berlin</cbc:CityName><cbc:PostalZone>10115</cbc:PostalZone><cac:Country><cbc:IdentificationCode>DE</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
                      <cac:PartyLegalEntity><cbc:RegistrationName>\(buyerName)</cbc:RegistrationName></cac:PartyLegalEntity>
                    </cac:Party>
                  </cac:AccountingCustomerParty>
                \(isCredit && due != nil ? "  <cac:PaymentMeans><cbc:PaymentMeansCode>58</cbc:PaymentMeansCode><cbc:PaymentDueDate>\(due!)</cbc:PaymentDueDate></cac:PaymentMeans>\n" : "")  <cac:TaxTotal>
                    <cbc:TaxAmount \(c)>\(tax)</cbc:TaxAmount>
                \(vat.map { "    <cac:TaxSubtotal><cbc:TaxableAmount \(c)>\($0.taxable)</cbc:TaxableAmount><cbc:TaxAmount \(c)>\($0.tax)</cbc:TaxAmount><cac:TaxCategory><cbc:ID>\($0.category)</cbc:ID><cbc:Percent>\($0.rate)</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory></cac:TaxSubtotal>" }.joined(separator: "\n"))
                  </cac:TaxTotal>
                  <cac:LegalMonetaryTotal>
                    <cbc:LineExtensionAmount \(c)>\(lineTotal)</cbc:LineExtensionAmount>
                    <cbc:TaxExclusiveAmount \(c)>\(net)</cbc:TaxExclusiveAmount>
                    <cbc:TaxInclusiveAmount \(c)>\(gross)</cbc:TaxInclusiveAmount>
                \(prepaid.map { "    <cbc:PrepaidAmount \(c)>\($0)</cbc:PrepaidAmount>\n" } ?? "")    <cbc:PayableAmount \(c)>\(payable)</cbc:PayableAmount>
                  </cac:LegalMonetaryTotal>
                \(lines.enumerated().map { "  <cac:\(line)><cbc:ID>\($0.offset + 1)</cbc:ID><cbc:\(isCredit ? "CreditedQuantity" : "InvoicedQuantity") unitCode=\"C62\">1</cbc:\(isCredit ? "CreditedQuantity" : "InvoicedQuantity")><cbc:LineExtensionAmount \(c)>\($0.element)</cbc:LineExtensionAmount><cac:Item><cbc:Name>Work</cbc:Name></cac:Item><cac:Price><cbc:PriceAmount \(c)>\($0.element)</cbc:PriceAmount></cac:Price></cac:\(line)>" }.joined(separator: "\n"))
                </\(root)>

                """
        }

        /// UN/CEFACT CII D16B (XRechnung CII / Factur-X EN 16931 layout).
        var cii: String {
            func date(_ iso: String) -> String { "<udt:DateTimeString format=\"102\">\(iso.replacingOccurrences(of: "-", with: ""))</udt:DateTimeString>" }
            return """
                <?xml version="1.0" encoding="UTF-8"?>
                <rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:qdt="urn:un:unece:uncefact:data:standard:QualifiedDataType:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
                  <rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
                  <rsm:ExchangedDocument>
                    <ram:ID>\(number)</ram:ID>
                    <ram:TypeCode>\(typeCode)</ram:TypeCode>
                    <ram:IssueDateTime>\(date(issued))</ram:IssueDateTime>
                \(notes.map { "    <ram:IncludedNote><ram:Content>\($0)</ram:Content></ram:IncludedNote>" }.joined(separator: "\n"))
                  </rsm:ExchangedDocument>
                  <rsm:SupplyChainTradeTransaction>
                \(lines.enumerated().map { "    <ram:IncludedSupplyChainTradeLineItem><ram:AssociatedDocumentLineDocument><ram:LineID>\($0.offset + 1)</ram:LineID></ram:AssociatedDocumentLineDocument><ram:SpecifiedTradeProduct><ram:Name>Work</ram:Name></ram:SpecifiedTradeProduct><ram:SpecifiedLineTradeSettlement><ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>\($0.element)</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation></ram:SpecifiedLineTradeSettlement></ram:IncludedSupplyChainTradeLineItem>" }.joined(separator: "\n"))
                    <ram:ApplicableHeaderTradeAgreement>
                      <ram:SellerTradeParty><ram:Name>Seller GmbH</ram:Name></ram:SellerTradeParty>
                      <ram:BuyerTradeParty>
                \(buyerID.map { "        <ram:ID>\($0)</ram:ID>\n" } ?? "")        <ram:Name>\(buyerName)</ram:Name>
                        <ram:PostalTradeAddress><ram:PostcodeCode>10115</ram:PostcodeCode><ram:LineOne>Hauptstraße 1</ram:LineOne><ram:CityName>Berlin</ram:CityName><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress>
                        <ram:URIUniversalCommunication><ram:URIID schemeID="EM">ap@buyer.example</ram:URIID></ram:URIUniversalCommunication>
                      </ram:BuyerTradeParty>
                    </ram:ApplicableHeaderTradeAgreement>
                    <ram:ApplicableHeaderTradeDelivery/>
                    <ram:ApplicableHeaderTradeSettlement>
                      <ram:InvoiceCurrencyCode>\(currency)</ram:InvoiceCurrencyCode>
                \(vat.map { "      <ram:ApplicableTradeTax><ram:CalculatedAmount>\($0.tax)</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode><ram:BasisAmount>\($0.taxable)</ram:BasisAmount><ram:CategoryCode>\($0.category)</ram:CategoryCode><ram:RateApplicablePercent>\($0.rate)</ram:RateApplicablePercent></ram:ApplicableTradeTax>" }.joined(separator: "\n"))
                \(due.map { "      <ram:SpecifiedTradePaymentTerms><ram:DueDateDateTime>\(date($0))</ram:DueDateDateTime></ram:SpecifiedTradePaymentTerms>\n" } ?? "")      <ram:SpecifiedTradeSettlementHeaderMonetarySummation>
                        <ram:LineTotalAmount>\(lineTotal)</ram:LineTotalAmount>
                        <ram:TaxBasisTotalAmount>\(net)</ram:TaxBasisTotalAmount>
                        <ram:TaxTotalAmount currencyID="\(currency)">\(tax)</ram:TaxTotalAmount>
                        <ram:GrandTotalAmount>\(gross)</ram:GrandTotalAmount>
                \(prepaid.map { "        <ram:TotalPrepaidAmount>\($0)</ram:TotalPrepaidAmount>\n" } ?? "")        <ram:DuePayableAmount>\(payable)</ram:DuePayableAmount>
                      </ram:SpecifiedTradeSettlementHeaderMonetarySummation>
                \(preceding.map { "      <ram:InvoiceReferencedDocument><ram:IssuerAssignedID>\($0)</ram:IssuerAssignedID></ram:InvoiceReferencedDocument>\n" } ?? "")    </ram:ApplicableHeaderTradeSettlement>
                  </rsm:SupplyChainTradeTransaction>
                </rsm:CrossIndustryInvoice>

                """
        }
    }

    struct Project {
        let folder = try! TemporaryFolder()
        var store: String { folder.path("books.sqlite") }

        func write(_ name: String, _ text: String) throws -> String {
            let path = folder.path(name)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }

        func importing(_ files: [String]) throws -> CLI.Result { try CLI.run(["import", "--store", store] + files) }

        func rows(_ sql: String) throws -> [[String: String]] { try StoreFixture.query(store, sql) }

        /// The invoices in the store; 0 when there is no store.
        func invoiceCount() throws -> Int { FileManager.default.fileExists(atPath: store) ? try rows("SELECT 1 FROM invoice").count : 0 }

        /// Every table's rows, for comparing stores.
        func dump() throws -> String {
            try ["client", "invoice", "payment", "taxLine", "writeOff"].map { table in
                try rows("SELECT * FROM \(table) ORDER BY id").map { $0.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",") }
                    .joined(separator: "\n")
            }.joined(separator: "\n--\n")
        }
    }

    @Test(arguments: ["ubl", "cii"])
    func anInvoiceWithTwoVATRatesImportsWithItsTaxLinesAndBuyer(syntax: String) throws {
        let project = Project()
        defer { project.folder.remove() }
        let document = Document()
        let file = try project.write("invoice.xml", syntax == "ubl" ? document.ubl : document.cii)
        let result = try project.importing([file])
        #expect(result.status == 0, "\(result.stderr)")
        let invoice = try #require(try project.rows("SELECT * FROM invoice").first)
        #expect(invoice["identifier"] == "RE-2025-001" && invoice["amount"] == "17250" && invoice["net"] == "15000")
        #expect(invoice["currency"] == "EUR" && invoice["issuedOn"] == "2025-03-01" && invoice["dueOn"] == "2025-03-31")
        #expect(invoice["kind"] == "invoice" && invoice["status"] == "sent" && invoice["notes"] == "Thank you for your order")
        let lines = try project.rows("SELECT name, rate, net, amount FROM taxLine ORDER BY amount DESC").map { [$0["name"], $0["rate"], $0["net"], $0["amount"]] }
        #expect(lines == [["VAT", "19", "10000", "1900"], ["VAT", "7", "5000", "350"]])
        let client = try #require(try project.rows("SELECT * FROM client").first)
        #expect(client["number"] == "K-100" && client["name"] == "Buyer AG" && client["email"] == "ap@buyer.example")
        #expect(client["street"] == "Hauptstraße 1" && client["city"] == "Berlin" && client["zip"] == "10115" && client["country"] == "DE")
        #expect(try project.rows("SELECT * FROM payment").isEmpty)
    }

    /// A CII credit note (381) names the UBL invoice it corrects (BT-25); a partly prepaid invoice (BT-113) gets one
    /// payment on its issue date, and the warning says it assumed so.
    @Test func aCreditNoteCorrectsItsInvoiceAndAPrepaidAmountIsAPayment() throws {
        let project = Project()
        defer { project.folder.remove() }
        var credit = Document(number: "GS-2025-001", typeCode: "381", issued: "2025-03-10", due: nil, preceding: "RE-2025-001")
        credit.lines = ["50.00"]
        credit.vat = [("S", "7.00", "50.00", "3.50")]
        (credit.lineTotal, credit.net, credit.tax, credit.gross, credit.payable) = ("50.00", "50.00", "3.50", "53.50", "53.50")
        var prepaid = Document(number: "RE-2025-002", issued: "2025-04-01", due: "2025-05-01")
        (prepaid.prepaid, prepaid.payable) = ("72.50", "100.00")
        let files = [
            try project.write("a.xml", Document().ubl), try project.write("b.xml", credit.cii), try project.write("c.xml", prepaid.cii),
        ]
        let result = try project.importing(files)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("BT-113") && result.stderr.contains("one payment on the issue date, 2025-04-01"), "\(result.stderr)")
        #expect(result.stderr.contains("GS-2025-001 has no due date (BT-9)"))
        let rows = try project.rows("SELECT i.identifier, i.kind, i.amount, c.identifier AS corrects, i.appliedOn FROM invoice i LEFT JOIN invoice c ON c.id = i.correctsId ORDER BY i.identifier")
        #expect(rows.map { $0["identifier"] } == ["GS-2025-001", "RE-2025-001", "RE-2025-002"])
        #expect(rows[0]["kind"] == "credit" && rows[0]["amount"] == "5350" && rows[0]["corrects"] == "RE-2025-001" && rows[0]["appliedOn"] == "2025-03-10")
        let payments = try project.rows("SELECT p.amount, p.paidOn FROM payment p JOIN invoice i ON i.id = p.invoiceId WHERE i.identifier = 'RE-2025-002'")
        #expect(payments.map { [$0["amount"], $0["paidOn"]] } == [["7250", "2025-04-01"]])
        #expect(try project.rows("SELECT 1 FROM client").count == 1, "one buyer, three documents")
    }

    @Test func aZeroDecimalCurrencyIsExactAndAnExtraDecimalIsAnError() throws {
        let project = Project()
        defer { project.folder.remove() }
        var yen = Document(currency: "JPY")
        yen.lines = ["10000"]
        yen.vat = [("S", "10", "10000", "1000")]
        (yen.lineTotal, yen.net, yen.tax, yen.gross, yen.payable) = ("10000", "10000", "1000", "11000", "11000")
        #expect(try project.importing([try project.write("yen.xml", yen.ubl)]).status == 0)
        #expect(try project.rows("SELECT amount, net FROM invoice").first == ["amount": "11000", "net": "10000"])
        var fraction = yen
        fraction.number = "RE-2025-009"
        fraction.lines = ["10000.5"]
        let result = try project.importing([try project.write("fraction.xml", fraction.ubl)])
        #expect(result.status == 65)
        #expect(result.stderr.contains("fraction.xml") && result.stderr.contains("BT-131") && result.stderr.contains("decimals"), "\(result.stderr)")
    }

    @Test(arguments: ["ubl", "cii"])
    func aMissingDueDateIsTheIssueDatePlusTheTermsWithAWarning(syntax: String) throws {
        let project = Project()
        defer { project.folder.remove() }
        let document = Document(due: nil)
        let result = try project.importing(["--default-terms", "14", try project.write("x.xml", syntax == "ubl" ? document.ubl : document.cii)])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Warning: ") && !result.stderr.contains("Error: ") && result.stderr.contains("no due date (BT-9)") && result.stderr.contains("2025-03-15"))
        #expect(try project.rows("SELECT dueOn FROM invoice").first?["dueOn"] == "2025-03-15")
    }

    /// BT-112 ≠ BT-109 + BT-110 (with BT-115 following BT-112): refused with the rule and the element, nothing written.
    @Test(arguments: [("ubl", "/Invoice/cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount"),
                      ("cii", "/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:GrandTotalAmount")])
    func aDocumentBreakingBRCO15IsRefusedNamingTheRuleAndTheElement(syntax: String, path: String) throws {
        let project = Project()
        defer { project.folder.remove() }
        var document = Document()
        (document.gross, document.payable) = ("172.49", "172.49")
        let good = try project.write("good.xml", Document(number: "RE-2025-000").ubl)
        let bad = try project.write("bad.xml", syntax == "ubl" ? document.ubl : document.cii)
        let result = try project.importing([good, bad])
        #expect(result.status == 65)
        #expect(result.stderr.contains("bad.xml: \(path): breaks BR-CO-15"), "\(result.stderr)")
        #expect(result.stderr.contains("172.49") && result.stderr.contains("172.50"))
        #expect(try project.invoiceCount() == 0, "nothing written")
    }

    /// What EN 16931 allows but the books cannot hold is refused with a one-line reason at the element: a due date
    /// before the issue date (as in two of the standard's own examples), a negative VAT breakdown line.
    @Test func whatTheBooksCannotHoldIsRefusedAtItsElement() throws {
        let project = Project()
        defer { project.folder.remove() }
        let early = try project.write("early.xml", Document(due: "2025-02-01").cii)
        var negative = Document()
        negative.lines = ["100.00", "-25.00"]
        negative.vat = [("S", "19.00", "100.00", "19.00"), ("E", "0", "-25.00", "0.00")]
        (negative.lineTotal, negative.net, negative.tax, negative.gross, negative.payable) = ("75.00", "75.00", "19.00", "94.00", "94.00")
        let minus = try project.write("minus.xml", negative.ubl)
        let result = try project.importing([early, minus])
        #expect(result.status == 65)
        #expect(result.stderr.contains("early.xml: /rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradePaymentTerms/ram:DueDateDateTime/udt:DateTimeString: BT-9: the due date 2025-02-01 is before the issue date"), "\(result.stderr)")
        #expect(result.stderr.contains("minus.xml: /Invoice/cac:TaxTotal/cac:TaxSubtotal/cbc:TaxableAmount: BG-23:") && result.stderr.contains("(-25.00)"))
        #expect(try project.invoiceCount() == 0)
    }

    /// External entities and entity expansion: the document type declaration itself is refused, before parsing.
    /// A file that is not well-formed XML is refused naming a line of it: the parser says line 0 when it stops at
    /// once, which the fuzzer found.
    @Test func aBrokenDocumentIsRefusedAtALineOfIt() throws {
        let project = Project()
        defer { project.folder.remove() }
        let ubl = Document().ubl
        let cut = String(ubl.prefix(ubl.count / 2))
        let cutLine = cut.split(separator: "\n", omittingEmptySubsequences: false).count
        for (name, text, line) in [("one.xml", "<", 1), ("cut.xml", cut, cutLine)] {
            let result = try project.importing([try project.write(name, text)])
            #expect(result.status == 65, "\(name)")
            #expect(result.stderr.contains("\(name):\(line): is not well-formed XML"), "\(result.stderr)")
        }
        #expect(try project.invoiceCount() == 0)
    }

    @Test func anXXEOrEntityBombIsRefusedBeforeParsing() throws {
        let project = Project()
        defer { project.folder.remove() }
        let secret = try project.write("secret.txt", "TOP-SECRET")
        let xxe = Document(notes: ["&xxe;"]).ubl.replacingOccurrences(
            of: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
            with: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE Invoice [<!ENTITY xxe SYSTEM \"file://\(secret)\">]>\n")
        let bomb = Document(notes: ["&lol9;"]).cii.replacingOccurrences(
            of: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
            with: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!doctype lolz [<!ENTITY lol \"lol\">"
                + (1...9).map { "<!ENTITY lol\($0) \"" + String(repeating: "&lol\($0 == 1 ? "" : String($0 - 1));", count: 10) + "\">" }.joined() + "]>\n")
        for (name, text) in [("xxe.xml", xxe), ("bomb.xml", bomb)] {
            let result = try project.importing([try project.write(name, text)])
            #expect(result.status == 65, "\(name)")
            #expect(result.stderr.contains("\(name): has a document type declaration"), "\(result.stderr)")
            #expect(!result.stderr.contains("TOP-SECRET"))
        }
        #expect(try project.invoiceCount() == 0)
    }

    /// A Factur-X PDF made here (qpdf attaches the CII as factur-x.xml) imports as the XML itself does.
    @Test func aFacturXPDFImportsItsAttachedInvoice() throws {
        let project = Project()
        defer { project.folder.remove() }
        let xml = try project.write("factur-x.xml", Document().cii)
        let pdf = project.folder.path("invoice.pdf")
        let qpdf = try CLI.shell("qpdf --empty --add-attachment '\(xml)' --key=factur-x.xml --filename=factur-x.xml --mimetype=text/xml -- '\(pdf)'")
        #expect(qpdf.status == 0, "qpdf (make test installs it): \(qpdf.stderr)")
        #expect(try project.importing([pdf]).status == 0)
        let fromPDF = try project.dump()
        try FileManager.default.removeItem(atPath: project.store)
        #expect(try project.importing([xml]).status == 0)
        #expect(try project.dump() == fromPDF && !fromPDF.isEmpty)
        // A PDF without the attachment says what it lacks.
        let plain = project.folder.path("plain.pdf")
        _ = try CLI.shell("qpdf --empty '\(plain)'")
        let result = try project.importing([plain])
        #expect(result.status == 65 && result.stderr.contains("plain.pdf: is a PDF without an e-invoice attached"), "\(result.stderr)")
    }

    /// Importing the same folder again changes nothing; a changed file updates its invoice.
    @Test func reimportingChangesNothingAndAChangedFileUpdatesItsInvoice() throws {
        let project = Project()
        defer { project.folder.remove() }
        var second = Document(number: "RE-2025-002")
        second.buyerID = nil
        second.buyerName = "Other Buyer"
        let files = [try project.write("1.xml", Document().ubl), try project.write("2.xml", second.cii)]
        #expect(try project.importing(files).status == 0)
        let before = try project.dump()
        let again = try project.importing(files)
        #expect(again.status == 0 && again.stdout.contains("invoices: 0 added, 0 updated, 2 unchanged"), "\(again.stdout)")
        #expect(try project.dump() == before)
        var changed = Document()
        changed.lines = ["200.00", "50.00"]
        changed.vat = [("S", "19.00", "200.00", "38.00"), ("S", "7.00", "50.00", "3.50")]
        (changed.lineTotal, changed.net, changed.tax, changed.gross, changed.payable) = ("250.00", "250.00", "41.50", "291.50", "291.50")
        _ = try project.write("1.xml", changed.ubl)
        let update = try project.importing(files)
        #expect(update.stdout.contains("1 updated"), "\(update.stdout)")
        #expect(try project.rows("SELECT amount FROM invoice WHERE identifier = 'RE-2025-001'").first?["amount"] == "29150")
        let lines = try project.rows("SELECT t.amount FROM taxLine t JOIN invoice i ON i.id = t.invoiceId WHERE i.identifier = 'RE-2025-001' ORDER BY t.amount DESC")
        #expect(lines.map { $0["amount"] } == ["3800", "350"])
    }
}
