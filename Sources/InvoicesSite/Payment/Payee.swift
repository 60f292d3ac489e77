internal import Foundation
internal import InvoicesCore

/// Who a client pays (config `payee:`): the EPC payment codes on statements and client pages carry the name, the
/// IBAN and the BIC; the pay links follow `paymentURL`.
public struct Payee: Sendable, Equatable {
    /// The beneficiary's name, as the bank holds it (the EPC code keeps its first 70 characters, at most 111 bytes).
    public var name: String
    /// The account, as ISO 13616 prints it or as one word; stored in its electronic form (no spaces, upper case).
    public var iban: String?
    /// The bank's BIC (ISO 9362), or nil: inside the EEA a SEPA transfer needs none.
    public var bic: String?
    /// A pay link's address with the placeholders `{client}`, `{invoice}`, `{amount}` and `{currency}`, or nil.
    public var paymentURL: String?
    /// The payee's postal address (`payee.address`): the Swiss QR-bill's creditor.
    public var address: Address?
    /// The account of Swiss QR-bills (`payee.qr_bill.iban`), electronic form, when it is not ``iban``.
    public var qrBillIBAN: String?

    /// A structured postal address, as the Swiss QR-bill carries the creditor's.
    public struct Address: Sendable, Equatable {
        public var street: String
        public var number: String
        public var zip: String
        public var city: String
        /// ISO 3166 alpha-2.
        public var country: String

        public init(street: String = "", number: String = "", zip: String = "", city: String = "", country: String = "") {
            self.street = street
            self.number = number
            self.zip = zip
            self.city = city
            self.country = country.uppercased()
        }

        /// The fields the QR-bill needs (`payee.address.KEY`): the building number may be empty (an address without one).
        public static let requiredKeys = ["street", "zip", "city", "country"]
        public static let keys = ["street", "number", "zip", "city", "country"]
    }

    public init(
        name: String, iban: String? = nil, bic: String? = nil, paymentURL: String? = nil, address: Address? = nil,
        qrBillIBAN: String? = nil
    ) {
        self.name = name
        self.iban = iban.map(Self.electronicIBAN)
        self.bic = bic.map { $0.uppercased() }
        self.paymentURL = paymentURL
        self.address = address
        self.qrBillIBAN = qrBillIBAN.map(Self.electronicIBAN)
    }

    /// The account Swiss QR-bills pay into: `qr_bill.iban` when set, else ``iban`` when it is a CH or LI IBAN; nil
    /// without one (a CHF balance then gets no code).
    public var swissAccount: String? {
        if let qrBillIBAN { return qrBillIBAN }
        return iban.flatMap { SwissQRBill.isSwiss($0) ? $0 : nil }
    }

    /// Why `text` cannot be a QR-bill's account, or nil: a valid IBAN of CH or LI (a QR-IBAN or a plain one).
    public static func qrBillIBANProblem(_ text: String) -> String? {
        if let problem = ibanProblem(text) { return problem }
        return SwissQRBill.isSwiss(electronicIBAN(text)) ? nil : "is not a Swiss or Liechtenstein IBAN (CH or LI); a QR-bill pays only into one"
    }

    /// Why `text` cannot be the payee's country (`payee.address.country`), or nil: an ISO 3166 alpha-2 code.
    public static func countryProblem(_ text: String) -> String? {
        let upper = text.uppercased()
        return upper.count == 2 && SwissQRBill.countryCode(upper) == upper ? nil : "must be an ISO 3166 alpha-2 country code, e.g. CH"
    }

    /// The placeholders a `payment_url` may hold.
    public static let placeholders = ["client", "invoice", "amount", "currency"]

    /// `text` without spaces, in upper case: the IBAN's electronic format.
    static func electronicIBAN(_ text: String) -> String { text.filter { $0 != " " }.uppercased() }

    /// The IBAN in groups of four, as ISO 13616 prints it for people.
    static func printedIBAN(_ iban: String) -> String {
        var groups: [Substring] = []
        var rest = iban[...]
        while !rest.isEmpty {
            groups.append(rest.prefix(4))
            rest = rest.dropFirst(4)
        }
        return groups.joined(separator: " ")
    }

    /// Why `text` cannot be the payee's name, or nil: it needs a character that is not blank or a control, and its
    /// first character must fit the payment code's ``EPCPayment/nameByteLimit`` bytes of name (a letter with a
    /// hundred combining marks does not). A longer name is cut to what fits, between characters.
    public static func nameProblem(_ text: String) -> String? {
        let clean = EPCPayment.field(text, limit: 1, bytes: .max)
        if clean.trimmingCharacters(in: .whitespaces).isEmpty { return "cannot be empty" }
        guard EPCPayment.name(text).isEmpty else { return nil }
        return "starts with a character of \(clean.utf8.count) bytes (a letter and its marks, or an emoji sequence); a payment code "
            + "holds at most \(EPCPayment.nameByteLimit) bytes of the name"
    }

    /// Why `text` is not an IBAN, or nil when it is one: two letters (a country of the IBAN registry), two check
    /// digits, then the country's length of letters and digits, with the ISO 7064 mod-97 check. Spaces are ignored
    /// and letters may be lower case.
    public static func ibanProblem(_ text: String) -> String? {
        let iban = electronicIBAN(text)
        let scalars = Array(iban.unicodeScalars)
        guard scalars.allSatisfy({ $0.isASCII && ($0.properties.isUppercase || ("0"..."9").contains($0)) }) else {
            return "may hold only letters, digits and spaces"
        }
        guard scalars.count >= 4, scalars[0...1].allSatisfy({ ("A"..."Z").contains($0) }),
            scalars[2...3].allSatisfy({ ("0"..."9").contains($0) })
        else { return "must start with a two-letter country code and two check digits, e.g. DE89 3704 0044 0532 0130 00" }
        let country = String(iban.prefix(2))
        guard let length = ibanLengths[country] else { return "starts with \(country), which is not a country of the IBAN registry" }
        guard scalars.count == length else { return "has \(scalars.count) characters; an IBAN of \(country) has \(length)" }
        // ISO 7064 MOD 97-10: the first four characters moved to the end, letters as 10–35, the number mod 97 is 1.
        return mod97(scalars[4...] + scalars[..<4]) == 1 ? nil : "fails its check digits (ISO 7064 mod 97): a character is wrong or two are swapped"
    }

    /// ISO 7064 MOD 97-10's remainder of upper-case letters and digits read as one number, each letter as 10 to 35
    /// (two digits): what an IBAN's and an ISO 11649 creditor reference's check digits are computed with.
    static func mod97(_ scalars: some Sequence<Unicode.Scalar>) -> Int {
        var remainder = 0
        for scalar in scalars {
            let value = ("0"..."9").contains(scalar) ? Int(scalar.value - 48) : Int(scalar.value - 55)
            remainder = (value < 10 ? remainder * 10 + value : remainder * 100 + value) % 97
        }
        return remainder
    }

    /// Why `text` is not a BIC, or nil: 8 or 11 characters, a four-letter bank code, a two-letter country, a
    /// two-character location, and optionally a three-character branch.
    public static func bicProblem(_ text: String) -> String? {
        let bic = Array(text.uppercased().unicodeScalars)
        let letter: (Unicode.Scalar) -> Bool = { ("A"..."Z").contains($0) }
        let alphanumeric: (Unicode.Scalar) -> Bool = { letter($0) || ("0"..."9").contains($0) }
        guard bic.count == 8 || bic.count == 11, bic[0..<6].allSatisfy(letter), bic[6...].allSatisfy(alphanumeric) else {
            return "is not a BIC: 8 or 11 letters and digits, e.g. COBADEFFXXX"
        }
        return nil
    }

    /// Why `text` is not a pay link's address, or nil: an absolute http or https address with a host, whose only
    /// braces are the placeholders (none in the host). The message never repeats the text.
    public static func paymentURLProblem(_ text: String) -> String? {
        if let problem = SiteOptions.urlCharacterProblem(text) { return problem }
        var rest = text[...]
        var sample = ""
        while let open = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            sample += rest[..<open]
            guard rest[open] == "{", let close = rest[open...].firstIndex(of: "}") else {
                return "has a brace that is not part of a placeholder; the placeholders are {client}, {invoice}, {amount} and {currency}"
            }
            let name = String(rest[rest.index(after: open)..<close])
            guard placeholders.contains(name) else {
                return "has an unknown placeholder {\(TerminalText.escaped(name))}; the placeholders are {client}, {invoice}, {amount} and {currency}"
            }
            sample += "x"
            rest = rest[rest.index(after: close)...]
        }
        sample += rest
        guard let components = URLComponents(string: sample), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else { return "is not an absolute http or https address, e.g. https://pay.example.com/{client}?amount={amount}" }
        if let plain = URLComponents(string: text.replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: "")),
            plain.host != host
        {
            return "has a placeholder in its host; put them in the path or the query"
        }
        if components.user != nil || components.password != nil { return "holds a user name or password; give the address without them" }
        return nil
    }

    /// The pay link for `client`'s `amount` (and `invoice`, or the whole balance when nil): the placeholders of
    /// ``paymentURL`` replaced by their values, each percent-encoded but for RFC 3986's unreserved characters, so no
    /// value can add a path, a query or a fragment. Nil without a `paymentURL`.
    func payURL(client: String, invoice: String?, amount: String, currency: String) -> String? {
        guard let template = paymentURL else { return nil }
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let values = ["client": client, "invoice": invoice ?? "", "amount": amount, "currency": currency]
        var result = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            result += rest[..<open]
            let value = values[String(rest[rest.index(after: open)..<close])] ?? ""
            result += value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// The length of an IBAN per country (SWIFT's IBAN registry).
    static let ibanLengths: [String: Int] = [
        "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BI": 27, "BR": 29,
        "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DJ": 27, "DK": 18, "DO": 28, "EE": 20, "EG": 29,
        "ES": 24, "FI": 18, "FK": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28,
        "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28,
        "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MN": 20,
        "MR": 27, "MT": 31, "MU": 30, "NI": 28, "NL": 18, "NO": 15, "OM": 23, "PK": 24, "PL": 28, "PS": 29, "QA": 29,
        "RO": 24, "RS": 22, "RU": 33, "SA": 24, "SC": 31, "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23,
        "ST": 25, "SV": 28, "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20, "YE": 30,
    ]
}
