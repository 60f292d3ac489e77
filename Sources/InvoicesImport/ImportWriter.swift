import Foundation
internal import InvoicesCore
internal import GRDB
internal import InvoicesStore
internal import InvoicesPostgres
internal import ObjectContexts

/// Writes a validated ``ImportBatch`` into a store through a scratch-pad child context, in one SQLite transaction:
/// all of it, or nothing.
///
/// The store is created with ``Schema/createStatements`` when it does not exist. Clients are matched by number,
/// or by name when the batch has none; invoices by identifier. For a matched row the import's values win for
/// the fields it carries ("object trump"); fields it does not carry keep their stored values. References to
/// clients that exist neither in the batch nor in the store are reported with their file and line, and then
/// nothing is written: the transaction rolls back and the store's bytes stay as they were.
///
/// ```swift
/// let summary = try ImportWriter.apply(batch, to: "books.sqlite")
/// print(summary)   // clients: 2 added, 0 updated, 0 unchanged; invoices: ...
/// ```
public enum ImportWriter {
    /// Applies `batch` to the store at `store`.
    ///
    /// A batch with ``ImportBatch/problems`` is never written, but its client references are still resolved
    /// against the store, so the error lists every problem of the import at once.
    /// - Returns: How many clients and invoices were added, updated and unchanged.
    /// - Throws: ``ImportError``: `.badData` for the batch's problems, unresolved references or a store that is
    ///   not a usable store, `.cannotWrite` when the store cannot be created or written (with the batch's
    ///   problems, if any, listed too).
    public static func apply(_ batch: ImportBatch, to store: String) throws(ImportError) -> ImportSummary {
        do {
            return try write(batch, to: store)
        } catch {
            // The files' problems and the store's, in file and line order; problems in the files make it bad data
            // (65) even when the store could not be opened.
            throw ImportError(
                kind: batch.problems.isEmpty ? error.kind : .badData, ordering: batch.problems + error.problems,
                files: batch.files + [PostgresAddress.isAddress(store) ? PostgresAddress.redacted(store) : store],
                omitted: batch.omittedProblems)
        }
    }

    static func write(_ batch: ImportBatch, to store: String) throws(ImportError) -> ImportSummary {
        if PostgresAddress.isAddress(store) { return try write(batch, toServer: store) }
        let existed = FileManager.default.fileExists(atPath: store)
        if existed {
            do {
                try StoreFile(path: store).checkSQLite(allowEmpty: true)
            } catch {
                let notSQLite = error.issues.contains { $0.kind == .notSQLite }
                throw ImportError(
                    kind: notSQLite ? .badData : .cannotWrite, file: store,
                    message: notSQLite ? "not a SQLite database; name a store file, or a new file to create one" : "cannot be read; check its permissions")
            }
        }
        do {
            // The store's context is the root; the import works in a private child of it, a scratch pad: only a
            // batch that resolves and validates completely is saved up, and the root writes it in one transaction.
            let sqlite = try SQLiteStore(path: store)
            return try save(batch, through: sqlite, schemaVersion: sqlite.schemaVersion)
        } catch {
            if !existed {
                for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
            }
            if let error = importError(error, store: store) { throw error }
            if let error = error as? DatabaseError {
                let kind: ImportError.Kind = [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) ? .badData : .cannotWrite
                let message: String
                switch error.resultCode {
                case .SQLITE_BUSY, .SQLITE_LOCKED: message = "the store is locked by another process; try again when it has finished"
                case .SQLITE_CANTOPEN: message = "cannot open or create the store (\(error.message ?? "")); check the folder exists and is writable"
                case .SQLITE_READONLY, .SQLITE_PERM: message = "the store is read-only; check its permissions"
                default: message = "SQLite error \(error.resultCode.rawValue): \(error.message ?? "unknown"); nothing was written"
                }
                throw ImportError(kind: kind, file: store, message: message)
            }
            throw ImportError(kind: .cannotWrite, file: store, message: "\(error); nothing was written")
        }
    }

    /// The store's context is the root; the import works in a private child of it, a scratch pad: only a batch that
    /// resolves and validates completely is saved up, and the root writes it in one transaction.
    static func save(_ batch: ImportBatch, through store: any PersistentStore, schemaVersion: Int) throws -> ImportSummary {
        let root = PrivateContext(store: store, name: "store")
        let child = PrivateContext(parent: root, name: "import")
        let summary = try child.performAndWait { context in
            var session = try ImportSession(context: context, schemaVersion: schemaVersion)
            let summary = try session.apply(batch, in: context)
            try context.save()
            return summary
        }
        try root.performAndWait { context in try context.save() }
        return summary
    }

    /// Writes into a PostgreSQL store: the same scratch pad, saved in one `SERIALIZABLE` transaction that is run
    /// again (on a fresh snapshot) when a concurrent import made the server abort it (``PostgresStore``).
    static func write(_ batch: ImportBatch, toServer store: String) throws(ImportError) -> ImportSummary {
        let name = PostgresAddress.redacted(store)
        do {
            let address = try PostgresAddress(store)
            return try PostgresStore.serializable(address) { store in try save(batch, through: store, schemaVersion: store.schemaVersion) }
        } catch {
            if let error = importError(error, store: name) { throw error }
            throw ImportError(kind: .cannotWrite, file: name, message: "\(error); nothing was written")
        }
    }

    /// Copies the SQLite store at `path` to the PostgreSQL store at `store`, ids kept (``PostgresCopy``): the books
    /// are checked first, a version 1 store is copied as version 2, and a second copy changes nothing.
    /// - Returns: The summary line: what was added, updated and left unchanged per table.
    public static func copy(storeAt path: String, to store: String) throws(ImportError) -> String {
        do {
            let dump = try StoreDump(path: path)
            return try PostgresCopy.copy(dump, to: try PostgresAddress(store)).description
        } catch {
            if let issues = error as? StoreIssues, issues.issues.allSatisfy({ $0.path == path }) {
                throw ImportError(kind: issues.exitStatus == .noInput ? .missingInput : .badData, file: path,
                    message: issues.issues.map(\.message).joined(separator: "; ") + "; nothing was copied")
            }
            let name = PostgresAddress.redacted(store)
            if let error = importError(error, store: name) { throw error }
            throw ImportError(kind: .cannotWrite, file: name, message: "\(error); nothing was written")
        }
    }

    /// Whether `path` is a SQLite file (what `import` copies to a server rather than reads as an export).
    public static func isSQLiteFile(_ path: String) -> Bool {
        guard let file = try? RegularFile(path) else { return false }
        return (try? file.read(upTo: 16)) == Data("SQLite format 3\u{0}".utf8)
    }

    /// What an import error, a store's issues or a failed validation mean for the user; nil for other errors.
    static func importError(_ error: any Error, store: String) -> ImportError? {
        if let error = error as? ImportError { return error }
        if let error = error as? StoreIssues {
            let message = error.issues.map(\.message).joined(separator: "; ")
            let kind: ImportError.Kind
            switch error.exitStatus {
            case .dataError: kind = error.issues.contains { $0.kind == .locked } ? .cannotWrite : .badData
            case .usage: kind = .badOption
            case let status: kind = .server(status)
            }
            return ImportError(kind: kind, file: store, message: message + "; nothing was written")
        }
        if let error = error as? ValidationError {
            return ImportError(kind: .badData, file: store, message: "the imported rows do not validate: " + error.description + "; nothing was written")
        }
        return nil
    }
}
