/// One row during `enumerateRows(of:_:)`: attribute values and to-one targets by index.
///
/// Rows without pending changes are served straight from the store's
/// `RowCollection`; rows changed in the context or its ancestors come from the
/// pending values. The enumeration reuses one view for all store rows (only
/// its index moves), so no reference counting or allocation happens per row.
/// Keeping a copy is safe but it keeps the row source alive; prefer copying
/// out the values you need.
public struct RowView {
    /// The entity the row belongs to.
    public let entity: EntityDescription
    @usableFromInline let rows: (any RowCollection)?
    @usableFromInline var index: Int
    @usableFromInline let pending: OverlayRow?

    init(entity: EntityDescription, rows: any RowCollection, index: Int) {
        self.entity = entity
        self.rows = rows
        self.index = index
        self.pending = nil
    }

    init(entity: EntityDescription, pending: OverlayRow) {
        self.entity = entity
        self.rows = nil
        self.index = 0
        self.pending = pending
    }

    /// The record's ID (temporary for rows inserted but not saved to the store).
    public var objectID: ObjectID {
        if let pending { return pending.objectID }
        return ObjectID(entityName: entity.name, primaryKey: rows.unsafelyUnwrapped.primaryKey(at: index))
    }

    /// The record's primary key, or `nil` for rows not yet in the store.
    public var primaryKey: Int64? {
        if let pending { return pending.objectID.primaryKey }
        return rows.unsafelyUnwrapped.primaryKey(at: index)
    }

    /// The value of attribute number `attribute` (fast path).
    public func value(_ attribute: Int) -> Value {
        if let pending { return pending.values.attributes[attribute] }
        return rows.unsafelyUnwrapped.value(attribute: attribute, at: index)
    }

    /// The value of the attribute named `key` (looks the index up; traps on unknown keys).
    public func value(forKey key: String) -> Value {
        guard let attribute = entity.attributeIndex(named: key) else {
            preconditionFailure("\(entity.name) has no attribute \(key)")
        }
        return value(attribute)
    }

    /// The primary key of the target of to-one relationship number `relationship` (`nil`: none or not yet saved).
    public func relatedPrimaryKey(_ relationship: Int) -> Int64? {
        if let pending { return pending.values.relationships[relationship]?.primaryKey }
        return rows.unsafelyUnwrapped.relatedPrimaryKey(relationship: relationship, at: index)
    }

    /// The ID of the target of to-one relationship number `relationship`, or `nil`.
    public func relatedObjectID(_ relationship: Int) -> ObjectID? {
        if let pending { return pending.values.relationships[relationship] }
        guard let key = rows.unsafelyUnwrapped.relatedPrimaryKey(relationship: relationship, at: index) else { return nil }
        return ObjectID(entityName: entity.relationships[relationship].destination, primaryKey: key)
    }

    /// All values of the row (allocates; meant for slow paths).
    public var values: RowValues {
        if let pending { return pending.values }
        return RowValues(attributes: entity.attributes.indices.map { value($0) },
                         relationships: entity.relationships.indices.map { relatedObjectID($0) })
    }
}

/// A pending row shown during enumeration (built once per enumeration, not per row access).
@usableFromInline
final class OverlayRow {
    let objectID: ObjectID
    let values: RowValues
    let isDeleted: Bool

    init(objectID: ObjectID, values: RowValues, isDeleted: Bool) {
        self.objectID = objectID
        self.values = values
        self.isDeleted = isDeleted
    }
}

/// The merged pending changes of a context line for one entity.
struct RowOverlay {
    /// Changes to rows that exist in the store, by primary key.
    var byKey: [Int64: OverlayRow] = [:]
    /// Rows not yet in the store (inserted), in ID order.
    var extras: [OverlayRow] = []
    /// All changed IDs (canonical), including deletions.
    var changedIDs: Set<ObjectID> = []

    var isEmpty: Bool { byKey.isEmpty && extras.isEmpty }

    static var empty: RowOverlay { RowOverlay() }
}

extension ContextStorage {
    /// Pending changes of `entity` in this layer and all its ancestors (nearest layer wins), keyed canonically.
    func overlay(for entity: String) -> RowOverlay {
        var layers: [[ObjectID: PendingChange]] = []
        var layer: ContextStorage? = self
        while let current = layer {
            if let entries = current.withLock({ current.changes[entity] }), !entries.isEmpty { layers.append(entries) }
            layer = current.parent
        }
        guard !layers.isEmpty else { return .empty }
        let map = rootStorage.withLock { rootStorage.idMap }
        var merged: [ObjectID: PendingChange] = [:]
        for entries in layers {
            for (id, change) in entries {
                let key = id.isTemporary ? (map[id] ?? id) : id
                if merged[key] == nil { merged[key] = change }
            }
        }
        var overlay = RowOverlay()
        for (id, change) in merged {
            overlay.changedIDs.insert(id)
            let row = OverlayRow(objectID: id, values: change.row.remapped(map), isDeleted: change.kind == .deleted)
            if let key = id.primaryKey {
                overlay.byKey[key] = row
            } else if !row.isDeleted {
                overlay.extras.append(row)
            }
        }
        overlay.extras.sort { $0.objectID < $1.objectID }
        return overlay
    }

    /// Calls `body` for every live row of `entity`: store rows with `overlay` applied, then overlay-only rows.
    func scanRows(of entity: EntityDescription, overlay: RowOverlay, _ body: (RowView) throws -> Void) throws {
        let rows = try store.rows(of: entity.name)
        let count = rows.count
        // One view for all store rows: only the index changes, so nothing is retained per row.
        var view = RowView(entity: entity, rows: rows, index: 0)
        if overlay.isEmpty {
            for index in 0..<count {
                view.index = index
                try body(view)
            }
            return
        }
        for index in 0..<count {
            if let pending = overlay.byKey[rows.primaryKey(at: index)] {
                if !pending.isDeleted { try body(RowView(entity: entity, pending: pending)) }
            } else {
                view.index = index
                try body(view)
            }
        }
        for pending in overlay.extras { try body(RowView(entity: entity, pending: pending)) }
    }
}
