internal import Foundation
internal import InvoicesCore

/// A Swiss QR-bill's payment part (SIX, "Swiss Implementation Guidelines for the QR-bill", version 2.3): the `SPC`
/// payload its QR code carries, and the reference the tool derives for a statement.
///
/// The payload is 31 fields joined by CR LF, the last one `EPD` (no trailing line break): header (`SPC`, `0200`,
/// `1`), the account, the creditor as a structured address (`S`, name, street, building number, postal code, town,
/// country), seven empty fields of the ultimate creditor, the amount and currency, the ultimate debtor (structured,
/// or seven empty fields), the reference type and reference, the unstructured message and the trailer `EPD`.
struct SwissQRBill: Sendable, Equatable {
    /// A structured address (`S`): a name, street and building number, postal code, town, and ISO 3166 alpha-2 country.
    struct Party: Sendable, Equatable {
        var name: String
        var street: String
        var number: String
        var zip: String
        var city: String
        var country: String

        /// The seven fields of the payload: `S` and the six values, each cleaned and cut to its limit.
        var fields: [String] {
            ["S", SwissQRBill.field(name, 70), SwissQRBill.field(street, 70), SwissQRBill.field(number, 16),
             SwissQRBill.field(zip, 16), SwissQRBill.field(city, 35), country]
        }
    }

    /// The reference of a payment: a QR reference (with a QR-IBAN), an ISO 11649 creditor reference, or none.
    enum Reference: Sendable, Equatable {
        case qr(String)
        case creditor(String)
        case none

        var type: String {
            switch self {
            case .qr: "QRR"
            case .creditor: "SCOR"
            case .none: "NON"
            }
        }

        var text: String {
            switch self {
            case .qr(let text), .creditor(let text): text
            case .none: ""
            }
        }

        /// As people read it: a QR reference in blocks of five from the right (`21 00000 00003 13947 14300 09017`),
        /// a creditor reference in blocks of four (`RF18 5390 0754 7034`).
        var printed: String {
            switch self {
            case .qr(let text):
                var groups: [Substring] = []
                var rest = text[...]
                while !rest.isEmpty {
                    groups.insert(rest.suffix(5), at: 0)
                    rest = rest.dropLast(5)
                }
                return groups.joined(separator: " ")
            case .creditor(let text): return Payee.printedIBAN(text)
            case .none: return ""
            }
        }
    }

    /// The account: a CH or LI IBAN, electronic form.
    var iban: String
    var creditor: Party
    /// Minor units (centimes or cents), 1 to 99,999,999,999 (0.01 to 999,999,999.99).
    var amount: Int64
    /// `CHF` or `EUR`.
    var currency: String
    /// The debtor, or nil when the client's address cannot be given (no town or no country).
    var debtor: Party?
    var reference: Reference
    /// The unstructured message (at most 140 characters).
    var message: String

    static let amountRange: ClosedRange<Int64> = 1...99_999_999_999

    /// The payload as the QR code carries it (UTF-8).
    var payload: String {
        var fields = ["SPC", "0200", "1", iban]
        fields += creditor.fields
        fields += Array(repeating: "", count: 7)
        fields += [Money.decimalString(amount, digits: 2), currency]
        fields += debtor?.fields ?? Array(repeating: "", count: 7)
        fields += [reference.type, reference.text, Self.field(message, 140), "EPD"]
        return fields.joined(separator: "\r\n")
    }

    /// Whether `iban` (electronic form) is a CH or LI IBAN.
    static func isSwiss(_ iban: String) -> Bool { iban.hasPrefix("CH") || iban.hasPrefix("LI") }

    /// Whether `iban` (a valid CH or LI IBAN, electronic form) is a QR-IBAN: its institution id (the five characters
    /// after the check digits) is 30000 to 31999.
    static func isQRIBAN(_ iban: String) -> Bool {
        let chars = Array(iban)
        guard chars.count >= 9, let iid = Int(String(chars[4..<9])) else { return false }
        return (30000...31999).contains(iid)
    }

    /// The reference of a statement (docs/cli.md, "The Swiss QR-bill"), from the client's store id and the
    /// statement's last day: with a QR-IBAN, the QR reference `id` (18 digits, zero-padded) + `YYYYMMDD` + the mod-10
    /// recursive check digit; with another IBAN, the creditor reference `RF` + check digits + `YYYYMMDD` + `id`
    /// (decimal, at most 13 digits). Nil when the id does not fit (negative, or too many digits).
    static func reference(clientID: Int64, end: CalendarDate, iban: String) -> Reference? {
        guard clientID >= 0 else { return nil }
        let day = end.description.replacingOccurrences(of: "-", with: "")
        let id = String(clientID)
        if isQRIBAN(iban) {
            guard id.count <= 18 else { return nil }
            let digits = String(repeating: "0", count: 18 - id.count) + id + day
            return .qr(digits + String(mod10Recursive(digits)))
        }
        guard id.count <= 13 else { return nil }
        return .creditor(creditorReference(body: day + id))
    }

    /// The check digit of the mod-10 recursive method (the ESR/QR reference's): a carry through the table
    /// 0 9 4 6 8 2 7 1 3 5 for each digit, then (10 − carry) mod 10.
    static func mod10Recursive(_ digits: String) -> Int {
        let table = [0, 9, 4, 6, 8, 2, 7, 1, 3, 5]
        var carry = 0
        for character in digits { carry = table[(carry + (character.wholeNumberValue ?? 0)) % 10] }
        return (10 - carry) % 10
    }

    /// An ISO 11649 creditor reference for `body` (1 to 21 letters and digits): `RF`, two check digits (ISO 7064
    /// mod 97-10 over body + `RF00`, letters as 10 to 35), the body.
    static func creditorReference(body: String) -> String {
        let check = 98 - Payee.mod97((body.uppercased() + "RF00").unicodeScalars)
        return "RF" + (check < 10 ? "0" : "") + String(check) + body.uppercased()
    }

    /// `value` as a payload field: characters outside the QR-bill's character set (Basic Latin, Latin-1 Supplement,
    /// Latin Extended-A, Ș ș Ț ț and €) become `.`, line breaks and other controls spaces; trimmed and cut to `limit`
    /// characters, so that no value can add or move a field.
    static func field(_ value: String, _ limit: Int) -> String {
        var result = ""
        var count = 0
        for scalar in value.unicodeScalars {
            guard count < limit else { break }
            let code = scalar.value
            switch code {
            case 0x20...0x7E, 0xA0...0x17F, 0x218...0x21B, 0x20AC: result.unicodeScalars.append(scalar)
            case 0...0x1F, 0x7F...0x9F, 0x2028, 0x2029: result.append(" ")
            case 0x300...0x36F: continue  // a combining mark: dropped, its letter kept (decomposed input)
            default: result.append(".")
            }
            count += 1
        }
        return result.trimmingCharacters(in: .whitespaces)
    }

    /// The ISO 3166 alpha-2 code of a country as a client's address gives it: a code (`ch`, `LI`), or the country's
    /// name in English, German, French or Italian (`Switzerland`, `Schweiz`, `Suisse`, `Svizzera`, `Svizra`,
    /// `Liechtenstein`, `Germany`, `Deutschland`…). Nil when it names no country.
    static func countryCode(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let upper = trimmed.uppercased()
        if upper.count == 2, upper.allSatisfy({ $0.isASCII && $0.isLetter }), Locale.Region.isoRegions.contains(where: { $0.identifier == upper }) {
            return upper
        }
        return regionNames[trimmed.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()]
    }

    /// Every country's name in English, German, French and Italian (Foundation's CLDR data), folded, and the local
    /// names of Switzerland and Liechtenstein, to its alpha-2 code.
    static let regionNames: [String: String] = {
        var names: [String: String] = [:]
        let locales = ["en", "de", "fr", "it"].map { Locale(identifier: $0) }
        for region in Locale.Region.isoRegions where region.identifier.count == 2 && region.identifier.allSatisfy(\.isLetter) {
            for locale in locales {
                if let name = locale.localizedString(forRegionCode: region.identifier) {
                    names[name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()] = region.identifier
                }
            }
        }
        for (name, code) in ["svizra": "CH", "confoederatio helvetica": "CH", "furstentum liechtenstein": "LI"] { names[name] = code }
        return names
    }()
}
