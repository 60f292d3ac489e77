import Foundation
import InvoicesCore
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
        var profile = "urn:cen.eu:en16931:2017"  // BT-24
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
                  <cbc:CustomizationID>\(profile)</cbc:CustomizationID>
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
                  <rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>\(profile)</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
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

    @Test(.temporaryFolder, arguments: ["ubl", "cii"])
    func anInvoiceWithTwoVATRatesImportsWithItsTaxLinesAndBuyer(syntax: String) throws {
        let project = try TestProject()
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
    @Test(.temporaryFolder) func aCreditNoteCorrectsItsInvoiceAndAPrepaidAmountIsAPayment() throws {
        let project = try TestProject()
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
        #expect(result.stderr.contains("BT-113") && result.stderr.contains("one payment of 72.50 EUR on the issue date, 2025-04-01"), "\(result.stderr)")
        #expect(result.stderr.contains("GS-2025-001 has no due date (BT-9)"))
        let rows = try project.rows("SELECT i.identifier, i.kind, i.amount, c.identifier AS corrects, i.appliedOn FROM invoice i LEFT JOIN invoice c ON c.id = i.correctsId ORDER BY i.identifier")
        #expect(rows.map { $0["identifier"] } == ["GS-2025-001", "RE-2025-001", "RE-2025-002"])
        #expect(rows[0]["kind"] == "credit" && rows[0]["amount"] == "5350" && rows[0]["corrects"] == "RE-2025-001" && rows[0]["appliedOn"] == "2025-03-10")
        let payments = try project.rows("SELECT p.amount, p.paidOn FROM payment p JOIN invoice i ON i.id = p.invoiceId WHERE i.identifier = 'RE-2025-002'")
        #expect(payments.map { [$0["amount"], $0["paidOn"]] } == [["7250", "2025-04-01"]])
        #expect(try project.rows("SELECT 1 FROM client").count == 1, "one buyer, three documents")
    }

    @Test(.temporaryFolder) func aZeroDecimalCurrencyIsExactAndAnExtraDecimalIsAnError() throws {
        let project = try TestProject()
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

    @Test(.temporaryFolder, arguments: ["ubl", "cii"])
    func aMissingDueDateIsTheIssueDatePlusTheTermsWithAWarning(syntax: String) throws {
        let project = try TestProject()
        let document = Document(due: nil)
        let result = try project.importing(["--default-terms", "14", try project.write("x.xml", syntax == "ubl" ? document.ubl : document.cii)])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Warning: ") && !result.stderr.contains("Error: ") && result.stderr.contains("no due date (BT-9)") && result.stderr.contains("2025-03-15"))
        #expect(try project.rows("SELECT dueOn FROM invoice").first?["dueOn"] == "2025-03-15")
    }

    /// BT-112 ≠ BT-109 + BT-110 (with BT-115 following BT-112): refused with the rule and the element, nothing written.
    @Test(.temporaryFolder, arguments: [("ubl", "/Invoice/cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount"),
                      ("cii", "/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:GrandTotalAmount")])
    func aDocumentBreakingBRCO15IsRefusedNamingTheRuleAndTheElement(syntax: String, path: String) throws {
        let project = try TestProject()
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
    /// before the issue date (as in two of the standard's own examples), a VAT breakdown line taxed with the opposite
    /// sign of the total (the books keep one sign of tax per document).
    @Test(.temporaryFolder) func whatTheBooksCannotHoldIsRefusedAtItsElement() throws {
        let project = try TestProject()
        let early = try project.write("early.xml", Document(due: "2025-02-01").cii)
        var mixed = Document()
        mixed.lines = ["100.00", "-50.00"]
        mixed.vat = [("S", "19.00", "100.00", "19.00"), ("S", "7.00", "-50.00", "-3.50")]
        (mixed.lineTotal, mixed.net, mixed.tax, mixed.gross, mixed.payable) = ("50.00", "50.00", "15.50", "65.50", "65.50")
        let minus = try project.write("minus.xml", mixed.ubl)
        let result = try project.importing([early, minus])
        #expect(result.status == 65)
        #expect(result.stderr.contains("early.xml: /rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradePaymentTerms/ram:DueDateDateTime/udt:DateTimeString: BT-9: the due date 2025-02-01 is before the issue date"), "\(result.stderr)")
        #expect(result.stderr.contains("minus.xml: /Invoice/cac:TaxTotal/cac:TaxSubtotal/cbc:TaxAmount: BG-23: a VAT breakdown line (category S 7.00 %, taxable -50.00, tax -3.50) levies tax of the opposite sign to the total with VAT (BT-112, 65.50)"), "\(result.stderr)")
        #expect(try project.invoiceCount() == 0)
    }

    /// Issue 44: a correction invoice (384) with negative lines and totals, in UBL and in CII, is a credit note of the
    /// opposite amounts: its XML's figures with the books' signs (a credit note's are positive and subtract),
    /// correcting the invoice it names, with a warning; the store it makes loads back (`check`).
    @Test(.temporaryFolder, arguments: ["ubl", "cii"])
    func aCorrectionInvoiceWithNegativeTotalsIsACreditNote(syntax: String) throws {
        let project = try TestProject()
        var correction = Document(number: "RK-1", typeCode: "384", issued: "2025-03-10", due: "2025-03-10", preceding: "RE-2025-001")
        correction.lines = ["-100.00", "-50.00"]
        correction.vat = [("S", "19.00", "-100.00", "-19.00"), ("S", "7.00", "-50.00", "-3.50")]
        (correction.lineTotal, correction.net, correction.tax, correction.gross, correction.payable) = ("-150.00", "-150.00", "-22.50", "-172.50", "-172.50")
        let files = [try project.write("invoice.xml", Document().ubl), try project.write("correction.xml", syntax == "ubl" ? correction.ubl : correction.cii)]
        let result = try project.importing(files)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("RK-1: the total with VAT (BT-112) is negative, -172.50 EUR: stored as a credit note of the opposite amounts"), "\(result.stderr)")
        let rows = try project.rows("SELECT i.kind, i.amount, i.net, c.identifier AS corrects, i.appliedOn FROM invoice i LEFT JOIN invoice c ON c.id = i.correctsId WHERE i.identifier = 'RK-1'")
        #expect(rows == [["kind": "credit", "amount": "17250", "net": "15000", "corrects": "RE-2025-001", "appliedOn": "2025-03-10"]], "\(rows)")
        let lines = try project.rows("SELECT t.rate, t.net, t.amount FROM taxLine t JOIN invoice i ON i.id = t.invoiceId WHERE i.identifier = 'RK-1' ORDER BY t.amount")
        #expect(lines.map { [$0["rate"], $0["net"], $0["amount"]] } == [["7", "5000", "350"], ["19", "10000", "1900"]], "\(lines)")
        let check = try CLI.run(["check", "--store", project.store])
        #expect(check.status == 0, "\(check.stderr)")
    }

    /// Issue 44: an invoice with one negative zero-rated line (returned goods, VAT E) and a positive total imports
    /// with every VAT breakdown line as its XML states it: the negative line, without tax, nets within the invoice's
    /// tax lines (they add up to its net), and the store loads back.
    @Test(.temporaryFolder, arguments: ["ubl", "cii"])
    func aNegativeZeroRatedLineNetsWithinItsInvoice(syntax: String) throws {
        let project = try TestProject()
        var document = Document()
        document.lines = ["100.00", "-25.00"]
        document.vat = [("S", "19.00", "100.00", "19.00"), ("E", "0", "-25.00", "0.00")]
        (document.lineTotal, document.net, document.tax, document.gross, document.payable) = ("75.00", "75.00", "19.00", "94.00", "94.00")
        let result = try project.importing([try project.write("minus.xml", syntax == "ubl" ? document.ubl : document.cii)])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try project.rows("SELECT kind, amount, net FROM invoice") == [["kind": "invoice", "amount": "9400", "net": "7500"]])
        let lines = try project.rows("SELECT name, rate, net, amount FROM taxLine ORDER BY amount")
        #expect(lines.map { [$0["name"], $0["rate"], $0["net"], $0["amount"]] } == [["VAT E", "0", "-2500", "0"], ["VAT", "19", "10000", "1900"]], "\(lines)")
        let check = try CLI.run(["check", "--store", project.store])
        #expect(check.status == 0, "\(check.stderr)")
    }

    /// External entities and entity expansion: the document type declaration itself is refused, before parsing.
    /// A file that is not well-formed XML is refused naming a line of it: the parser says line 0 when it stops at
    /// once, which the fuzzer found.
    @Test(.temporaryFolder) func aBrokenDocumentIsRefusedAtALineOfIt() throws {
        let project = try TestProject()
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

    @Test(.temporaryFolder) func anXXEOrEntityBombIsRefusedBeforeParsing() throws {
        let project = try TestProject()
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
    @Test(.temporaryFolder) func aFacturXPDFImportsItsAttachedInvoice() throws {
        let project = try TestProject()
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

    /// Issue 44: a PDF carrying a ZUGFeRD 1 `ZUGFeRD-invoice.xml` (sorted first in the name tree) and a `factur-x.xml`
    /// is read through `factur-x.xml`.
    @Test(.temporaryFolder) func aPDFWithSeveralAttachmentsIsReadThroughFacturX() throws {
        let project = try TestProject()
        let old = try project.write("old.xml", Document(number: "OLD-1").cii)
        let new = try project.write("new.xml", Document(number: "NEW-1").cii)
        let pdf = project.folder.path("both.pdf")
        let qpdf = try CLI.shell(
            "qpdf --empty --add-attachment '\(old)' --key=ZUGFeRD-invoice.xml --filename=ZUGFeRD-invoice.xml --mimetype=text/xml -- "
                + "--add-attachment '\(new)' --key=factur-x.xml --filename=factur-x.xml --mimetype=text/xml -- '\(pdf)'")
        #expect(qpdf.status == 0, "\(qpdf.stderr)")
        let result = try project.importing([pdf])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try project.rows("SELECT identifier FROM invoice").map { $0["identifier"] } == ["NEW-1"])
    }

    /// Issue 44: a profile the tool does not read is refused by its name (the guideline ID, BT-24), not as breaking a
    /// rule it keeps: MINIMUM and BASIC WL, ZUGFeRD 1, and an extension whose own rules state the amount due.
    @Test(.temporaryFolder) func aProfileTheToolDoesNotReadIsRefusedByItsName() throws {
        let project = try TestProject()
        var minimum = Document(number: "MIN-1", profile: "urn:factur-x.eu:1p0:minimum")
        minimum.lines = []
        minimum.lineTotal = "0.00"
        var basicWL = Document(number: "WL-1", profile: "urn:zugferd.de:2p0:basicwl")
        basicWL.lines = []
        var extended = Document(
            number: "X-1", profile: "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_3.0")
        extended.payable = "100.00"  // 172.50 less a third-party payment of 72.50, by the extension's rule
        // The extension's third-party payments (BG-DEX-09) add to the amount due.
        var thirdParty = extended
        (thirdParty.number, thirdParty.payable) = ("X-2", "202.46")
        let third = thirdParty.ubl.replacingOccurrences(
            of: "  <cac:TaxTotal>",
            with: "  <cac:PrepaidPayment><cbc:ID>MobilesBezahlen</cbc:ID><cbc:PaidAmount currencyID=\"EUR\">19.96</cbc:PaidAmount></cac:PrepaidPayment>\n"
                + "  <cac:PrepaidPayment><cbc:ID>MobilesBezahlen</cbc:ID><cbc:PaidAmount currencyID=\"EUR\">10.00</cbc:PaidAmount></cac:PrepaidPayment>\n  <cac:TaxTotal>")
        let zugferd1 = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0"><rsm:HeaderExchangedDocument/></rsm:CrossIndustryDocument>

            """
        let files = [
            try project.write("min.xml", minimum.cii), try project.write("wl.xml", basicWL.cii),
            try project.write("x.xml", extended.ubl), try project.write("third.xml", third),
            try project.write("z1.xml", zugferd1),
        ]
        let result = try project.importing(files)
        #expect(result.status == 65)
        #expect(result.stderr.contains("min.xml: /rsm:CrossIndustryInvoice: is a Factur-X MINIMUM document (urn:factur-x.eu:1p0:minimum), a profile the tool does not read"), "\(result.stderr)")
        #expect(result.stderr.contains("wl.xml: /rsm:CrossIndustryInvoice: is a ZUGFeRD 2 BASIC WL document (urn:zugferd.de:2p0:basicwl), a profile the tool does not read"))
        #expect(result.stderr.contains("x.xml: /Invoice/cac:LegalMonetaryTotal/cbc:PayableAmount: breaks BR-CO-16") && result.stderr.contains("extension:xrechnung_3.0, an extension of EN 16931 whose own rules the tool does not read"))
        #expect(result.stderr.contains("z1.xml: /rsm:CrossIndustryDocument: is a ZUGFeRD 1 document"))
        #expect(result.stderr.contains("third.xml: /Invoice/cac:LegalMonetaryTotal/cbc:PayableAmount: breaks BR-CO-16") && result.stderr.contains("its third-party payments (BG-DEX-09, cac:PrepaidPayment) add 29.96 to the amount due (BR-DEX-09)"), "\(result.stderr)")
        #expect(!result.stderr.contains("BR-CO-10"))
        #expect(try project.invoiceCount() == 0)
    }

    /// Issue 44: Factur-X EXTENDED's logistics service charges (`ram:SpecifiedLogisticsServiceCharge`) are part of
    /// BT-108: a file stating them keeps BR-CO-12 and imports with its figures.
    @Test(.temporaryFolder) func anExtendedLogisticsChargeCountsInTheChargesTotal() throws {
        let project = try TestProject()
        var document = Document(profile: "urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended")
        document.vat = [("S", "19.00", "110.00", "20.90"), ("S", "7.00", "50.00", "3.50")]
        (document.net, document.tax, document.gross, document.payable) = ("160.00", "24.40", "184.40", "184.40")
        let xml = document.cii
            .replacingOccurrences(
                of: "      <ram:SpecifiedTradeSettlementHeaderMonetarySummation>",
                with: "      <ram:SpecifiedLogisticsServiceCharge><ram:Description>Freight</ram:Description><ram:AppliedAmount>10.00</ram:AppliedAmount>"
                    + "<ram:AppliedTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>19.00</ram:RateApplicablePercent></ram:AppliedTradeTax></ram:SpecifiedLogisticsServiceCharge>\n"
                    + "      <ram:SpecifiedTradeSettlementHeaderMonetarySummation>")
            .replacingOccurrences(of: "<ram:LineTotalAmount>150.00</ram:LineTotalAmount>\n", with: "<ram:LineTotalAmount>150.00</ram:LineTotalAmount><ram:ChargeTotalAmount>10.00</ram:ChargeTotalAmount>\n")
        #expect(xml.contains("ChargeTotalAmount") && xml.contains("SpecifiedLogisticsServiceCharge"))
        let result = try project.importing([try project.write("extended.xml", xml)])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try project.rows("SELECT amount, net FROM invoice").first == ["amount": "18440", "net": "16000"])
        #expect(try project.rows("SELECT net, amount FROM taxLine ORDER BY net").map { [$0["net"], $0["amount"]] } == [["5000", "350"], ["11000", "2090"]])
    }

    /// Issue 44: a credit note whose invoice (BT-25) is neither imported nor stored is the client's unapplied credit,
    /// with a warning, carrying its XML's figures; importing it again changes nothing.
    @Test(.temporaryFolder, arguments: ["ubl", "cii"])
    func anOrphanCreditNoteIsTheClientsUnappliedCredit(syntax: String) throws {
        let project = try TestProject()
        var credit = Document(number: "GS-9", typeCode: "381", issued: "2025-03-10", preceding: "RE-ELSEWHERE")
        credit.lines = ["50.00"]
        credit.vat = [("S", "7.00", "50.00", "3.50")]
        (credit.lineTotal, credit.net, credit.tax, credit.gross, credit.payable) = ("50.00", "50.00", "3.50", "53.50", "53.50")
        let file = try project.write("credit.xml", syntax == "ubl" ? credit.ubl : credit.cii)
        let result = try project.importing([file])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Warning: ") && result.stderr.contains("credit note GS-9 corrects invoice 'RE-ELSEWHERE', which is neither imported nor in the store: it is kept as the client's unapplied credit"), "\(result.stderr)")
        let rows = try project.rows("SELECT kind, amount, net, correctsId, appliedOn FROM invoice")
        #expect(rows == [["kind": "credit", "amount": "5350", "net": "5000", "correctsId": "NULL", "appliedOn": "NULL"]], "\(rows)")
        let before = try project.dump()
        let again = try project.importing([file])
        #expect(again.status == 0 && again.stdout.contains("1 unchanged"), "\(again.stdout)")
        #expect(try project.dump() == before)
    }

    /// Importing the same folder again changes nothing; a changed file updates its invoice.
    @Test(.temporaryFolder) func reimportingChangesNothingAndAChangedFileUpdatesItsInvoice() throws {
        let project = try TestProject()
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

/// E-invoices as a hostile data source (issue 41): every attack file is refused with exit 65 naming the limit or
/// rule it breaks, under `ulimit -v` (1 GB of address space; a normal import needs under 300 MB), with the store
/// left as it was. The PDFs are written here byte by byte.
extension EInvoiceImportTests {
    /// A PDF of `objects` (object 1 the catalog), with a cross-reference table.
    static func pdf(_ objects: [Data]) -> Data {
        var out = Data("%PDF-1.7\n".utf8)
        var offsets: [Int] = []
        for (index, body) in objects.enumerated() {
            offsets.append(out.count)
            out += Data("\(index + 1) 0 obj\n".utf8) + body + Data("\nendobj\n".utf8)
        }
        let xref = out.count
        out += Data(("xref\n0 \(objects.count + 1)\n0000000000 65535 f \n" + offsets.map { String(format: "%010d 00000 n \n", $0) }.joined()).utf8)
        out += Data("trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        return out
    }

    /// A Factur-X-shaped PDF: the name tree node (object 3) as given, a file specification (4) named `name` (a PDF
    /// string) whose embedded stream (5) holds `data` with `filters`.
    static func facturX(tree: String = "<< /Names [(factur-x.xml) 4 0 R] >>", name: String = "(factur-x.xml)", data: Data, filters: String = "") -> Data {
        pdf([
            Data("<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles 3 0 R >> >>".utf8),
            Data("<< /Type /Pages /Kids [] /Count 0 >>".utf8),
            Data(tree.utf8),
            Data("<< /Type /Filespec /F \(name) /UF \(name) /EF << /F 5 0 R >> >>".utf8),
            Data("<< /Type /EmbeddedFile /Length \(data.count)\(filters.isEmpty ? "" : " /Filter " + filters) >>\nstream\n".utf8) + data
                + Data("\nendstream".utf8),
        ])
    }

    /// `text` compressed with zlib `times` times over (python3's zlib).
    static func deflated(_ file: String, times: Int) throws -> Data {
        let script = "import sys, zlib\nd = open(sys.argv[1], 'rb').read()\nfor _ in range(\(times)): d = zlib.compress(d, 9)\nsys.stdout.buffer.write(d)\n"
        let out = file + ".z"
        try script.write(toFile: file + ".py", atomically: true, encoding: .utf8)
        let result = try CLI.shell("python3 '\(file).py' '\(file)' > '\(out)'")
        #expect(result.status == 0, "\(result.stderr)")
        return try Data(contentsOf: URL(fileURLWithPath: out))
    }

    /// `invoices import` under `ulimit -v` (1,000,000 KB). Under the address sanitizer (`make sanitize` sets
    /// `ASAN_OPTIONS`) the binary reserves terabytes of shadow memory at start, so there the limit is left off and
    /// only the refusals are checked; `make test` checks them within the limit.
    func importingBounded(_ project: TestProject, _ files: [String]) throws -> CLI.Result {
        let limit = ProcessInfo.processInfo.environment["ASAN_OPTIONS"] == nil ? "ulimit -v 1000000; " : ""
        let output = try ProcessRunner.run(
            URL(fileURLWithPath: "/bin/bash"), ["-c", limit + "exec \"$0\" \"$@\"", CLI.executable.path, "import", "--store", project.store] + files)
        return CLI.Result(status: output.status, stdout: output.stdout, stderr: output.stderr)
    }

    /// A project whose store holds one imported invoice, and that store's dump.
    func seeded() throws -> (TestProject, String) {
        let project = try TestProject()
        #expect(try project.importing([try project.write("seed.xml", Document(number: "RE-SEED").ubl)]).status == 0)
        return (project, try project.dump())
    }

    func write(_ project: TestProject, _ name: String, _ data: Data) throws -> String {
        let path = project.folder.path(name)
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// HIGH 2: a name tree whose `/Kids` name its own node twice was walked 2^32 times; each node is visited once,
    /// and a tree of more than 100,000 nodes is refused naming the limit.
    @Test(.temporaryFolder) func aNameTreeThatNamesItselfIsWalkedOnceAndAHugeOneIsRefused() throws {
        let (project, before) = try seeded()
        let loop = try write(project, "loop.pdf", Self.facturX(tree: "<< /Kids [3 0 R 3 0 R] >>", data: Data("x".utf8)))
        let start = Date()
        let result = try importingBounded(project, [loop])
        #expect(Date().timeIntervalSince(start) < 30)
        #expect(result.status == 65 && result.stderr.contains("loop.pdf: is a PDF without an e-invoice attached"), "\(result.stderr)")
        let kids = String(repeating: "<< >> ", count: 100_001)
        let wide = try write(project, "wide.pdf", Self.facturX(tree: "<< /Kids [\(kids)] >>", data: Data("x".utf8)))
        let refused = try importingBounded(project, [wide])
        #expect(refused.status == 65 && refused.stderr.contains("wide.pdf: has more than 100000 objects"), "\(refused.stderr)")
        #expect(try project.dump() == before)
    }

    /// HIGH 3: deep elements, a million elements, a double-Flate PDF of deep XML and a zlib bomb are each refused at
    /// their limit, within 1 GB of address space.
    @Test(.temporaryFolder) func deepOrHugeXMLAndZlibBombsAreRefusedAtTheirLimits() throws {
        let (project, before) = try seeded()
        let name = String(repeating: "n", count: 1000)
        let deepText = String(repeating: "<\(name)>", count: 1000) + String(repeating: "</\(name)>", count: 1000)
        let deep = try project.write("deep.xml", deepText)
        let many = try project.write("many.xml", "<r>" + String(repeating: "<a/>", count: 1_000_001) + "</r>")
        let deepPDF = try write(project, "deep.pdf", Self.facturX(data: try Self.deflated(deep, times: 2), filters: "[/FlateDecode /FlateDecode]"))
        let spaces = project.folder.path("spaces")
        try Data(repeating: 0x20, count: 40 << 20).write(to: URL(fileURLWithPath: spaces))
        let bomb = try write(project, "bomb.pdf", Self.facturX(data: try Self.deflated(spaces, times: 2), filters: "[/FlateDecode /FlateDecode]"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: bomb)).count < 4096)
        let large = try project.write("large.xml", "<r>" + String(repeating: " ", count: 32 << 20) + "</r>")
        for (file, expected) in [
            (deep, "deep.xml:1: nests elements deeper than 64 levels"), (many, "many.xml:1: has more than 1000000 elements"),
            (deepPDF, "deep.pdf:1: nests elements deeper than 64 levels"), (bomb, "bomb.pdf: has an attachment factur-x.xml larger than 32 MB decoded"),
            (large, "large.xml: is larger than 32 MB, the limit for an XML e-invoice"),
        ] {
            let result = try importingBounded(project, [file])
            #expect(result.status == 65 && result.stderr.contains(expected), "\(file): \(result.stderr)")
        }
        #expect(try project.dump() == before)
    }

    /// MEDIUM 1 and LOW 2: sums past 64-bit minor units (BT-109 + BT-110; lines − a negative allowance; lines that
    /// wrapped to 0) break their rule instead of trapping or passing.
    @Test(.temporaryFolder) func amountsPast64BitsBreakTheirRuleAndNeverCrash() throws {
        let (project, before) = try seeded()
        var huge = Document()
        (huge.lines, huge.lineTotal, huge.net, huge.tax, huge.gross, huge.payable) = (
            ["92233720368547758.07"], "92233720368547758.07", "92233720368547758.07", "0.01", "1.00", "1.00"
        )
        huge.vat = [("S", "0", "1.00", "0.01")]
        let allowance = Document().ubl
            .replacingOccurrences(
                of: "  <cac:TaxTotal>",
                with: "  <cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:Amount currencyID=\"EUR\">-92233720368547758.07</cbc:Amount></cac:AllowanceCharge>\n  <cac:TaxTotal>")
            .replacingOccurrences(of: "    <cbc:PayableAmount", with: "    <cbc:AllowanceTotalAmount currencyID=\"EUR\">-92233720368547758.07</cbc:AllowanceTotalAmount>\n    <cbc:PayableAmount")
        var wrap = Document()
        (wrap.lines, wrap.lineTotal, wrap.net, wrap.tax, wrap.gross, wrap.payable) = (
            ["92233720368547758.07", "92233720368547758.07", "0.02"], "0.00", "0.00", "0.00", "0.00", "0.00"
        )
        wrap.vat = [("S", "0", "0.00", "0.00")]
        for (name, text, rule) in [("huge.xml", huge.ubl, "BR-CO-15"), ("allowance.xml", allowance, "BR-CO-13"), ("wrap.xml", wrap.cii, "BR-CO-10")] {
            let result = try project.importing([try project.write(name, text)])
            #expect(result.status == 65, "\(name): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("breaks \(rule)") && result.stderr.contains("more than 64-bit minor units hold"), "\(result.stderr)")
        }
        #expect(try project.dump() == before)
    }

    /// LOW 2: import refuses what the build would refuse, through the shared rules: a due date past 9999-12-31 (the
    /// issue date plus the terms), a negative paid amount, a positive paid amount on a negative total.
    @Test(.temporaryFolder) func importRefusesWhatTheBooksCannotHold() throws {
        let (project, before) = try seeded()
        var late = Document(issued: "9999-12-31", due: nil)
        late.number = "RE-LATE"
        var negative = Document(number: "RE-NEG")
        (negative.prepaid, negative.payable) = ("-10.00", "182.50")
        var against = Document(number: "RE-AGAINST")
        against.lines = ["-100.00"]
        against.vat = [("E", "0", "-100.00", "0.00")]
        (against.lineTotal, against.net, against.tax, against.gross, against.prepaid, against.payable) = ("-100.00", "-100.00", "0.00", "-100.00", "10.00", "-110.00")
        let files = [try project.write("late.xml", late.ubl), try project.write("negative.xml", negative.cii), try project.write("against.xml", against.ubl)]
        let result = try project.importing(files)
        #expect(result.status == 65)
        #expect(result.stderr.contains("late.xml: /Invoice: BT-9: the due date (the issue date plus --default-terms) 10000-01-30 is outside 0001-01-01 to 9999-12-31"), "\(result.stderr)")
        #expect(result.stderr.contains("negative.xml: /rsm:CrossIndustryInvoice/") && result.stderr.contains("TotalPrepaidAmount: BT-113: the paid amount is negative (-10.00)"))
        #expect(result.stderr.contains("against.xml: /Invoice/cac:LegalMonetaryTotal/cbc:PrepaidAmount: BT-113: the paid amount (10.00) is positive, but the total with VAT is negative (-100.00)"))
        #expect(try project.dump() == before)
    }

    /// Issue 44: the paid amount (BT-113) is one payment in the books' sign, so the balance after it is what BT-115
    /// says is due: above the total (an amount due below zero), the rest is the client's credit; on a credit note
    /// it is money paid back (a negative payment); on a negative invoice (a credit note in the books) a negative paid
    /// amount is paid back too.
    @Test(.temporaryFolder) func thePaidAmountLeavesTheBalanceTheAmountDueSays() throws {
        let project = try TestProject()
        var over = Document(number: "RE-OVER")
        (over.prepaid, over.payable) = ("200.00", "-27.50")
        var credit = Document(number: "GS-1", typeCode: "381", issued: "2025-03-10")
        (credit.prepaid, credit.payable) = ("72.50", "100.00")
        var negative = Document(number: "RK-1", typeCode: "384", issued: "2025-03-10")
        negative.lines = ["-100.00", "-50.00"]
        negative.vat = [("S", "19.00", "-100.00", "-19.00"), ("S", "7.00", "-50.00", "-3.50")]
        (negative.lineTotal, negative.net, negative.tax, negative.gross, negative.prepaid, negative.payable) = ("-150.00", "-150.00", "-22.50", "-172.50", "-72.50", "-100.00")
        let files = [try project.write("over.xml", over.ubl), try project.write("credit.xml", credit.cii), try project.write("negative.xml", negative.ubl)]
        let result = try project.importing(files)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("RE-OVER: the paid amount (BT-113, 200.00 EUR) is recorded as one payment of 200.00 EUR on the issue date, 2025-03-01; the e-invoice does not say when it was paid; the rest, 27.50 EUR, is the client's credit (BT-115)"), "\(result.stderr)")
        let rows = try project.rows("SELECT i.identifier, i.kind, i.amount, p.amount AS paid FROM invoice i JOIN payment p ON p.invoiceId = i.id ORDER BY i.identifier")
        #expect(rows.map { [$0["identifier"], $0["kind"], $0["amount"], $0["paid"]] } == [
            ["GS-1", "credit", "17250", "-7250"], ["RE-OVER", "invoice", "17250", "20000"], ["RK-1", "credit", "17250", "-7250"],
        ], "\(rows)")
        let check = try CLI.run(["check", "--store", project.store])
        #expect(check.status == 0, "\(check.stderr)")
    }

    /// MEDIUM 6: an attachment's name and BT-1 reach the terminal escaped: no escape sequence, C1 or bidi control.
    @Test(.temporaryFolder) func namesAndNumbersFromTheFileReachTheTerminalEscaped() throws {
        let project = try TestProject()
        // UTF-16BE: ESC ] 0 ; pwned BEL (a terminal title), ESC [ 2 J (clear the screen), a line break and a forged line.
        let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J\nImported into books.sqlite: all good"
        let hex = "<FEFF" + hostile.utf16.map { String(format: "%04X", $0) }.joined() + ">"
        let pdf = try write(project, "named.pdf", Self.facturX(tree: "<< /Names [(a) 4 0 R] >>", name: hex, data: Data("x".utf8)))
        let result = try project.importing([pdf])
        #expect(result.status == 65)
        #expect(!result.stderr.contains("\u{1B}") && !result.stderr.contains("\u{07}") && !result.stdout.contains("Imported into"), "\(result.stderr)")
        #expect(result.stderr.contains("\\u{1b}]0;pwned\\u{7}\\u{1b}[2J\\nImported into"), "\(result.stderr)")
        // BT-1 with a C1 control (CSI) and a right-to-left override, in the no-due-date warning.
        let number = "RE-\u{9B}2J-\u{202E}1"
        let warned = try project.importing([try project.write("c1.xml", Document(number: number, due: nil).ubl)])
        #expect(warned.status == 0, "\(warned.stderr)")
        #expect(!warned.stderr.contains("\u{9B}") && !warned.stderr.contains("\u{202E}"))
        #expect(warned.stderr.contains("RE-\\u{9b}2J-\\u{202e}1 has no due date (BT-9)"), "\(warned.stderr)")
    }

    /// LOW 1: the DOCTYPE guard sees the document as the parser does, whatever its encoding: UTF-16LE without a byte
    /// order mark is transcoded first (and imports), and an encoding the tool does not read is refused by its name.
    @Test(.temporaryFolder) func aDocumentTypeIsRefusedInAnyEncodingAndAnUnknownEncodingByName() throws {
        let project = try TestProject()
        let declaration = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        func utf16LE(_ text: String) -> Data { text.data(using: .utf16LittleEndian)! }
        let ubl = Document(notes: ["Vielen Dank & Grüße"].map { $0.replacingOccurrences(of: "&", with: "&amp;") }).ubl
        let plain = ubl.replacingOccurrences(of: declaration, with: "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n")
        let withType = ubl.replacingOccurrences(
            of: declaration, with: "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<!DOCTYPE Invoice [<!ENTITY e \"x\">]>\n")
        let typed = try write(project, "typed.xml", utf16LE(withType))
        let refused = try project.importing([typed])
        #expect(refused.status == 65 && refused.stderr.contains("typed.xml: has a document type declaration"), "\(refused.stderr)")
        let unknown = try project.write("koi8.xml", ubl.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"KOI8-R\""))
        let named = try project.importing([unknown])
        #expect(named.status == 65 && named.stderr.contains("koi8.xml:1: declares the encoding 'KOI8-R', which the tool does not read"), "\(named.stderr)")
        #expect(!named.stderr.contains("error 57"))
        let mislabelled = try project.importing([try project.write("mislabelled.xml", plain)])
        #expect(mislabelled.status == 65 && mislabelled.stderr.contains("mislabelled.xml:1: declares the encoding 'UTF-16', but its first bytes are not in it"), "\(mislabelled.stderr)")
        #expect(try project.invoiceCount() == 0)
        let wide = try write(project, "utf16.xml", utf16LE(plain))
        let latin1 = try write(
            project, "latin1.xml",
            Document(number: "RE-L1").cii.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"ISO-8859-1\"").data(using: .isoLatin1)!)
        let imported = try project.importing([wide, latin1])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try project.rows("SELECT notes FROM invoice WHERE identifier = 'RE-2025-001'").first?["notes"] == "Vielen Dank & Grüße")
        #expect(try project.rows("SELECT street FROM client").first?["street"] == "Hauptstraße 1")
    }

    /// Found by the fuzzers: an element name that is not UTF-8 trapped inside FoundationXML (it is refused before
    /// parsing, at its line), and a PDF without a catalog made libqpdf print a warning of its own to the terminal.
    @Test(.temporaryFolder) func invalidUTF8AndAPDFWithoutACatalogAreRefusedCleanly() throws {
        let project = try TestProject()
        var bytes = Data(Document().ubl.utf8)
        let at = try #require(bytes.range(of: Data("<cac:TaxCategory>".utf8)))
        bytes.replaceSubrange(at.lowerBound + 13..<at.lowerBound + 17, with: [0xFF, 0xFF, 0xFF, 0xF1])
        let line = String(decoding: bytes[..<at.lowerBound], as: UTF8.self).filter { $0 == "\n" }.count + 1
        let broken = try write(project, "broken.xml", bytes)
        let result = try project.importing([broken])
        #expect(result.status == 65 && result.stderr.contains("broken.xml:\(line): is not valid UTF-8 text"), "\(result.status) \(result.stderr)")
        let catalog = try write(project, "nocatalog.pdf", Data("%PDF-1.7\n1 0 obj\n<< >>\nendobj\ntrailer\n<< /Size 2 >>\n%%EOF\n".utf8))
        let refused = try project.importing([catalog])
        #expect(refused.status == 65 && refused.stderr.contains("nocatalog.pdf: is not a PDF libqpdf can read: it has no document catalog"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("WARNING"))
    }

    /// The budget is what the reader holds to: a 12 MB document (100,000 blank notes) imports, though libxml2 given
    /// it as one chunk stops past 10,000,000 bytes.
    @Test(.temporaryFolder) func anXMLFileOf12MBWithinTheBudgetImports() throws {
        let project = try TestProject()
        let blank = "<cbc:Note>" + String(repeating: " ", count: 100) + "</cbc:Note>\n"
        let text = Document().ubl.replacingOccurrences(of: "  <cbc:DocumentCurrencyCode>", with: String(repeating: blank, count: 100_000) + "  <cbc:DocumentCurrencyCode>")
        #expect(text.utf8.count > 12_000_000)
        let result = try project.importing([try project.write("big.xml", text)])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try project.rows("SELECT notes FROM invoice").first?["notes"] == "Thank you for your order")
    }

    /// Text fields have bounds of their own: a note past 64 KB, a buyer's name past 1 KB.
    @Test(.temporaryFolder) func aNoteOrNamePastItsBoundIsRefused() throws {
        let project = try TestProject()
        let long = Document(notes: [String(repeating: "n", count: 65 << 10)]).ubl
        let named = Document(number: "RE-2", buyerID: "K-200", buyerName: String(repeating: "B", count: 1025)).cii
        let result = try project.importing([try project.write("note.xml", long), try project.write("name.xml", named)])
        #expect(result.status == 65)
        #expect(result.stderr.contains("note.xml: /Invoice: the note is 66560 bytes long, more than 64 KB"), "\(result.stderr)")
        #expect(result.stderr.contains("name.xml: /rsm:CrossIndustryInvoice: the client name is 1025 bytes long, more than 1 KB"), "\(result.stderr)")
        #expect(try project.invoiceCount() == 0)
    }
}

/// The e-invoice tests' project: an empty folder the files are written to and imported from.
fileprivate extension TestProject {
    func importing(_ files: [String]) throws -> CLI.Result { try run(["import", "--store", store] + files) }

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
