import Foundation
import InvoicesApp
import InvoicesCore
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
        /// `error`, or `warning` for what the build reports but does not stop on.
        var severity = "error"
        /// `missing`, `syntax`, `invalidValue`, `wrongSchema`, `locked`, `totals`, `config`, ... (``StoreIssue/Kind`` for the store)
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

        init(_ issue: StoreIssue) {
            self.init(source: "store", kind: issue.kind.rawValue, path: issue.path, message: issue.message)
            (table, row, field) = (issue.table, issue.row, issue.column)
            text = (issue.severity == .warning ? "warning: " : "") + issue.description
            severity = issue.severity.rawValue
        }

        init(_ error: TemplateError) {
            let kind = switch error.code {
            case .missingFolder: "missing"
            case .unreadable: "unreadable"
            case .unknownVariable: "unknownVariable"
            case .otherKind: "otherKind"
            default: "syntax"
            }
            self.init(source: "templates", kind: kind, path: error.path, message: error.message)
            if error.line > 0 { (line, column) = (error.line, error.column) }
            text = error.description
        }
    }

    var ok: Bool { errors.isEmpty }
    /// The problems that are errors (warnings are listed but do not fail the check).
    var errors: [Problem] { problems.filter { $0.severity == "error" } }
    var config: String?
    var store: String?
    var templates: String?
    var clients: Int?
    var invoices: Int?
    var problems: [Problem] = []
    /// Store problems beyond the loader's limit, counted but not listed.
    var omitted = 0

    /// 0 when there is no error (warnings allowed), 66 when an input is missing, 65 otherwise.
    var exitCode: ExitStatus {
        if errors.isEmpty { return .success }
        return errors.contains { $0.kind == "missing" } ? .noInput : .dataError
    }

    /// Records what the store holds and the warnings its fetch gave, as the build prints them.
    mutating func record(_ books: BooksAndReport) {
        clients = books.books.clients.count
        invoices = books.books.invoices.count
        problems += books.warningIssues.map(Problem.init)
        omitted += books.totalWarnings - books.warningIssues.count
    }

    enum CodingKeys: String, CodingKey {
        case ok, exitCode, config, store, templates, clients, invoices, problems, omitted
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ok, forKey: .ok)
        try container.encode(exitCode.rawValue, forKey: .exitCode)
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
        if errors.isEmpty {
            var checked: [String] = []
            if let config { checked.append("project file \(config)") }
            if let store { checked.append("store \(store) (\(clients ?? 0) clients, \(invoices ?? 0) invoices)") }
            checked.append("templates \(templates ?? "(built-in)")")
            let warnings = problems.map { $0.text + "\n" }.joined()
            let count = problems.count + omitted
            let note = count == 0 ? "" : " (\(count) warning\(count == 1 ? "" : "s"))"
            return warnings + "OK: \(checked.joined(separator: ", ")) are valid\(note).\n"
        }
        var lines = problems.map(\.text)
        if omitted > 0 { lines.append("... and \(omitted) more store problems") }
        let count = problems.count + omitted
        lines.append("\(count) problem\(count == 1 ? "" : "s") found.")
        return lines.joined(separator: "\n") + "\n"
    }
}
