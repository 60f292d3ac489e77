import Foundation
import Yams

extension ProjectConfig {
    /// Reads a mapping of settings (`publish:`, `payee:`) into `SECTION.KEY` values; returns the problems found.
    mutating func readSection(_ section: String, _ mapping: Node.Mapping, path: String) -> [ConfigError] {
        let known = Self.sectionKeys[section] ?? []
        var problems: [ConfigError] = []
        for (key, value) in mapping {
            let line = value.mark?.line ?? key.mark?.line ?? 0, column = value.mark?.column ?? key.mark?.column ?? 0
            guard let name = key.string, known.contains(name) else {
                problems.append(ConfigError(path: path, line: key.mark?.line ?? 0, column: key.mark?.column ?? 0,
                                            message: "unknown key '\(section).\(key.string ?? "\(key)")'; known keys under \(section): \(known.joined(separator: ", "))"))
                continue
            }
            if value.null != nil { continue }
            if section == "payee", Self.payeeMappings[name] != nil {
                problems += readPayeeMapping(name, value, path: path, line: line, column: column)
                continue
            }
            if section == "datev", ["revenue", "debtors"].contains(name) {
                problems += readDATEVMapping(name, value, path: path, line: line, column: column)
                continue
            }
            guard let scalar = value.scalar else {
                problems.append(ConfigError(path: path, line: line, column: column, message: "'\(section).\(name)' must be a single value"))
                continue
            }
            values["\(section).\(name)"] = Value(text: scalar.string, line: line, column: column)
            if let problem = ConfigCheck.problem(key: "\(section).\(name)", value: scalar.string) {
                problems.append(ConfigError(path: path, line: line, column: column, message: problem))
            }
        }
        if section == "payee", values["payee.name"] == nil, let first = values.filter({ $0.key.hasPrefix("payee.") }).values.first {
            problems.append(ConfigError(path: path, line: first.line, column: first.column,
                                        message: "payee needs a name (payee.name): the payment codes carry it"))
        }
        if section == "payee", values["payee.name"] != nil, values["payee.iban"] == nil, values["payee.payment_url"] == nil,
            values["payee.qr_bill.iban"] == nil
        {
            let name = values["payee.name"]!
            problems.append(ConfigError(path: path, line: name.line, column: name.column,
                                        message: "payee needs an iban (payment codes for euros) or a payment_url (pay links), or both"))
        }
        if section == "payee" { problems += qrBillProblems(path: path) }
        if section == "datev" {
            let missing = ["adviser", "client", "chart"].filter { values["datev.\($0)"] == nil }
                + (values.keys.contains { $0.hasPrefix("datev.revenue.") } ? [] : ["revenue"])
            if !missing.isEmpty {
                problems.append(ConfigError(path: path, message: "datev needs \(missing.joined(separator: ", ")): the Buchungsstapel's header and accounts"))
            }
        }
        return problems
    }

    /// `datev.revenue` (tax rate → account) or `datev.debtors` (client number → account), stored as
    /// `datev.revenue.RATE` and `datev.debtors.NUMBER`.
    mutating func readDATEVMapping(_ name: String, _ value: Node, path: String, line: Int, column: Int) -> [ConfigError] {
        guard let mapping = value.mapping else {
            return [ConfigError(path: path, line: line, column: column, message: "'datev.\(name)' must be a mapping, e.g. an indented '\(name == "revenue" ? "19: 8400" : "C-00042: 10042")'")]
        }
        var problems: [ConfigError] = []
        let range = name == "revenue" ? 1000...9999 : 10000...69999
        for (key, account) in mapping {
            let line = account.mark?.line ?? line, column = account.mark?.column ?? column
            let text = account.scalar?.string ?? ""
            guard let keyText = key.string, let number = Int(text), range.contains(number) else {
                problems.append(ConfigError(path: path, line: line, column: column,
                                            message: "datev.\(name).\(key.string ?? "") '\(text)' must be an account from \(range.lowerBound) to \(range.upperBound)"))
                continue
            }
            values["datev.\(name).\(keyText)"] = Value(text: String(number), line: line, column: column)
        }
        return problems
    }

    /// `client_links`: `env:NAME` as it is, a file path resolved against the file's folder.
    var clientLinksSource: String? {
        guard let text = self["client_links"] else { return nil }
        return text.hasPrefix("env:") ? text : path("client_links")
    }
}
