internal import InvoicesCore

extension SwissQRBill {
    /// Which code pays a balance (docs/cli.md, "The Swiss QR-bill").
    enum Choice: Equatable {
        /// The EPC code (a euro amount not paid by QR-bill, or an invoice of its own on the client page) or no code at
        /// all (another currency): as before the QR-bill.
        case other
        /// The QR-bill.
        case bill(SwissQRBill)
        /// A balance the QR-bill would pay, with no QR-bill: a CHF balance without a Swiss account or a payee address.
        case none
    }

    /// Whether a client's address is in Switzerland or Liechtenstein (its country as a code or a name).
    static func isSwiss(client: ClientSnapshot) -> Bool {
        ["CH", "LI"].contains(countryCode(client.country) ?? "")
    }

    /// The choice for `minorUnits` of `currency` owed by `client`: a CHF amount, or a EUR amount of a client in
    /// Switzerland or Liechtenstein when the payee has a Swiss account, gets the QR-bill on a statement (`end` is its
    /// last day). An invoice of its own (`end` nil: the client page's To pay) and any other amount are `.other`.
    /// The statement's bill pays the whole balance, with the reference of the statement.
    static func choice(payee: Payee, client: ClientSnapshot, minorUnits: Int64, currency: CurrencyCode, end: CalendarDate?, message: String) -> Choice {
        guard let end else { return .other }
        let account = payee.swissAccount
        guard currency.code == "CHF" || (currency.code == "EUR" && account != nil && isSwiss(client: client)) else { return .other }
        guard let account, let address = payee.address, amountRange.contains(minorUnits),
            let reference = reference(clientID: client.id, end: end, iban: account)
        else { return .none }
        let creditor = Party(
            name: payee.name, street: address.street, number: address.number, zip: address.zip, city: address.city, country: address.country)
        var debtor: Party?
        if let country = countryCode(client.country), !field(client.city, 35).isEmpty, !field(client.zip, 16).isEmpty {
            debtor = Party(name: client.name, street: client.street, number: "", zip: client.zip, city: client.city, country: country)
        }
        return .bill(
            SwissQRBill(iban: account, creditor: creditor, amount: minorUnits, currency: currency.code, debtor: debtor, reference: reference, message: message))
    }
}
