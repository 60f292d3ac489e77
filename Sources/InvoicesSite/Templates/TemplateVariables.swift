/// The variables each template's context holds: the contract between ``SiteBuilder`` and the templates, documented
/// in `docs/templates.md`.
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
    /// path, see `TemplateSet.fastLists`).
    public static let overdueColumns = ["name", "number", "href", "statementHref", "overdue", "outstanding", "invoices", "oldest"]
    public static let daysToPayColumns = ["name", "number", "href", "settled", "median", "p90"]
    public static let dsoColumns = ["label", "href", "invoiced", "outstanding", "dso"]
    public static let taxInvoiceColumns = TaxInvoiceColumn.allCases.map { "\($0)" }
    public static let statementLineColumns = StatementLineColumn.allCases.map { "\($0)" }

    /// The columns of a period page's `taxes.invoices`, in the order of ``taxInvoiceColumns``: a cell is found by
    /// position, never by comparing names per cell.
    enum TaxInvoiceColumn: Int, CaseIterable { case identifier, issued, client, href, accrualNet, accrualTax, cashNet, cashTax }
    /// The columns of a statement's `lines`, in the order of ``statementLineColumns``.
    enum StatementLineColumn: Int, CaseIterable { case date, kind, type, document, detail, charge, credit, balance }
    /// The figures of one currency over a period; every row of `totals`.
    public static let figures = ["currency", "invoiced", "paid", "outstanding", "overdue", "invoices"]
    /// Outstanding amounts by days past due, one row per currency.
    /// `amounts` has every bucket in order (each `amount`); `days1to30` to `over90` are set with the default buckets.
    public static let aging = TemplateScope([
        "currency": nil, "notDue": nil, "days1to30": nil, "days31to60": nil, "days61to90": nil, "over90": nil,
        "amounts": TemplateScope(values: ["amount"]),
    ])
    /// The heads of the aging buckets, in order: `notDue`, or `between` (`low`–`high` days), or `over` (`low` days).
    public static let agingColumns = TemplateScope(values: ["notDue", "between", "over", "low", "high"])
    /// Credit notes, write-offs and the client's credit of one currency over the period (credit at the as-of date).
    public static let credits = TemplateScope(values: ["currency", "credited", "writtenOff", "credit"])
    /// How to pay an amount owed (a balance or an invoice): the amount, its currency and the payment reference; with
    /// a payee IBAN and for euros, the payee's name, IBAN, BIC and the EPC QR code (`qr`, inline SVG: `{{{qr}}}`);
    /// with a `payment_url`, the pay link (`payURL`).
    public static let pay = TemplateScope(values: ["amount", "currency", "reference", "payee", "iban", "bic", "qr", "payURL"])
    /// Names every Markdown page template has.
    public static let common = ["root", "siteTitle", "asOf", "baseURL"]
    static let link = TemplateScope(values: ["label", "href"])
    /// A tax figure on both bases.
    static let taxBases = ["accrualNet", "accrualTax", "cashNet", "cashTax"]

    /// The scope of each page template, by template name (file name without extension).
    public static let pages: [String: TemplateScope] = [
        "layout": TemplateScope(values: [
            "content", "root", "pageTitle", "siteTitle", "lang", "dir", "asOf", "canonical", "feed", "inlineStyle", "nav", "private", "buildID",
        ]),
        "changes": page([
            "hasPrevious": nil, "hasChanges": nil, "closedThrough": nil, "documentCount": nil, "figureCount": nil, "more": nil,
            "documents": TemplateScope(values: ["name", "change", "field", "before", "after", "closed"]),
            "figures": TemplateScope(values: ["name", "change", "field", "before", "after", "closed"]),
        ]),
        "overview": page([
            "firstMonth": nil, "lastMonth": nil, "monthCount": nil, "hasMonths": nil, "clientCount": nil, "hasTotals": nil,
            "totals": TemplateScope(values: figures),
            "aging": aging, "agingColumns": agingColumns,
            "charts": TemplateScope(values: ["currency", "svg", "caption"]),
            "months": TemplateScope([
                "label": nil, "month": nil, "href": nil,
                "totals": TemplateScope(values: figures + ["first"]),
            ]),
            "fiscalYearStart": nil, "fiscalSpan": nil, "years": link, "quarters": link,
            "hasOverdue": nil,
            "topOverdue": TemplateScope([
                "currency": nil, "clients": TemplateScope(values: ["rank"] + TemplateVariables.overdueColumns),
            ]),
            "topClients": TemplateScope([
                "currency": nil,
                "clients": TemplateScope(values: ["rank", "name", "number", "href", "invoiced", "paid", "outstanding"]),
            ]),
            // Schema v2 stores: shown only when there is something to show.
            "hasCredits": nil, "credits": credits,
            "hasTaxes": nil, "taxBasis": nil,
            "taxes": TemplateScope(values: ["currency", "tax", "rate", "net", "amount"]),
            // Only with --rates and --base-currency: the grand totals converted into one currency.
            "conversion": TemplateScope([
                "base": nil, "asOf": nil, "totalInvoiced": nil, "totalOutstanding": nil,
                "lines": TemplateScope(values: [
                    "currency", "invoiced", "outstanding", "rate", "rateDate", "convertedInvoiced", "convertedOutstanding",
                ]),
            ]),
        ]),
        "month": page([
            "label": nil, "month": nil, "hasTotals": nil, "previousLabel": nil,
            "totals": TemplateScope(values: figures + ["change"]),
            "currencies": TemplateScope([
                "currency": nil,
                "rows": TemplateScope(values: figures + ["name", "number", "href", "change"]),
                "total": TemplateScope(values: figures + ["change"]),
                "rowCount": nil, "pages": link,
            ]),
            "previous": link, "next": link,
        ]),
        "client": page([
            "name": nil, "number": nil, "email": nil, "emailURL": nil, "street": nil, "city": nil, "zip": nil,
            "country": nil, "hasAddress": nil, "statementHref": nil,
            "totals": TemplateScope(values: figures),
            "aging": aging, "agingColumns": agingColumns,
            "monthly": TemplateScope([
                "currency": nil,
                "months": TemplateScope(values: figures + ["label", "href"]),
            ]),
            "invoices": TemplateScope(values: ["identifier", "issued", "due", "paid", "amount", "status", "statusText", "notes"]),
            // When the invoices are more than a page: the links to their pages instead of `invoices`.
            "invoicePages": TemplateScope(["rowCount": nil, "pages": link]),
            // Schema v2 stores: shown only when there is something to show.
            "hasCredits": nil, "credits": credits,
            "hasBalances": nil, "balances": TemplateScope(values: ["identifier", "amount", "balance", "status", "statusText"]),
            "hasSetAside": nil, "setAside": TemplateScope(values: ["identifier", "issued", "amount", "status", "statusText"]),
            // With a payee (config `payee:`): each invoice still owed, with how to pay it.
            "hasToPay": nil, "toPay": TemplateScope(["identifier": nil, "due": nil, "pay": pay]),
        ]),
        "statement": page([
            "name": nil, "number": nil, "street": nil, "city": nil, "zip": nil, "country": nil, "hasAddress": nil,
            "clientHref": nil, "from": nil, "to": nil, "problem": nil, "printHref": nil, "agingColumns": agingColumns,
            "currencies": TemplateScope([
                "currency": nil, "opening": nil, "closing": nil, "charges": nil, "credits": nil,
                "notDue": nil, "days1to30": nil, "days31to60": nil, "days61to90": nil, "over90": nil,
                "amounts": TemplateScope(values: ["amount"]),
                "lines": TemplateScope(values: TemplateVariables.statementLineColumns),
                "rowCount": nil, "pages": link,
                "pay": pay,
            ]),
        ]),
        "client-list": page([
            "name": nil, "number": nil, "clientHref": nil, "page": nil, "rowCount": nil, "previous": link, "next": link,
            "invoices": TemplateScope(values: ["identifier", "issued", "due", "paid", "amount", "status", "statusText", "notes"]),
        ]),
        "statement-list": page([
            "name": nil, "number": nil, "currency": nil, "from": nil, "to": nil, "statementHref": nil, "printHref": nil,
            "page": nil, "rowCount": nil, "previous": link, "next": link, "broughtForward": nil, "carriedForward": nil,
            "lines": TemplateScope(values: TemplateVariables.statementLineColumns),
        ]),
        "period": page([
            "label": nil, "kind": nil, "firstMonth": nil, "lastMonth": nil, "complete": nil, "hasTotals": nil, "hasTaxes": nil, "csvHref": nil,
            "totals": TemplateScope(values: figures),
            "months": link,
            "taxes": TemplateScope(
                values: ["currency", "tax", "rate", "anchor"] + taxBases
            ).adding([
                "invoices": TemplateScope(values: TemplateVariables.taxInvoiceColumns), "hasQuarters": nil,
                "rowCount": nil, "pages": link,
                "quarters": TemplateScope(values: ["label", "href", "first"]),
            ]),
            "previous": link, "next": link,
        ]),
        "collections": page([
            "hasOverdue": nil, "hasDaysToPay": nil,
            "overdue": TemplateScope([
                "currency": nil, "clients": TemplateScope(values: TemplateVariables.overdueColumns),
                "rowCount": nil, "anchor": nil, "pages": link,
            ]),
            "daysToPay": TemplateScope(values: TemplateVariables.daysToPayColumns),
            "daysToPayPages": TemplateScope(["rowCount": nil, "anchor": nil, "pages": link]),
            "dso": TemplateScope(["currency": nil, "months": TemplateScope(values: TemplateVariables.dsoColumns)]),
        ]),
        "clients": page([
            "clients": TemplateScope(values: ["name", "number", "city", "href", "currencies", "invoices"]),
            "rowCount": nil, "pages": link,
        ]),
        "clients-list": page([
            "page": nil, "rowCount": nil, "previous": link, "next": link,
            "clients": TemplateScope(values: ["name", "number", "city", "href", "currencies", "invoices"]),
        ]),
        "month-list": page([
            "label": nil, "currency": nil, "page": nil, "monthHref": nil, "rowCount": nil, "previous": link, "next": link,
            "rows": TemplateScope(values: figures + ["name", "number", "href", "change"]),
        ]),
        "collections-list": page([
            "heading": nil, "page": nil, "rowCount": nil, "collectionsHref": nil, "previous": link, "next": link,
            "overdue": TemplateScope(["currency": nil, "clients": TemplateScope(values: TemplateVariables.overdueColumns)]),
            "daysToPay": TemplateScope(["clients": TemplateScope(values: TemplateVariables.daysToPayColumns)]),
        ]),
        "period-list": page([
            "label": nil, "currency": nil, "tax": nil, "rate": nil, "page": nil, "periodHref": nil, "rowCount": nil, "previous": link,
            "next": link, "invoices": TemplateScope(values: TemplateVariables.taxInvoiceColumns),
        ]),
        "404": page(["home": nil]),
    ]

    static func page(_ names: [String: TemplateScope?]) -> TemplateScope {
        TemplateScope(values: common).adding(names)
    }
}
