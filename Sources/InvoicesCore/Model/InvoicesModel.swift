public import ObjectContexts

/// The Invoices app's data model on top of ``ObjectContexts``: a `Client` with its to-many `invoices`, an
/// `Invoice` with its to-one `client`.
///
/// Dates are integer day numbers (``CalendarDate/dayNumber``); amounts are integer minor units of the invoice's
/// ISO 4217 currency. Validation at save checks required fields, the currency code, non-negative amounts,
/// unique client numbers and invoice identifiers, and a client for every invoice.
public enum InvoicesModel {
    /// Attribute indices of the `Client` entity, in ``client`` order.
    public enum ClientAttribute: Int, CaseIterable, Sendable {
        case number, name, email, street, city, zip, country
    }

    /// Attribute indices of the `Invoice` entity, in ``invoice`` order.
    public enum InvoiceAttribute: Int, CaseIterable, Sendable {
        case identifier, amount, currency, notes, issuedOn, dueOn, paidOn
        /// Schema v2, as imports state them (docs/import.md): the status, the net, the amount received to date and
        /// the day of the last payment, one write-off, one tax line. A store keeps payments, write-offs and tax
        /// lines in their own tables; these attributes read them back as totals (``InvoicesStore/BooksStore``).
        case status, net, received, receivedOn, writtenOff, writtenOffOn, taxName, taxRate, taxAmount
    }

    /// The index of `Invoice.client` among the invoice's relationships.
    public static let invoiceClientRelationship = 0

    /// The `Client` entity.
    public static let client = EntityDescription(
        name: "Client",
        attributes: [
            AttributeDescription(name: "number", type: .text),
            AttributeDescription(name: "name", type: .text),
            AttributeDescription(name: "email", type: .text, defaultValue: .text("")),
            AttributeDescription(name: "street", type: .text, defaultValue: .text("")),
            AttributeDescription(name: "city", type: .text, defaultValue: .text("")),
            AttributeDescription(name: "zip", type: .text, defaultValue: .text("")),
            AttributeDescription(name: "country", type: .text, defaultValue: .text("")),
        ],
        relationships: [RelationshipDescription(name: "invoices", destination: "Invoice", isToMany: true, inverse: "client")],
        objectClass: Client.self,
        uniqueAttributes: [["number"]],
        validator: { object in (object as? Client)?.domainFailures() ?? [] }
    )

    /// The `Invoice` entity.
    public static let invoice = EntityDescription(
        name: "Invoice",
        attributes: [
            AttributeDescription(name: "identifier", type: .text),
            AttributeDescription(name: "amount", type: .integer),
            AttributeDescription(name: "currency", type: .text),
            AttributeDescription(name: "notes", type: .text, defaultValue: .text("")),
            AttributeDescription(name: "issuedOn", type: .integer),
            AttributeDescription(name: "dueOn", type: .integer),
            AttributeDescription(name: "paidOn", type: .integer, isOptional: true),
            AttributeDescription(name: "status", type: .text, defaultValue: .text("sent")),
            AttributeDescription(name: "net", type: .integer, isOptional: true),
            AttributeDescription(name: "received", type: .integer, isOptional: true),
            AttributeDescription(name: "receivedOn", type: .integer, isOptional: true),
            AttributeDescription(name: "writtenOff", type: .integer, isOptional: true),
            AttributeDescription(name: "writtenOffOn", type: .integer, isOptional: true),
            AttributeDescription(name: "taxName", type: .text, defaultValue: .text("")),
            AttributeDescription(name: "taxRate", type: .text, defaultValue: .text("")),
            AttributeDescription(name: "taxAmount", type: .integer, isOptional: true),
        ],
        relationships: [RelationshipDescription(name: "client", destination: "Client", inverse: "invoices", isOptional: false)],
        objectClass: Invoice.self,
        uniqueAttributes: [["identifier"]],
        validator: { object in (object as? Invoice)?.domainFailures() ?? [] }
    )

    /// The model: `Client` and `Invoice`.
    public static let model = ObjectModel(entities: [client, invoice])
}
