extension ContextCore {
    /// Enumerates the rows of `entity` as this context sees them (its own and its ancestors' pending changes over the store).
    func enumerateRows(of entity: EntityDescription, _ body: (RowView) throws -> Void) throws {
        synchronize()
        try storage.scanRows(of: entity, overlay: storage.overlay(for: entity.name), body)
    }

    /// The store's own snapshot of `entity`, when no context of this line has pending changes to it.
    func storeRows(of entity: EntityDescription) throws -> (any RowCollection)? {
        synchronize()
        guard storage.overlay(for: entity.name).isEmpty else { return nil }
        return try storage.store.rows(of: entity.name)
    }

    /// Objects of `entity` whose row matches `predicate`, as faults (registered objects are reused).
    ///
    /// Registered objects without pending changes are refreshed (turned back into
    /// faults), so a fetch shows rows saved by others since the object was read.
    func fetch(_ entity: EntityDescription, where predicate: ((RowView) throws -> Bool)?) throws -> [ManagedObject] {
        var ids: [ObjectID] = []
        try enumerateRows(of: entity) { row in
            if try predicate?(row) ?? true { ids.append(row.objectID) }
        }
        return ids.map { id in
            let object = object(with: id)
            if object.pending == nil, object.snapshot != nil {
                object.snapshot = nil
                object.isMissing = false
            }
            return object
        }
    }

    /// The number of rows of `entity` matching `predicate` (no objects are created).
    func count(_ entity: EntityDescription, where predicate: ((RowView) throws -> Bool)?) throws -> Int {
        synchronize()
        let overlay = storage.overlay(for: entity.name)
        if predicate == nil, overlay.isEmpty { return try storage.store.rows(of: entity.name).count }
        var count = 0
        try storage.scanRows(of: entity, overlay: overlay) { row in
            if try predicate?(row) ?? true { count += 1 }
        }
        return count
    }

    /// The registered object for `id` if it exists, else a materialized object; throws if there is no such record.
    func existingObject(with id: ObjectID) throws -> ManagedObject {
        synchronize()
        if let object = registered[id], !object.isDetached {
            if object.pending != nil { return object }
            materialize(object)
            if !object.isMissing { return object }
            throw ContextError(.objectNotFound, "no record \(id)")
        }
        let entry = storage.withLock { storage.changes[id.entityName]?[id] }
        if entry == nil {
            guard try storage.sourceRow(id) != nil else {
                throw ContextError(.objectNotFound, "no record \(id)")
            }
        } else if entry?.kind == .deleted {
            throw ContextError(.objectNotFound, "record \(id) is deleted in this context")
        }
        let object = object(with: id)
        materialize(object)
        return object
    }

    /// The registered object for `id`, or `nil` (no I/O).
    func registeredObject(for id: ObjectID) -> ManagedObject? {
        synchronize()
        return registered[id]
    }
}
