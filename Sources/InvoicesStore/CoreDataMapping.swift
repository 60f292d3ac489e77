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
public struct CoreDataMapping: Sendable, Equatable {
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

    public init(issueDateAttribute: String? = nil, dueDateAttribute: String? = nil, paidDateAttribute: String? = nil) {
        self.issueDateAttribute = issueDateAttribute
        self.dueDateAttribute = dueDateAttribute
        self.paidDateAttribute = paidDateAttribute
    }
}
