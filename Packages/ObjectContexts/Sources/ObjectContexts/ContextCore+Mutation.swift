extension ContextCore {
    /// Inserts a new object of `entity` with default values and a temporary ID.
    func insert(_ entity: EntityDescription) throws -> ManagedObject {
        try checkWritable("insert \(entity.name)")
        synchronize()
        let id = ObjectID.makeTemporary(entityName: entity.name)
        let object = entity.objectClass.init(ObjectConstruction(objectID: id, entity: entity))
        object.pending = storage.mutate(id) { $0 = PendingChange(kind: .inserted, row: RowValues(defaultsFor: entity), base: nil) }
        register(object)
        return object
    }

    /// Throws unless `object` is a live object of this context that may be changed.
    func checkMutable(_ object: ManagedObject, _ operation: String) throws {
        try checkWritable(operation)
        guard object.core === self else {
            throw ContextError(.wrongContext, "cannot \(operation): \(object.objectID) belongs to another context")
        }
        synchronize()
        if object.isDetached || object.pending?.kind == .deleted {
            throw ContextError(.objectDeleted, "cannot \(operation): \(object.objectID) is deleted")
        }
    }

    /// Changes the row of `object` through `body`, recording a pending update (or dropping it if nothing differs).
    func updateRow(_ object: ManagedObject, _ body: (inout RowValues) -> Void) {
        synchronize()
        materialize(object)
        let snapshot = object.snapshot
        object.pending = storage.mutate(object.objectID) { entry in
            var change = entry ?? PendingChange(kind: .updated, row: snapshot?.values ?? RowValues(defaultsFor: object.entity), base: snapshot)
            body(&change.row)
            if change.kind == .updated, let base = change.base, base.values == change.row {
                entry = nil
            } else {
                entry = change
            }
        }
    }

    func setAttribute(_ object: ManagedObject, at index: Int, to value: Value) throws {
        let attribute = object.entity.attributes[index]
        try checkMutable(object, "set \(object.entity.name).\(attribute.name)")
        guard value.conforms(to: attribute.type) else {
            throw ContextError(.typeMismatch, "\(object.entity.name).\(attribute.name) is \(attribute.type.rawValue), got \(value)")
        }
        if values(of: object).attributes[index] == value { return }
        updateRow(object) { $0.attributes[index] = value }
    }

    /// The index of the inverse relationship of `relationship` of `entity`, and the destination entity.
    func inverse(of relationship: RelationshipDescription) -> (EntityDescription, Int)? {
        guard let name = relationship.inverse, let destination = model.entity(named: relationship.destination),
              let index = destination.relationshipIndex(named: name) else { return nil }
        return (destination, index)
    }

    /// Sets to-one relationship `index` of `object` to `target`, keeping inverses consistent.
    func setToOne(_ object: ManagedObject, at index: Int, to target: ManagedObject?) throws {
        let relationship = object.entity.relationships[index]
        let operation = "set \(object.entity.name).\(relationship.name)"
        guard !relationship.isToMany else {
            throw ContextError(.unknownKey, "\(object.entity.name).\(relationship.name) is to-many; use add/remove")
        }
        try checkMutable(object, operation)
        if let target {
            try checkMutable(target, operation)
            guard target.entity.name == relationship.destination else {
                throw ContextError(.typeMismatch, "\(operation) expects \(relationship.destination), got \(target.entity.name)")
            }
        }
        let old = values(of: object).relationships[index]
        if old == target?.objectID { return }
        if let (destination, inverseIndex) = inverse(of: relationship), !destination.relationships[inverseIndex].isToMany {
            // One-to-one: detach the old partner and the target's previous partner.
            if let old {
                let oldObject = self.object(with: old)
                if values(of: oldObject).relationships[inverseIndex] == object.objectID, oldObject.pending?.kind != .deleted {
                    updateRow(oldObject) { $0.relationships[inverseIndex] = nil }
                }
            }
            if let target {
                if let previous = values(of: target).relationships[inverseIndex], previous != object.objectID {
                    let previousObject = self.object(with: previous)
                    if previousObject.pending?.kind != .deleted {
                        updateRow(previousObject) { $0.relationships[index] = nil }
                    }
                }
                updateRow(target) { $0.relationships[inverseIndex] = object.objectID }
            }
        }
        let newTarget = target?.objectID
        updateRow(object) { $0.relationships[index] = newTarget }
    }

    /// The objects of to-many relationship `index` of `object` (derived from the inverse foreign keys).
    func toMany(_ object: ManagedObject, at index: Int) throws -> [ManagedObject] {
        let relationship = object.entity.relationships[index]
        guard relationship.isToMany, let (destination, inverseIndex) = inverse(of: relationship) else {
            throw ContextError(.unknownKey, "\(object.entity.name).\(relationship.name) is not a to-many relationship")
        }
        synchronize()
        return try relatedIDs(of: destination, via: inverseIndex, target: object.objectID).map { self.object(with: $0) }
    }

    /// IDs of `destination` rows whose to-one `relationship` points at `target`, in this context's view.
    func relatedIDs(of destination: EntityDescription, via relationship: Int, target: ObjectID) throws -> [ObjectID] {
        let (overlay, related) = storage.relatedInOverlay(destination.name, relationship: relationship)
        var result: [ObjectID] = []
        if let key = target.primaryKey {
            for related in try storage.store.primaryKeys(of: destination.name, relationship: relationship, referencing: key) {
                let id = ObjectID(entityName: destination.name, primaryKey: related)
                if !overlay.changedIDs.contains(id) { result.append(id) }
            }
        }
        result += related[target] ?? []
        return result.sorted()
    }

    func addToMany(_ object: ManagedObject, at index: Int, _ member: ManagedObject) throws {
        let relationship = object.entity.relationships[index]
        guard relationship.isToMany, let (_, inverseIndex) = inverse(of: relationship) else {
            throw ContextError(.unknownKey, "\(object.entity.name).\(relationship.name) is not a to-many relationship")
        }
        try checkMutable(object, "add to \(object.entity.name).\(relationship.name)")
        try setToOne(member, at: inverseIndex, to: object)
    }

    func removeFromMany(_ object: ManagedObject, at index: Int, _ member: ManagedObject) throws {
        let relationship = object.entity.relationships[index]
        guard relationship.isToMany, let (_, inverseIndex) = inverse(of: relationship) else {
            throw ContextError(.unknownKey, "\(object.entity.name).\(relationship.name) is not a to-many relationship")
        }
        try checkMutable(object, "remove from \(object.entity.name).\(relationship.name)")
        if values(of: member).relationships[inverseIndex] == object.objectID {
            try setToOne(member, at: inverseIndex, to: nil)
        }
    }

    /// Deletes `object`, nullifying the inverse side of its relationships.
    func delete(_ object: ManagedObject) throws {
        try checkMutable(object, "delete \(object.objectID)")
        for (index, relationship) in object.entity.relationships.enumerated() {
            guard let (destination, inverseIndex) = inverse(of: relationship) else { continue }
            if relationship.isToMany {
                for member in try toMany(object, at: index) where member.pending?.kind != .deleted {
                    updateRow(member) { $0.relationships[inverseIndex] = nil }
                }
            } else if !destination.relationships[inverseIndex].isToMany, let partner = values(of: object).relationships[index] {
                let partnerObject = self.object(with: partner)
                if partnerObject.pending?.kind != .deleted,
                   values(of: partnerObject).relationships[inverseIndex] == object.objectID {
                    updateRow(partnerObject) { $0.relationships[inverseIndex] = nil }
                }
            }
        }
        materialize(object)
        let snapshot = object.snapshot
        let current = values(of: object)
        var wasInserted = false
        object.pending = storage.mutate(object.objectID) { entry in
            if entry?.kind == .inserted {
                wasInserted = true
                entry = nil
            } else {
                entry = PendingChange(kind: .deleted, row: current, base: entry?.base ?? snapshot)
            }
        }
        if wasInserted { unregister(object, deleted: true) }
    }
}
