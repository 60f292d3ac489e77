/// One reason an object cannot be saved.
public struct ValidationFailure: Sendable, Hashable, CustomStringConvertible {
    /// Stable failure codes.
    public enum Code: String, Sendable, Hashable {
        /// A non-optional attribute is null or a non-optional to-one relationship is nil.
        case missingValue = "missing_value"
        /// A `uniqueAttributes` group repeats another record's values.
        case notUnique = "not_unique"
        /// A domain rule from a validation hook failed.
        case invalidValue = "invalid_value"
    }

    /// The failing object.
    public var objectID: ObjectID
    /// The failing attribute/relationship name (or a comma-separated group), `nil` for object-level rules.
    public var field: String?
    /// The kind of failure.
    public var code: Code
    /// A human-readable explanation.
    public var message: String

    /// Creates a failure.
    public init(objectID: ObjectID, field: String?, code: Code = .invalidValue, message: String) {
        self.objectID = objectID
        self.field = field
        self.code = code
        self.message = message
    }

    /// `Entity/p1.field: message`.
    public var description: String { "\(objectID)\(field.map { ".\($0)" } ?? ""): \(message)" }
}

/// A save was refused because objects failed validation; nothing was saved.
public struct ValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Every failure of every object, sorted by object ID then field.
    public let failures: [ValidationFailure]

    /// Creates the error (failures are sorted).
    public init(failures: [ValidationFailure]) {
        self.failures = failures.sorted {
            ($0.objectID, $0.field ?? "", $0.message) < ($1.objectID, $1.field ?? "", $1.message)
        }
    }

    /// One line per failure.
    public var description: String { failures.map(\.description).joined(separator: "\n") }
}

extension ContextCore {
    /// Runs the built-in checks, uniqueness constraints and hooks for `changes`; throws all failures together.
    func validate(_ changes: [ObjectID: PendingChange]) throws {
        var failures: [ValidationFailure] = []
        var byEntity: [String: [(ObjectID, PendingChange)]] = [:]
        for (id, change) in changes.sorted(by: { $0.key < $1.key }) where change.kind != .deleted {
            guard let entity = model.entity(named: id.entityName) else { continue }
            byEntity[entity.name, default: []].append((id, change))
            for (index, attribute) in entity.attributes.enumerated() where !attribute.isOptional && change.row.attributes[index].isNull {
                failures.append(ValidationFailure(objectID: id, field: attribute.name, code: .missingValue,
                                                  message: "\(attribute.name) is required"))
            }
            for (index, relationship) in entity.relationships.enumerated()
            where !relationship.isToMany && !relationship.isOptional && change.row.relationships[index] == nil {
                failures.append(ValidationFailure(objectID: id, field: relationship.name, code: .missingValue,
                                                  message: "\(relationship.name) is required"))
            }
            let object = object(with: id)
            if let validator = entity.validator { failures += validator(object) }
            failures += object.validateForSave()
        }
        for (name, entries) in byEntity {
            guard let entity = model.entity(named: name), !entity.uniqueAttributeIndices.isEmpty else { continue }
            failures += try uniquenessFailures(entity, entries, changedIDs: Set(changes.keys))
        }
        if !failures.isEmpty { throw ValidationError(failures: failures) }
    }

    /// Checks `uniqueAttributes` of `entity` among `entries` and against the rows this context saves into.
    private func uniquenessFailures(
        _ entity: EntityDescription, _ entries: [(ObjectID, PendingChange)], changedIDs: Set<ObjectID>
    ) throws -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        for group in entity.uniqueAttributeIndices where !group.isEmpty {
            let field = group.map { entity.attributes[$0].name }.joined(separator: ",")
            var candidates: [[Value]: [ObjectID]] = [:]
            for (id, change) in entries {
                let key = group.map { change.row.attributes[$0] }
                if !key.contains(.null) { candidates[key, default: []].append(id) }
            }
            for (key, ids) in candidates where ids.count > 1 {
                for id in ids {
                    failures.append(ValidationFailure(objectID: id, field: field, code: .notUnique,
                                                      message: "\(field) \(key) is used by several objects being saved"))
                }
            }
            guard !candidates.isEmpty else { continue }
            let firstValues = Set(candidates.keys.map { $0[0] })
            let overlay = storage.parent?.overlay(for: entity.name) ?? .empty
            try storage.scanRows(of: entity, overlay: overlay) { row in
                guard firstValues.contains(row.value(group[0])) else { return }
                let key = group.map { row.value($0) }
                guard let ids = candidates[key] else { return }
                let other = row.objectID
                if changedIDs.contains(other) { return }
                for id in ids {
                    failures.append(ValidationFailure(objectID: id, field: field, code: .notUnique,
                                                      message: "\(field) \(key) is already used by \(other)"))
                }
            }
        }
        return failures
    }
}
