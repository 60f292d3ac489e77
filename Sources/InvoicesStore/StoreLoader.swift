import Foundation
public import InvoicesCore
internal import GRDB
internal import GRDBSQLite

/// Reads a store into ``Books``: every client and invoice as compact Sendable tables.
///
/// The store is opened read-only and read in one transaction, so the books are one consistent snapshot and the
/// file is never changed. Every row is checked; problems are collected and thrown together as ``StoreErrors``.
///
/// ```swift
/// let books = try StoreLoader(path: "books.sqlite").load()
/// ```
public struct StoreLoader: Sendable {
    /// The store file.
    public let path: String
    /// How many problems to keep in a thrown ``StoreErrors`` (the total is still counted).
    public var errorLimit = 100
    /// Which Invoice attributes hold the dates, when the file is a Core Data store (see ``loadWithWarnings()``).
    public var coreDataMapping = CoreDataMapping()

    public init(path: String) {
        self.path = path
    }

    /// Loads the books from a native or a Core Data store, dropping warnings; see ``loadWithWarnings()``.
    /// - Throws: ``StoreErrors`` naming every problem found (missing file, not SQLite, wrong schema, bad rows).
    public func load() throws(StoreErrors) -> Books {
        try loadWithWarnings().books
    }

    /// Loads the books of a native store.
    func loadNative() throws(StoreErrors) -> Books {
        let database = try open()
        do {
            return try database.read { db in
                try checkSchema(db)
                var problems = Problems(path: path, limit: errorLimit)
                let (clients, clientIndexByID) = try loadClients(db, problems: &problems)
                let (invoices, currencies) = try loadInvoices(db, clientIndexByID: clientIndexByID, problems: &problems)
                if problems.total > 0 { throw problems.error }
                return Books(clients: clients, invoices: invoices, currencies: currencies)
            }
        } catch let error as StoreErrors {
            throw error
        } catch let error as DatabaseError {
            throw StoreErrors(errors: [unreadable(error)])
        } catch {
            throw StoreErrors(errors: [StoreError(kind: .unreadable, path: path, message: "\(error)")])
        }
    }

    /// Opens the store read-only, after checking that the file exists and is SQLite.
    func open() throws(StoreErrors) -> DatabaseQueue {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw StoreErrors(errors: [
                StoreError(kind: .missing, path: path, message: "no such file; create one with 'invoices sample' or 'invoices import'")
            ])
        }
        guard !isDirectory.boolValue, let handle = FileHandle(forReadingAtPath: path) else {
            throw StoreErrors(errors: [StoreError(kind: .unreadable, path: path, message: "cannot be read as a file")])
        }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        try? handle.close()
        guard header == Data("SQLite format 3\0".utf8) else {
            throw StoreErrors(errors: [
                StoreError(kind: .unreadable, path: path, message: "not a SQLite database (the file does not start with the SQLite header)")
            ])
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        configuration.label = "store"
        do {
            return try DatabaseQueue(path: try readOnlyURI(), configuration: configuration)
        } catch let error as DatabaseError {
            throw StoreErrors(errors: [unreadable(error)])
        } catch {
            throw StoreErrors(errors: [StoreError(kind: .unreadable, path: path, message: "\(error)")])
        }
    }

    /// A SQLite URI that opens the store without writing to any of its files.
    ///
    /// `mode=ro` opens the database read-only. For a store in WAL mode, `readonly_shm=1` makes SQLite read the
    /// `-shm` index without updating its read marks, so the `-wal` and `-shm` files keep their bytes too; readers
    /// still take the shared locks that give one consistent snapshot while another process writes. A WAL store
    /// whose `-shm` file is missing and whose `-wal` is empty is opened as immutable (there is nothing in the WAL).
    func readOnlyURI() throws(StoreErrors) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        allowed.insert(charactersIn: "/-._~")
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let encoded = absolute.addingPercentEncoding(withAllowedCharacters: allowed) ?? absolute
        var parameters = "mode=ro&readonly_shm=1"
        let manager = FileManager.default
        if isWAL, !manager.fileExists(atPath: path + "-shm") {
            let walSize = (try? manager.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? nil
            guard (walSize ?? 0) == 0 else {
                throw StoreErrors(errors: [
                    StoreError(
                        kind: .unreadable, path: path,
                        message: "the store is in WAL mode and has a '-wal' file but no '-shm' file beside it; invoices "
                            + "never creates or changes files beside a store, so it cannot read the transactions still in "
                            + "the '-wal' file. Quit the app that writes it (which checkpoints the store), or copy the store "
                            + "with all three files (.sqlite, -wal, -shm)")
                ])
            }
            parameters += "&immutable=1"
        }
        return "file:\(encoded)?\(parameters)"
    }

    /// Whether the file's header says WAL mode (file format version numbers 2 at offsets 18 and 19).
    var isWAL: Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 20)) ?? Data()
        return header.count == 20 && header[18] == 2 && header[19] == 2
    }

    func unreadable(_ error: DatabaseError) -> StoreError {
        let message: String
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            message = "the database is locked by another process; try again when it has finished writing"
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            message = "the database file is corrupt (\(error.message ?? "malformed")); restore it from a backup"
        default:
            message = "SQLite error \(error.resultCode.rawValue): \(error.message ?? "unknown")"
        }
        return StoreError(kind: .unreadable, path: path, message: message)
    }

    func checkSchema(_ db: Database) throws {
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        guard version == Schema.version else {
            throw StoreErrors(errors: [
                StoreError(
                    kind: .unreadable, path: path,
                    message: "schema version \(version), expected \(Schema.version) (PRAGMA user_version); "
                        + "this build of invoices reads version \(Schema.version) stores"
                )
            ])
        }
        var errors: [StoreError] = []
        for (table, columns) in Schema.requiredColumns {
            let present = Set(try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] as String })
            if present.isEmpty {
                errors.append(StoreError(kind: .unreadable, path: path, table: table, message: "table is missing"))
                continue
            }
            for column in columns where !present.contains(column) {
                errors.append(StoreError(kind: .unreadable, path: path, table: table, column: column, message: "column is missing"))
            }
        }
        if !errors.isEmpty { throw StoreErrors(errors: errors) }
    }
}

/// Collects row problems up to a limit, counting all of them.
struct Problems {
    let path: String
    let limit: Int
    var errors: [StoreError] = []
    var total = 0

    init(path: String, limit: Int) {
        self.path = path
        self.limit = limit
    }

    mutating func add(table: String, row: String, column: String, _ message: String) {
        total += 1
        if errors.count < limit {
            errors.append(StoreError(kind: .badRow, path: path, table: table, row: row, column: column, message: message))
        }
    }

    var error: StoreErrors { StoreErrors(errors: errors, total: total) }
}
