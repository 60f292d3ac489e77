/// The storage type of an attribute.
public enum AttributeType: String, Sendable, Hashable {
    /// 64-bit signed integer (`Value.integer`).
    case integer
    /// Double-precision number (`Value.double`).
    case double
    /// String (`Value.text`).
    case text
}

/// One attribute (column) of an entity.
public struct AttributeDescription: Sendable, Hashable {
    /// The attribute's key, used by `value(forKey:)`.
    public var name: String
    /// The type every non-null value must have.
    public var type: AttributeType
    /// Whether `.null` passes validation at save.
    public var isOptional: Bool
    /// The value newly inserted objects start with.
    public var defaultValue: Value

    /// Describes an attribute; `defaultValue` is used for newly inserted objects.
    public init(name: String, type: AttributeType, isOptional: Bool = false, defaultValue: Value = .null) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
    }
}

/// One relationship of an entity.
///
/// Supported shapes: to-one without inverse, to-one <-> to-one, and
/// to-one <-> to-many (the to-one side holds the foreign key; the to-many side
/// is derived from it). Many-to-many is not supported. Deleting an object
/// nullifies the inverse side of its relationships.
public struct RelationshipDescription: Sendable, Hashable {
    /// The relationship's key.
    public var name: String
    /// The destination entity's name.
    public var destination: String
    /// Whether this side holds many objects (requires a to-one `inverse`).
    public var isToMany: Bool
    /// The name of the inverse relationship on the destination, if any.
    public var inverse: String?
    /// Whether a to-one relationship may be nil at save (ignored for to-many).
    public var isOptional: Bool

    /// Describes a relationship.
    public init(name: String, destination: String, isToMany: Bool = false, inverse: String? = nil, isOptional: Bool = true) {
        self.name = name
        self.destination = destination
        self.isToMany = isToMany
        self.inverse = inverse
        self.isOptional = isOptional
    }
}

/// An entity: its attributes, relationships, object class and save-time rules.
public final class EntityDescription: Sendable {
    /// The entity name (also the `ObjectID.entityName`).
    public let name: String
    /// The attributes, addressed by index everywhere rows are involved.
    public let attributes: [AttributeDescription]
    /// The relationships, addressed by index (to-many slots hold no value in rows).
    public let relationships: [RelationshipDescription]
    /// The class instantiated for this entity's objects (must be `ManagedObject` or a subclass).
    public let objectClass: ManagedObject.Type
    /// Groups of attribute names whose combined values must be unique (rows with a null in the group are exempt).
    public let uniqueAttributes: [[String]]
    /// An extra validation hook run at save for every inserted or updated object, after the built-in checks.
    public let validator: (@Sendable (ManagedObject) -> [ValidationFailure])?

    let attributeIndexByName: [String: Int]
    let relationshipIndexByName: [String: Int]
    let uniqueAttributeIndices: [[Int]]

    /// Describes an entity; `validator` and `uniqueAttributes` are checked on every save.
    public init(
        name: String,
        attributes: [AttributeDescription],
        relationships: [RelationshipDescription] = [],
        objectClass: ManagedObject.Type = ManagedObject.self,
        uniqueAttributes: [[String]] = [],
        validator: (@Sendable (ManagedObject) -> [ValidationFailure])? = nil
    ) {
        self.name = name
        self.attributes = attributes
        self.relationships = relationships
        self.objectClass = objectClass
        self.uniqueAttributes = uniqueAttributes
        self.validator = validator
        var attributeIndex: [String: Int] = [:]
        for (index, attribute) in attributes.enumerated() {
            precondition(attributeIndex[attribute.name] == nil, "duplicate attribute \(name).\(attribute.name)")
            attributeIndex[attribute.name] = index
        }
        var relationshipIndex: [String: Int] = [:]
        for (index, relationship) in relationships.enumerated() {
            precondition(relationshipIndex[relationship.name] == nil && attributeIndex[relationship.name] == nil,
                         "duplicate property \(name).\(relationship.name)")
            relationshipIndex[relationship.name] = index
        }
        self.attributeIndexByName = attributeIndex
        self.relationshipIndexByName = relationshipIndex
        self.uniqueAttributeIndices = uniqueAttributes.map { group in
            group.map { key in
                guard let index = attributeIndex[key] else {
                    preconditionFailure("unique constraint on unknown attribute \(name).\(key)")
                }
                return index
            }
        }
    }

    /// The index of the attribute named `name`, or `nil`.
    public func attributeIndex(named name: String) -> Int? { attributeIndexByName[name] }

    /// The index of the relationship named `name`, or `nil`.
    public func relationshipIndex(named name: String) -> Int? { relationshipIndexByName[name] }
}

/// The set of entities a store and its contexts work with.
public final class ObjectModel: Sendable {
    /// All entities, in declaration order.
    public let entities: [EntityDescription]
    let entitiesByName: [String: EntityDescription]
    let entitiesByClass: [ObjectIdentifier: EntityDescription]

    /// Creates a model; traps on dangling destinations, inverses that do not point back, or many-to-many.
    public init(entities: [EntityDescription]) {
        self.entities = entities
        var byName: [String: EntityDescription] = [:]
        var byClass: [ObjectIdentifier: EntityDescription] = [:]
        for entity in entities {
            precondition(byName[entity.name] == nil, "duplicate entity \(entity.name)")
            byName[entity.name] = entity
            if entity.objectClass != ManagedObject.self {
                byClass[ObjectIdentifier(entity.objectClass)] = entity
            }
        }
        for entity in entities {
            for relationship in entity.relationships {
                guard let destination = byName[relationship.destination] else {
                    preconditionFailure("\(entity.name).\(relationship.name): unknown destination \(relationship.destination)")
                }
                guard let inverseName = relationship.inverse else {
                    precondition(!relationship.isToMany, "\(entity.name).\(relationship.name): to-many needs a to-one inverse")
                    continue
                }
                guard let inverseIndex = destination.relationshipIndex(named: inverseName) else {
                    preconditionFailure("\(entity.name).\(relationship.name): unknown inverse \(inverseName)")
                }
                let inverse = destination.relationships[inverseIndex]
                precondition(inverse.inverse == relationship.name && inverse.destination == entity.name,
                             "\(entity.name).\(relationship.name): inverse does not point back")
                precondition(!(relationship.isToMany && inverse.isToMany),
                             "\(entity.name).\(relationship.name): many-to-many is not supported")
            }
        }
        self.entitiesByName = byName
        self.entitiesByClass = byClass
    }

    /// The entity named `name`, or `nil`.
    public func entity(named name: String) -> EntityDescription? { entitiesByName[name] }

    /// The entity whose `objectClass` is exactly `type`, or `nil`.
    public func entity(for type: ManagedObject.Type) -> EntityDescription? {
        entitiesByClass[ObjectIdentifier(type)]
    }
}
