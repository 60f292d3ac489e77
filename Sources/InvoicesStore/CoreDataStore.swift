import Foundation
internal import GRDB
internal import GRDBSQLite
internal import InvoicesCore

// Reading the Invoices app's Core Data SQLite store. docs/store.md ("Core Data stores") describes the mapping.

extension StoreLoader {
    /// Loads the books and the warnings about how they were read, from a native or a Core Data store.
    ///
    /// A Core Data store (one with the tables `Z_METADATA` and `Z_PRIMARYKEY`) is read with ``coreDataMapping``;
    /// any other SQLite file is read as a native store, which has no warnings.
    /// - Throws: ``StoreErrors`` naming every problem found, as ``load()`` does.
    public func loadWithWarnings() throws(StoreErrors) -> LoadedBooks {
        if let loaded = try loadCoreDataStore() { return loaded }
        return LoadedBooks(books: try loadNative(), format: .native)
    }

    /// Reads the file as a Core Data store, or returns nil when it is not one (or not SQLite at all, which the
    /// native loader then reports).
    ///
    /// The store is opened read-only with `readonly_shm`, so SQLite never writes the `-shm` file (a plain
    /// read-only connection still records its read mark there) and never creates one; all reads happen in one
    /// transaction, so a store in WAL mode is read as one consistent snapshot, committed WAL frames included.
    func loadCoreDataStore() throws(StoreErrors) -> LoadedBooks? {
        guard hasSQLiteHeader else { return nil }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        configuration.label = "coredata-store"
        do {
            let database = try DatabaseQueue(path: try readOnlyURI(), configuration: configuration)
            defer { try? database.close() }
            return try database.read { db -> LoadedBooks? in
                guard try CoreDataModel.isCoreDataStore(db) else { return nil }
                let model = try CoreDataModel(db, path: path)
                var reader = CoreDataReader(path: path, model: model, mapping: coreDataMapping, limit: errorLimit)
                return try reader.read(db, loader: self)
            }
        } catch let error as StoreErrors {
            throw error
        } catch let error as DatabaseError {
            throw StoreErrors(errors: [coreDataUnreadable(error)])
        } catch {
            throw StoreErrors(errors: [StoreError(kind: .unreadable, path: path, message: "\(error)")])
        }
    }

    /// Whether the file exists and starts with the SQLite header.
    var hasSQLiteHeader: Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 16)) == Data("SQLite format 3\0".utf8)
    }

    func coreDataUnreadable(_ error: DatabaseError) -> StoreError {
        let fileManager = FileManager.default
        if error.resultCode == .SQLITE_CANTOPEN, fileManager.fileExists(atPath: path + "-wal"),
            !fileManager.fileExists(atPath: path + "-shm")
        {
            return StoreError(
                kind: .unreadable, path: path,
                message: "the store is in WAL mode and has a '-wal' file but no '-shm' file beside it; invoices never "
                    + "creates or changes files beside a store, so it cannot read the transactions still in the "
                    + "'-wal' file. Quit the app (which checkpoints the store), or copy the store with its '-wal' "
                    + "file into a writable folder and build from the copy")
        }
        if error.resultCode == .SQLITE_CANTOPEN {
            return StoreError(
                kind: .unreadable, path: path,
                message: "cannot open the store or its '-wal'/'-shm' files for reading (SQLite: "
                    + "\(error.message ?? "unable to open")); check their permissions")
        }
        return unreadable(error)
    }
}

/// The entities of a Core Data store, from its `Z_PRIMARYKEY` table.
struct CoreDataModel {
    struct Entity {
        let number: Int64
        let name: String
        let superNumber: Int64
    }

    let path: String
    let entities: [Int64: Entity]

    static func isCoreDataStore(_ db: Database) throws -> Bool {
        let tables = try String.fetchSet(
            db, sql: "SELECT upper(name) FROM sqlite_master WHERE type = 'table' AND upper(name) IN ('Z_METADATA', 'Z_PRIMARYKEY')")
        return tables.count == 2
    }

    init(_ db: Database, path: String) throws {
        self.path = path
        var entities: [Int64: Entity] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY") {
            let number: Int64? = row[0]
            let name: String? = row[1]
            guard let number, let name else { continue }
            entities[number] = Entity(number: number, name: name, superNumber: row[2] ?? 0)
        }
        self.entities = entities
    }

    /// The entity called `name` (exactly, else case-insensitively).
    /// - Throws: ``StoreErrors`` when the store has no such entity.
    func entity(named name: String) throws(StoreErrors) -> Entity {
        if let entity = entities.values.first(where: { $0.name == name }) { return entity }
        if let entity = entities.values.first(where: { $0.name.lowercased() == name.lowercased() }) { return entity }
        let names = entities.values.map(\.name).sorted().map { "'\($0)'" }.joined(separator: ", ")
        throw StoreErrors(errors: [
            StoreError(
                kind: .unreadable, path: path, table: "Z_PRIMARYKEY",
                message: "the Core Data store has no '\(name)' entity (its entities: \(names.isEmpty ? "none" : names)); "
                    + "invoices reads stores of the Invoices app, whose model has the entities 'Client' and 'Invoice'")
        ])
    }

    /// The entity's number and those of all its sub-entities, which share its root entity's table.
    func family(of entity: Entity) -> [Int64] {
        var numbers: Set<Int64> = [entity.number]
        var grew = true
        while grew {
            grew = false
            for candidate in entities.values where !numbers.contains(candidate.number) && numbers.contains(candidate.superNumber) {
                numbers.insert(candidate.number)
                grew = true
            }
        }
        return numbers.sorted()
    }

    /// The table holding the entity's rows: `Z` and the upper-cased name of its root entity.
    func table(of entity: Entity) -> String {
        var root = entity
        var seen: Set<Int64> = [root.number]
        while root.superNumber != 0, let parent = entities[root.superNumber], seen.insert(parent.number).inserted {
            root = parent
        }
        return "Z" + root.name.uppercased()
    }
}

/// One entity's table: its name and its columns, found by upper-cased name.
struct CoreDataTable {
    let name: String
    /// Upper-cased column name → column name as declared.
    let columns: [String: String]
    /// `Z_ENT IN (...)`: the entity and its sub-entities.
    let entityFilter: String

    init(_ db: Database, model: CoreDataModel, entity: CoreDataModel.Entity) throws {
        name = model.table(of: entity)
        var columns: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "PRAGMA table_info(\(name.quotedDatabaseIdentifier))") {
            let column: String = row["name"]
            columns[column.uppercased()] = column
        }
        guard !columns.isEmpty else {
            throw StoreErrors(errors: [
                StoreError(kind: .unreadable, path: model.path, table: name, message: "table is missing (entity '\(entity.name)')")
            ])
        }
        self.columns = columns
        entityFilter = "Z_ENT IN (" + model.family(of: entity).map(String.init).joined(separator: ", ") + ")"
    }

    /// The column of `attribute` (`ZAMOUNT` for `amount`), if the table has one.
    func column(forAttribute attribute: String) -> String? { columns["Z" + attribute.uppercased()] }

    /// `"ZNAME"` for a present column, `NULL` for an absent one: a select-list item.
    func select(_ attribute: String) -> String { column(forAttribute: attribute)?.quotedDatabaseIdentifier ?? "NULL" }

    /// The attribute columns (`Z` + name, without Core Data's `Z_PK`, `Z_ENT`, `Z_OPT`), sorted.
    var attributeColumns: [String] { columns.values.filter { !$0.hasPrefix("Z_") }.sorted() }
}
