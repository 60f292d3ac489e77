/// The token a context passes to `ManagedObject.init(_:)`; only contexts can make one.
public struct ObjectConstruction {
    let objectID: ObjectID
    let entity: EntityDescription
}

/// One record living in one context (confined to that context's queue/actor).
///
/// Subclass it per entity (`final class Client: ManagedObject {}`) and add typed
/// accessors on top of `value(forKey:)` / `setValue(_:forKey:)`; contexts
/// instantiate `EntityDescription.objectClass`, so a subclass must not declare
/// its own designated initializers (it inherits `init(_:)`). Objects start as
/// faults and read their row on first access. Reads never throw; writes throw
/// `ContextError` (read-only context, deleted object, wrong type...).
open class ManagedObject {
    /// The record's ID (temporary until the root context saves it).
    public internal(set) var objectID: ObjectID
    /// The object's entity.
    public let entity: EntityDescription

    weak var core: ContextCore?
    /// The values read from the parent/store (`nil` while a fault).
    var snapshot: RowSnapshot?
    /// Cached copy of this object's pending entry in the context storage.
    var pending: PendingChange?
    /// The row was not found when the fault fired.
    var isMissing = false
    /// The object was unregistered (deleted and saved, rolled back insert, or context reset).
    var isDetached = false
    private var detachedAsDeleted = false

    /// Created by contexts only; subclasses inherit it.
    public required init(_ construction: ObjectConstruction) {
        objectID = construction.objectID
        entity = construction.entity
    }

    func detach(deleted: Bool) {
        isDetached = true
        detachedAsDeleted = deleted
        core = nil
    }

    /// The owning `MainContext` or `PrivateContext` (`nil` once detached); cast it with `as?`.
    public var managedObjectContext: AnyObject? { core?.owner }

    private var currentValues: RowValues {
        if let core { return core.values(of: self) }
        return pending?.row ?? snapshot?.values ?? RowValues(defaultsFor: entity)
    }

    // MARK: - State

    /// Whether the row has not been read yet.
    public var isFault: Bool {
        core?.synchronize()
        return !isDetached && pending == nil && snapshot == nil
    }

    /// Whether the object was inserted in this context and not saved yet.
    public var isInserted: Bool {
        core?.synchronize()
        return pending?.kind == .inserted
    }

    /// Whether the object has unsaved changes to an existing record.
    public var isUpdated: Bool {
        core?.synchronize()
        return pending?.kind == .updated
    }

    /// Whether the object is deleted (pending, or saved and therefore unregistered).
    public var isDeleted: Bool {
        core?.synchronize()
        return pending?.kind == .deleted || detachedAsDeleted
    }

    /// Whether the object has any unsaved change in its context.
    public var hasChanges: Bool {
        core?.synchronize()
        return pending != nil
    }

    /// Attributes changed since the object was read (all non-default ones for inserts), by name.
    public func changedValues() -> [String: Value] {
        core?.synchronize()
        guard let pending else { return [:] }
        var result: [String: Value] = [:]
        for (index, attribute) in entity.attributes.enumerated() {
            let value = pending.row.attributes[index]
            if let base = pending.base {
                if base.values.attributes[index] != value { result[attribute.name] = value }
            } else if value != attribute.defaultValue {
                result[attribute.name] = value
            }
        }
        return result
    }

    // MARK: - Attributes

    /// The value of attribute `key` (traps on keys that are not attributes, like Core Data).
    public func value(forKey key: String) -> Value {
        guard let index = entity.attributeIndex(named: key) else {
            preconditionFailure("\(entity.name) has no attribute \(key)")
        }
        return currentValues.attributes[index]
    }

    /// The value of attribute number `index` (fast path).
    public func value(at index: Int) -> Value {
        currentValues.attributes[index]
    }

    /// Sets attribute `key`; throws for unknown keys, type mismatches, read-only contexts and deleted objects.
    public func setValue(_ value: Value, forKey key: String) throws {
        guard let index = entity.attributeIndex(named: key) else {
            throw ContextError(.unknownKey, "\(entity.name) has no attribute \(key)")
        }
        try setValue(value, at: index)
    }

    /// Sets attribute number `index` (fast path).
    public func setValue(_ value: Value, at index: Int) throws {
        guard let core else { throw ContextError(.objectDeleted, "\(objectID) is not registered in a context") }
        try core.setAttribute(self, at: index, to: value)
    }

    // MARK: - Relationships

    private func relationshipIndex(_ key: String) throws -> Int {
        guard let index = entity.relationshipIndex(named: key) else {
            throw ContextError(.unknownKey, "\(entity.name) has no relationship \(key)")
        }
        return index
    }

    /// The target ID of to-one relationship `key` without firing the target's fault (`nil` if none or unknown key).
    public func objectID(forKey key: String) -> ObjectID? {
        guard let index = entity.relationshipIndex(named: key) else { return nil }
        return currentValues.relationships[index]
    }

    /// The target of to-one relationship `key` (a fault until accessed), or `nil`.
    public func object(forKey key: String) -> ManagedObject? {
        guard let core, let id = objectID(forKey: key) else { return nil }
        return core.object(with: id)
    }

    /// Sets to-one relationship `key`; the inverse side is updated automatically.
    public func setObject(_ target: ManagedObject?, forKey key: String) throws {
        let index = try relationshipIndex(key)
        guard let core else { throw ContextError(.objectDeleted, "\(objectID) is not registered in a context") }
        try core.setToOne(self, at: index, to: target)
    }

    /// The objects of to-many relationship `key`, sorted by ID (empty for unknown keys or detached objects).
    public func objects(forKey key: String) -> [ManagedObject] {
        guard let core, let index = entity.relationshipIndex(named: key) else { return [] }
        return (try? core.toMany(self, at: index)) ?? []
    }

    /// Adds `member` to to-many relationship `key` (sets the member's to-one inverse).
    public func addObject(_ member: ManagedObject, forKey key: String) throws {
        let index = try relationshipIndex(key)
        guard let core else { throw ContextError(.objectDeleted, "\(objectID) is not registered in a context") }
        try core.addToMany(self, at: index, member)
    }

    /// Removes `member` from to-many relationship `key` (clears the member's to-one inverse).
    public func removeObject(_ member: ManagedObject, forKey key: String) throws {
        let index = try relationshipIndex(key)
        guard let core else { throw ContextError(.objectDeleted, "\(objectID) is not registered in a context") }
        try core.removeFromMany(self, at: index, member)
    }

    // MARK: - Validation

    /// Domain validation run at every save of this object (inserted or updated); override to add rules.
    open func validateForSave() -> [ValidationFailure] { [] }

    /// Convenience for `validateForSave()`: a failure of this object for `field`.
    public func validationFailure(_ field: String?, _ message: String, code: ValidationFailure.Code = .invalidValue) -> ValidationFailure {
        ValidationFailure(objectID: objectID, field: field, code: code, message: message)
    }
}

/// Objects are compared and hashed by identity.
extension ManagedObject: Hashable {
    /// Identity comparison.
    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }
    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// Objects are confined to their context; pass `objectID`s between contexts instead.
@available(*, unavailable)
extension ManagedObject: Sendable {}
