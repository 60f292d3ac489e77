internal import InvoicesCore
public import ObjectContexts

/// What a save writes for a `Client` or an `Invoice` object into a schema 2 store, store-neutral: the columns (by
/// their SQLite names) and values of each row, days as `YYYY-MM-DD` text. ``SQLiteStore`` and the PostgreSQL store
/// both write these, so the two stores hold the same rows for the same import.
public enum StoreWrites {
    /// One row of a table that belongs to an invoice (payment, write-off, tax line), without its `invoiceId`.
    public struct Detail: Sendable, Equatable {
        public var table: String
        public var columns: [String]
        public var values: [Value]
    }

    /// The `client` columns a client's attributes fill, in attribute order.
    public static let clientColumns = ["number", "name", "email", "street", "city", "zip", "country"]

    /// The `invoice` columns ``invoice(_:)`` fills (the store adds `clientId`).
    public static let invoiceColumns = ["identifier", "amount", "currency", "notes", "issuedOn", "dueOn", "status", "net"]

    /// The invoice's values for ``invoiceColumns``: days as text, a missing status is `sent`.
    public static func invoice(_ attributes: [Value]) -> [Value] {
        typealias Attribute = InvoicesModel.InvoiceAttribute
        let columns = attributes.enumerated().map { index, value in
            switch Attribute(rawValue: index) {
            case .issuedOn, .dueOn, .paidOn, .receivedOn, .writtenOffOn: day(value)
            default: value
            }
        }
        let status = columns[Attribute.status.rawValue]
        return Array(columns.prefix(6)) + [status == .null ? .text("sent") : status, columns[Attribute.net.rawValue]]
    }

    /// `value` (a day number) as `YYYY-MM-DD` text; anything else is NULL.
    public static func day(_ value: Value) -> Value {
        if case .integer(let day) = value { return .text(CalendarDate(dayNumber: Int32(clamping: day)).description) }
        return .null
    }

    /// A schema 2 store keeps payments, write-offs and tax lines apart; the model's attributes state them as an
    /// import does (docs/import.md): `received` to date as one payment on `receivedOn`, else paid in full on
    /// `paidOn`; `writtenOff` on `writtenOffOn`; one tax line.
    public static func details(_ attributes: [Value]) -> [Detail] {
        typealias Attribute = InvoicesModel.InvoiceAttribute
        func integer(_ attribute: Attribute) -> Int64? {
            if case .integer(let value) = attributes[attribute.rawValue] { return value }
            return nil
        }
        func text(_ attribute: Attribute) -> Value {
            if case .text(let value) = attributes[attribute.rawValue] { return .text(value) }
            return .text("")
        }
        var rows: [Detail] = []
        let amount = integer(.amount) ?? 0
        if let received = integer(.received) {
            if received != 0, let on = integer(.receivedOn) ?? integer(.paidOn) {
                rows.append(Detail(table: "payment", columns: ["paidOn", "amount"], values: [day(.integer(on)), .integer(received)]))
            }
        } else if let paid = integer(.paidOn), amount != 0 {
            rows.append(Detail(table: "payment", columns: ["paidOn", "amount"], values: [day(.integer(paid)), .integer(amount)]))
        }
        if let writtenOff = integer(.writtenOff), let on = integer(.writtenOffOn) {
            rows.append(Detail(table: "writeOff", columns: ["writtenOffOn", "amount"], values: [day(.integer(on)), .integer(writtenOff)]))
        }
        if let tax = integer(.taxAmount) {
            rows.append(Detail(table: "taxLine", columns: ["name", "rate", "amount"], values: [text(.taxName), text(.taxRate), .integer(tax)]))
        }
        return rows
    }
}
