/// A misuse of a context or object, with a stable code and a readable message.
public struct ContextError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Stable error codes (raw values never change).
    public enum Code: String, Sendable, Hashable {
        /// A mutation (insert, update, delete, save) on a read-only context.
        case readOnlyContext = "read_only_context"
        /// A root context tried to save changes into a read-only store.
        case readOnlyStore = "read_only_store"
        /// `existingObject(with:)` found no such record.
        case objectNotFound = "object_not_found"
        /// An entity name that is not in the model.
        case unknownEntity = "unknown_entity"
        /// A key that is not an attribute/relationship of the entity (or has the wrong kind).
        case unknownKey = "unknown_key"
        /// A value whose type does not match the attribute type.
        case typeMismatch = "type_mismatch"
        /// Objects of different contexts were related, or an object was used in a context that does not own it.
        case wrongContext = "wrong_context"
        /// A mutation of an object that is deleted or no longer registered.
        case objectDeleted = "object_deleted"
        /// The save could not complete because the context kept changing underneath it.
        case concurrentModification = "concurrent_modification"
    }

    /// The machine-readable code.
    public let code: Code
    /// A human-readable explanation.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }
}

/// A save found records changed on the other side since this context read them
/// and the merge policy is `.error`. Nothing was saved.
public struct MergeConflictError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The conflicting records, sorted.
    public let objectIDs: [ObjectID]

    /// Creates the error.
    public init(objectIDs: [ObjectID]) { self.objectIDs = objectIDs.sorted() }

    /// A message listing the conflicting records.
    public var description: String { "merge conflict on \(objectIDs.map(\.description).joined(separator: ", "))" }
}

/// Thrown by `PersistentStore.save(_:)` when rows are missing or have another version; nothing was written.
public struct StoreConflictError: Error, Sendable, Hashable {
    /// The rows whose version did not match (or that no longer exist).
    public let objectIDs: [ObjectID]

    /// Creates the error.
    public init(objectIDs: [ObjectID]) { self.objectIDs = objectIDs.sorted() }
}
