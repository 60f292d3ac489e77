/// The values of one record: attributes and to-one relationship targets, by index.
public struct RowValues: Sendable, Hashable {
    /// One value per `EntityDescription.attributes` entry.
    public var attributes: [Value]
    /// One entry per `EntityDescription.relationships` entry: the target of a
    /// to-one relationship, always `nil` for to-many slots (they are derived).
    public var relationships: [ObjectID?]

    /// Creates row values; array lengths must match the entity.
    public init(attributes: [Value], relationships: [ObjectID?]) {
        self.attributes = attributes
        self.relationships = relationships
    }

    /// A row of default attribute values and no relationship targets.
    init(defaultsFor entity: EntityDescription) {
        attributes = entity.attributes.map(\.defaultValue)
        relationships = Array(repeating: nil, count: entity.relationships.count)
    }

    /// Whether `self` and `other` differ in property `property` (attributes first, then relationships).
    func differs(from other: RowValues, at property: Int) -> Bool {
        if property < attributes.count { return attributes[property] != other.attributes[property] }
        let index = property - attributes.count
        return relationships[index] != other.relationships[index]
    }

    /// Copies property `property` (attributes first, then relationships) from `other`.
    mutating func copy(from other: RowValues, at property: Int) {
        if property < attributes.count {
            attributes[property] = other.attributes[property]
        } else {
            let index = property - attributes.count
            relationships[index] = other.relationships[index]
        }
    }

    /// Number of properties (attributes plus relationship slots).
    var propertyCount: Int { attributes.count + relationships.count }

    /// Replaces temporary IDs found in `map` with their permanent IDs.
    func remapped(_ map: [ObjectID: ObjectID]) -> RowValues {
        guard !map.isEmpty else { return self }
        var copy = self
        for index in copy.relationships.indices {
            if let id = copy.relationships[index], id.isTemporary, let permanent = map[id] {
                copy.relationships[index] = permanent
            }
        }
        return copy
    }
}

/// Row values together with the store version they were read at.
struct RowSnapshot: Sendable, Equatable {
    var values: RowValues
    var version: Int64
}

/// A context's unsaved change to one record.
struct PendingChange: Sendable {
    enum Kind: Sendable { case inserted, updated, deleted }
    var kind: Kind
    /// The current values (for `.deleted`, the last values).
    var row: RowValues
    /// What this context read from its parent before changing the record (`nil` for inserts).
    var base: RowSnapshot?

    /// The row as a snapshot (version of the base, 0 for inserts).
    var snapshot: RowSnapshot { RowSnapshot(values: row, version: base?.version ?? 0) }

    /// Property indices whose value differs from the base (all for inserts).
    var changedProperties: [Int] {
        guard let base else { return Array(0..<row.propertyCount) }
        return (0..<row.propertyCount).filter { row.differs(from: base.values, at: $0) }
    }
}
