import InvoicesApp
import InvoicesReport
import InvoicesSite
import Yams

extension ProjectConfig {
    /// The mappings under `payee:` (docs/cli.md, "The Swiss QR-bill"): `address` (street, number, zip, city,
    /// country) and `qr_bill` (iban), stored as `payee.address.KEY` and `payee.qr_bill.KEY`.
    static let payeeMappings = ["address": Payee.Address.keys, "qr_bill": ["iban"]]

    /// Reads `payee.address` or `payee.qr_bill`, checking each value: the QR-bill's account must be a valid CH or LI
    /// IBAN, the country an ISO 3166 alpha-2 code.
    mutating func readPayeeMapping(_ name: String, _ value: Node, path: String, line: Int, column: Int) -> [ConfigError] {
        let known = Self.payeeMappings[name] ?? []
        guard let mapping = value.mapping else {
            return [ConfigError(path: path, line: line, column: column,
                                message: "'payee.\(name)' must be a mapping, e.g. an indented '\(name == "address" ? "street: Bahnhofstrasse" : "iban: CH44 3199 9123 0008 8901 2")'")]
        }
        var problems: [ConfigError] = []
        for (key, entry) in mapping {
            let line = entry.mark?.line ?? key.mark?.line ?? line, column = entry.mark?.column ?? key.mark?.column ?? column
            guard let keyText = key.string, known.contains(keyText) else {
                problems.append(ConfigError(path: path, line: key.mark?.line ?? line, column: key.mark?.column ?? column,
                                            message: "unknown key 'payee.\(name).\(key.string ?? "\(key)")'; known keys under payee.\(name): \(known.joined(separator: ", "))"))
                continue
            }
            if entry.null != nil { continue }
            guard let scalar = entry.scalar else {
                problems.append(ConfigError(path: path, line: line, column: column, message: "'payee.\(name).\(keyText)' must be a single value"))
                continue
            }
            let text = scalar.string
            values["payee.\(name).\(keyText)"] = Value(text: text, line: line, column: column)
            let problem: String? =
                switch (name, keyText) {
                // The message never repeats the account number.
                case ("qr_bill", "iban"): Payee.qrBillIBANProblem(text)
                case ("address", "country"): Payee.countryProblem(text)
                default: text.trimmingCharacters(in: .whitespaces).isEmpty ? "cannot be empty" : nil
                }
            if let problem { problems.append(ConfigError(path: path, line: line, column: column, message: "payee.\(name).\(keyText) \(problem)")) }
        }
        return problems
    }

    /// With a Swiss account (`payee.qr_bill.iban`, or a CH or LI `payee.iban`) the QR-bill needs the payee's address:
    /// each of `payee.address`'s street, zip, city and country.
    func qrBillProblems(path: String) -> [ConfigError] {
        guard let name = values["payee.name"] else { return [] }
        let iban = values["payee.iban"].map { Payee(name: "", iban: $0.text).iban ?? "" } ?? ""
        guard values["payee.qr_bill.iban"] != nil || iban.hasPrefix("CH") || iban.hasPrefix("LI") else { return [] }
        let missing = Payee.Address.requiredKeys.filter { values["payee.address.\($0)"] == nil }
        guard !missing.isEmpty else { return [] }
        let place = values["payee.qr_bill.iban"] ?? values["payee.iban"] ?? name
        return [ConfigError(path: path, line: place.line, column: place.column,
                            message: "payee.address needs \(missing.map { "'\($0)'" }.joined(separator: ", ")): the Swiss QR-bill carries the payee's "
                                + "address (street, number, zip, city, country), e.g. 'address:' then an indented 'street: Bahnhofstrasse'")]
    }

    /// The payee's address and QR-bill account, as read.
    var payeeAddress: Payee.Address? {
        guard Payee.Address.keys.contains(where: { values["payee.address.\($0)"] != nil }) else { return nil }
        func text(_ key: String) -> String { values["payee.address.\(key)"]?.text ?? "" }
        return Payee.Address(street: text("street"), number: text("number"), zip: text("zip"), city: text("city"), country: text("country"))
    }
}

extension CheckReport {
    /// Without a Swiss account, a CHF balance owed gets no payment code: a warning naming the clients (the first
    /// five) and how to add one (`payee.qr_bill.iban`).
    mutating func recordQRBillWarning(_ books: BooksAndReport, payee: Payee?, path: String) {
        guard let payee, payee.swissAccount == nil else { return }
        func owesCHF(_ client: Report.ClientTotals) -> Bool {
            client.currencies.contains { entry in entry.currency.code == "CHF" && entry.period.outstanding &- entry.period.credit > 0 }
        }
        let owing: [String] = books.report.clients.filter(owesCHF).map { books.books.clients[$0.clientIndex].number }
        guard !owing.isEmpty else { return }
        var problem = Problem(
            source: "config", kind: "qrBill", path: path,
            message: "\(owing.count) client(s) owe CHF (\(owing.prefix(5).joined(separator: ", "))\(owing.count > 5 ? ", …" : "")) and the payee has no "
                + "Swiss account: their statements get no payment code; add payee.qr_bill.iban (a CH or LI IBAN) and payee.address for the Swiss QR-bill")
        problem.severity = "warning"
        problem.text = "warning: " + problem.text
        problems.append(problem)
    }
}
