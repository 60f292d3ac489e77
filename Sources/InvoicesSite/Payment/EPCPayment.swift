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
    /// The most UTF-8 bytes of the name: what the payload leaves when the other fields are at their longest (an
    /// 11-character BIC, a 34-character IBAN, the largest amount) and 140 bytes are kept for the remittance text, so
    /// that 140 ASCII characters always fit. 111.
    static let nameByteLimit = payloadLimit - head(bic: "XXXXXXXXXXX", name: "", iban: String(repeating: "X", count: 34), cents: centsRange.upperBound).utf8.count
        - 1 - remittanceLimit

    /// Nil when the amount is outside what the code can carry (zero, negative, or a billion euros and more), the
    /// payee has no IBAN, or no character of the payee's name fits the code (``Payee/nameProblem(_:)``).
    init?(payee: Payee, cents: Int64, remittance: String) {
        guard Self.centsRange.contains(cents), payee.iban != nil, !Self.name(payee.name).isEmpty else { return nil }
        self.payee = payee
        self.cents = cents
        self.remittance = remittance
    }

    /// The payee's name as the code carries it: as ``field(_:limit:bytes:)`` makes it, at most 70 characters and
    /// ``nameByteLimit`` bytes. Empty when its first character alone takes more (a letter with a hundred
    /// combining marks).
    static func name(_ name: String) -> String { field(name, limit: nameLimit, bytes: nameByteLimit) }

    /// The payload: twelve fields joined by line feeds, the trailing empty ones left out. Line breaks and other
    /// control characters in a value become spaces, so no value can add or move a field; the name and the remittance
    /// text are cut to their limits, by characters and by UTF-8 bytes, between characters (grapheme clusters, so an
    /// emoji sequence or a letter with its marks is kept whole or left out whole): the name to 70 characters and
    /// ``nameByteLimit`` bytes, the remittance text to 140 characters and the bytes the 331 of the payload leave.
    /// Nil when a remittance text is given and not one character of it fits: a code without its reference would pay
    /// an invoice the payee cannot match.
    var payload: String? {
        let head = Self.head(bic: payee.bic ?? "", name: Self.name(payee.name), iban: payee.iban ?? "", cents: cents)
        let text = Self.field(remittance, limit: Self.remittanceLimit, bytes: Self.payloadLimit - head.utf8.count - 1)
        if text.isEmpty { return Self.field(remittance, limit: Self.remittanceLimit, bytes: .max).isEmpty ? head : nil }
        return head + "\n" + text
    }

    /// The first ten fields: service tag, version, character set (1, UTF-8), identification, BIC, name, IBAN, amount,
    /// and the empty purpose and structured reference (the remittance text follows instead).
    private static func head(bic: String, name: String, iban: String, cents: Int64) -> String {
        ["BCD", "002", "1", "SCT", bic, name, iban, "EUR" + Money.decimalString(cents, digits: 2), "", ""].joined(separator: "\n")
    }

    /// `value` with control characters, line and paragraph separators and bidi overrides as spaces, trimmed, and cut
    /// to `limit` characters and `bytes` UTF-8 bytes between characters (grapheme clusters), trimmed again.
    static func field(_ value: String, limit: Int, bytes: Int) -> String {
        let scalars = value.unicodeScalars.map { scalar -> Unicode.Scalar in
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: " "
            case .format: (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value) ? " " : scalar
            default: scalar
            }
        }
        let text = String(String.UnicodeScalarView(scalars))
        var start = text.startIndex
        while start < text.endIndex, text[start] == " " { start = text.index(after: start) }
        var end = start, count = 0, used = 0
        while end < text.endIndex, count < limit {
            let next = text.index(after: end)
            let size = text.utf8.distance(from: end, to: next)
            guard used <= bytes - size else { break }
            used += size
            count += 1
            end = next
        }
        var result = text[start..<end]
        while result.last == " " { result = result.dropLast() }
        return String(result)
    }
}
