internal import InvoicesCore
internal import InvoicesReport

extension SiteBuilder {
    /// At most this many invoices on a client page get a QR code of their own (those due first); the others show
    /// the same transfer details as text, and the statement's code pays the whole balance.
    static let invoiceCodeLimit = 50

    /// How a client can pay `minorUnits` of `currency` (a balance, or an invoice's when `invoice` is given): the
    /// template's `pay` object, or nil when the amount is not owed (zero or negative) or there is no way to pay it.
    /// An EPC QR code, with the payee's name, IBAN and BIC as text, for euros when the payee has an IBAN; a pay link
    /// for any currency when the payee has a `payment_url`.
    func payContext(
        clientIndex: Int, invoice: String?, minorUnits: Int64, currency: CurrencyCode, drawCode: Bool = true
    ) -> [String: Any]? {
        guard minorUnits > 0, let payee = options.payee else { return nil }
        let client = books.clients[clientIndex].number
        let reference = invoice ?? client
        var context: [String: Any] = ["amount": money(minorUnits, currency), "currency": currency.code, "reference": reference]
        if currency.code == "EUR", let payment = EPCPayment(payee: payee, cents: minorUnits, remittance: reference) {
            context["payee"] = payee.name
            context["iban"] = Payee.printedIBAN(payment.payee.iban ?? "")
            if let bic = payee.bic { context["bic"] = bic }
            if drawCode, let code = QRCode(bytes: Array(payment.payload.utf8)) {
                context["qr"] = code.svg(label: "EPC payment code: \(money(minorUnits, currency)) to \(payee.name), reference \(reference)")
            }
        }
        let amount = Money.decimalString(minorUnits, digits: currency.minorUnitDigits)
        if let url = payee.payURL(client: client, invoice: invoice, amount: amount, currency: currency.code) {
            context["payURL"] = url
        }
        return context["iban"] != nil || context["payURL"] != nil ? context : nil
    }

    /// The client page's `toPay`: each invoice still owed at the as-of date (sent, not a credit note, balance
    /// above zero), due first, with how to pay it. Empty without a payee.
    func toPayContext(_ clientIndex: Int, invoices: [Int]) -> [[String: Any]] {
        guard options.payee != nil else { return [] }
        let open = invoices.filter {
            let invoice = books.invoices[$0]
            return invoice.status == .sent && invoice.kind == .invoice && report.balance(of: $0, in: books) > 0
        }.sorted {
            let a = books.invoices[$0], b = books.invoices[$1]
            return a.due != b.due ? a.due < b.due : a.identifier < b.identifier
        }
        return open.enumerated().compactMap { position, index in
            let invoice = books.invoices[index]
            let currency = books.currencies[Int(invoice.currencyIndex)]
            guard let pay = payContext(
                clientIndex: clientIndex, invoice: invoice.identifier, minorUnits: report.balance(of: index, in: books),
                currency: currency, drawCode: position < Self.invoiceCodeLimit)
            else { return nil }
            return ["identifier": invoice.identifier, "due": invoice.due.description, "pay": pay]
        }
    }
}
