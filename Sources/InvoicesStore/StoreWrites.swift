internal import InvoicesCore
public import ObjectContexts

/// What a save writes for a model object into a schema 2 store, store-neutral: the table, the columns (by their
/// SQLite names) and the values of each row, days as `YYYY-MM-DD` text. ``SQLiteStore`` and the PostgreSQL store
/// both write these, so the two stores hold the same rows for the same import.
public enum StoreWrites {
    /// The `client` columns a client's attributes fill, in attribute order (`language` from schema 3).
    public static let clientColumns = ["number", "name", "email", "street", "city", "zip", "country", "language"]

    /// The `client` columns of a store of `version`, and the client's values for them: a v1 or v2 store has no
    /// `language` (the client keeps the report's language); an empty language is NULL.
    public static func client(_ attributes: [Value], version: Int) -> (columns: [String], values: [Value]) {
        var values = Array(attributes.prefix(clientColumns.count))
        let language = InvoicesModel.ClientAttribute.language.rawValue
        guard version >= 3 else { return (Array(clientColumns.prefix(language)), Array(values.prefix(language))) }
        if language < values.count, values[language] == .text("") { values[language] = .null }
        return (clientColumns, values)
    }

    /// The `invoice` columns ``invoice(_:)`` fills (the store adds `clientId`, and `correctsId` once every invoice
    /// of the save has its row id).
    public static let invoiceColumns = ["identifier", "amount", "currency", "notes", "issuedOn", "dueOn", "status", "net", "kind", "appliedOn"]

    /// The invoice's values for ``invoiceColumns``: days as text, a missing status is `sent`, a missing kind `invoice`.
    public static func invoice(_ attributes: [Value]) -> [Value] {
        typealias Attribute = InvoicesModel.InvoiceAttribute
        func value(_ attribute: Attribute) -> Value { attributes[attribute.rawValue] }
        let status = value(.status) == .null ? .text("sent") : value(.status)
        let kind = value(.kind) == .null ? .text("invoice") : value(.kind)
        return [value(.identifier), value(.amount), value(.currency), value(.notes), day(value(.issuedOn)), day(value(.dueOn)),
                status, value(.net), kind, day(value(.appliedOn))]
    }

    /// The table and columns of a `Payment`, `TaxLine` or `WriteOff` row (its attributes' names; the store adds
    /// `invoiceId`), or nil for another entity.
    public static func detail(_ entity: String) -> (table: String, columns: [String])? {
        guard let table = InvoicesModel.details.first(where: { $0.entity == entity })?.table,
            let description = InvoicesModel.model.entity(named: entity)
        else { return nil }
        return (table, description.attributes.map(\.name))
    }

    /// Attributes of the rows beside an invoice that hold a day (text `YYYY-MM-DD` in the table).
    public static let dayAttributes: Set<String> = ["paidOn", "writtenOffOn"]

    /// A `Payment`'s, `TaxLine`'s or `WriteOff`'s values for ``detail(_:)``'s columns: days as text.
    public static func detailValues(_ entity: String, _ attributes: [Value]) -> [Value] {
        let names = detail(entity)?.columns ?? []
        return attributes.enumerated().map { index, value in
            index < names.count && dayAttributes.contains(names[index]) ? day(value) : value
        }
    }

    /// `value` (a day number) as `YYYY-MM-DD` text; anything else is NULL.
    public static func day(_ value: Value) -> Value {
        if case .integer(let day) = value { return .text(CalendarDate(dayNumber: Int32(clamping: day)).description) }
        return .null
    }
}
