import Foundation
internal import GRDB
internal import GRDBSQLite
internal import InvoicesCore

// Reading the Invoices app's Core Data SQLite store. docs/store.md ("Core Data stores") describes the mapping.

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

    /// The entity called `name` (exactly, else case-insensitively); `role` is the tool's name for it.
    /// - Throws: ``StoreIssues`` when the store has no such entity.
    func entity(named name: String, as role: String) throws(StoreIssues) -> Entity {
        if let entity = entities.values.first(where: { $0.name == name }) { return entity }
        if let entity = entities.values.first(where: { $0.name.lowercased() == name.lowercased() }) { return entity }
        let names = entities.values.map(\.name).sorted().map { "'\($0)'" }.joined(separator: ", ")
        throw StoreIssues([
            StoreIssue(
                kind: .wrongSchema, path: path, table: "Z_PRIMARYKEY",
                message: "the Core Data store has no '\(name)' entity (its entities: \(names.isEmpty ? "none" : names)); "
                    + "if the model calls its \(role.lowercased())s something else, name that entity with --core-data-name \(role)=NAME")
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
            throw StoreIssues([
                StoreIssue(kind: .wrongSchema, path: model.path, table: name, message: "table is missing (entity '\(entity.name)')")
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
