import Foundation
internal import InvoicesCore
internal import GRDB
internal import GRDBSQLite

/// The fetch of a ``BooksStore``: reads a native or a Core Data store file into ``Books`` in one read transaction.
///
/// The store is opened read-only, so the books are one consistent snapshot and the file is never changed. Every
/// row is checked against the model's rules (``InvoiceRules``); problems are collected and thrown together as
/// ``StoreIssues``, warnings returned beside the books.
struct StoreLoader: Sendable {
    let file: StoreFile
    /// How many issues of each severity to keep (the total is still counted).
    var issueLimit = 100
    /// Which attributes hold what, when the file is a Core Data store.
    var coreDataMapping = CoreDataMapping()
    /// From how many invoice rows a native store's invoice table is read in two parts, one on each connection.
    var invoiceSplitMinimum = 20_000
    /// How many invoice rows the second connection checks into tables of its own at a time, handed to the loader in
    /// parts so its rows are never held twice whole (docs/performance.md, "Load and figures on both cores").
    var invoicePartRows = 65_536
    /// With the invoices split, how many payment rows the second connection copies before it waits for the loader's
    /// hand-over (tests: 0 checks every row against the invoices handed over, `.max` copies them all first); nil: it
    /// looks for the hand-over every ``DetailRead/handOverLookRows`` rows without waiting, and checks the rows copied
    /// so far once it comes.
    var paymentRowsBeforeHandOver: Int?

    var path: String { file.path }

    init(path: String) {
        file = StoreFile(path: path)
    }

    /// What a fetch reads: the books, the warnings about how they were read, and the store's kind.
    struct Fetched: Sendable {
        var books: Books
        var warnings: [StoreIssue] = []
        var totalWarnings = 0
        var format: StoreFormat
    }

    /// Reads the whole store, native or Core Data (a file with the tables `Z_METADATA` and `Z_PRIMARYKEY`).
    /// - Throws: ``StoreIssues`` naming every error found (missing file, not SQLite, wrong schema, bad rows).
    func fetch() throws(StoreIssues) -> Fetched {
        let database = try file.openReadOnly(label: "store")
        defer { try? database.close() }
        // Before this connection's snapshot starts: what a second connection must still find after its own started.
        let stateBefore = file.commitState()
        do {
            return try database.read { db in
                if try CoreDataModel.isCoreDataStore(db) {
                    var reader = CoreDataReader(path: path, model: try CoreDataModel(db, path: path), mapping: coreDataMapping, limit: issueLimit)
                    return try reader.read(db, loader: self)
                }
                let version = try checkSchema(db)
                // This connection's snapshot has started (checkSchema read the store): the second one may start.
                let details = version >= 2 ? startDetailRead(version: version, stateBefore: stateBefore) : nil
                return Fetched(books: try loadBooks(db, version: version, details: details), format: .native)
            }
        } catch let error as StoreIssues {
            throw error
        } catch let error as DatabaseError {
            throw StoreIssues([file.issue(for: error)])
        } catch {
            throw StoreIssues([StoreIssue(kind: .unreadable, path: path, message: "\(error)")])
        }
    }

    /// Checks the version and the tables and columns it requires; returns the version.
    func checkSchema(_ db: Database) throws -> Int {
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        guard Schema.readableVersions.contains(version) else {
            let all = Schema.readableVersions.map(String.init)
            let versions = all.dropLast().joined(separator: ", ") + " or " + (all.last ?? "")
            throw StoreIssues([
                StoreIssue(
                    kind: .wrongSchema, path: path,
                    message: "schema version \(version), expected \(versions) (PRAGMA user_version); "
                        + "this build of invoices reads version \(versions) stores"
                )
            ])
        }
        var errors: [StoreIssue] = []
        for (table, columns) in Schema.requiredColumns(version: version) {
            let present = Set(try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] as String })
            if present.isEmpty {
                errors.append(StoreIssue(kind: .wrongSchema, path: path, table: table, message: "table is missing"))
                continue
            }
            for column in columns where !present.contains(column) {
                errors.append(StoreIssue(kind: .wrongSchema, path: path, table: table, column: column, message: "column is missing"))
            }
        }
        if !errors.isEmpty { throw StoreIssues(errors) }
        return version
    }
}

/// Collects row problems up to a limit, counting all of them.
struct Problems {
    let path: String
    let limit: Int
    var errors: [StoreIssue] = []
    var total = 0

    init(path: String, limit: Int) {
        self.path = path
        self.limit = limit
    }

    mutating func add(table: String, row: String, column: String, _ message: String) {
        total += 1
        if errors.count < limit {
            errors.append(StoreIssue(kind: .invalidValue, path: path, table: table, row: row, column: column, message: message))
        }
    }

    /// Adds each broken rule of a row.
    mutating func add(table: String, row: String, _ violations: [RuleViolation]) {
        for violation in violations { add(table: table, row: row, column: violation.attribute, violation.message) }
    }

    /// Adds the problems `other` collected after this one's: its kept errors while under the limit, all counted.
    mutating func append(_ other: Problems) {
        total += other.total
        errors += other.errors.prefix(max(0, limit - errors.count))
    }

    var error: StoreIssues { StoreIssues(errors, total: total) }
}
