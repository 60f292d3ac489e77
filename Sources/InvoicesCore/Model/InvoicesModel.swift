public import ObjectContexts

/// The Invoices app's data model on top of ``ObjectContexts``: a `Client` with its to-many `invoices`, an
/// `Invoice` with its to-one `client` and its to-many `payments`, a `Payment` with its to-one `invoice`.
///
/// Dates are integer day numbers (``CalendarDate/dayNumber``); amounts are integer minor units of the invoice's
/// ISO 4217 currency. Validation at save checks required fields, the currency code, non-negative amounts,
/// unique client numbers and invoice identifiers, and a client for every invoice.
public enum InvoicesModel {
    /// Attribute indices of the `Client` entity, in ``client`` order.
    public enum ClientAttribute: Int, CaseIterable, Sendable {
        case number, name, email, street, city, zip, country
        /// Schema v3: the client's language, a BCP 47 tag, empty for the report's language.
        case language
    }

    /// Attribute indices of the `Invoice` entity, in ``invoice`` order.
    public enum InvoiceAttribute: Int, CaseIterable, Sendable {
        case identifier, amount, currency, notes, issuedOn, dueOn, paidOn
        /// Schema v2 (docs/store.md): the status, the net before taxes, the kind (invoice or credit note) and the
        /// day a credit note was applied. Payments, tax lines and write-offs are objects of their own.
        case status, net, kind, appliedOn
    }

    /// Attribute indices of the `Payment` entity, in ``payment`` order (the `payment` table's columns).
    public enum PaymentAttribute: Int, CaseIterable, Sendable {
        case paidOn, amount, currency, method, reference
    }

    /// Attribute indices of the `TaxLine` entity, in ``taxLine`` order (the `taxLine` table's columns).
    public enum TaxLineAttribute: Int, CaseIterable, Sendable {
        case name, rate, net, amount
    }

    /// Attribute indices of the `WriteOff` entity, in ``writeOff`` order (the `writeOff` table's columns).
    public enum WriteOffAttribute: Int, CaseIterable, Sendable {
        case writtenOffOn, amount, reason
    }

    /// The index of `Invoice.client` among the invoice's relationships.
    public static let invoiceClientRelationship = 0
    /// The index of `Invoice.corrects` (a credit note's corrected invoice) among the invoice's relationships.
    public static let invoiceCorrectsRelationship = 4
    /// The index of the to-one `invoice` of a `Payment`, `TaxLine` or `WriteOff`: their only relationship.
    public static let detailInvoiceRelationship = 0
    /// The index of `Payment.invoice` among the payment's relationships.
    public static let paymentInvoiceRelationship = detailInvoiceRelationship

    /// The entities of a v2 store's rows beside the invoice, with their tables and the invoice's relationship to
    /// them: `Payment` (`payment`), `TaxLine` (`taxLine`), `WriteOff` (`writeOff`).
    public static let details: [(entity: String, table: String, relationship: String)] = [
        ("Payment", "payment", "payments"), ("TaxLine", "taxLine", "taxLines"), ("WriteOff", "writeOff", "writeOffs"),
    ]

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
            AttributeDescription(name: "language", type: .text, defaultValue: .text("")),
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
            AttributeDescription(name: "kind", type: .text, defaultValue: .text("invoice")),
            AttributeDescription(name: "appliedOn", type: .integer, isOptional: true),
        ],
        relationships: [
            RelationshipDescription(name: "client", destination: "Client", inverse: "invoices", isOptional: false),
            RelationshipDescription(name: "payments", destination: "Payment", isToMany: true, inverse: "invoice"),
            RelationshipDescription(name: "taxLines", destination: "TaxLine", isToMany: true, inverse: "invoice"),
            RelationshipDescription(name: "writeOffs", destination: "WriteOff", isToMany: true, inverse: "invoice"),
            RelationshipDescription(name: "corrects", destination: "Invoice"),
        ],
        objectClass: Invoice.self,
        uniqueAttributes: [["identifier"]],
        validator: { object in (object as? Invoice)?.domainFailures() ?? [] }
    )

    /// The `Payment` entity: a row of a schema v2 store's `payment` table (docs/store.md). `paidOn` is a day number,
    /// `amount` minor units of the invoice's currency (negative for a refund), `currency` NULL for the invoice's.
    public static let payment = EntityDescription(
        name: "Payment",
        attributes: [
            AttributeDescription(name: "paidOn", type: .integer),
            AttributeDescription(name: "amount", type: .integer),
            AttributeDescription(name: "currency", type: .text, isOptional: true),
            AttributeDescription(name: "method", type: .text, defaultValue: .text("")),
            AttributeDescription(name: "reference", type: .text, defaultValue: .text("")),
        ],
        relationships: [RelationshipDescription(name: "invoice", destination: "Invoice", inverse: "payments", isOptional: false)],
        objectClass: Payment.self,
        validator: { object in (object as? Payment)?.domainFailures() ?? [] }
    )

    /// The `TaxLine` entity: a row of a schema v2 store's `taxLine` table. `rate` is a decimal percentage (`7.7`),
    /// `net` the net it is levied on (NULL: the invoice's), `amount` the tax, in minor units.
    public static let taxLine = EntityDescription(
        name: "TaxLine",
        attributes: [
            AttributeDescription(name: "name", type: .text),
            AttributeDescription(name: "rate", type: .text),
            AttributeDescription(name: "net", type: .integer, isOptional: true),
            AttributeDescription(name: "amount", type: .integer),
        ],
        relationships: [RelationshipDescription(name: "invoice", destination: "Invoice", inverse: "taxLines", isOptional: false)],
        objectClass: TaxLine.self,
        validator: { object in (object as? TaxLine)?.domainFailures() ?? [] }
    )

    /// The `WriteOff` entity: a row of a schema v2 store's `writeOff` table (day number, positive minor units, reason).
    public static let writeOff = EntityDescription(
        name: "WriteOff",
        attributes: [
            AttributeDescription(name: "writtenOffOn", type: .integer),
            AttributeDescription(name: "amount", type: .integer),
            AttributeDescription(name: "reason", type: .text, defaultValue: .text("")),
        ],
        relationships: [RelationshipDescription(name: "invoice", destination: "Invoice", inverse: "writeOffs", isOptional: false)],
        objectClass: WriteOff.self,
        validator: { object in (object as? WriteOff)?.domainFailures() ?? [] }
    )

    /// The model: `Client`, `Invoice`, and the invoice's `Payment`, `TaxLine` and `WriteOff` rows.
    public static let model = ObjectModel(entities: [client, invoice, payment, taxLine, writeOff])
}
