extension ContextCore {
    /// Validates and pushes all pending changes one level up (or to the store for a root).
    func save() throws {
        try checkWritable("save")
        for _ in 0..<16 {
            synchronize()
            let (revision, changes) = storage.snapshotChanges()
            if changes.isEmpty { return }
            if storage.parent == nil && storage.store.isReadOnly {
                throw ContextError(.readOnlyStore, "cannot save: the store is read-only")
            }
            try validate(changes)
            let attempt = storage.parent == nil
                ? try storage.saveToStore(expectedRevision: revision, policy: mergePolicy)
                : try storage.pushToParent(expectedRevision: revision, policy: mergePolicy)
            guard case .done(let outcome) = attempt else { continue }
            apply(outcome)
            storage.publish(outcome.changeSet)
            return
        }
        throw ContextError(.concurrentModification, "cannot save: the context kept changing during the save")
    }

    /// Updates registered objects after a successful save.
    private func apply(_ outcome: SaveOutcome) {
        for (temporary, permanent) in outcome.permanentIDs {
            if let object = registered[temporary] { rekey(object, to: permanent) }
        }
        for (id, snapshot) in outcome.committed {
            guard let object = registered[id] else { continue }
            object.pending = nil
            object.snapshot = snapshot
            object.isMissing = false
        }
        for id in outcome.removed {
            if let object = registered[id] { unregister(object, deleted: true) }
        }
        synchronize()
    }

    /// Applies a change set saved by a context outside this context's line.
    ///
    /// Registered objects adopt permanent IDs; deleted records are unregistered
    /// (their pending changes here are dropped); updated records get the saved
    /// values as their new snapshot, with this context's own pending changes kept
    /// on top; inserted records not yet registered are registered with the saved
    /// values. Nothing becomes a pending change.
    func mergeChanges(fromDidSave changeSet: ChangeSet) {
        synchronize()
        for (temporary, permanent) in changeSet.permanentIDs {
            if let object = registered[temporary] { rekey(object, to: permanent) }
        }
        storage.rekey(changeSet.permanentIDs)
        for id in changeSet.deleted {
            _ = storage.mutate(id) { $0 = nil }
            if let object = registered[id] { unregister(object, deleted: true) }
        }
        let rows = changeSet.updated.merging(changeSet.inserted) { first, _ in first }
        for (id, values) in rows {
            let snapshot = RowSnapshot(values: values, version: changeSet.versions[id] ?? 0)
            guard let object = registered[id] else {
                if changeSet.inserted[id] != nil, let entity = model.entity(named: id.entityName) {
                    let object = entity.objectClass.init(ObjectConstruction(objectID: id, entity: entity))
                    object.snapshot = snapshot
                    register(object)
                }
                continue
            }
            if let pending = object.pending, pending.kind == .updated {
                let changed = pending.changedProperties
                object.pending = storage.mutate(id) { entry in
                    var rebased = PendingChange(kind: .updated, row: values, base: snapshot)
                    for property in changed { rebased.row.copy(from: pending.row, at: property) }
                    entry = rebased.row == values ? nil : rebased
                }
            }
            object.snapshot = snapshot
            object.isMissing = false
        }
    }
}
