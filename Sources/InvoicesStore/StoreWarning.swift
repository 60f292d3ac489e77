public import InvoicesCore

/// Something in a store the report can use, but only after an assumption or a rounding the user should know of.
///
/// Unlike a ``StoreError``, a warning does not stop the build: the report uses the value described in the message.
/// `invoices build` prints warnings to standard error; `invoices check` lists them.
///
/// ```
/// Invoices.sqlite: ZINVOICE 'INV-7' column ZAMOUNT: 10.005 USD is not a whole number of cents; reported as 10.00 USD (...)
/// ```
public struct StoreWarning: Sendable, Equatable, CustomStringConvertible {
    /// What kind of assumption was made.
    public enum Kind: Sendable, Equatable {
        /// A floating-point amount was not a whole number of minor units and was rounded (half to even).
        case inexactAmount
        /// An invoice has no due date; it is taken as due on its issue date.
        case assumedDueDate
        /// The store has no paid dates; every invoice is reported as unpaid.
        case noPaidDates
    }

    public var kind: Kind
    /// The store file.
    public var path: String
    /// The table, when the warning is about one.
    public var table: String?
    /// The row, by its identifier (invoice identifier, client number) or `Z_PK N`.
    public var row: String?
    /// The column, when the warning is about one.
    public var column: String?
    /// What was found, and what the report uses instead.
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

    /// `path: table row column C: message`, the same layout as ``StoreError``.
    public var description: String {
        StoreError(kind: .badRow, path: path, table: table, row: row, column: column, message: message).description
    }
}

/// The kind of store a file holds.
public enum StoreFormat: Sendable, Equatable {
    /// The native schema (tables `client` and `invoice`, docs/store.md).
    case native
    /// The Invoices app's Core Data SQLite store (tables `Z_METADATA`, `Z_PRIMARYKEY`, `ZCLIENT`, `ZINVOICE`).
    case coreData
}

/// What ``StoreLoader/loadWithWarnings()`` reads: the books, and the warnings about how they were read.
///
/// ```swift
/// let loaded = try StoreLoader(path: "Invoices.sqlite").loadWithWarnings()
/// for warning in loaded.warnings { print("Warning: \(warning)") }
/// let report = try Report(books: loaded.books)
/// ```
public struct LoadedBooks: Sendable {
    /// The books, exactly as ``StoreLoader/load()`` returns them.
    public var books: Books
    /// The first warnings found (at most ``StoreLoader/errorLimit``), in the order found.
    public var warnings: [StoreWarning]
    /// How many warnings there were in all (``warnings`` may hold only the first ones).
    public var totalWarnings: Int
    /// The kind of store the books were read from.
    public var format: StoreFormat

    public init(books: Books, warnings: [StoreWarning] = [], totalWarnings: Int? = nil, format: StoreFormat) {
        self.books = books
        self.warnings = warnings
        self.totalWarnings = totalWarnings ?? warnings.count
        self.format = format
    }
}
