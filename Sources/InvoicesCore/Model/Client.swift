import Foundation
public import ObjectContexts

/// A client, confined to the context it was fetched or inserted in. To use it elsewhere, pass its
/// ``ObjectContexts/ObjectID``.
public final class Client: ManagedObject {
    private func text(_ attribute: InvoicesModel.ClientAttribute) -> String {
        if case .text(let text) = value(at: attribute.rawValue) { return text }
        return ""
    }

    private func set(_ attribute: InvoicesModel.ClientAttribute, _ text: String) throws {
        try setValue(.text(text), at: attribute.rawValue)
    }

    public var number: String { text(.number) }
    public var name: String { text(.name) }
    public var email: String { text(.email) }
    public var street: String { text(.street) }
    public var city: String { text(.city) }
    public var zip: String { text(.zip) }
    public var country: String { text(.country) }
    /// The client's language (schema 3), a BCP 47 tag; empty for the report's language.
    public var language: String { text(.language) }

    /// The client's invoices.
    public var invoices: [Invoice] { objects(forKey: "invoices").compactMap { $0 as? Invoice } }

    /// Sets every field from a snapshot (the id is not copied: the store owns it).
    public func update(from snapshot: ClientSnapshot) throws {
        try set(.number, snapshot.number)
        try set(.name, snapshot.name)
        try set(.email, snapshot.email)
        try set(.street, snapshot.street)
        try set(.city, snapshot.city)
        try set(.zip, snapshot.zip)
        try set(.country, snapshot.country)
        try set(.language, snapshot.language)
    }

    func domainFailures() -> [ValidationFailure] {
        ClientRules.violations(number: number, name: name).map {
            validationFailure($0.attribute, $0.message, code: .missingValue)
        }
    }
}
