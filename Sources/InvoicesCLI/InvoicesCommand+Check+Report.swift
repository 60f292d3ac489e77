import Foundation
import InvoicesSite
import InvoicesStore

/// What `invoices check` found: the inputs it read and every problem, as text or JSON.
///
/// The JSON shape is documented in docs/cli.md; fields that do not apply are left out.
struct CheckReport: Encodable {
    /// One problem, located as precisely as its source allows.
    struct Problem: Encodable {
        /// `config`, `store` or `templates`.
        var source: String
        /// `missing`, `syntax`, `badRow`, `unreadable`, `totals`, `config`, ...
        var kind: String
        var path: String
        var line: Int?
        var column: Int?
        var table: String?
        var row: String?
        var field: String?
        var message: String
        /// The whole problem as one line, as the text format prints it.
        var text: String

        init(source: String, kind: String, path: String, message: String) {
            self.source = source
            self.kind = kind
            self.path = path
            self.message = message
            self.text = "\(path): \(message)"
        }

        init(_ error: ConfigError) {
            self.init(source: "config", kind: error.missing ? "missing" : "config", path: error.path, message: error.message)
            if error.line > 0 { (line, column) = (error.line, error.column) }
            text = error.description
        }

        init(_ error: StoreError) {
            let kind = switch error.kind {
            case .missing: "missing"
            case .unreadable: "unreadable"
            case .badRow: "badRow"
            }
            self.init(source: "store", kind: kind, path: error.path, message: error.message)
            (table, row, field) = (error.table, error.row, error.column)
            text = error.description
        }

        init(_ error: TemplateError) {
            let kind = switch error.code {
            case .missingFolder: "missing"
            case .unreadable: "unreadable"
            case .unknownVariable: "unknownVariable"
            default: "syntax"
            }
            self.init(source: "templates", kind: kind, path: error.path, message: error.message)
            if error.line > 0 { (line, column) = (error.line, error.column) }
            text = error.description
        }
    }

    var ok: Bool { problems.isEmpty }
    var config: String?
    var store: String?
    var templates: String?
    var clients: Int?
    var invoices: Int?
    var problems: [Problem] = []
    /// Store problems beyond the loader's limit, counted but not listed.
    var omitted = 0

    /// 0 when clean, 66 when an input is missing, 65 otherwise.
    var exitCode: Int32 {
        if problems.isEmpty { return 0 }
        return problems.contains { $0.kind == "missing" } ? Exit.noInput : Exit.dataError
    }

    enum CodingKeys: String, CodingKey {
        case ok, exitCode, config, store, templates, clients, invoices, problems, omitted
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ok, forKey: .ok)
        try container.encode(exitCode, forKey: .exitCode)
        try container.encodeIfPresent(config, forKey: .config)
        try container.encodeIfPresent(store, forKey: .store)
        try container.encodeIfPresent(templates, forKey: .templates)
        try container.encodeIfPresent(clients, forKey: .clients)
        try container.encodeIfPresent(invoices, forKey: .invoices)
        try container.encode(problems, forKey: .problems)
        try container.encode(omitted, forKey: .omitted)
    }

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    var text: String {
        if problems.isEmpty {
            var checked: [String] = []
            if let config { checked.append("project file \(config)") }
            if let store { checked.append("store \(store) (\(clients ?? 0) clients, \(invoices ?? 0) invoices)") }
            checked.append("templates \(templates ?? "(built-in)")")
            return "OK: \(checked.joined(separator: ", ")) are valid.\n"
        }
        var lines = problems.map(\.text)
        if omitted > 0 { lines.append("... and \(omitted) more store problems") }
        let count = problems.count + omitted
        lines.append("\(count) problem\(count == 1 ? "" : "s") found.")
        return lines.joined(separator: "\n") + "\n"
    }
}
