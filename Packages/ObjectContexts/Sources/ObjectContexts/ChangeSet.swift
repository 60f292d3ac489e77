/// What one save changed, as delivered to did-save subscribers.
///
/// A root context's change set uses permanent IDs (`permanentIDs` maps the
/// temporary IDs the objects had); a child's change set uses the IDs as they
/// were pushed to the parent. Values are complete rows.
public struct ChangeSet: Sendable {
    /// Inserted records and their values.
    public var inserted: [ObjectID: RowValues] = [:]
    /// Updated records and their new values.
    public var updated: [ObjectID: RowValues] = [:]
    /// Deleted records.
    public var deleted: Set<ObjectID> = []
    /// Temporary -> permanent IDs assigned by this save (root saves only).
    public var permanentIDs: [ObjectID: ObjectID] = [:]
    /// Store versions of the saved rows (for contexts merging the change set).
    var versions: [ObjectID: Int64] = [:]

    /// Creates an empty change set.
    public init() {}

    /// The IDs of the inserted records.
    public var insertedObjectIDs: Set<ObjectID> { Set(inserted.keys) }
    /// The IDs of the updated records.
    public var updatedObjectIDs: Set<ObjectID> { Set(updated.keys) }
    /// Whether the save changed nothing.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }

    /// The saved value of attribute `key` of record `id`, or `nil` if the record is not inserted/updated here.
    public func value(forKey key: String, of id: ObjectID, in model: ObjectModel) -> Value? {
        guard let row = inserted[id] ?? updated[id],
              let index = model.entity(named: id.entityName)?.attributeIndex(named: key) else { return nil }
        return row.attributes[index]
    }
}
