internal import Foundation
internal import InvoicesCore

/// An invoice or credit note in EN 16931's terms (the business terms `BT-n` and groups `BG-n`), read from either of
/// its syntaxes: OASIS UBL 2.1 (`Invoice`, `CreditNote`) or UN/CEFACT CII D16B (`CrossIndustryInvoice`). Amounts
/// are exact minor units of the document's currency; each keeps the path of its element for messages.
struct EInvoice: Sendable {
    enum Syntax: String, Sendable { case ubl = "UBL", cii = "CII" }

    /// An amount and where it was read (its element, whose path is built only for a message: a path per amount
    /// would repeat the root's name, up to 50,000 characters, on every line).
    struct Amount: Sendable {
        var minorUnits: Int64
        var element: XMLTree.Element
        var path: String { element.path }
    }

    /// One line of the VAT breakdown (BG-23).
    struct VATBreakdown: Sendable {
        var category: String  // BT-118
        var rate: String?  // BT-119, as written
        var taxable: Amount  // BT-116
        var tax: Amount  // BT-117
    }

    var syntax: Syntax
    var number: String  // BT-1
    var issued: CalendarDate  // BT-2
    var typeCode: String  // BT-3
    var isCreditNote: Bool
    var currency: CurrencyCode  // BT-5
    var due: CalendarDate?  // BT-9
    var duePath = ""
    var notes: [String]  // BT-22
    var preceding: String?  // BT-25
    var buyerName: String  // BT-44
    var buyerID: String?  // BT-46
    var buyerEmail: String?  // BT-58 (or BT-49 when it is an e-mail address)
    var street: String?  // BT-50 (and BT-51)
    var city: String?  // BT-52
    var zip: String?  // BT-53
    var country: String?  // BT-55
    var lineNets: [Amount]  // BT-131
    var allowances: [Amount]  // BT-92
    var charges: [Amount]  // BT-99
    var lineTotal: Amount  // BT-106
    var allowanceTotal: Amount?  // BT-107
    var chargeTotal: Amount?  // BT-108
    var net: Amount  // BT-109
    var tax: Amount?  // BT-110
    var gross: Amount  // BT-112
    var prepaid: Amount?  // BT-113
    var rounding: Amount?  // BT-114
    var payable: Amount  // BT-115
    var vat: [VATBreakdown]  // BG-23
    /// The root element's path (`/Invoice`), where a problem of the whole document is located.
    var rootPath = ""
    var profile: String?  // BT-24
    /// The XRechnung extension's third-party payments (BG-DEX-09, `cac:PrepaidPayment/cbc:PaidAmount`, BT-DEX-002), which
    /// its rule BR-DEX-09 adds to the amount due; the books have no place for them.
    var thirdPartyPayments: [Amount] = []

    /// A rule the document breaks: its id, the element and why.
    struct Problem: Error, Sendable {
        var rule: String
        var path: String
        var message: String
    }

    /// The UNTDID 1001 document type codes EN 16931 reads as credit notes (BT-3); the others are invoices.
    static let creditNoteCodes: Set<String> = ["81", "83", "261", "262", "296", "308", "381", "396", "420", "458", "532"]

    static let ublInvoice = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
    static let ublCreditNote = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"
    static let cii = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"

    /// Whether `tree` is an e-invoice this reader knows (by its root element's namespace and name).
    static func isEInvoice(_ root: XMLTree.Element) -> Bool {
        (root.namespace == ublInvoice && root.name == "Invoice") || (root.namespace == ublCreditNote && root.name == "CreditNote")
            || (root.namespace == cii && root.name == "CrossIndustryInvoice")
    }

    static let zugferd1 = "urn:ferd:CrossIndustryDocument:invoice:1p0"

    /// The document's specification identifier (BT-24): `cbc:CustomizationID` in UBL, the document context's
    /// `ram:GuidelineSpecifiedDocumentContextParameter/ram:ID` in CII.
    static func profile(_ root: XMLTree.Element) -> String? {
        text(root.namespace == cii ? root.at("ExchangedDocumentContext", "GuidelineSpecifiedDocumentContextParameter", "ID") : root.child("CustomizationID"))
    }

    /// The name of a profile below EN 16931 that the tool does not read (it has no invoice lines, or no VAT
    /// breakdown per line), or nil: Factur-X / ZUGFeRD 2 MINIMUM and BASIC WL.
    static func unreadProfile(_ profile: String) -> String? {
        let last = profile.split(separator: ":").last.map { $0.lowercased() } ?? ""
        let family = profile.lowercased().contains("zugferd") ? "ZUGFeRD 2" : "Factur-X"
        switch last {
        case "minimum": return "\(family) MINIMUM"
        case "basicwl": return "\(family) BASIC WL"
        default: return nil
        }
    }

    /// Whether `profile` is an extension of EN 16931 (`…#conformant#…`, such as Factur-X EXTENDED or the XRechnung
    /// extension), which may have rules of its own beside the standard's.
    static func isExtension(_ profile: String?) -> Bool { profile?.contains("#conformant#") ?? false }

    init(_ root: XMLTree.Element) throws(Problem) {
        switch (root.namespace, root.name) {
        case (Self.ublInvoice, "Invoice"), (Self.ublCreditNote, "CreditNote"): try self.init(ubl: root)
        case (Self.cii, "CrossIndustryInvoice"): try self.init(cii: root)
        default:
            throw Problem(
                rule: "syntax", path: root.path,
                message: "is not an EN 16931 invoice: the root element must be UBL 2.1 Invoice or CreditNote, or CII CrossIndustryInvoice")
        }
    }

    // MARK: Reading values

    /// `path` is built only when the element is missing.
    static func required(_ element: XMLTree.Element?, _ path: @autoclosure () -> String, _ term: String) throws(Problem) -> XMLTree.Element {
        guard let element, !element.text.isEmpty || element.hasChildren else {
            throw Problem(rule: term, path: path(), message: "is missing or empty (\(term))")
        }
        return element
    }

    static func date(_ element: XMLTree.Element, _ term: String, compact: Bool) throws(Problem) -> CalendarDate {
        var text = element.text
        if compact, text.count == 8, text.allSatisfy(\.isASCII) {
            text = "\(text.prefix(4))-\(text.dropFirst(4).prefix(2))-\(text.suffix(2))"
        }
        guard let date = CalendarDate(iso: text) else {
            throw Problem(rule: term, path: element.path, message: "'\(element.text)' is not a date\(compact ? " (format 102: YYYYMMDD)" : " (YYYY-MM-DD)")")
        }
        return date
    }

    static func amount(_ element: XMLTree.Element, _ currency: CurrencyCode, _ term: String) throws(Problem) -> Amount {
        do {
            return Amount(minorUnits: try Money(parsing: element.text, currency: currency).minorUnits, element: element)
        } catch {
            throw Problem(rule: term, path: element.path, message: "\(error)")
        }
    }

    static func optionalAmount(_ element: XMLTree.Element?, _ currency: CurrencyCode, _ term: String) throws(Problem) -> Amount? {
        guard let element, !element.text.isEmpty else { return nil }
        return try amount(element, currency, term)
    }

    static func text(_ element: XMLTree.Element?) -> String? {
        guard let text = element?.text, !text.isEmpty else { return nil }
        return text
    }

    static func currency(_ element: XMLTree.Element) throws(Problem) -> CurrencyCode {
        do {
            return try CurrencyCode(element.text)
        } catch {
            throw Problem(rule: "BT-5", path: element.path, message: "'\(element.text)' is not an ISO 4217 currency code")
        }
    }

    /// The document level allowances (BT-92) and charges (BT-99) among `entries`, by their charge indicator.
    static func allowancesAndCharges(
        _ entries: [XMLTree.Element], amount name: String, prefix: String, currency: CurrencyCode,
        indicator: (XMLTree.Element) -> String?
    ) throws(Problem) -> ([Amount], [Amount]) {
        var allowances: [Amount] = []
        var charges: [Amount] = []
        for entry in entries {
            let term = indicator(entry)?.lowercased() == "true" ? "BT-99" : "BT-92"
            let amount = try amount(try required(entry.child(name), entry.path + "/" + prefix + name, term), currency, term)
            if term == "BT-99" { charges.append(amount) } else { allowances.append(amount) }
        }
        return (allowances, charges)
    }

    /// The document totals (BG-22): BT-106, BT-107, BT-108, BT-109, BT-112, BT-113, BT-114 and BT-115, the
    /// syntax's element `names` for the required and optional ones (BT-107 and BT-108 are named alike in both).
    static func totals(
        _ totals: XMLTree.Element, prefix: String, currency: CurrencyCode,
        names: (line: String, net: String, gross: String, prepaid: String, rounding: String, payable: String)
    ) throws(Problem) -> (Amount, Amount?, Amount?, Amount, Amount, Amount?, Amount?, Amount) {
        func total(_ name: String, _ term: String) throws(Problem) -> Amount {
            try amount(try required(totals.child(name), totals.path + "/" + prefix + name, term), currency, term)
        }
        return (
            try total(names.line, "BT-106"), try optionalAmount(totals.child("AllowanceTotalAmount"), currency, "BT-107"),
            try optionalAmount(totals.child("ChargeTotalAmount"), currency, "BT-108"), try total(names.net, "BT-109"),
            try total(names.gross, "BT-112"), try optionalAmount(totals.child(names.prepaid), currency, "BT-113"),
            try optionalAmount(totals.child(names.rounding), currency, "BT-114"), try total(names.payable, "BT-115")
        )
    }

    // MARK: UBL 2.1

    private init(ubl root: XMLTree.Element) throws(Problem) {
        syntax = .ubl
        rootPath = root.path
        profile = Self.profile(root)
        isCreditNote = root.name == "CreditNote"
        number = try Self.required(root.child("ID"), root.path + "/cbc:ID", "BT-1").text
        issued = try Self.date(try Self.required(root.child("IssueDate"), root.path + "/cbc:IssueDate", "BT-2"), "BT-2", compact: false)
        typeCode = Self.text(root.child(isCreditNote ? "CreditNoteTypeCode" : "InvoiceTypeCode")) ?? (isCreditNote ? "381" : "380")
        if Self.creditNoteCodes.contains(typeCode) { isCreditNote = true }
        let currency = try Self.currency(try Self.required(root.child("DocumentCurrencyCode"), root.path + "/cbc:DocumentCurrencyCode", "BT-5"))
        self.currency = currency
        let dueElement = root.child("DueDate") ?? root.at("PaymentMeans", "PaymentDueDate")
        due = try dueElement.flatMap { element throws(Problem) in element.text.isEmpty ? nil : try Self.date(element, "BT-9", compact: false) }
        duePath = dueElement?.path ?? ""
        notes = root.all("Note").map(\.text).filter { !$0.isEmpty }
        preceding = Self.text(root.at("BillingReference", "InvoiceDocumentReference", "ID"))
        let party = try Self.required(root.at("AccountingCustomerParty", "Party"), root.path + "/cac:AccountingCustomerParty/cac:Party", "BG-7")
        guard let name = Self.text(party.at("PartyLegalEntity", "RegistrationName")) ?? Self.text(party.at("PartyName", "Name")) else {
            throw Problem(rule: "BT-44", path: party.path + "/cac:PartyLegalEntity/cbc:RegistrationName", message: "is missing or empty (BT-44, the buyer's name)")
        }
        buyerName = name
        buyerID = Self.text(party.at("PartyIdentification", "ID"))
        let endpoint = Self.text(party.child("EndpointID"))
        buyerEmail = Self.text(party.at("Contact", "ElectronicMail")) ?? (party.child("EndpointID")?.attributes["schemeID"] == "EM" ? endpoint : nil)
        let address = party.child("PostalAddress")
        street = [Self.text(address?.child("StreetName")), Self.text(address?.child("AdditionalStreetName"))].compactMap { $0 }
            .joined(separator: ", ").nilIfEmpty
        city = Self.text(address?.child("CityName"))
        zip = Self.text(address?.child("PostalZone"))
        country = Self.text(address?.at("Country", "IdentificationCode"))
        lineNets = try root.children.filter { $0.name == "InvoiceLine" || $0.name == "CreditNoteLine" }.map { line throws(Problem) in
            try Self.amount(try Self.required(line.child("LineExtensionAmount"), line.path + "/cbc:LineExtensionAmount", "BT-131"), currency, "BT-131")
        }
        (allowances, charges) = try Self.allowancesAndCharges(
            root.all("AllowanceCharge"), amount: "Amount", prefix: "cbc:", currency: currency) { $0.child("ChargeIndicator")?.text }
        for payment in root.all("PrepaidPayment") {
            if let amount = try Self.optionalAmount(payment.child("PaidAmount"), currency, "BT-DEX-002") { thirdPartyPayments.append(amount) }
        }
        let totals = try Self.required(root.child("LegalMonetaryTotal"), root.path + "/cac:LegalMonetaryTotal", "BG-22")
        (lineTotal, allowanceTotal, chargeTotal, net, gross, prepaid, rounding, payable) = try Self.totals(
            totals, prefix: "cbc:", currency: currency,
            names: ("LineExtensionAmount", "TaxExclusiveAmount", "TaxInclusiveAmount", "PrepaidAmount", "PayableRoundingAmount", "PayableAmount"))
        // BT-110 is the TaxTotal in the document's currency (a second one may give the tax in the VAT currency, BT-111).
        let taxTotal = root.all("TaxTotal").first { $0.child("TaxAmount")?.attributes["currencyID"].map { $0 == currency.code } ?? true }
        tax = try Self.optionalAmount(taxTotal?.child("TaxAmount"), currency, "BT-110")
        vat = try (taxTotal?.all("TaxSubtotal") ?? []).map { subtotal throws(Problem) in
            VATBreakdown(
                category: Self.text(subtotal.at("TaxCategory", "ID")) ?? "",
                rate: Self.text(subtotal.at("TaxCategory", "Percent")),
                taxable: try Self.amount(try Self.required(subtotal.child("TaxableAmount"), subtotal.path + "/cbc:TaxableAmount", "BT-116"), currency, "BT-116"),
                tax: try Self.amount(try Self.required(subtotal.child("TaxAmount"), subtotal.path + "/cbc:TaxAmount", "BT-117"), currency, "BT-117"))
        }
    }

    // MARK: UN/CEFACT CII D16B

    private init(cii root: XMLTree.Element) throws(Problem) {
        syntax = .cii
        rootPath = root.path
        profile = Self.profile(root)
        let document = try Self.required(root.child("ExchangedDocument"), root.path + "/rsm:ExchangedDocument", "BG-2")
        number = try Self.required(document.child("ID"), document.path + "/ram:ID", "BT-1").text
        typeCode = Self.text(document.child("TypeCode")) ?? "380"
        isCreditNote = Self.creditNoteCodes.contains(typeCode)
        issued = try Self.date(
            try Self.required(document.at("IssueDateTime", "DateTimeString"), document.path + "/ram:IssueDateTime/udt:DateTimeString", "BT-2"),
            "BT-2", compact: true)
        notes = document.all("IncludedNote").compactMap { Self.text($0.child("Content")) }
        let transaction = try Self.required(
            root.child("SupplyChainTradeTransaction"), root.path + "/rsm:SupplyChainTradeTransaction", "BG-25")
        let settlement = try Self.required(
            transaction.child("ApplicableHeaderTradeSettlement"), transaction.path + "/ram:ApplicableHeaderTradeSettlement", "BG-22")
        let currency = try Self.currency(try Self.required(settlement.child("InvoiceCurrencyCode"), settlement.path + "/ram:InvoiceCurrencyCode", "BT-5"))
        self.currency = currency
        due = try settlement.at("SpecifiedTradePaymentTerms", "DueDateDateTime", "DateTimeString").flatMap { element throws(Problem) in
            element.text.isEmpty ? nil : try Self.date(element, "BT-9", compact: true)
        }
        duePath = settlement.at("SpecifiedTradePaymentTerms", "DueDateDateTime", "DateTimeString")?.path ?? ""
        preceding = Self.text(settlement.at("InvoiceReferencedDocument", "IssuerAssignedID"))
        let buyer = try Self.required(
            transaction.at("ApplicableHeaderTradeAgreement", "BuyerTradeParty"),
            transaction.path + "/ram:ApplicableHeaderTradeAgreement/ram:BuyerTradeParty", "BG-7")
        guard let name = Self.text(buyer.child("Name")) else {
            throw Problem(rule: "BT-44", path: buyer.path + "/ram:Name", message: "is missing or empty (BT-44, the buyer's name)")
        }
        buyerName = name
        buyerID = Self.text(buyer.child("ID")) ?? Self.text(buyer.child("GlobalID"))
        let endpoint = buyer.at("URIUniversalCommunication", "URIID")
        buyerEmail = Self.text(buyer.at("DefinedTradeContact", "EmailURIUniversalCommunication", "URIID"))
            ?? (endpoint?.attributes["schemeID"] == "EM" ? Self.text(endpoint) : nil)
        let address = buyer.child("PostalTradeAddress")
        street = [Self.text(address?.child("LineOne")), Self.text(address?.child("LineTwo"))].compactMap { $0 }.joined(separator: ", ").nilIfEmpty
        city = Self.text(address?.child("CityName"))
        zip = Self.text(address?.child("PostcodeCode"))
        country = Self.text(address?.child("CountryID"))
        lineNets = try transaction.all("IncludedSupplyChainTradeLineItem").map { line throws(Problem) in
            let path = ["SpecifiedLineTradeSettlement", "SpecifiedTradeSettlementLineMonetarySummation", "LineTotalAmount"]
            return try Self.amount(
                try Self.required(line.at(path), line.path + "/ram:" + path.joined(separator: "/ram:"), "BT-131"), currency, "BT-131")
        }
        (allowances, charges) = try Self.allowancesAndCharges(
            settlement.all("SpecifiedTradeAllowanceCharge"), amount: "ActualAmount", prefix: "ram:", currency: currency
        ) { $0.at("ChargeIndicator", "Indicator")?.text }
        // Factur-X / ZUGFeRD EXTENDED states its logistics service charges apart; they are part of BT-108.
        charges += try settlement.all("SpecifiedLogisticsServiceCharge").map { entry throws(Problem) in
            try Self.amount(try Self.required(entry.child("AppliedAmount"), entry.path + "/ram:AppliedAmount", "BT-99"), currency, "BT-99")
        }
        let totals = try Self.required(
            settlement.child("SpecifiedTradeSettlementHeaderMonetarySummation"),
            settlement.path + "/ram:SpecifiedTradeSettlementHeaderMonetarySummation", "BG-22")
        (lineTotal, allowanceTotal, chargeTotal, net, gross, prepaid, rounding, payable) = try Self.totals(
            totals, prefix: "ram:", currency: currency,
            names: ("LineTotalAmount", "TaxBasisTotalAmount", "GrandTotalAmount", "TotalPrepaidAmount", "RoundingAmount", "DuePayableAmount"))
        // BT-110 in the document's currency (a second TaxTotalAmount may give it in the VAT currency, BT-111).
        tax = try Self.optionalAmount(
            totals.all("TaxTotalAmount").first { $0.attributes["currencyID"].map { $0 == currency.code } ?? true }, currency, "BT-110")
        vat = try settlement.all("ApplicableTradeTax").map { entry throws(Problem) in
            VATBreakdown(
                category: Self.text(entry.child("CategoryCode")) ?? "",
                rate: Self.text(entry.child("RateApplicablePercent")),
                taxable: try Self.amount(try Self.required(entry.child("BasisAmount"), entry.path + "/ram:BasisAmount", "BT-116"), currency, "BT-116"),
                tax: try Self.amount(try Self.required(entry.child("CalculatedAmount"), entry.path + "/ram:CalculatedAmount", "BT-117"), currency, "BT-117"))
        }
    }

    // MARK: EN 16931's arithmetic

    /// The first of the calculation rules this reader relies on that the document breaks, checked exactly in minor
    /// units: BR-CO-10 to BR-CO-16, and the VAT breakdown's tax summing to BT-110. Nil when it keeps them all.
    /// Every sum and difference is checked: one past 64-bit minor units breaks its rule (the amounts cannot be
    /// added up), never traps and never wraps.
    func brokenRule() -> Problem? {
        func sum(_ amounts: [Amount]) -> Int64? { MinorUnits.sum(amounts.lazy.map(\.minorUnits)) }
        func plus(_ a: Int64?, _ b: Int64) -> Int64? { MinorUnits.add(a, b) }
        func minus(_ a: Int64?, _ b: Int64) -> Int64? { MinorUnits.subtract(a, b) }
        func money(_ minorUnits: Int64) -> String { Money.decimalString(minorUnits, digits: currency.minorUnitDigits) }
        let allowances = allowanceTotal?.minorUnits ?? 0, charges = chargeTotal?.minorUnits ?? 0
        let taxTotal = tax?.minorUnits ?? 0
        let checks: [(rule: String, stated: Int64, computed: Int64?, path: String, stating: String, computing: String)] = [
            ("BR-CO-10", lineTotal.minorUnits, sum(lineNets), lineTotal.path,
             "the sum of the invoice lines' net amounts (BT-106)", "the lines (BT-131) add up to"),
            ("BR-CO-11", allowances, sum(self.allowances), allowanceTotal?.path ?? lineTotal.path,
             "the allowances total (BT-107)", "the document level allowances (BT-92) add up to"),
            ("BR-CO-12", charges, sum(self.charges), chargeTotal?.path ?? lineTotal.path,
             "the charges total (BT-108)", "the document level charges (BT-99) add up to"),
            ("BR-CO-13", net.minorUnits, plus(minus(lineTotal.minorUnits, allowances), charges), net.path,
             "the total without VAT (BT-109)", "lines − allowances + charges is"),
            ("BR-CO-14", taxTotal, sum(vat.map(\.tax)), tax?.path ?? net.path,
             "the VAT total (BT-110)", "the VAT breakdown (BT-117) adds up to"),
            ("BR-CO-15", gross.minorUnits, plus(net.minorUnits, taxTotal), gross.path,
             "the total with VAT (BT-112)", "the total without VAT plus the VAT (BT-109 + BT-110) is"),
            ("BR-CO-16", payable.minorUnits, plus(minus(gross.minorUnits, prepaid?.minorUnits ?? 0), rounding?.minorUnits ?? 0), payable.path,
             "the amount due (BT-115)", "BT-112 − BT-113 + BT-114 is"),
        ]
        guard let broken = checks.first(where: { $0.computed != $0.stated }) else { return nil }
        guard let computed = broken.computed else {
            return Problem(
                rule: broken.rule, path: broken.path,
                message: "\(broken.stating) is \(money(broken.stated)), but \(broken.computing) more than 64-bit minor units hold "
                    + "(\(money(Int64.max)) \(currency.code)); such amounts cannot be imported")
        }
        return Problem(rule: broken.rule, path: broken.path, message: "\(broken.stating) is \(money(broken.stated)), but \(broken.computing) \(money(computed))")
    }

    /// Whether the books hold the document the other way round: a negative total with VAT (BT-112), such as a
    /// correction invoice (384) or a Peppol negative invoice, is a credit note of the opposite amounts, and a
    /// negative credit note an invoice (docs/store.md, "Signs").
    var isReversed: Bool { gross.minorUnits < 0 }
    /// Whether the books hold the document as a credit note.
    var isStoredAsCreditNote: Bool { isCreditNote != isReversed }
    /// An amount as the books hold it (turned when ``isReversed``); nil past 64 bits.
    func stored(_ amount: Amount) -> Int64? { isReversed ? MinorUnits.subtract(0, amount.minorUnits) : amount.minorUnits }

    /// Why the books cannot hold the document although EN 16931 allows it, or nil: a due date before the issue
    /// date; a VAT breakdown line whose tax has the opposite sign of the total with VAT (the books keep one sign
    /// per document; a negative line without tax nets within its tax lines, ``InvoicesCore/BooksRules``). Then the rules every stored invoice keeps (``InvoicesCore/InvoiceRules``,
    /// the ones the build checks its store against), on the due date it will be stored with (`due`: BT-9, or the
    /// issue date plus the terms), and the paid amount (BT-113) against
    /// ``InvoicesCore/BooksRules/receivedViolations(received:format:)`` in the books' sign (it may exceed the total: the
    /// rest is the client's credit).
    func unstorable(due stored: CalendarDate, derived: Bool) -> Problem? {
        func money(_ minorUnits: Int64) -> String { Money.decimalString(minorUnits, digits: currency.minorUnitDigits) }
        if let due, due < issued {
            return Problem(
                rule: "BT-9", path: duePath,
                message: "the due date \(due) is before the issue date (BT-2) \(issued); the books keep due dates on or after the issue date")
        }
        for amount in [gross, net] + (prepaid.map { [$0] } ?? []) + vat.flatMap({ [$0.taxable, $0.tax] }) where self.stored(amount) == nil {
            return Problem(rule: "BT-112", path: amount.path, message: "\(money(amount.minorUnits)) cannot be turned into a credit note's amount in 64-bit minor units")
        }
        let amount = self.stored(gross) ?? 0
        let root = rootPath
        let violations = InvoiceRules.violations(
            identifier: number, amount: amount, amountText: money(amount), issued: issued, due: stored, paid: nil)
        for violation in violations {
            switch violation.attribute {
            case "amount":
                return Problem(rule: "BT-112", path: gross.path, message: "the total with VAT \(violation.message)")
            case "dueOn":
                return Problem(
                    rule: "BT-9", path: derived ? root : duePath,
                    message: (derived ? "the due date (the issue date plus --default-terms) " : "the due date ") + violation.message)
            case "issuedOn":
                return Problem(rule: "BT-2", path: root, message: "the issue date " + violation.message)
            default:
                return Problem(rule: "BT-1", path: root, message: "the invoice number \(violation.message)")
            }
        }
        // The paid amount has the total's sign: a negative document's is negative too (money paid back).
        if let prepaid, let received = self.stored(prepaid), let violation = BooksRules.receivedViolations(received: received, format: money).first {
            return Problem(
                rule: "BT-113", path: prepaid.path,
                message: isReversed
                    ? "the paid amount (\(money(prepaid.minorUnits))) is positive, but the total with VAT is negative (\(money(gross.minorUnits))); "
                        + "a paid amount has its total's sign"
                    : "the paid amount \(violation.message)")
        }
        for entry in vat {
            let taxable = self.stored(entry.taxable) ?? 0, tax = self.stored(entry.tax) ?? 0
            guard tax < 0 || (taxable < 0 && tax != 0) else { continue }
            let line = "a VAT breakdown line (category \(entry.category)\(entry.rate.map { " \($0) %" } ?? ""), taxable "
                + "\(money(entry.taxable.minorUnits)), tax \(money(entry.tax.minorUnits)))"
            return Problem(
                rule: "BG-23", path: (tax < 0 ? entry.tax : entry.taxable).path,
                message: tax < 0
                    ? "\(line) levies tax of the opposite sign to the total with VAT (BT-112, \(money(gross.minorUnits))); the books keep "
                        + "one sign of tax per document (a negative line nets within its invoice only when it has no tax), so such a "
                        + "document cannot be imported"
                    : "\(line) has a taxable amount and a tax of opposite signs; the books cannot hold it")
        }
        return nil
    }
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
