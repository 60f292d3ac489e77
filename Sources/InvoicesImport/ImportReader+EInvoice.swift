internal import Foundation
internal import InvoicesCore

extension ImportReader {
    /// Whether `bytes` look like XML (the first character after a byte order mark and white space is `<`).
    /// Why an e-invoice file past its budget (``InvoicesCore/InputBudget``) is refused.
    static func tooLarge(pdf: Bool) -> String {
        pdf
            ? "is larger than \(InputBudget.describe(InputBudget.pdfBytes)), the limit for a Factur-X PDF (docs/reliability.md)"
            : "is larger than \(InputBudget.describe(InputBudget.eInvoiceBytes)), the limit for an XML e-invoice (docs/reliability.md)"
    }

    /// UTF-16 and UTF-32 XML, with a byte order mark or without (`<` then zero bytes), are XML too.
    static func looksLikeXML(_ bytes: [UInt8]) -> Bool {
        bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }) == UInt8(ascii: "<")
            || [[0xFF, 0xFE, 0x3C, 0x00], [0xFE, 0xFF, 0x00, 0x3C], [0x00, 0x3C, 0x00, 0x3F], [0x00, 0x00, 0xFE, 0xFF], [0x00, 0x00, 0x00, 0x3C]]
                .contains { bytes.starts(with: $0) }
    }

    /// Reads one e-invoice (EN 16931 in UBL 2.1 or CII D16B; docs/import.md, "E-invoices") into the batch: its buyer
    /// as a client, itself as an invoice or credit note with its VAT breakdown as tax lines. A document that breaks
    /// one of the calculation rules the figures rely on is refused with the rule and the element.
    func readEInvoice(file: String, xml bytes: [UInt8], into batch: inout ImportBatch, problems: inout ProblemList) {
        if bytes.count > InputBudget.eInvoiceBytes {
            return problems.add(ImportProblem(location: SourceLocation(file: file), message: Self.tooLarge(pdf: false)))
        }
        let tree: XMLTree
        do {
            tree = try XMLTree(bytes: bytes)
        } catch {
            problems.add(ImportProblem(location: SourceLocation(file: file, line: error.line), message: error.message))
            return
        }
        if tree.root.namespace == EInvoice.zugferd1 {
            return problems.add(
                ImportProblem(
                    location: SourceLocation(file: file, element: tree.root.path),
                    message: "is a ZUGFeRD 1 document (CrossIndustryDocument), a syntax the tool does not read: it reads ZUGFeRD 2 "
                        + "and Factur-X (CII D16B), UBL 2.1 and XRechnung (EN 16931; docs/import.md)"))
        }
        guard EInvoice.isEInvoice(tree.root) else {
            problems.add(
                ImportProblem(
                    location: SourceLocation(file: file, element: tree.root.path),
                    message: "is XML but not an e-invoice this tool reads: the root element must be a UBL 2.1 Invoice or CreditNote "
                        + "or a CII CrossIndustryInvoice, in their namespaces (EN 16931; docs/import.md)"))
            return
        }
        if let profile = EInvoice.profile(tree.root), let name = EInvoice.unreadProfile(profile) {
            return problems.add(
                ImportProblem(
                    location: SourceLocation(file: file, element: tree.root.path),
                    message: "is a \(name) document (\(profile)), a profile the tool does not read: it carries no invoice lines "
                        + "(BG-25) and VAT breakdown to check its totals by; export it as EN 16931, BASIC, EXTENDED or XRechnung (docs/import.md)"))
        }
        let document: EInvoice
        do {
            document = try EInvoice(tree.root)
        } catch {
            problems.add(ImportProblem(location: SourceLocation(file: file, element: error.path), message: "\(error.rule): \(error.message)"))
            return
        }
        if let broken = document.brokenRule() {
            // An extension may state its totals by rules of its own (the XRechnung extension's third-party payments).
            var extensionNote = EInvoice.isExtension(document.profile)
                ? "; the document follows \(document.profile ?? ""), an extension of EN 16931 whose own rules the tool does not read" : ""
            if broken.rule == "BR-CO-16", !document.thirdPartyPayments.isEmpty {
                let total = MinorUnits.sum(document.thirdPartyPayments.lazy.map(\.minorUnits)).map {
                    Money.decimalString($0, digits: document.currency.minorUnitDigits)
                } ?? "more than 64-bit minor units hold"
                extensionNote += ": its third-party payments (BG-DEX-09, cac:PrepaidPayment) add \(total) to the amount due (BR-DEX-09), "
                    + "money collected for others that the books have no place for"
            }
            problems.add(
                ImportProblem(
                    location: SourceLocation(file: file, element: broken.path),
                    message: "breaks \(broken.rule): \(broken.message)" + extensionNote))
            return
        }
        let due = document.due ?? document.issued.adding(days: options.defaultTerms)
        if let problem = document.unstorable(due: due, derived: document.due == nil) {
            problems.add(
                ImportProblem(location: SourceLocation(file: file, element: problem.path), message: "\(problem.rule): \(problem.message)"))
            return
        }
        add(document, due: due, file: file, into: &batch)
    }

    /// Reads the e-invoice attached to a Factur-X / ZUGFeRD PDF (``FacturX``) as ``readEInvoice(file:xml:into:problems:)``
    /// does.
    func readFacturX(file: String, pdf bytes: [UInt8], into batch: inout ImportBatch, problems: inout ProblemList) {
        if bytes.count > InputBudget.pdfBytes {
            return problems.add(ImportProblem(location: SourceLocation(file: file), message: Self.tooLarge(pdf: true)))
        }
        do {
            readEInvoice(file: file, xml: try FacturX.invoiceXML(pdf: bytes), into: &batch, problems: &problems)
        } catch {
            problems.add(ImportProblem(location: SourceLocation(file: file), message: error.message))
        }
    }

    /// The batch's client and invoice for `document` (its checks passed), due on `due`.
    func add(_ document: EInvoice, due: CalendarDate, file: String, into batch: inout ImportBatch) {
        let source = SourceLocation(file: file, element: document.syntax == .ubl ? "/\(document.isCreditNote ? "CreditNote" : "Invoice")" : "/rsm:CrossIndustryInvoice")
        // The buyer: matched by its identifier (BT-46) when it has one, else by name (BT-44); once per batch.
        let known = batch.clients.contains { client in
            document.buyerID.map { client.number == $0 } ?? (client.number == nil && client.name == document.buyerName)
        }
        if !known {
            batch.clients.append(
                ImportedClient(
                    number: document.buyerID, name: document.buyerName, email: document.buyerEmail, street: document.street,
                    city: document.city, zip: document.zip, country: document.country, source: source))
        }
        if document.due == nil {
            batch.warnings.append(
                ImportProblem(
                    location: source,
                    message: "\(document.number) has no due date (BT-9): due \(options.defaultTerms) days after its issue date, \(due) (--default-terms)"))
        }
        // The paid amount (BT-113) as one payment, in the books' sign: it lowers an invoice's balance and raises a
        // credit note's (money paid back to the client), so the balance after it is what BT-115 says is due.
        // (EInvoice.unstorable has checked that it turns within 64 bits.)
        let prepaid = document.prepaid?.minorUnits ?? 0
        let payment = document.isCreditNote ? MinorUnits.subtract(0, prepaid) ?? 0 : prepaid
        if prepaid != 0 {
            let money = { (amount: Int64) in "\(Money.decimalString(amount, digits: document.currency.minorUnitDigits)) \(document.currency.code)" }
            let storedGross = document.stored(document.gross) ?? 0, storedPrepaid = document.stored(document.prepaid ?? document.gross) ?? 0
            let credit = storedPrepaid <= storedGross ? "" : "; the rest, \(money(storedPrepaid - storedGross)), "
                + (document.isStoredAsCreditNote ? "is owed by the client (BT-115)" : "is the client's credit (BT-115)")
            batch.warnings.append(
                ImportProblem(
                    location: SourceLocation(file: file, element: document.prepaid?.path),
                    message: "\(document.number): the paid amount (BT-113, \(money(prepaid))) is recorded as one payment of \(money(payment)) on the issue "
                        + "date, \(document.issued); the e-invoice does not say when it was paid" + credit))
        }
        // The checks (EInvoice.unstorable) have made sure every amount turns within 64 bits.
        func stored(_ amount: EInvoice.Amount) -> Int64 { document.stored(amount) ?? amount.minorUnits }
        if document.isReversed {
            batch.warnings.append(
                ImportProblem(
                    location: SourceLocation(file: file, element: document.gross.path),
                    message: "\(document.number): the total with VAT (BT-112) is negative, "
                        + "\(Money.decimalString(document.gross.minorUnits, digits: document.currency.minorUnitDigits)) \(document.currency.code): "
                        + "stored as \(document.isCreditNote ? "an invoice" : "a credit note") of the opposite amounts (docs/store.md, \"Signs\")"))
        }
        var invoice = ImportedInvoice(
            identifier: document.number, client: document.buyerID.map(ClientReference.number) ?? .name(document.buyerName),
            clientColumn: document.buyerID == nil ? "BT-44" : "BT-46", amount: Money(minorUnits: stored(document.gross), currency: document.currency),
            issued: document.issued, due: due, dueIsDerived: document.due == nil,
            paid: payment != 0 && payment == stored(document.gross) && !document.isStoredAsCreditNote ? document.issued : nil,
            notes: document.notes.joined(separator: "\n"), source: source, status: .sent,
            receipts: payment == 0 ? nil : ImportedReceipts(received: payment, receivedOn: document.issued),
            tax: ImportedTax(
                net: stored(document.net),
                lines: document.vat.map { entry in
                    ImportedTax.Line(
                        name: "VAT" + (entry.category.isEmpty || entry.category == "S" ? "" : " " + entry.category),
                        rate: Self.percent(entry.rate ?? "0"), net: stored(entry.taxable), amount: stored(entry.tax))
                }))
        invoice.kind = document.isStoredAsCreditNote ? .creditNote : .invoice
        if document.isStoredAsCreditNote, let preceding = document.preceding {
            invoice.corrects = preceding
            invoice.applied = document.issued
            invoice.unappliedWhenUncorrected = true
        }
        batch.invoices.append(invoice)
    }

    /// A rate as ``InvoicesCore/TaxRate/percent`` writes it: `19.00` is `19`, `7.70` is `7.7`.
    static func percent(_ text: String) -> String {
        guard text.contains(".") else { return text }
        var trimmed = Substring(text)
        while trimmed.last == "0" { trimmed = trimmed.dropLast() }
        if trimmed.last == "." { trimmed = trimmed.dropLast() }
        return trimmed.isEmpty ? "0" : String(trimmed)
    }
}
