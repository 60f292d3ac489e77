import Foundation
public import InvoicesCore

/// Which attributes of a Core Data store's Invoice entity hold the issue, due and paid dates.
///
/// The Invoices app's seed model has no dates; a model that has them names them freely. Each date is looked up
/// by attribute name, case-insensitively, as the `Z<ATTRIBUTE>` column of the Invoice table (`issuedAt` is
/// `ZISSUEDAT`). A name given here must exist; when none is given the defaults are tried in order.
///
/// - Issue date: required. With no such attribute the store is refused, naming `--issue-date-attribute`.
/// - Due date: optional. Without one (or when a row's value is NULL) an invoice is due on its issue date, with a
///   ``StoreIssue``.
/// - Paid date: optional. Without one every invoice is unpaid, with a ``StoreIssue``; a NULL value means unpaid.
///
/// ```swift
/// let mapping = CoreDataMapping(issueDateAttribute: "sentOn", dueDateAttribute: "payBy")
/// let store = try BooksStore(path: "Invoices.sqlite", coreDataMapping: mapping)
/// ```
///
/// Every other name the tool reads can be mapped too, for models that call things differently: the entities
/// (`Client`, `Invoice`) and each attribute, as `Entity.attribute`:
///
/// ```swift
/// var mapping = CoreDataMapping()
/// mapping.names = ["Client": "Customer", "Client.number": "customerID", "Invoice.amount": "total"]
/// mapping.defaultCurrency = try CurrencyCode("EUR")   // the model has no currency attribute
/// ```
public struct CoreDataMapping: Sendable, Equatable {
    /// Store names for the tool's entity and attribute names: `Client`, `Invoice`, `Client.number`,
    /// `Invoice.amount`, … (see ``mappableNames``). Names not given are looked up as they are.
    public var names: [String: String] = [:]
    /// The currency of every invoice, for a model whose Invoice entity has no currency attribute.
    public var defaultCurrency: CurrencyCode?

    /// Every name ``names`` may map: the entities and the attributes the tool reads. A `Payment` entity is
    /// optional: when the model has one (under its mapped name), its rows are the payments.
    public static let mappableNames = ["Client", "Invoice", "Payment"]
        + ["number", "name", "email", "street", "city", "zip", "country", "language"].map { "Client." + $0 }
        + ["identifier", "client", "amount", "currency", "notes"].map { "Invoice." + $0 }
        + ["invoice", "amount", "date", "method", "reference"].map { "Payment." + $0 }

    /// The store's name for the entity or attribute called `name` here.
    func storeName(_ name: String) -> String {
        if let mapped = names[name] { return mapped }
        return name.split(separator: ".").last.map(String.init) ?? name
    }

    /// The `KEY=NAME` pairs of a project file's `core_data_names` value, separated by commas or spaces.
    public static func pairs(in text: String) -> [String] {
        text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
    }

    /// Parses `KEY=NAME` pairs (`Client=Customer`, `Invoice.amount=total`); returns what is wrong, or nil.
    public mutating func addNames(_ pairs: [String]) -> String? {
        for pair in pairs {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[1].isEmpty else {
                return "'\(pair)' is not KEY=NAME, e.g. Client=Customer or Invoice.amount=total"
            }
            guard Self.mappableNames.contains(parts[0]) else {
                return "'\(parts[0])' is not a name the tool reads; one of \(Self.mappableNames.joined(separator: ", "))"
            }
            names[parts[0]] = parts[1]
        }
        return nil
    }

    /// The attribute holding the issue date, or nil for the first of ``defaultIssueDateAttributes`` present.
    public var issueDateAttribute: String?
    /// The attribute holding the due date, or nil for the first of ``defaultDueDateAttributes`` present.
    public var dueDateAttribute: String?
    /// The attribute holding the paid date, or nil for the first of ``defaultPaidDateAttributes`` present.
    public var paidDateAttribute: String?

    /// Tried in order when ``issueDateAttribute`` is nil.
    public static let defaultIssueDateAttributes = ["issuedAt", "issueDate", "date"]
    /// Tried in order when ``dueDateAttribute`` is nil.
    public static let defaultDueDateAttributes = ["dueAt", "dueDate"]
    /// Tried in order when ``paidDateAttribute`` is nil.
    public static let defaultPaidDateAttributes = ["paidAt", "paidDate"]

    public init(
        issueDateAttribute: String? = nil, dueDateAttribute: String? = nil, paidDateAttribute: String? = nil,
        names: [String: String] = [:], defaultCurrency: CurrencyCode? = nil
    ) {
        self.issueDateAttribute = issueDateAttribute
        self.dueDateAttribute = dueDateAttribute
        self.paidDateAttribute = paidDateAttribute
        self.names = names
        self.defaultCurrency = defaultCurrency
    }
}
