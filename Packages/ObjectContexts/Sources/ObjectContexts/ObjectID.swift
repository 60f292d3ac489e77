import Foundation

/// The identity of one record: its entity name plus either a temporary number
/// (objects inserted but not yet saved to the store) or the store's primary key.
///
/// Temporary IDs are unique within the process. When the root context saves,
/// the store assigns permanent IDs; the root context re-keys its objects, and
/// descendant contexts adopt the permanent IDs the next time they touch them.
public struct ObjectID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The name of the entity this record belongs to.
    public let entityName: String
    /// The primary key (permanent) or the temporary serial number.
    let raw: Int64
    /// Whether this ID was handed out for an inserted object not yet saved to the store.
    public let isTemporary: Bool

    /// Creates a permanent ID for the row with `primaryKey` of `entityName`.
    public init(entityName: String, primaryKey: Int64) {
        self.entityName = entityName
        self.raw = primaryKey
        self.isTemporary = false
    }

    private init(temporaryFor entityName: String, serial: Int64) {
        self.entityName = entityName
        self.raw = serial
        self.isTemporary = true
    }

    /// Makes a new, process-unique temporary ID for `entityName`.
    static func makeTemporary(entityName: String) -> ObjectID {
        ObjectID(temporaryFor: entityName, serial: temporarySerials.next())
    }

    /// The store's primary key, or `nil` while the ID is temporary.
    public var primaryKey: Int64? { isTemporary ? nil : raw }

    /// `Entity/p42` for permanent IDs, `Entity/t7` for temporary ones.
    public var description: String {
        "\(entityName)/\(isTemporary ? "t" : "p")\(raw)"
    }

    /// Orders by entity name, then permanent before temporary, then number.
    public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool {
        if lhs.entityName != rhs.entityName { return lhs.entityName < rhs.entityName }
        if lhs.isTemporary != rhs.isTemporary { return !lhs.isTemporary }
        return lhs.raw < rhs.raw
    }
}

/// Process-wide counter for temporary IDs.
private let temporarySerials = SerialCounter()

/// A lock-protected monotonically increasing counter.
final class SerialCounter: @unchecked Sendable {
    // Safe: `value` is only read or written while holding `lock`.
    private let lock = NSLock()
    private var value: Int64 = 0

    /// Returns the next number (starting at 1).
    func next() -> Int64 {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}
