/// The queue-confined half of a context: registered objects and all operations.
///
/// `MainContext` and `PrivateContext` own one core each and forward to it from
/// their isolation domain; objects keep a weak reference back to it.
final class ContextCore {
    let storage: ContextStorage
    let isReadOnly: Bool
    var mergePolicy: MergePolicy = .error
    /// The public context object (`MainContext` or `PrivateContext`).
    weak var owner: AnyObject?

    private(set) var registered: [ObjectID: ManagedObject] = [:]
    /// Registered objects that still have temporary IDs (candidates for adopting permanent IDs).
    private var temporaryIDs: Set<ObjectID> = []
    private var seenGeneration: UInt64 = 0
    private var seenMapGeneration: UInt64 = 0

    init(storage: ContextStorage, isReadOnly: Bool) {
        self.storage = storage
        self.isReadOnly = isReadOnly
    }

    var model: ObjectModel { storage.model }

    func entity(named name: String) throws -> EntityDescription {
        guard let entity = model.entity(named: name) else {
            throw ContextError(.unknownEntity, "the model has no entity named \(name)")
        }
        return entity
    }

    func entity(for type: ManagedObject.Type) throws -> EntityDescription {
        guard let entity = model.entity(for: type) else {
            throw ContextError(.unknownEntity, "no entity uses class \(type)")
        }
        return entity
    }

    func checkWritable(_ operation: String) throws {
        if isReadOnly { throw ContextError(.readOnlyContext, "cannot \(operation): the context is read-only") }
    }

    // MARK: - Registration

    func register(_ object: ManagedObject) {
        object.core = self
        registered[object.objectID] = object
        if object.objectID.isTemporary { temporaryIDs.insert(object.objectID) }
    }

    func unregister(_ object: ManagedObject, deleted: Bool) {
        registered.removeValue(forKey: object.objectID)
        temporaryIDs.remove(object.objectID)
        object.detach(deleted: deleted)
    }

    /// Moves a registered object to a new (permanent) ID.
    func rekey(_ object: ManagedObject, to id: ObjectID) {
        registered.removeValue(forKey: object.objectID)
        temporaryIDs.remove(object.objectID)
        object.objectID = id
        registered[id] = object
    }

    /// The registered object for `id`, or a new fault (no I/O).
    func object(with id: ObjectID) -> ManagedObject {
        synchronize()
        if let object = registered[id] { return object }
        if id.isTemporary, let permanent = storage.permanentIDs(for: [id])[id], let object = registered[permanent] {
            return object
        }
        guard let entity = model.entity(named: id.entityName) else {
            preconditionFailure("object(with:): the model has no entity named \(id.entityName)")
        }
        let object = entity.objectClass.init(ObjectConstruction(objectID: id, entity: entity))
        object.pending = storage.withLock { storage.changes[id.entityName]?[id] }
        object.snapshot = object.pending?.base
        register(object)
        return object
    }

    // MARK: - Keeping objects in step with the storage

    /// Applies changes children pushed into this context and adopts permanent IDs.
    func synchronize() {
        if storage.generation != seenGeneration {
            seenGeneration = storage.generation
            for (id, entry) in storage.drainTouched() {
                guard let object = registered[id] else { continue }
                if let entry {
                    object.pending = entry
                    if let base = entry.base { object.snapshot = base }
                } else if object.pending?.kind == .inserted {
                    unregister(object, deleted: true)
                } else {
                    object.pending = nil
                }
            }
        }
        let mapGeneration = storage.mapGeneration
        if mapGeneration != seenMapGeneration {
            seenMapGeneration = mapGeneration
            adoptPermanentIDs()
        }
    }

    /// Re-keys objects and pending entries whose temporary IDs the root saved meanwhile.
    private func adoptPermanentIDs() {
        let pendingTemporary = storage.withLock {
            storage.changes.values.flatMap { $0.keys.filter(\.isTemporary) }
        }
        let candidates = temporaryIDs.union(pendingTemporary)
        guard !candidates.isEmpty else { return }
        let map = storage.permanentIDs(for: candidates)
        guard !map.isEmpty else { return }
        storage.rekey(map)
        for (temporary, permanent) in map {
            if let object = registered[temporary] { rekey(object, to: permanent) }
        }
        for object in registered.values {
            if let snapshot = object.snapshot {
                object.snapshot = RowSnapshot(values: snapshot.values.remapped(map), version: snapshot.version)
            }
        }
        for object in registered.values where object.pending != nil {
            object.pending = storage.withLock { storage.changes[object.objectID.entityName]?[object.objectID] }
        }
    }

    /// Fires the fault of `object` if needed (reads the row from the parent or store).
    func materialize(_ object: ManagedObject) {
        guard object.pending == nil, object.snapshot == nil else { return }
        let row = (try? storage.sourceRow(object.objectID)) ?? nil
        object.snapshot = row ?? RowSnapshot(values: RowValues(defaultsFor: object.entity), version: 0)
        object.isMissing = row == nil
    }

    /// The current values of `object` in this context.
    func values(of object: ManagedObject) -> RowValues {
        synchronize()
        if let pending = object.pending { return pending.row }
        materialize(object)
        return object.snapshot?.values ?? RowValues(defaultsFor: object.entity)
    }

    // MARK: - Change tracking

    var hasChanges: Bool { storage.hasChanges }

    func objects(withPendingKind kind: PendingChange.Kind) -> Set<ManagedObject> {
        synchronize()
        let changes = storage.snapshotChanges().changes
        return Set(changes.filter { $0.value.kind == kind }.keys.map { object(with: $0) })
    }

    /// Discards all pending changes; objects show their committed values again.
    func rollback() {
        synchronize()
        let discarded = storage.removeAllChanges()
        for (id, change) in discarded {
            guard let object = registered[id] else { continue }
            if change.kind == .inserted {
                unregister(object, deleted: true)
            } else {
                object.pending = nil
                if let base = change.base { object.snapshot = base }
            }
        }
        for object in registered.values { object.pending = nil }
    }

    /// Discards all pending changes and forgets every registered object.
    func reset() {
        rollback()
        for object in registered.values { object.detach(deleted: false) }
        registered = [:]
        temporaryIDs = []
    }

    /// Turns `object` back into a fault; with `mergeChanges == false` its pending changes are discarded first.
    func refresh(_ object: ManagedObject, mergeChanges: Bool) {
        synchronize()
        guard object.core === self else { return }
        if !mergeChanges, let pending = object.pending {
            if pending.kind == .inserted { return }
            _ = storage.mutate(object.objectID) { $0 = nil }
            object.pending = nil
        }
        if object.pending == nil {
            object.snapshot = nil
            object.isMissing = false
        }
    }
}
