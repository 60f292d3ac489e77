import Foundation
internal import InvoicesCore
internal import GRDB

/// A store file on disk, and the checks every reader and writer of one makes before SQLite opens it.
///
/// Building, checking and importing all start here, so a missing file, a file that is not SQLite, a WAL store
/// whose `-shm` is gone, a lock or a corrupt page read the same way, with the same ``StoreIssue/Kind``.
public struct StoreFile: Sendable {
    /// The file's path, as the user named it.
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The first 20 bytes of the file, or `nil` when it cannot be opened as a file.
    private func header() -> Data? {
        // Only a regular file is read (``RegularFile``): opening a FIFO would wait for a writer forever.
        guard let file = try? RegularFile(path) else { return nil }
        return (try? file.read(upTo: 20)) ?? Data()
    }

    /// Whether the file starts with the SQLite header.
    var hasSQLiteHeader: Bool { header()?.starts(with: Self.sqliteHeader) ?? false }

    static let sqliteHeader = Data("SQLite format 3\0".utf8)

    /// Checks that the file exists, is a readable file and starts with the SQLite header.
    /// - Parameter allowEmpty: Whether an empty file passes (SQLite makes a store of it when it writes).
    /// - Throws: ``StoreIssues`` of kind `.missing`, `.unreadable` or `.notSQLite`.
    public func checkSQLite(allowEmpty: Bool = false) throws(StoreIssues) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreIssues([
                StoreIssue(kind: .missing, path: path, message: "no such file; create one with 'invoices sample' or 'invoices import'")
            ])
        }
        let type = FileType(atPath: path)
        guard type == .regular else {
            throw StoreIssues([
                StoreIssue(kind: .unreadable, path: path, message: "is \(type.description), not a store file; give the path of the SQLite file")
            ])
        }
        guard let header = header() else {
            throw StoreIssues([StoreIssue(kind: .unreadable, path: path, message: "cannot be read as a file; check its permissions")])
        }
        guard header.starts(with: Self.sqliteHeader) || (allowEmpty && header.isEmpty) else {
            throw StoreIssues([
                StoreIssue(kind: .notSQLite, path: path, message: "not a SQLite database (the file does not start with the SQLite header)")
            ])
        }
    }

    /// Whether the file's header says WAL mode (file format version numbers 2 at offsets 18 and 19).
    var isWAL: Bool {
        guard let header = header(), header.count == 20 else { return false }
        return header[18] == 2 && header[19] == 2
    }

    /// Opens the file read-only, without writing to it or to any file beside it (see ``readOnlyURI()``).
    func openReadOnly(label: String) throws(StoreIssues) -> DatabaseQueue {
        try checkSQLite()
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        configuration.label = label
        do {
            return try DatabaseQueue(path: try readOnlyURI(), configuration: configuration)
        } catch let error as StoreIssues {
            throw error
        } catch let error as DatabaseError {
            throw StoreIssues([issue(for: error)])
        } catch {
            throw StoreIssues([StoreIssue(kind: .unreadable, path: path, message: "\(error)")])
        }
    }

    /// A SQLite URI that opens the store without writing to any of its files.
    ///
    /// `mode=ro` opens the database read-only. For a store in WAL mode, `readonly_shm=1` makes SQLite read the
    /// `-shm` index without updating its read marks, so the `-wal` and `-shm` files keep their bytes too; readers
    /// still take the shared locks that give one consistent snapshot while another process writes. A WAL store
    /// whose `-shm` file is missing and whose `-wal` is empty is opened as immutable (there is nothing in the WAL).
    func readOnlyURI() throws(StoreIssues) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        allowed.insert(charactersIn: "/-._~")
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let encoded = absolute.addingPercentEncoding(withAllowedCharacters: allowed) ?? absolute
        var parameters = "mode=ro&readonly_shm=1"
        let manager = FileManager.default
        if isWAL, !manager.fileExists(atPath: path + "-shm") {
            let walSize = (try? manager.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? nil
            guard (walSize ?? 0) == 0 else { throw StoreIssues([walWithoutSHM]) }
            parameters += "&immutable=1"
        }
        return "file:\(encoded)?\(parameters)"
    }

    private var walWithoutSHM: StoreIssue {
        StoreIssue(
            kind: .unreadable, path: path,
            message: "the store is in WAL mode and has a '-wal' file but no '-shm' file beside it; invoices "
                + "never creates or changes files beside a store, so it cannot read the transactions still in "
                + "the '-wal' file. Quit the app that writes it (which checkpoints the store), or copy the store "
                + "with all three files (.sqlite, -wal, -shm)")
    }

    /// The issue a SQLite error means for this file: locked, corrupt, not SQLite, or unreadable.
    func issue(for error: DatabaseError) -> StoreIssue {
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return StoreIssue(kind: .locked, path: path, message: "the database is locked by another process; try again when it has finished writing")
        case .SQLITE_CORRUPT:
            return StoreIssue(kind: .corrupt, path: path, message: "the database file is corrupt (\(error.message ?? "malformed")); restore it from a backup")
        case .SQLITE_NOTADB:
            return StoreIssue(kind: .corrupt, path: path, message: "the database file is corrupt (\(error.message ?? "not a database")); restore it from a backup")
        case .SQLITE_CANTOPEN:
            let manager = FileManager.default
            if manager.fileExists(atPath: path + "-wal"), !manager.fileExists(atPath: path + "-shm") { return walWithoutSHM }
            return StoreIssue(
                kind: .unreadable, path: path,
                message: "cannot open the store or its '-wal'/'-shm' files (SQLite: \(error.message ?? "unable to open")); check their permissions")
        default:
            return StoreIssue(kind: .unreadable, path: path, message: "SQLite error \(error.resultCode.rawValue): \(error.message ?? "unknown")")
        }
    }
}
