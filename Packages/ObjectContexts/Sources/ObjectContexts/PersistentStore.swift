/// A read-only, point-in-time view of all rows of one entity, addressed by index.
///
/// Stores return one collection object per `rows(of:)` call and serve values
/// straight from their own (typically columnar) storage, so enumerating rows
/// allocates nothing per row. A collection must not change after it was
/// returned (snapshot semantics), even if the store saves meanwhile.
/// It is used only on the thread that asked for it.
public protocol RowCollection: AnyObject {
    /// Number of rows.
    var count: Int { get }
    /// The primary key of the row at `index` (`0..<count`).
    func primaryKey(at index: Int) -> Int64
    /// The optimistic-locking version of the row at `index`.
    func version(at index: Int) -> Int64
    /// The value of attribute number `attribute` of the row at `index`.
    func value(attribute: Int, at index: Int) -> Value
    /// The integer value of attribute number `attribute` of the row at `index`, or `nil` when it is null.
    ///
    /// Columnar stores answer from their typed column without building a ``Value``; the default goes
    /// through ``value(attribute:at:)``.
    func integer(attribute: Int, at index: Int) -> Int64?
    /// The primary key of the target of to-one relationship number `relationship`, or `nil`.
    func relatedPrimaryKey(relationship: Int, at index: Int) -> Int64?
}

extension RowCollection {
    /// Reads the integer through ``value(attribute:at:)``.
    public func integer(attribute: Int, at index: Int) -> Int64? { value(attribute: attribute, at: index).integerValue }
}

/// One row as read from a store.
public struct StoredRow: Sendable, Hashable {
    /// Attribute values by attribute index.
    public var attributes: [Value]
    /// Target primary keys of to-one relationships by relationship index (`nil` for to-many slots).
    public var relationships: [Int64?]
    /// The optimistic-locking version (like Core Data's `Z_OPT`).
    public var version: Int64

    /// Creates a stored row.
    public init(attributes: [Value], relationships: [Int64?], version: Int64) {
        self.attributes = attributes
        self.relationships = relationships
        self.version = version
    }
}

/// A row to insert or update in `PersistentStore.save(_:)`.
public struct StoreWrite: Sendable {
    /// Temporary ID for inserts, permanent ID for updates.
    public var objectID: ObjectID
    /// The complete new values. Relationship targets may be temporary IDs of rows inserted in the same save.
    public var values: RowValues
    /// For updates: the version the row must still have, else the save fails with `StoreConflictError`.
    public var expectedVersion: Int64
}

/// A row to delete in `PersistentStore.save(_:)`.
public struct StoreDeletion: Sendable {
    /// The permanent ID of the row.
    public var objectID: ObjectID
    /// The version the row must still have.
    public var expectedVersion: Int64
}

/// All changes of one root-context save, to be applied atomically.
public struct StoreChanges: Sendable {
    /// New rows (temporary IDs).
    public var inserted: [StoreWrite] = []
    /// Changed rows (permanent IDs, complete values).
    public var updated: [StoreWrite] = []
    /// Removed rows.
    public var deleted: [StoreDeletion] = []

    /// Whether there is nothing to write.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}

/// The backing store of a root context.
///
/// Implementations must be thread-safe: contexts on different queues read
/// concurrently while one of them saves. Contract:
/// - `rows(of:)` returns a snapshot; values are served by index without a heap object per row.
/// - `row(for:)` returns `nil` for temporary IDs and missing rows.
/// - `save(_:)` is all-or-nothing. It first checks that every updated and deleted
///   row exists with `expectedVersion`, otherwise throws `StoreConflictError` listing
///   them and writes nothing. Then it inserts rows (assigning new primary keys,
///   version 1), maps temporary relationship targets to the new permanent IDs,
///   updates rows (new version = `expectedVersion + 1`) and deletes rows. It returns
///   the temporary -> permanent ID map of the inserted rows.
public protocol PersistentStore: AnyObject, Sendable {
    /// The model the store's rows follow (attribute/relationship indices match it).
    var model: ObjectModel { get }
    /// Whether `save(_:)` must be refused (the root context throws `ContextError.readOnlyStore`).
    var isReadOnly: Bool { get }
    /// A snapshot of all rows of `entity`.
    func rows(of entity: String) throws -> any RowCollection
    /// The row with permanent ID `id`, or `nil`.
    func row(for id: ObjectID) throws -> StoredRow?
    /// Primary keys of `entity` rows whose to-one relationship number `relationship` targets `primaryKey`.
    ///
    /// A default implementation scans `rows(of:)`; stores with an index should override it.
    func primaryKeys(of entity: String, relationship: Int, referencing primaryKey: Int64) throws -> [Int64]
    /// Applies `changes` atomically (see the protocol documentation) and returns temporary -> permanent IDs.
    func save(_ changes: StoreChanges) throws -> [ObjectID: ObjectID]
}

extension PersistentStore {
    /// Scans all rows of `entity` (override when the store has an index).
    public func primaryKeys(of entity: String, relationship: Int, referencing primaryKey: Int64) throws -> [Int64] {
        let rows = try rows(of: entity)
        var result: [Int64] = []
        for index in 0..<rows.count where rows.relatedPrimaryKey(relationship: relationship, at: index) == primaryKey {
            result.append(rows.primaryKey(at: index))
        }
        return result
    }
}
