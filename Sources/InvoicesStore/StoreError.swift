public import InvoicesCore

/// Something found in a store, located as precisely as possible: file, table, row and column.
///
/// An issue is an error (the store cannot be used as it is) or a warning (the report uses the value the message
/// describes, after an assumption or a rounding the user should know of). `invoices build` stops on errors and
/// prints warnings; `invoices check` lists both. Callers branch on ``kind``, never on the wording.
///
/// ```
/// books.sqlite: invoice 'INV-2024-0042' column currency: 'EURO' is not an ISO 4217 currency code (...)
/// Invoices.sqlite: ZINVOICE 'INV-7' column ZAMOUNT: 10.005 USD is not a whole number of cents; reported as 10.00 USD (...)
/// ```
public struct StoreIssue: Error, Sendable, Equatable, CustomStringConvertible {
    /// Whether the store can be used despite the issue.
    public enum Severity: String, Sendable, Equatable {
        case error, warning
    }

    /// What kind of issue this is; decides the severity and the exit code.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// The file does not exist, or the server has no such database or no store tables in it (exit 66).
        case missing
        /// The store's server cannot be reached, or went away while it was read (exit 69).
        case unreachable
        /// A server address that cannot be used as it is written: a bad URL, an unknown parameter or TLS mode (exit 64).
        case badAddress
        /// The server refused the login, or the role may not read the store's tables (exit 77).
        case accessDenied
        /// Concurrent writers kept aborting a write transaction (serialization failures) after every retry (exit 75).
        case busy
        /// The file is not a file, or cannot be read (permissions).
        case unreadable
        /// The file does not start with the SQLite header.
        case notSQLite
        /// SQLite reports the file as corrupt.
        case corrupt
        /// Another process holds a lock that outlasted the wait.
        case locked
        /// The schema is not one this build reads: version, tables, columns, Core Data entities.
        case wrongSchema
        /// A row holds a value the report cannot use.
        case invalidValue
        /// A floating-point amount was not a whole number of minor units and was rounded (half to even). A warning.
        case inexactAmount
        /// An invoice has no due date; it is taken as due on its issue date. A warning.
        case assumedDueDate
        /// The store has no paid dates; every invoice is reported as unpaid. A warning.
        case noPaidDates
    }

    public var kind: Kind
    /// The store file.
    public var path: String
    /// The table, when the issue is in one.
    public var table: String?
    /// The row, by its identifier (invoice identifier, client number) or `id N` / `Z_PK N`.
    public var row: String?
    /// The column, when the issue is in one.
    public var column: String?
    /// What is wrong, and what to do about it (or what the report uses instead).
    public var message: String

    public init(
        kind: Kind, path: String, table: String? = nil, row: String? = nil, column: String? = nil, message: String
    ) {
        self.kind = kind
        self.path = path
        self.table = table
        self.row = row
        self.column = column
        self.message = message
    }

    /// Errors stop a build; warnings are printed and the build goes on.
    public var severity: Severity {
        switch kind {
        case .inexactAmount, .assumedDueDate, .noPaidDates: .warning
        default: .error
        }
    }

    /// The exit code of a command that stops on this issue.
    public var exitStatus: ExitStatus {
        switch kind {
        case .missing: .noInput
        case .unreachable: .unavailable
        case .accessDenied: .noPermission
        case .badAddress: .usage
        case .busy: .tempFail
        default: .dataError
        }
    }

    /// `path: table row column C: message`.
    public var description: String {
        var location = path
        if let table {
            location += ": \(table)"
            if let row { location += " \(row)" }
            if let column { location += " column \(column)" }
        }
        return "\(location): \(message)"
    }
}

/// Every error found in a store, reported together (the first ``issues``, and how many there were in all).
public struct StoreIssues: Error, Sendable, CustomStringConvertible {
    public var issues: [StoreIssue]
    /// How many there were in all (``issues`` may hold only the first ones).
    public var total: Int

    public init(_ issues: [StoreIssue], total: Int? = nil) {
        self.issues = issues
        self.total = total ?? issues.count
    }

    /// The exit code: 66 when the store is missing, 69 when its server is unreachable, 77 when access is refused,
    /// else 65.
    public var exitStatus: ExitStatus {
        issues.lazy.map(\.exitStatus).first { $0 != .dataError } ?? .dataError
    }

    public var description: String {
        var lines = issues.map(\.description)
        if total > issues.count { lines.append("... and \(total - issues.count) more problems") }
        return lines.joined(separator: "\n")
    }
}

/// The kind of store a file holds.
public enum StoreFormat: Sendable, Equatable {
    /// The native schema (tables `client` and `invoice`, docs/store.md).
    case native
    /// The same tables on a PostgreSQL server (docs/store.md).
    case postgres
    /// The Invoices app's Core Data SQLite store (tables `Z_METADATA`, `Z_PRIMARYKEY`, `ZCLIENT`, `ZINVOICE`).
    case coreData
}
