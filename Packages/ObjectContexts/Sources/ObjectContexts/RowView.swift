/// One row during `enumerateRows(of:_:)`: attribute values and to-one targets by index.
///
/// Rows without pending changes are served straight from the store's
/// `RowCollection`; rows changed in the context or its ancestors come from the
/// pending values. A `RowView` is only valid during the closure call that
/// received it: it refers to the enumeration's row source without retaining it
/// (a plain-data struct, so enumerating costs no reference counting and no
/// allocation per row). Never store it or let it escape; copy out the values.
public struct RowView {
    // Unmanaged (unretained) references: `scanRows` keeps the entity, the row
    // source and every overlay row alive (withExtendedLifetime) for the whole
    // enumeration, and a RowView must not outlive the closure call (see above).
    @usableFromInline let entityReference: Unmanaged<EntityDescription>
    @usableFromInline let source: Unmanaged<RowSource>?
    @usableFromInline var index: Int
    @usableFromInline let pending: Unmanaged<OverlayRow>?

    init(entity: EntityDescription, source: RowSource, index: Int) {
        self.entityReference = .passUnretained(entity)
        self.source = .passUnretained(source)
        self.index = index
        self.pending = nil
    }

    init(entity: EntityDescription, pending: OverlayRow) {
        self.entityReference = .passUnretained(entity)
        self.source = nil
        self.index = 0
        self.pending = .passUnretained(pending)
    }

    /// The entity the row belongs to.
    public var entity: EntityDescription { entityReference.takeUnretainedValue() }

    /// The record's ID (temporary for rows inserted but not saved to the store).
    public var objectID: ObjectID {
        if let pending { return pending._withUnsafeGuaranteedRef { $0.objectID } }
        return ObjectID(entityName: entity.name, primaryKey: primaryKey!)
    }

    /// The record's primary key, or `nil` for rows not yet in the store.
    public var primaryKey: Int64? {
        if let pending { return pending._withUnsafeGuaranteedRef { $0.objectID.primaryKey } }
        let index = index
        return source.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.rows.primaryKey(at: index) }
    }

    /// The value of attribute number `attribute` (fast path).
    public func value(_ attribute: Int) -> Value {
        if let pending { return pending._withUnsafeGuaranteedRef { $0.values.attributes[attribute] } }
        let index = index
        return source.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.rows.value(attribute: attribute, at: index) }
    }

    /// The integer value of attribute number `attribute`, or `nil` when it is null or not an integer.
    ///
    /// On rows without pending changes this reads the store's typed column directly (no ``Value`` is built), so a
    /// loop over millions of rows costs about as much as a loop over arrays.
    public func integer(_ attribute: Int) -> Int64? {
        if let pending { return pending._withUnsafeGuaranteedRef { $0.values.attributes[attribute].integerValue } }
        let index = index
        return source.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.rows.integer(attribute: attribute, at: index) }
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
        if let pending { return pending._withUnsafeGuaranteedRef { $0.values.relationships[relationship]?.primaryKey } }
        let index = index
        return source.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.rows.relatedPrimaryKey(relationship: relationship, at: index) }
    }

    /// The ID of the target of to-one relationship number `relationship`, or `nil`.
    public func relatedObjectID(_ relationship: Int) -> ObjectID? {
        if let pending { return pending._withUnsafeGuaranteedRef { $0.values.relationships[relationship] } }
        guard let key = relatedPrimaryKey(relationship) else { return nil }
        return ObjectID(entityName: entity.relationships[relationship].destination, primaryKey: key)
    }

    /// All values of the row (allocates; meant for slow paths).
    public var values: RowValues {
        if let pending { return pending.takeUnretainedValue().values }
        return RowValues(attributes: entity.attributes.indices.map { value($0) },
                         relationships: entity.relationships.indices.map { relatedObjectID($0) })
    }
}

/// Holds the store's row collection for the duration of one enumeration.
@usableFromInline
final class RowSource {
    let rows: any RowCollection
    init(rows: any RowCollection) { self.rows = rows }
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
    /// Smallest and largest key in `byKey` (cheap pre-check before the dictionary lookup).
    var minKey = Int64.max, maxKey = Int64.min
    /// Rows not yet in the store (inserted), in ID order.
    var extras: [OverlayRow] = []
    /// All changed IDs (canonical), including deletions.
    var changedIDs: Set<ObjectID> = []

    var isEmpty: Bool { byKey.isEmpty && extras.isEmpty }

    static var empty: RowOverlay { RowOverlay() }
}

/// One entity's merged overlay in ``ContextStorage/overlayCache``.
struct OverlayCacheEntry {
    /// The ID map's generation, then the revision of each layer from this one up to the root.
    var key: [UInt64]
    var overlay: RowOverlay
    /// By to-one relationship index: the live overlay rows (changed or inserted) by the object they point at.
    var related: [Int: [ObjectID: [ObjectID]]] = [:]
}

extension ContextStorage {
    /// What the merged overlay of every entity depends on: the ID map's generation and each layer's revision.
    func overlayKey() -> [UInt64] {
        var key = [mapGeneration]
        var layer: ContextStorage? = self
        while let current = layer {
            key.append(current.withLock { current.revision })
            layer = current.parent
        }
        return key
    }

    /// Pending changes of `entity` in this layer and all its ancestors (nearest layer wins), keyed canonically;
    /// merged once per change of any layer (``overlayCache``).
    func overlay(for entity: String) -> RowOverlay {
        let key = overlayKey()
        if let cached = withLock({ overlayCache[entity] }), cached.key == key { return cached.overlay }
        let overlay = mergedOverlay(for: entity)
        withLock { overlayCache[entity] = OverlayCacheEntry(key: key, overlay: overlay) }
        return overlay
    }

    /// The live rows of `entity`'s overlay (changed store rows not deleted, and inserted rows) whose to-one
    /// `relationship` points at each object, in overlay order; indexed once per change of any layer.
    func relatedInOverlay(_ entity: String, relationship: Int) -> (overlay: RowOverlay, related: [ObjectID: [ObjectID]]) {
        let key = overlayKey()
        if let cached = withLock({ overlayCache[entity] }), cached.key == key, let related = cached.related[relationship] {
            return (cached.overlay, related)
        }
        let overlay = self.overlay(for: entity)
        var related: [ObjectID: [ObjectID]] = [:]
        for row in overlay.byKey.values where !row.isDeleted {
            if let target = row.values.relationships[relationship] { related[target, default: []].append(row.objectID) }
        }
        for row in overlay.extras {
            if let target = row.values.relationships[relationship] { related[target, default: []].append(row.objectID) }
        }
        withLock {
            if overlayCache[entity]?.key == key { overlayCache[entity]?.related[relationship] = related }
        }
        return (overlay, related)
    }

    /// The overlay of `entity`, merged from every layer now.
    private func mergedOverlay(for entity: String) -> RowOverlay {
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
                overlay.minKey = min(overlay.minKey, key)
                overlay.maxKey = max(overlay.maxKey, key)
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
        let source = RowSource(rows: rows)
        let count = rows.count
        // Keeps everything the unretained views point at alive until the loop ends.
        try withExtendedLifetime((entity, source, overlay)) {
            var view = RowView(entity: entity, source: source, index: 0)
            if overlay.isEmpty {
                for index in 0..<count {
                    view.index = index
                    try body(view)
                }
                return
            }
            let minKey = overlay.minKey, maxKey = overlay.maxKey
            for index in 0..<count {
                let key = rows.primaryKey(at: index)
                if key >= minKey, key <= maxKey, let pending = overlay.byKey[key] {
                    if !pending.isDeleted { try body(RowView(entity: entity, pending: pending)) }
                } else {
                    view.index = index
                    try body(view)
                }
            }
            for pending in overlay.extras { try body(RowView(entity: entity, pending: pending)) }
        }
    }
}
