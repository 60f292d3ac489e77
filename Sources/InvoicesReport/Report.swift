public import InvoicesCore

/// The numbers of a report: per client, per currency and per month, with grand totals and aging.
///
/// Amounts are minor units of the currency they are listed under; different currencies are never added.
public struct Report: Sendable, Equatable {
    /// One client's figures in one currency.
    public struct ClientCurrency: Sendable, Equatable {
        public var currency: CurrencyCode
        /// Index into ``Report/months``: figures for each month (outstanding and overdue at the month's end).
        public var months: [Figures]
        /// Figures for the month before the first reported one, for comparisons.
        public var previousMonth: Figures
        /// Figures for the whole period (outstanding and overdue at ``Report/asOf``).
        public var period: Figures
        /// Outstanding amounts by days past due at ``Report/asOf``.
        public var aging: Aging
    }

    /// One client's figures, one entry per currency the client has invoices in, ordered by currency code.
    public struct ClientTotals: Sendable, Equatable {
        /// Index of the client in ``Books/clients``.
        public var clientIndex: Int
        public var currencies: [ClientCurrency]
    }

    /// Grand totals of one currency.
    public struct CurrencyTotals: Sendable, Equatable {
        public var currency: CurrencyCode
        public var months: [Figures]
        public var previousMonth: Figures
        public var period: Figures
        public var aging: Aging
    }

    /// The reported months, in order: empty only when the store has no invoices and no month was asked for.
    public var months: [YearMonth]
    /// The date outstanding, overdue and aging are measured at for the period; nil only when there is no period
    /// (no invoices, no month and no as-of date asked for).
    public var asOf: CalendarDate?
    /// One entry per client that has invoices, in the order of ``Books/clients``.
    public var clients: [ClientTotals]
    /// Grand totals per currency, ordered by currency code.
    public var currencies: [CurrencyTotals]
    /// The buckets of every ``Aging`` in the report (``ReportPeriod/agingBuckets``).
    public var agingBuckets = AgingBuckets.standard

    /// The taxes of one currency, tax name and rate.
    public struct TaxTotals: Sendable, Equatable {
        public var currency: CurrencyCode
        /// Index of the tax in ``Books/taxes``.
        public var taxIndex: Int
        /// Index into ``Report/months``.
        public var months: [TaxFigures]
        public var period: TaxFigures
    }

    /// Taxes per currency (in code order), then tax (in ``Books/taxes`` order); empty without tax lines.
    public var taxes: [TaxTotals] = []
    /// The balance at ``asOf`` of each invoice whose balance is not what a paid-in-full reading gives (its gross
    /// before its settled date, zero from it): partly paid, credited, written off, overpaid, refunded, and drafts,
    /// voids and credit notes with money or credit on them. Keyed by index in ``Books/invoices``; empty for a v1
    /// store. A negative balance is the client's credit.
    public var balances: [Int: Int64] = [:]

    /// The balance of invoice `index` at ``asOf``.
    public func balance(of index: Int, in books: Books) -> Int64 {
        if let balance = balances[index] { return balance }
        let invoice = books.invoices[index]
        guard let asOf, invoice.counts, invoice.kind == .invoice, invoice.issued <= asOf else { return 0 }
        return invoice.paid.map { $0 <= asOf } == true ? 0 : invoice.amount
    }

    init(months: [YearMonth], asOf: CalendarDate?, clients: [ClientTotals], currencies: [CurrencyTotals]) {
        self.months = months
        self.asOf = asOf
        self.clients = clients
        self.currencies = currencies
    }
}

/// What a report covers.
public struct ReportPeriod: Sendable, Equatable {
    /// One month only, or nil for every month in the store (or ``months``).
    public var month: YearMonth?
    /// A span of months, when ``month`` is nil; nil for every month in the store.
    public var months: ClosedRange<YearMonth>?
    /// The as-of date, or nil for the last day of the latest month reported.
    public var asOf: CalendarDate?
    /// The buckets aging splits the outstanding into (`aging_buckets`); 30, 60 and 90 days by default.
    public var agingBuckets = AgingBuckets.standard

    public init(month: YearMonth? = nil, asOf: CalendarDate? = nil) {
        self.month = month
        self.asOf = asOf
    }

    /// A span of months.
    public init(months: ClosedRange<YearMonth>, asOf: CalendarDate? = nil) {
        self.months = months
        self.asOf = asOf
    }
}
