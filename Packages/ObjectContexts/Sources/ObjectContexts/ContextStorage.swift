import Foundation
import Synchronization

/// The lock-protected row state of one context: its pending (unsaved) changes.
///
/// This is the part of a context that other threads may touch: child contexts
/// read it (their parent's unsaved state) and push their saves into it, while
/// the owning context's `ManagedObject`s stay confined to the owner's queue and
/// merely cache the entries kept here. Locks are always taken child before
/// parent (descendant before ancestor, store last), so nested locking cannot
/// deadlock.
final class ContextStorage: @unchecked Sendable {
    // Safe: every `var` below is only accessed while holding `lock`; the
    // counters are atomics; everything else is immutable.
    let model: ObjectModel
    let store: any PersistentStore
    let parent: ContextStorage?
    let isReadOnly: Bool
    let lock = NSLock()

    /// Bumped whenever someone other than the owner changes `changes` (a child's save).
    private let externalGeneration = Atomic<UInt64>(0)
    /// Bumped whenever `idMap` grows (root only).
    private let idMapGeneration = Atomic<UInt64>(0)
    /// The root's storage (`nil` when this is the root).
    private let rootReference: ContextStorage?

    /// Pending changes by entity name, then object ID.
    var changes: [String: [ObjectID: PendingChange]] = [:]
    /// Bumped on every change of `changes` (owner or not); lets a save detect concurrent edits.
    var revision: UInt64 = 0
    /// IDs whose entries a child changed since the owner last synchronized.
    var touched: Set<ObjectID> = []
    /// Temporary -> permanent IDs assigned by the store (root only).
    var idMap: [ObjectID: ObjectID] = [:]
    /// The merged overlays of pending changes by entity (``overlay(for:)``), each with the revisions of this layer and
    /// its ancestors and the ID map's generation it was made from, and the reverse indexes of its to-one
    /// relationships (``relatedInOverlay(_:relationship:)``): reused until any of those moves, so a save that
    /// validates 10,000 invoices merges the pending tax lines once, not once per invoice.
    var overlayCache: [String: OverlayCacheEntry] = [:]
    private var subscribers: [Int: AsyncStream<ChangeSet>.Continuation] = [:]
    private var nextSubscriber = 0

    init(store: any PersistentStore, parent: ContextStorage?, isReadOnly: Bool) {
        self.model = store.model
        self.store = store
        self.parent = parent
        self.isReadOnly = isReadOnly
        self.rootReference = parent?.rootStorage
    }

    /// The storage of the context that talks to the store (`self` for a root).
    var rootStorage: ContextStorage { rootReference ?? self }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    var generation: UInt64 { externalGeneration.load(ordering: .acquiring) }
    var mapGeneration: UInt64 { rootStorage.idMapGeneration.load(ordering: .acquiring) }

    func noteExternalChangeLocked(_ ids: some Sequence<ObjectID>) {
        touched.formUnion(ids)
        revision &+= 1
        externalGeneration.add(1, ordering: .releasing)
    }

    func noteIDMapGrewLocked() {
        idMapGeneration.add(1, ordering: .releasing)
    }

    // MARK: - Own pending changes

    var hasChanges: Bool { withLock { changes.values.contains { !$0.isEmpty } } }

    /// All pending changes, flattened, with the revision they belong to.
    func snapshotChanges() -> (revision: UInt64, changes: [ObjectID: PendingChange]) {
        withLock { (revision, flattenedLocked()) }
    }

    func flattenedLocked() -> [ObjectID: PendingChange] {
        var all: [ObjectID: PendingChange] = [:]
        for entries in changes.values { all.merge(entries) { first, _ in first } }
        return all
    }

    /// Reads and changes one pending entry atomically; returns the new entry.
    func mutate(_ id: ObjectID, _ body: (inout PendingChange?) throws -> Void) rethrows -> PendingChange? {
        try withLock {
            var entry = changes[id.entityName]?[id]
            try body(&entry)
            changes[id.entityName, default: [:]][id] = entry
            revision &+= 1
            return entry
        }
    }

    /// Removes and returns all pending changes.
    func removeAllChanges() -> [ObjectID: PendingChange] {
        withLock {
            let all = flattenedLocked()
            changes = [:]
            touched = []
            revision &+= 1
            return all
        }
    }

    /// Pending entries a child changed since the last call (`nil` value: entry removed).
    func drainTouched() -> [ObjectID: PendingChange?] {
        withLock {
            var result: [ObjectID: PendingChange?] = [:]
            for id in touched { result[id] = .some(changes[id.entityName]?[id]) }
            touched = []
            return result
        }
    }

    /// Re-keys pending entries (and relationship targets inside them) from temporary to permanent IDs.
    func rekey(_ map: [ObjectID: ObjectID]) {
        guard !map.isEmpty else { return }
        withLock {
            for (entity, entries) in changes {
                var updated: [ObjectID: PendingChange] = [:]
                for (id, var change) in entries {
                    change.row = change.row.remapped(map)
                    if let base = change.base { change.base = RowSnapshot(values: base.values.remapped(map), version: base.version) }
                    updated[map[id] ?? id] = change
                }
                changes[entity] = updated
            }
        }
    }

    // MARK: - Reading rows

    /// The permanent IDs the store assigned to `ids` (only those that have one).
    func permanentIDs(for ids: some Sequence<ObjectID>) -> [ObjectID: ObjectID] {
        rootStorage.withLock {
            var result: [ObjectID: ObjectID] = [:]
            for id in ids { if let permanent = rootStorage.idMap[id] { result[id] = permanent } }
            return result
        }
    }

    /// Canonical key for `id` in this layer while holding `lock`; moves an entry stored under the temporary ID.
    func normalizeLocked(_ id: ObjectID) -> ObjectID {
        guard id.isTemporary else { return id }
        let permanent = parent == nil ? idMap[id] : rootStorage.withLock { rootStorage.idMap[id] }
        guard let permanent else { return id }
        if let entry = changes[id.entityName]?.removeValue(forKey: id), changes[id.entityName]?[permanent] == nil {
            changes[id.entityName, default: [:]][permanent] = entry
        }
        return permanent
    }

    /// The row as this context's children see it: pending changes over the parent's view.
    func viewRow(_ id: ObjectID) throws -> RowSnapshot? {
        lock.lock()
        let local = viewLocalLocked(id)
        lock.unlock()
        switch local {
        case .answered(let row): return row
        case .ask(let next): return try sourceRow(next)
        }
    }

    /// Like `viewRow` while the caller already holds `lock`.
    func viewRowLocked(_ id: ObjectID) throws -> RowSnapshot? {
        switch viewLocalLocked(id) {
        case .answered(let row): return row
        case .ask(let next): return try sourceRow(next)
        }
    }

    private enum LocalAnswer { case answered(RowSnapshot?), ask(ObjectID) }

    private func viewLocalLocked(_ id: ObjectID) -> LocalAnswer {
        let key = normalizeLocked(id)
        if let change = changes[key.entityName]?[key] {
            return .answered(change.kind == .deleted ? nil : change.snapshot)
        }
        return .ask(key)
    }

    /// The row as this context reads it from its source (the parent's view, or the store for a root).
    func sourceRow(_ id: ObjectID) throws -> RowSnapshot? {
        if let parent { return try parent.viewRow(id) }
        guard !id.isTemporary, let stored = try store.row(for: id) else { return nil }
        return convert(stored, entityName: id.entityName)
    }

    /// Converts a store row (foreign keys) into row values (object IDs).
    func convert(_ stored: StoredRow, entityName: String) -> RowSnapshot {
        guard let entity = model.entity(named: entityName) else {
            return RowSnapshot(values: RowValues(attributes: stored.attributes, relationships: []), version: stored.version)
        }
        var targets: [ObjectID?] = []
        targets.reserveCapacity(entity.relationships.count)
        for (index, relationship) in entity.relationships.enumerated() {
            if !relationship.isToMany, index < stored.relationships.count, let key = stored.relationships[index] {
                targets.append(ObjectID(entityName: relationship.destination, primaryKey: key))
            } else {
                targets.append(nil)
            }
        }
        return RowSnapshot(values: RowValues(attributes: stored.attributes, relationships: targets), version: stored.version)
    }

    // MARK: - Did-save subscribers

    /// A new stream that receives every change set this context saves from now on.
    func subscribe() -> AsyncStream<ChangeSet> {
        let (stream, continuation) = AsyncStream<ChangeSet>.makeStream(bufferingPolicy: .unbounded)
        let key = withLock {
            nextSubscriber += 1
            subscribers[nextSubscriber] = continuation
            return nextSubscriber
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.withLock { self.subscribers.removeValue(forKey: key) }
        }
        return stream
    }

    /// Sends `changeSet` to all subscribers.
    func publish(_ changeSet: ChangeSet) {
        let targets = withLock { Array(subscribers.values) }
        for continuation in targets { continuation.yield(changeSet) }
    }

    deinit {
        for continuation in subscribers.values { continuation.finish() }
    }
}
