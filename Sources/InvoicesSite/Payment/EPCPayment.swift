internal import InvoicesCore

/// A SEPA credit transfer as the European Payments Council's QR code carries it (EPC069-12 version 002, the
/// "GiroCode"): a banking app that scans it pre-fills the transfer with the payee, the amount and the reference.
struct EPCPayment: Sendable, Equatable {
    var payee: Payee
    /// Euro cents: 1 to 99,999,999,999 (EUR 0.01 to EUR 999,999,999.99).
    var cents: Int64
    /// The unstructured remittance information: the invoice number, or the client number for a whole balance.
    var remittance: String

    /// The field limits of EPC069-12, in characters, and of the whole payload, in bytes.
    static let nameLimit = 70, remittanceLimit = 140, payloadLimit = 331
    static let centsRange: ClosedRange<Int64> = 1...99_999_999_999

    /// Nil when the amount is outside what the code can carry (zero, negative, or a billion euros and more) or the
    /// payee has no IBAN.
    init?(payee: Payee, cents: Int64, remittance: String) {
        guard Self.centsRange.contains(cents), payee.iban != nil else { return nil }
        self.payee = payee
        self.cents = cents
        self.remittance = remittance
    }

    /// The payload: twelve fields joined by line feeds, the trailing empty ones left out. Line breaks and other
    /// control characters in a value become spaces, so no value can add or move a field; the name and the remittance
    /// text are cut to their limits (by characters, and the remittance further when the UTF-8 payload would pass
    /// 331 bytes).
    var payload: String {
        let head = [
            "BCD", "002", "1", "SCT", payee.bic ?? "", Self.field(payee.name, limit: Self.nameLimit), payee.iban ?? "",
            "EUR" + Money.decimalString(cents, digits: 2),
            "",  // purpose
            "",  // structured reference (ISO 11649); the remittance text follows instead
        ].joined(separator: "\n")
        var text = Self.field(remittance, limit: Self.remittanceLimit)
        while head.utf8.count + 1 + text.utf8.count > Self.payloadLimit { text.removeLast() }
        return text.isEmpty ? head : head + "\n" + text
    }

    /// `value` with control characters, line and paragraph separators and bidi overrides as spaces, trimmed, and cut to `limit`
    /// characters.
    static func field(_ value: String, limit: Int) -> String {
        let scalars = value.unicodeScalars.map { scalar -> Unicode.Scalar in
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: " "
            case .format: (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value) ? " " : scalar
            default: scalar
            }
        }
        var text = String(String.UnicodeScalarView(scalars))
        text = String(text.drop(while: { $0 == " " }))
        while text.last == " " { text.removeLast() }
        return String(text.prefix(limit))
    }
}
