import Foundation
import InvoicesCore
import InvoicesPostgres
import InvoicesReport
import Yams

/// The settings of a report project, read from `invoices.yaml`.
///
/// Every key is optional; a flag of the same name on `invoices build` wins over the file. Paths are relative to the
/// folder of the file. See docs/cli.md for the keys.
///
/// ```yaml
/// title: Invoices report
/// store: books.sqlite
/// templates: templates
/// output: Output
/// ```
struct ProjectConfig: Sendable, Equatable {
    /// The file name `invoices build` looks for in the current folder.
    static let fileName = "invoices.yaml"
    /// The keys a project file may set, in the order `invoices init` writes them.
    static let keys = [
        "title", "store", "templates", "output", "base_url", "closed_through", "locale", "language", "month", "quarter", "year", "as_of", "public", "build_id", "client_links",
        // The basis of the overview's tax summary: accrual (default) or cash.
        "basis",
        // The month the fiscal year starts in, 01 to 12: quarter and year pages.
        "fiscal_year_start",
        // The rows of a long list's page (a quarter's invoices behind a tax).
        "page_size",
        // How the CSV files are written: rfc4180 (default) or excel.
        "csv_dialect",
        // The aging buckets: an increasing list of days past due, [30, 60, 90] by default.
        "aging_buckets",
        // Core Data stores of models that name things differently (docs/store.md).
        "issue_date_attribute", "due_date_attribute", "paid_date_attribute", "core_data_names", "default_currency",
        "publish", "payee",
        // The account names of books.journal (docs/exports.md).
        "journal",
        // The DATEV Buchungsstapel: adviser, client, chart, revenue per rate, debtors (docs/exports.md).
        "datev",
    ]
    /// The keys of the `publish:` mapping (docs/publishing.md), stored as `publish.KEY`.
    static let publishKeys = ["destination", "keep", "identity", "known_hosts", "server", "users", "web_group", "url_path", "bcrypt_cost", "bwlimit"]
    /// The keys of the `payee:` mapping (docs/cli.md): who clients pay, on statements' payment codes and pay links.
    static let payeeKeys = ["name", "iban", "bic", "payment_url", "address", "qr_bill"]
    /// The mappings of settings, by key: each stored as `SECTION.KEY`.
    static let sectionKeys = ["publish": publishKeys, "payee": payeeKeys, "journal": JournalAccounts.keys, "datev": DATEVSettings.keys]

    /// The file the settings came from.
    var file: String
    /// The values by key, with their line in the file.
    var values: [String: Value] = [:]

    /// A value and where it was found.
    struct Value: Sendable, Equatable {
        var text: String
        var line: Int
        var column: Int
    }

    /// The folder relative paths in the file are resolved against.
    var folder: URL { URL(fileURLWithPath: file).deletingLastPathComponent() }

    /// The value of `key`, if the file sets it.
    subscript(_ key: String) -> String? { values[key]?.text }

    /// A path value, resolved against the file's folder.
    func path(_ key: String) -> String? {
        guard let text = self[key] else { return nil }
        if text.hasPrefix("/") || PostgresAddress.isAddress(text) { return text }
        return folder.appendingPathComponent(text).standardizedFileURL.path
    }

    /// Reads and checks a project file, reporting every problem in it.
    /// - Throws: ``ConfigErrors`` (missing file, YAML syntax, unknown keys, values of the wrong kind).
    static func load(path: String) throws(ConfigErrors) -> ProjectConfig {
        let text: String
        do throws(RegularFile.Failure) {
            text = try RegularFile.text(path, budget: .projectFile)
        } catch {
            guard error.kind != .missing else {
                throw ConfigErrors([ConfigError(path: path, message: "no such file; create a project with 'invoices init'", missing: true)])
            }
            throw ConfigErrors([ConfigError(path: path, message: error.message)])
        }
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw ConfigErrors([ConfigError(yaml: error, path: path)])
        } catch {
            throw ConfigErrors([ConfigError(path: path, message: "\(error)")])
        }
        var config = ProjectConfig(file: path)
        guard let node else { return config }  // An empty file sets nothing.
        guard let mapping = node.mapping else {
            throw ConfigErrors([ConfigError(path: path, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1,
                                            message: "expected 'key: value' lines, e.g. 'store: books.sqlite'")])
        }
        var problems: [ConfigError] = []
        for (key, value) in mapping {
            let line = key.mark?.line ?? 0, column = key.mark?.column ?? 0
            guard let name = key.string, keys.contains(name) else {
                let name = key.string ?? "\(key)"
                problems.append(ConfigError(path: path, line: line, column: column,
                                            message: "unknown key '\(name)'\(suggestion(for: name)); known keys: \(keys.joined(separator: ", "))"))
                continue
            }
            if value.null != nil { continue }  // `key: ~` or `key:` leaves the default.
            if let mapping = value.mapping, sectionKeys[name] != nil {
                problems += config.readSection(name, mapping, path: path)
                continue
            }
            if name == "aging_buckets", let list = value.sequence {
                // A YAML list of days; checked as the flag's comma-separated text.
                let text = list.map { $0.scalar?.string ?? "\($0)" }.joined(separator: ",")
                let valueLine = value.mark?.line ?? line, valueColumn = value.mark?.column ?? column
                config.values[name] = Value(text: text, line: valueLine, column: valueColumn)
                if case .failure(let problem) = AgingBuckets.parse(text) {
                    problems.append(ConfigError(path: path, line: valueLine, column: valueColumn, message: "aging_buckets \(problem)"))
                }
                continue
            }
            guard let scalar = value.scalar else {
                problems.append(ConfigError(path: path, line: value.mark?.line ?? line, column: value.mark?.column ?? column,
                                            message: "'\(name)' must be a single value, not a list or a mapping"))
                continue
            }
            let valueLine = value.mark?.line ?? line, valueColumn = value.mark?.column ?? column
            config.values[name] = Value(text: scalar.string, line: valueLine, column: valueColumn)
            if let problem = ConfigCheck.problem(key: name, value: scalar.string) {
                problems.append(ConfigError(path: path, line: valueLine, column: valueColumn, message: problem))
            }
        }
        problems += config.periodConflicts(path: path)
        if !problems.isEmpty { throw ConfigErrors(problems) }
        return config
    }

    /// The keys choosing the report's period, of which a file sets at most one (`month: all` sets none).
    static let periodKeys = ["month", "quarter", "year"]

    /// The report's period keys this file sets, in the order of ``periodKeys`` (`month: all` is the default).
    var periodKeysSet: [String] {
        Self.periodKeys.filter { key in self[key].map { key != "month" || $0 != "all" } ?? false }
    }

    /// A problem at each period key after the first when the file sets more than one.
    func periodConflicts(path: String) -> [ConfigError] {
        let set = periodKeysSet
        guard set.count > 1 else { return [] }
        return set.dropFirst().compactMap { key in
            values[key].map {
                ConfigError(
                    path: path, line: $0.line, column: $0.column,
                    message: "'\(key)' and '\(set[0])' both choose the report's period; set only one of month, quarter and year")
            }
        }
    }

    static func suggestion(for name: String) -> String {
        let normalized = name.lowercased().replacingOccurrences(of: "-", with: "_")
        if normalized != name, keys.contains(normalized) { return "; did you mean '\(normalized)'?" }
        if let close = keys.first(where: { $0.hasPrefix(String(normalized.prefix(3))) }) { return "; did you mean '\(close)'?" }
        return ""
    }
}

/// A problem in a project file, located at the offending line and column when there is one.
struct ConfigError: Error, Sendable, CustomStringConvertible {
    var path: String
    var line: Int = 0
    var column: Int = 0
    var message: String
    /// The file does not exist (exit 66 rather than 65).
    var missing = false

    var description: String { line > 0 ? "\(path):\(line):\(column): \(message)" : "\(path): \(message)" }

    init(path: String, line: Int = 0, column: Int = 0, message: String, missing: Bool = false) {
        self.path = path
        self.line = line
        self.column = column
        self.message = message
        self.missing = missing
    }

    init(yaml error: YamlError, path: String) {
        switch error {
        case let .scanner(_, problem, mark, _), let .parser(_, problem, mark, _), let .composer(_, problem, mark, _):
            self.init(path: path, line: mark.line, column: mark.column, message: "not valid YAML: \(problem)")
        case let .duplicatedKeysInMapping(duplicates, _):
            self.init(path: path, message: "keys set twice: \(duplicates.joined(separator: ", "))")
        default:
            self.init(path: path, message: "not valid YAML: \(error)")
        }
    }
}

/// Every problem found in a project file.
struct ConfigErrors: Error, Sendable, CustomStringConvertible {
    var errors: [ConfigError]
    init(_ errors: [ConfigError]) { self.errors = errors }
    var description: String { errors.map(\.description).joined(separator: "\n") }
}
