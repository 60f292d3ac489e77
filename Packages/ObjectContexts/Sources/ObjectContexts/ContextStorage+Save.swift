/// The result of pushing a context's changes one level up.
struct SaveOutcome {
    /// New snapshots of objects that remain (keyed by their final ID).
    var committed: [ObjectID: RowSnapshot] = [:]
    /// Objects that no longer exist (deleted here or on the other side).
    var removed: Set<ObjectID> = []
    /// Temporary -> permanent IDs (root saves).
    var permanentIDs: [ObjectID: ObjectID] = [:]
    /// What subscribers are told.
    var changeSet = ChangeSet()
}

/// Why a save attempt must be repeated.
enum SaveAttempt {
    case done(SaveOutcome)
    /// The pending changes or the store moved underneath; validate and try again.
    case retry
}

extension ContextStorage {
    /// Collects conflicts of `changes` against `theirs` (the other side's rows).
    private func findConflicts(
        _ changes: [ObjectID: PendingChange],
        theirs: (ObjectID) throws -> RowSnapshot?,
        isConflict: (PendingChange, RowSnapshot?) -> Bool
    ) rethrows -> (conflicts: Set<ObjectID>, theirs: [ObjectID: RowSnapshot?]) {
        var conflicts: Set<ObjectID> = []
        var rows: [ObjectID: RowSnapshot?] = [:]
        for (id, change) in changes where change.kind != .inserted {
            let row = try theirs(id)
            rows[id] = .some(row)
            if change.kind == .deleted && row == nil { continue }
            if isConflict(change, row) { conflicts.insert(id) }
        }
        return (conflicts, rows)
    }

    /// Pushes this (child) context's changes into the parent's pending changes, atomically.
    func pushToParent(expectedRevision: UInt64, policy: MergePolicy) throws -> SaveAttempt {
        guard let parent else { preconditionFailure("pushToParent on a root context") }
        lock.lock()
        defer { lock.unlock() }
        guard revision == expectedRevision else { return .retry }
        if parent.isReadOnly { throw ContextError(.readOnlyContext, "the parent context is read-only; a child cannot save into it") }
        parent.lock.lock()
        defer { parent.lock.unlock() }

        let mine = flattenedLocked()
        let (conflicts, theirs) = try findConflicts(mine, theirs: { try parent.viewRowLocked($0) }) { change, row in
            row?.values != change.base?.values
        }
        if !conflicts.isEmpty && policy == .error { throw MergeConflictError(objectIDs: Array(conflicts)) }

        var outcome = SaveOutcome()
        var pushed: [ObjectID] = []
        for (id, change) in mine {
            let other = theirs[id] ?? nil
            let resolution = conflicts.contains(id) ? policy.resolve(change, theirs: other) : MergePolicy.plain(change)
            let key = parent.normalizeLocked(id)
            var entry = parent.changes[key.entityName]?[key]
            switch resolution {
            case .insert(let row):
                entry = PendingChange(kind: .inserted, row: row, base: nil)
                outcome.committed[id] = RowSnapshot(values: row, version: 0)
                outcome.changeSet.inserted[id] = row
            case .update(let row):
                if entry?.kind == .inserted {
                    entry?.row = row
                } else {
                    let base = entry?.base ?? other ?? change.base
                    entry = base?.values == row ? nil : PendingChange(kind: .updated, row: row, base: base)
                }
                let version = other?.version ?? change.base?.version ?? 0
                outcome.committed[id] = RowSnapshot(values: row, version: version)
                outcome.changeSet.updated[id] = row
                outcome.changeSet.versions[id] = version
            case .delete:
                if entry?.kind == .inserted {
                    entry = nil
                } else if let base = entry?.base ?? other {
                    entry = PendingChange(kind: .deleted, row: other?.values ?? change.row, base: base)
                }
                outcome.removed.insert(id)
                outcome.changeSet.deleted.insert(id)
            case .discard(let row):
                if let row { outcome.committed[id] = row } else { outcome.removed.insert(id) }
                continue
            }
            parent.changes[key.entityName, default: [:]][key] = entry
            pushed.append(key)
        }
        parent.noteExternalChangeLocked(pushed)
        changes = [:]
        revision &+= 1
        return .done(outcome)
    }

    /// Writes this (root) context's changes to the store, atomically.
    func saveToStore(expectedRevision: UInt64, policy: MergePolicy) throws -> SaveAttempt {
        lock.lock()
        defer { lock.unlock() }
        guard revision == expectedRevision else { return .retry }
        if store.isReadOnly { throw ContextError(.readOnlyStore, "the store is read-only") }

        let mine = flattenedLocked()
        let (conflicts, theirs) = try findConflicts(mine, theirs: { try sourceRow($0) }) { change, row in
            row?.version != change.base?.version
        }
        if !conflicts.isEmpty && policy == .error { throw MergeConflictError(objectIDs: Array(conflicts)) }

        var writes = StoreChanges()
        var resolutions: [ObjectID: (Resolution, Int64)] = [:]
        for (id, change) in mine {
            let other = theirs[id] ?? nil
            let conflicting = conflicts.contains(id)
            let resolution = conflicting ? policy.resolve(change, theirs: other) : MergePolicy.plain(change)
            let expected = conflicting ? (other?.version ?? 0) : (change.base?.version ?? 0)
            resolutions[id] = (resolution, expected)
            switch resolution {
            case .insert(let row):
                writes.inserted.append(StoreWrite(objectID: id, values: row.remapped(idMap), expectedVersion: 0))
            case .update(let row):
                writes.updated.append(StoreWrite(objectID: id, values: row.remapped(idMap), expectedVersion: expected))
            case .delete:
                writes.deleted.append(StoreDeletion(objectID: id, expectedVersion: expected))
            case .discard:
                break
            }
        }
        let assigned: [ObjectID: ObjectID]
        do {
            assigned = writes.isEmpty ? [:] : try store.save(writes)
        } catch is StoreConflictError {
            return .retry
        }

        idMap.merge(assigned) { _, new in new }
        var outcome = SaveOutcome()
        outcome.permanentIDs = assigned
        outcome.changeSet.permanentIDs = assigned
        for (id, (resolution, expected)) in resolutions {
            let finalID = assigned[id] ?? id
            switch resolution {
            case .insert(let row):
                let values = row.remapped(idMap)
                outcome.committed[finalID] = RowSnapshot(values: values, version: 1)
                outcome.changeSet.inserted[finalID] = values
                outcome.changeSet.versions[finalID] = 1
            case .update(let row):
                let values = row.remapped(idMap)
                outcome.committed[finalID] = RowSnapshot(values: values, version: expected + 1)
                outcome.changeSet.updated[finalID] = values
                outcome.changeSet.versions[finalID] = expected + 1
            case .delete:
                outcome.removed.insert(finalID)
                outcome.changeSet.deleted.insert(finalID)
            case .discard(let row):
                if let row { outcome.committed[finalID] = row } else { outcome.removed.insert(finalID) }
            }
        }
        if !assigned.isEmpty { noteIDMapGrewLocked() }
        changes = [:]
        revision &+= 1
        return .done(outcome)
    }
}
