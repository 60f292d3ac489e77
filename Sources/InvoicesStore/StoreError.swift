/// A problem with a store, located as precisely as possible: file, table, row and column.
///
/// ```
/// books.sqlite: invoice 'INV-2024-0042' column currency: 'EURO' is not an ISO 4217 currency code (...)
/// ```
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem this is; decides the exit code.
    public enum Kind: Sendable, Equatable {
        /// The file does not exist (exit 66).
        case missing
        /// The file cannot be read as a store: not SQLite, corrupt, locked, wrong schema (exit 65).
        case unreadable
        /// A row holds a value the report cannot use (exit 65).
        case badRow
    }

    public var kind: Kind
    /// The store file.
    public var path: String
    /// The table, when the problem is in one.
    public var table: String?
    /// The row, by its identifier (invoice identifier, client number) or `id N`.
    public var row: String?
    /// The column, when the problem is in one.
    public var column: String?
    /// What is wrong, and what to do about it.
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

/// Every problem found in a store, reported together.
public struct StoreErrors: Error, Sendable, CustomStringConvertible {
    public var errors: [StoreError]
    /// How many problems there were in all (``errors`` may hold only the first ones).
    public var total: Int

    public init(errors: [StoreError], total: Int? = nil) {
        self.errors = errors
        self.total = total ?? errors.count
    }

    public var description: String {
        var lines = errors.map(\.description)
        if total > errors.count { lines.append("... and \(total - errors.count) more problems") }
        return lines.joined(separator: "\n")
    }
}
