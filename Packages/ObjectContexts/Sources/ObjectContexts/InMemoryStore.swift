import Foundation

/// A thread-safe, column-oriented store kept in memory (for tests and tools).
///
/// Rows are kept as columns (`[[Value]]` per attribute), so `rows(of:)` hands out
/// copy-on-write snapshots in O(1) and enumerating them allocates nothing per row.
public final class InMemoryStore: PersistentStore, @unchecked Sendable {
    // Safe: `tables` is only read or written while holding `lock`; everything else is immutable.
    private let lock = NSLock()
    private var tables: [String: Table]

    /// The model the rows follow.
    public let model: ObjectModel
    /// Whether saves are refused.
    public let isReadOnly: Bool

    /// Creates an empty store for `model`.
    public init(model: ObjectModel, isReadOnly: Bool = false) {
        self.model = model
        self.isReadOnly = isReadOnly
        var tables: [String: Table] = [:]
        for entity in model.entities {
            tables[entity.name] = Table(attributeCount: entity.attributes.count, relationshipCount: entity.relationships.count)
        }
        self.tables = tables
    }

    /// Writes a row directly (bypassing contexts, e.g. to seed test data) and returns its permanent ID.
    @discardableResult
    public func seed(_ entity: String, attributes: [Value], relationships: [Int64?]? = nil) -> ObjectID {
        guard let description = model.entity(named: entity) else { preconditionFailure("unknown entity \(entity)") }
        precondition(attributes.count == description.attributes.count, "wrong attribute count for \(entity)")
        let related = relationships ?? Array(repeating: nil, count: description.relationships.count)
        return withTables { tables in
            let key = tables[entity]!.append(attributes: attributes, relationships: related, version: 1)
            return ObjectID(entityName: entity, primaryKey: key)
        }
    }

    /// The number of rows of `entity`.
    public func rowCount(of entity: String) -> Int {
        withTables { $0[entity]?.primaryKeys.count ?? 0 }
    }

    /// A snapshot of all rows of `entity`.
    public func rows(of entity: String) throws -> any RowCollection {
        guard let table = withTables({ $0[entity] }) else {
            throw ContextError(.unknownEntity, "no entity named \(entity)")
        }
        return InMemoryRows(table: table)
    }

    /// The row with permanent ID `id`, or `nil`.
    public func row(for id: ObjectID) throws -> StoredRow? {
        guard let key = id.primaryKey else { return nil }
        return withTables { tables in
            guard let table = tables[id.entityName], let index = table.indexByKey[key] else { return nil }
            return table.row(at: index)
        }
    }

    /// Applies `changes` atomically; see `PersistentStore.save(_:)`.
    public func save(_ changes: StoreChanges) throws -> [ObjectID: ObjectID] {
        if isReadOnly { throw ContextError(.readOnlyStore, "the store is read-only") }
        return try withTables { tables in
            var conflicts: [ObjectID] = []
            func check(_ id: ObjectID, _ expected: Int64) {
                guard let key = id.primaryKey, let table = tables[id.entityName], let index = table.indexByKey[key],
                      table.versions[index] == expected else {
                    conflicts.append(id)
                    return
                }
            }
            for write in changes.updated { check(write.objectID, write.expectedVersion) }
            for deletion in changes.deleted { check(deletion.objectID, deletion.expectedVersion) }
            if !conflicts.isEmpty { throw StoreConflictError(objectIDs: conflicts) }

            var updatedTables = tables
            var permanent: [ObjectID: ObjectID] = [:]
            for write in changes.inserted {
                let key = updatedTables[write.objectID.entityName]!.reserveKey()
                permanent[write.objectID] = ObjectID(entityName: write.objectID.entityName, primaryKey: key)
            }
            func keys(_ values: RowValues) -> [Int64?] {
                values.relationships.map { target in
                    guard let target else { return nil }
                    return (permanent[target] ?? target).primaryKey
                }
            }
            for write in changes.inserted {
                let id = permanent[write.objectID]!
                updatedTables[id.entityName]!.append(attributes: write.values.attributes, relationships: keys(write.values),
                                                     version: 1, key: id.primaryKey!)
            }
            for write in changes.updated {
                updatedTables[write.objectID.entityName]!.update(
                    key: write.objectID.primaryKey!, attributes: write.values.attributes,
                    relationships: keys(write.values), version: write.expectedVersion + 1)
            }
            let deletions = Dictionary(grouping: changes.deleted, by: \.objectID.entityName)
            for (entity, rows) in deletions {
                updatedTables[entity]!.remove(keys: Set(rows.compactMap(\.objectID.primaryKey)))
            }
            tables = updatedTables
            return permanent
        }
    }

    private func withTables<T>(_ body: (inout [String: Table]) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&tables)
    }
}

/// Column-oriented rows of one entity.
struct Table: Sendable {
    var primaryKeys: [Int64] = []
    var versions: [Int64] = []
    var columns: [[Value]]
    var relationshipColumns: [[Int64?]]
    var indexByKey: [Int64: Int] = [:]
    var lastKey: Int64 = 0

    init(attributeCount: Int, relationshipCount: Int) {
        columns = Array(repeating: [], count: attributeCount)
        relationshipColumns = Array(repeating: [], count: relationshipCount)
    }

    mutating func reserveKey() -> Int64 {
        lastKey += 1
        return lastKey
    }

    @discardableResult
    mutating func append(attributes: [Value], relationships: [Int64?], version: Int64, key: Int64? = nil) -> Int64 {
        let key = key ?? reserveKey()
        indexByKey[key] = primaryKeys.count
        primaryKeys.append(key)
        versions.append(version)
        for index in columns.indices { columns[index].append(attributes[index]) }
        for index in relationshipColumns.indices { relationshipColumns[index].append(relationships[index]) }
        return key
    }

    mutating func update(key: Int64, attributes: [Value], relationships: [Int64?], version: Int64) {
        let index = indexByKey[key]!
        versions[index] = version
        for column in columns.indices { columns[column][index] = attributes[column] }
        for column in relationshipColumns.indices { relationshipColumns[column][index] = relationships[column] }
    }

    mutating func remove(keys: Set<Int64>) {
        let keep = primaryKeys.indices.filter { !keys.contains(primaryKeys[$0]) }
        primaryKeys = keep.map { primaryKeys[$0] }
        versions = keep.map { versions[$0] }
        columns = columns.map { column in keep.map { column[$0] } }
        relationshipColumns = relationshipColumns.map { column in keep.map { column[$0] } }
        indexByKey = Dictionary(uniqueKeysWithValues: primaryKeys.enumerated().map { ($1, $0) })
    }

    func row(at index: Int) -> StoredRow {
        StoredRow(attributes: columns.map { $0[index] }, relationships: relationshipColumns.map { $0[index] },
                  version: versions[index])
    }
}

/// A snapshot of a `Table` served through `RowCollection`.
final class InMemoryRows: RowCollection {
    let table: Table

    init(table: Table) { self.table = table }

    var count: Int { table.primaryKeys.count }
    func primaryKey(at index: Int) -> Int64 { table.primaryKeys[index] }
    func version(at index: Int) -> Int64 { table.versions[index] }
    func value(attribute: Int, at index: Int) -> Value { table.columns[attribute][index] }
    func relatedPrimaryKey(relationship: Int, at index: Int) -> Int64? { table.relationshipColumns[relationship][index] }
}
