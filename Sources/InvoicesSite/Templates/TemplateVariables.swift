/// The variables each template's context holds: the contract between ``SiteBuilder`` and the templates, documented
/// in `docs/templates.md`. A page template's scope is derived from its kind's context type (`PageContext`); the
/// layout's is here.
///
/// A name maps to `nil` for a value, or to the scope a section over it (`{{#name}}…{{/name}}`) opens: a list's
/// items or an object's fields. Template checks reject every name that is not here, so a typo in a template is an
/// error, not an empty cell.
public struct TemplateScope: Sendable, Equatable {
    public var names: [String: TemplateScope?]

    public init(_ names: [String: TemplateScope?]) { self.names = names }

    /// A scope of plain values.
    public init(values: [String]) { self.names = Dictionary(uniqueKeysWithValues: values.map { ($0, nil) }) }

    /// This scope with `other`'s names added.
    public func adding(_ other: [String: TemplateScope?]) -> TemplateScope {
        TemplateScope(names.merging(other) { _, new in new })
    }
}

public enum TemplateVariables {
    /// The columns of the long lists of the statement, period and collections pages (rendered by the compiled row
    /// path, see `PageKind.fastLists`).
    public static let overdueColumns = ["name", "number", "href", "statementHref", "overdue", "outstanding", "invoices", "oldest"]
    public static let daysToPayColumns = ["name", "number", "href", "settled", "median", "p90"]
    public static let dsoColumns = ["label", "href", "invoiced", "outstanding", "dso"]
    public static let taxInvoiceColumns = TaxInvoiceColumn.allCases.map { "\($0)" }
    public static let statementLineColumns = StatementLineColumn.allCases.map { "\($0)" }

    /// The columns of a period page's `taxes.invoices`, in the order of ``taxInvoiceColumns``: a cell is found by
    /// position, never by comparing names per cell.
    enum TaxInvoiceColumn: Int, CaseIterable { case identifier, issued, client, href, accrualNet, accrualTax, cashNet, cashTax, accrualNetNumber, accrualTaxNumber, cashNetNumber,
        cashTaxNumber }
    /// The columns of a statement's `lines`, in the order of ``statementLineColumns``.
    enum StatementLineColumn: Int, CaseIterable { case date, kind, type, document, detail, charge, credit, balance, chargeNumber, creditNumber, balanceNumber }
    /// The figures of one currency over a period; every row of `totals`.
    public static let figures = ["currency", "invoiced", "paid", "outstanding", "overdue", "invoices"]
    /// The amounts of ``figures`` without their currency, on the rows of a table of one currency that names it once
    /// (a client's months, a month's clients).
    public static let figureNumbers = ["invoicedNumber", "paidNumber", "outstandingNumber", "overdueNumber"]
    /// Names every Markdown page template has.
    public static let common = ["root", "siteTitle", "asOf", "baseURL"]

    /// The names the layout (`layout.html`) may use.
    public static let layout = TemplateScope(values: [
        "content", "root", "pageTitle", "siteTitle", "lang", "dir", "asOf", "canonical", "feed", "inlineStyle", "pageStyle", "nav", "private", "buildID",
    ])

    static func page(_ names: [String: TemplateScope?]) -> TemplateScope {
        TemplateScope(values: common).adding(names)
    }
}
