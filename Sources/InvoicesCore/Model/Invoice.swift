public import ObjectContexts

/// An invoice, confined to the context it was fetched or inserted in. To use it elsewhere, pass its
/// ``ObjectContexts/ObjectID``.
public final class Invoice: ManagedObject {
    private typealias Attribute = InvoicesModel.InvoiceAttribute

    private func integer(_ attribute: Attribute) -> Int64? {
        if case .integer(let value) = value(at: attribute.rawValue) { return value }
        return nil
    }

    private func text(_ attribute: Attribute) -> String {
        if case .text(let text) = value(at: attribute.rawValue) { return text }
        return ""
    }

    public var identifier: String { text(.identifier) }
    public var notes: String { text(.notes) }
    public var currencyCode: String { text(.currency) }
    /// The amount in minor units of ``currencyCode``.
    public var amount: Int64 { integer(.amount) ?? 0 }
    public var issued: CalendarDate? { integer(.issuedOn).map { CalendarDate(dayNumber: Int32(clamping: $0)) } }
    public var due: CalendarDate? { integer(.dueOn).map { CalendarDate(dayNumber: Int32(clamping: $0)) } }
    public var paid: CalendarDate? { integer(.paidOn).map { CalendarDate(dayNumber: Int32(clamping: $0)) } }

    /// The amount as money, when the currency is an ISO 4217 code.
    public var money: Money? { (try? CurrencyCode(currencyCode)).map { Money(minorUnits: amount, currency: $0) } }

    /// The invoice's client.
    public var client: Client? { object(forKey: "client") as? Client }

    /// The invoice's payments (a schema v2 store's `payment` rows), sorted by object ID.
    public var payments: [Payment] { objects(forKey: "payments").compactMap { $0 as? Payment } }
    /// The invoice's tax lines, sorted by object ID.
    public var taxLines: [TaxLine] { objects(forKey: "taxLines").compactMap { $0 as? TaxLine } }
    /// The invoice's write-offs, sorted by object ID.
    public var writeOffs: [WriteOff] { objects(forKey: "writeOffs").compactMap { $0 as? WriteOff } }

    /// Sets every field from a snapshot, with `currency` as the invoice's currency (the client is set apart).
    public func update(from snapshot: InvoiceSnapshot, currency: CurrencyCode) throws {
        try setValue(.text(snapshot.identifier), at: Attribute.identifier.rawValue)
        try setValue(.integer(snapshot.amount), at: Attribute.amount.rawValue)
        try setValue(.text(currency.code), at: Attribute.currency.rawValue)
        try setValue(.text(snapshot.notes), at: Attribute.notes.rawValue)
        try setValue(.integer(Int64(snapshot.issued.dayNumber)), at: Attribute.issuedOn.rawValue)
        try setValue(.integer(Int64(snapshot.due.dayNumber)), at: Attribute.dueOn.rawValue)
        try setValue(snapshot.paid.map { .integer(Int64($0.dayNumber)) } ?? .null, at: Attribute.paidOn.rawValue)
    }

    /// Sets the client.
    public func setClient(_ client: Client) throws { try setObject(client, forKey: "client") }

    func domainFailures() -> [ValidationFailure] {
        var failures = InvoiceRules.violations(identifier: identifier, amount: amount, issued: issued, due: due, paid: paid).map {
            validationFailure($0.attribute, $0.message, code: $0.attribute == "identifier" ? .missingValue : .invalidValue)
        }
        if InvoiceStatus(name: text(.status)) == nil {
            failures.append(validationFailure("status", "'\(text(.status))' is not a status (draft, sent or void)"))
        }
        if let net = integer(.net) {
            failures += BooksRules.taxViolations(gross: amount, net: net, taxes: taxLines.map(\.amount)).map { validationFailure($0.attribute, $0.message) }
        }
        if let kind = InvoiceKind(name: text(.kind)) {
            let applied = integer(.appliedOn).map { CalendarDate(dayNumber: Int32(clamping: $0)) }
            failures += BooksRules.violations(kind: kind, issued: issued, applied: applied, hasCorrects: objectID(forKey: "corrects") != nil)
                .map { validationFailure($0.attribute, $0.message) }
        } else {
            failures.append(validationFailure("kind", "'\(text(.kind))' is not a kind (invoice or credit)"))
        }
        if !CurrencyCode.isKnown(currencyCode) {
            failures.append(validationFailure("currency", CurrencyError(code: currencyCode).description))
        }
        return failures
    }
}
