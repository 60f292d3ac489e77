/// A context confined to its own serial queue (Core Data's private-queue context).
///
/// Use it through `perform` (async) or `performAndWait` (synchronous,
/// reentrant); the closure receives the isolated context, so its methods are
/// called synchronously inside. Objects never leave the closure; pass
/// `ObjectID`s instead. See `MainContext` for the shared semantics of the
/// methods (both context kinds behave identically).
public actor PrivateContext {
    private let executor: SerialQueueExecutor
    let core: ContextCore
    nonisolated let storage: ContextStorage
    /// Whether insert, update, delete and save throw `ContextError.readOnlyContext`.
    public nonisolated let isReadOnly: Bool
    /// A name for debugging (also the queue label).
    public nonisolated let name: String

    /// The executor running this actor's jobs on the private queue.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private init(storage: ContextStorage, readOnly: Bool, name: String) {
        let core = ContextCore(storage: storage, isReadOnly: readOnly)
        self.executor = SerialQueueExecutor(label: "ObjectContexts.\(name)")
        self.storage = storage
        self.isReadOnly = readOnly
        self.name = name
        self.core = core
        core.owner = self
    }

    /// A root context reading from and saving to `store`.
    public init(store: any PersistentStore, readOnly: Bool = false, name: String = "private") {
        self.init(storage: ContextStorage(store: store, parent: nil, isReadOnly: readOnly), readOnly: readOnly, name: name)
    }

    /// A child of a private context: reads through it and saves into it.
    public init(parent: PrivateContext, readOnly: Bool = false, name: String = "private-child") {
        self.init(storage: ContextStorage(store: parent.storage.store, parent: parent.storage, isReadOnly: readOnly),
                  readOnly: readOnly, name: name)
    }

    /// A child of the main context: reads through it and saves into it.
    public init(parent: MainContext, readOnly: Bool = false, name: String = "private-child") {
        self.init(storage: ContextStorage(store: parent.storage.store, parent: parent.storage, isReadOnly: readOnly),
                  readOnly: readOnly, name: name)
    }

    // MARK: - Running code on the context

    /// Runs `body` on the context's queue and returns its result.
    public func perform<T: Sendable>(_ body: @Sendable (isolated PrivateContext) throws -> T) async rethrows -> T {
        try body(self)
    }

    /// Runs `body` on the context's queue, blocking the caller; runs inline when already on the queue (reentrant).
    ///
    /// Do not call it from code that the context's queue itself waits for (e.g. from a parent while this context blocks on it).
    public nonisolated func performAndWait<T: Sendable>(_ body: (isolated PrivateContext) throws -> T) rethrows -> T {
        try executor.runSynchronously {
            try self.assumeIsolated(body)
        }
    }

    // MARK: - Settings and state

    /// The conflict policy used by `save()` (default `.error`).
    public var mergePolicy: MergePolicy {
        get { core.mergePolicy }
        set { core.mergePolicy = newValue }
    }

    /// The model of the underlying store.
    public nonisolated var model: ObjectModel { storage.model }
    /// The store of the root of this context's line (Core Data's `persistentStoreCoordinator`), for readers that
    /// know the store's kind (the schema version its rows follow, say).
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

    /// Inserts a new object of entity `entity`.
    public func insert(_ entity: String) throws -> ManagedObject { try core.insert(core.entity(named: entity)) }
    /// Inserts a new object of the entity whose class is `type`.
    public func insert<T: ManagedObject>(_ type: T.Type) throws -> T {
        try core.insert(core.entity(for: type)) as! T
    }
    /// Marks `object` deleted and nullifies inverse relationships.
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

    /// Objects of `entity` whose row matches `predicate` (all when `nil`); see `MainContext.fetch(_:where:)`.
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
    public func enumerateRows(of entity: String, _ body: (RowView) throws -> Void) throws {
        try core.enumerateRows(of: core.entity(named: entity), body)
    }

    // MARK: - Saving

    /// Validates and pushes the changes one level up (to the parent, or to the store for a root).
    public func save() throws { try core.save() }
    /// Discards all unsaved changes.
    public func rollback() { core.rollback() }
    /// Discards all unsaved changes and forgets all registered objects.
    public func reset() { core.reset() }
    /// Applies a change set saved by a context outside this context's line.
    public func mergeChanges(fromDidSave changeSet: ChangeSet) { core.mergeChanges(fromDidSave: changeSet) }
    /// A stream of the change sets of this context's future saves (each call makes a new subscriber).
    public nonisolated func changes() -> AsyncStream<ChangeSet> { storage.subscribe() }
    /// Same as `changes()`: a new did-save subscription.
    public nonisolated var didSave: AsyncStream<ChangeSet> { storage.subscribe() }
}
