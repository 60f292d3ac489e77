import Foundation

/// A context confined to the main actor (Core Data's main-queue context).
///
/// Semantics shared with `PrivateContext`:
/// - A context is a root (created with a store: reads rows from the store,
///   `save()` writes to it) or a child (created with a parent context: reads the
///   parent's view including its unsaved changes, `save()` pushes exactly one
///   level up into the parent's pending changes; the parent then `hasChanges`).
/// - A parent's later changes are not pushed down into existing children.
///   Objects already registered keep the values they read until they are
///   refetched (`fetch` turns registered objects without pending changes back
///   into faults), refreshed, or updated by `mergeChanges(fromDidSave:)`.
/// - Children read the parent's storage directly under a lock, and saving into
///   a parent never waits for the parent's queue, so the main actor may await a
///   child (or block in `performAndWait` on it) without deadlock.
/// - After the root saves, its objects get permanent IDs; descendants adopt
///   them the next time they touch such an object.
@MainActor
public final class MainContext {
    let core: ContextCore
    nonisolated let storage: ContextStorage
    /// Whether insert, update, delete and save throw `ContextError.readOnlyContext`.
    public nonisolated let isReadOnly: Bool
    /// A name for debugging.
    public nonisolated let name: String

    private init(storage: ContextStorage, readOnly: Bool, name: String) {
        self.storage = storage
        self.isReadOnly = readOnly
        self.name = name
        self.core = ContextCore(storage: storage, isReadOnly: readOnly)
        core.owner = self
    }

    /// A root context reading from and saving to `store`.
    public convenience init(store: any PersistentStore, readOnly: Bool = false, name: String = "main") {
        self.init(storage: ContextStorage(store: store, parent: nil, isReadOnly: readOnly), readOnly: readOnly, name: name)
    }

    /// A child of a private context: reads through it and saves into it.
    public convenience init(parent: PrivateContext, readOnly: Bool = false, name: String = "main") {
        self.init(storage: ContextStorage(store: parent.storage.store, parent: parent.storage, isReadOnly: readOnly),
                  readOnly: readOnly, name: name)
    }

    /// A child of another main context: reads through it and saves into it.
    public convenience init(parent: MainContext, readOnly: Bool = false, name: String = "main-child") {
        self.init(storage: ContextStorage(store: parent.storage.store, parent: parent.storage, isReadOnly: readOnly),
                  readOnly: readOnly, name: name)
    }

    // MARK: - Running code on the context

    /// Runs `body` on the main actor and returns its result.
    public func perform<T: Sendable>(_ body: @Sendable @MainActor (MainContext) throws -> T) async rethrows -> T {
        try body(self)
    }

    /// Runs `body` on the main actor, blocking the caller if it is on another thread; inline (reentrant) on the main thread.
    public nonisolated func performAndWait<T: Sendable>(_ body: @MainActor (MainContext) throws -> T) rethrows -> T {
        if Thread.isMainThread {
            return try MainActor.assumeIsolated { try body(self) }
        }
        return try DispatchQueue.main.sync {
            try MainActor.assumeIsolated { try body(self) }
        }
    }

    // MARK: - Settings and state

    /// The conflict policy used by `save()` (default `.error`); see `MergePolicy`.
    public var mergePolicy: MergePolicy {
        get { core.mergePolicy }
        set { core.mergePolicy = newValue }
    }

    /// The model of the underlying store.
    public nonisolated var model: ObjectModel { storage.model }
    /// The store of the root of this context's line; see ``PrivateContext/persistentStore``.
    public nonisolated var persistentStore: any PersistentStore { storage.store }

    /// Whether the context has unsaved changes (including ones pushed by children).
    public nonisolated var hasChanges: Bool { storage.hasChanges }
    /// Objects inserted and not yet saved.
    public var insertedObjects: Set<ManagedObject> { core.objects(withPendingKind: .inserted) }
    /// Existing objects with unsaved changes.
    public var updatedObjects: Set<ManagedObject> { core.objects(withPendingKind: .updated) }
    /// Objects deleted and not yet saved.
    public var deletedObjects: Set<ManagedObject> { core.objects(withPendingKind: .deleted) }
    /// All objects currently registered.
    public var registeredObjects: Set<ManagedObject> { core.synchronize(); return Set(core.registered.values) }

    // MARK: - Objects

    /// Inserts a new object of entity `entity` with default values and a temporary ID.
    public func insert(_ entity: String) throws -> ManagedObject { try core.insert(core.entity(named: entity)) }
    /// Inserts a new object of the entity whose class is `type`.
    public func insert<T: ManagedObject>(_ type: T.Type) throws -> T {
        try core.insert(core.entity(for: type)) as! T
    }
    /// Marks `object` deleted and nullifies the inverse side of its relationships (deleting an unsaved insert forgets it).
    public func delete(_ object: ManagedObject) throws { try core.delete(object) }
    /// The registered object for `id` or a new fault (no I/O; the record may not exist).
    public func object(with id: ObjectID) -> ManagedObject { core.object(with: id) }
    /// The object for `id`, reading its row; throws `ContextError.objectNotFound` if the record does not exist.
    public func existingObject(with id: ObjectID) throws -> ManagedObject { try core.existingObject(with: id) }
    /// The registered object for `id`, or `nil` (no I/O).
    public func registeredObject(for id: ObjectID) -> ManagedObject? { core.registeredObject(for: id) }
    /// Turns `object` into a fault; discards its changes unless `mergeChanges`.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) { core.refresh(object, mergeChanges: mergeChanges) }

    // MARK: - Fetching

    /// Objects of `entity` whose row matches `predicate` (all when `nil`), as faults.
    ///
    /// Rows reflect this context's and its ancestors' pending changes (pending
    /// inserts included, pending deletes excluded). Order: store order, then
    /// unsaved inserts by ID. Registered objects are returned as-is; those
    /// without pending changes are turned into faults so they re-read their row.
    public func fetch(_ entity: String, where predicate: ((RowView) throws -> Bool)? = nil) throws -> [ManagedObject] {
        try core.fetch(core.entity(named: entity), where: predicate)
    }
    /// Objects of the entity whose class is `type` matching `predicate`.
    public func fetch<T: ManagedObject>(_ type: T.Type, where predicate: ((RowView) throws -> Bool)? = nil) throws -> [T] {
        try core.fetch(core.entity(for: type), where: predicate).compactMap { $0 as? T }
    }
    /// The number of rows of `entity` matching `predicate`, without creating objects.
    public func count(for entity: String, where predicate: ((RowView) throws -> Bool)? = nil) throws -> Int {
        try core.count(core.entity(named: entity), where: predicate)
    }
    /// The store's own row snapshot of `entity`, or `nil` when this context or an ancestor has pending changes to it.
    ///
    /// A reader that knows the store's row type can take the store's tables as they are, without copying them row
    /// by row; when this returns `nil`, read the rows with ``enumerateRows(of:_:)``, which applies the changes.
    /// The collection is used only inside this context's queue, like a ``RowView``.
    public func storeRows(of entity: String) throws -> (any RowCollection)? {
        try core.storeRows(of: core.entity(named: entity))
    }
    /// Calls `body` for every row of `entity` as this context sees it, without creating objects.
    ///
    /// With no pending changes anywhere in the line this is a plain index loop over
    /// the store's `RowCollection`; otherwise pending rows are overlaid by primary key.
    public func enumerateRows(of entity: String, _ body: (RowView) throws -> Void) throws {
        try core.enumerateRows(of: core.entity(named: entity), body)
    }

    // MARK: - Saving

    /// Validates, then pushes the changes one level up (to the parent, or to the store for a root).
    ///
    /// Throws `ValidationError` (nothing pushed), `MergeConflictError` (policy
    /// `.error`), `ContextError` (`.readOnlyContext`, `.readOnlyStore`). After a
    /// root save, inserted objects have permanent IDs. Subscribers of
    /// `changes()` receive the change set.
    public func save() throws { try core.save() }
    /// Discards all unsaved changes; objects show their committed values again, unsaved inserts are forgotten.
    public func rollback() { core.rollback() }
    /// Discards all unsaved changes and forgets all registered objects (existing references become detached).
    public func reset() { core.reset() }
    /// Applies a change set saved by a context outside this context's line (see `ContextCore.mergeChanges`).
    ///
    /// Registered objects adopt permanent IDs and the saved values (keeping
    /// this context's own pending changes on top); deleted records are
    /// unregistered; inserted records are registered. No pending changes result.
    public func mergeChanges(fromDidSave changeSet: ChangeSet) { core.mergeChanges(fromDidSave: changeSet) }
    /// A stream of the change sets of this context's future saves (each call makes a new subscriber).
    public nonisolated func changes() -> AsyncStream<ChangeSet> { storage.subscribe() }
    /// Same as `changes()`: a new did-save subscription.
    public nonisolated var didSave: AsyncStream<ChangeSet> { storage.subscribe() }
}
