public import InvoicesCore

/// The figures of one client (or of everyone) in one currency over one period, in minor units.
///
/// Drafts and void invoices count in none of them (money received for them counts as received, and as the client's
/// credit). docs/exports.md says how each is computed.
public struct Figures: Sendable, Hashable {
    /// Gross amounts (net plus taxes) of the invoices issued in the period.
    public var invoiced: Int64 = 0
    /// Net amounts of the invoices issued in the period.
    public var net: Int64 = 0
    /// Taxes of the invoices issued in the period (``invoiced`` minus ``net``).
    public var tax: Int64 = 0
    /// Payments received in the period, refunds subtracted (cash basis). A v1 store: the amounts of the invoices
    /// paid in the period.
    public var paid: Int64 = 0
    /// Gross amounts of the credit notes issued in the period.
    public var credited: Int64 = 0
    /// Amounts written off in the period.
    public var writtenOff: Int64 = 0
    /// Balances owed at the end of the period: per invoice, its gross less the payments, applied credit notes and
    /// write-offs dated on or before that day, when positive.
    public var outstanding: Int64 = 0
    /// The part of ``outstanding`` that is past its due date at the end of the period.
    public var overdue: Int64 = 0
    /// The client's credit at the end of the period: overpayments, payments for void invoices and credit notes not
    /// applied (balances below zero, never netted against other invoices).
    public var credit: Int64 = 0
    /// How many invoices were issued in the period.
    public var invoices: Int = 0
    /// How many payments, refunds, credit notes and write-offs are dated in the period: a month whose payment and
    /// refund cancel out still had activity (``isActive``), though its sums are zero.
    public var movements: Int = 0

    /// Figures; `net` defaults to `invoiced` (no taxes).
    public init(
        invoiced: Int64 = 0, net: Int64? = nil, tax: Int64 = 0, paid: Int64 = 0, credited: Int64 = 0,
        writtenOff: Int64 = 0, outstanding: Int64 = 0, overdue: Int64 = 0, credit: Int64 = 0, invoices: Int = 0,
        movements: Int = 0
    ) {
        self.invoiced = invoiced
        self.net = net ?? invoiced
        self.tax = tax
        self.paid = paid
        self.credited = credited
        self.writtenOff = writtenOff
        self.outstanding = outstanding
        self.overdue = overdue
        self.credit = credit
        self.invoices = invoices
        self.movements = movements
    }

    /// The figures of consecutive months taken together (a quarter, a year): the flows (invoiced, paid, credited,
    /// written off, invoices) added, the balances (outstanding, overdue, credit) those at the last month's end; nil
    /// when a sum does not fit in 64-bit minor units, or for no months.
    public static func spanning(_ months: ArraySlice<Figures>) -> Figures? {
        guard var total = months.last else { return nil }
        total.invoiced = 0
        total.net = 0
        total.tax = 0
        total.paid = 0
        total.credited = 0
        total.writtenOff = 0
        total.invoices = 0
        total.movements = 0
        for month in months {
            guard checkedAdd(&total.invoiced, month.invoiced), checkedAdd(&total.net, month.net), checkedAdd(&total.tax, month.tax),
                checkedAdd(&total.paid, month.paid), checkedAdd(&total.credited, month.credited),
                checkedAdd(&total.writtenOff, month.writtenOff)
            else { return nil }
            total.invoices += month.invoices
            total.movements += month.movements
        }
        return total
    }

    /// Whether anything happened: an invoice issued, a payment or refund, a credit note or write-off (even when they
    /// sum to zero), or a balance either way.
    public var isActive: Bool {
        invoices > 0 || movements > 0 || paid != 0 || outstanding != 0 || credited != 0 || writtenOff != 0 || credit != 0
    }
}

/// The taxes of one currency, tax name and rate over one period, on both bases, in minor units.
public struct TaxFigures: Sendable, Hashable {
    /// Accrual basis (by issue date): the net the tax is levied on and the tax, of invoices less credit notes.
    public var accrualNet: Int64 = 0
    public var accrualTax: Int64 = 0
    /// Cash basis (by payment date): each payment's proportional share of its invoice's net and tax, rounded half to
    /// even per payment.
    public var cashNet: Int64 = 0
    public var cashTax: Int64 = 0

    public init(accrualNet: Int64 = 0, accrualTax: Int64 = 0, cashNet: Int64 = 0, cashTax: Int64 = 0) {
        self.accrualNet = accrualNet
        self.accrualTax = accrualTax
        self.cashNet = cashNet
        self.cashTax = cashTax
    }

    /// The taxes of consecutive months taken together; nil when a sum does not fit in 64-bit minor units.
    public static func spanning(_ months: ArraySlice<TaxFigures>) -> TaxFigures? {
        var total = TaxFigures()
        for month in months { guard total.add(month) else { return nil } }
        return total
    }

    /// Whether anything was taxed on either basis.
    public var isActive: Bool { accrualNet != 0 || accrualTax != 0 || cashNet != 0 || cashTax != 0 }

    /// The net and tax of `basis`.
    public func figures(_ basis: TaxBasis) -> (net: Int64, tax: Int64) {
        basis == .accrual ? (accrualNet, accrualTax) : (cashNet, cashTax)
    }

    mutating func add(_ other: TaxFigures) -> Bool {
        checkedAdd(&accrualNet, other.accrualNet) && checkedAdd(&accrualTax, other.accrualTax)
            && checkedAdd(&cashNet, other.cashNet) && checkedAdd(&cashTax, other.cashTax)
    }
}

/// The tax rule, written once: what one tax line of a sent document adds on each basis. ``Report/taxes`` (walking
/// each invoice's ledger events) and ``Report/taxSources(in:from:to:)`` (walking the payments) both count through
/// it, so the figures and the invoices behind them cannot disagree, and a change of the rule is made here alone.
///
/// ```swift
/// var figures = TaxFigures()
/// _ = TaxRule.addAccrual(line, kind: invoice.kind, to: &figures)            // on the issue date
/// _ = TaxRule.addCash(payment.amount, line, gross: invoice.amount, to: &figures) // on the payment's date
/// ```
enum TaxRule {
    /// Adds `line` on the accrual basis, counted on its document's issue date: the line's net and tax, an invoice's
    /// added, a credit note's subtracted. False when a sum overflows (both sums are still made, wrapping).
    @inline(__always)
    static func addAccrual(_ line: TaxLineSnapshot, kind: InvoiceKind, to figures: inout TaxFigures) -> Bool {
        let sign: Int64 = kind == .invoice ? 1 : -1
        let net = checkedAdd(&figures.accrualNet, sign &* line.net)
        let tax = checkedAdd(&figures.accrualTax, sign &* line.amount)
        return net && tax
    }

    /// Adds a payment's share of `line` on the cash basis, counted on the payment's date: `received` (negative for
    /// a refund) times the line's net, and its tax, over the document's `gross`, each rounded half to even
    /// (``proportionalShare(_:part:whole:)``). False when a sum overflows (both sums are still made, wrapping).
    @inline(__always)
    static func addCash(_ received: Int64, _ line: TaxLineSnapshot, gross: Int64, to figures: inout TaxFigures) -> Bool {
        let net = checkedAdd(&figures.cashNet, proportionalShare(received, part: line.net, whole: gross))
        let tax = checkedAdd(&figures.cashTax, proportionalShare(received, part: line.amount, whole: gross))
        return net && tax
    }
}

/// When a tax counts: when invoiced (accrual) or when paid (cash).
public enum TaxBasis: String, Sendable, CaseIterable {
    case accrual, cash
}

/// `amount × part / whole`, rounded half to even on its magnitude, exactly (a 128-bit product): a payment's share of
/// a tax line. `whole` (the invoice's gross) is positive; `part` may be negative (a zero-rated line of a correction,
/// issue 44) or above `whole` (a line whose net is more than a gross that a negative line lowers), and the share
/// takes the sign of `amount × part`. A share past 64 bits is clamped (it would need a payment of that size).
public func proportionalShare(_ amount: Int64, part: Int64, whole: Int64) -> Int64 {
    guard whole > 0 else { return 0 }
    let negative = (amount < 0) != (part < 0)
    let product = amount.magnitude.multipliedFullWidth(by: part.magnitude)
    guard product.high < UInt64(whole) else { return negative ? Int64.min : Int64.max }
    let (quotient, remainder) = UInt64(whole).dividingFullWidth(product)
    var result = quotient
    let twice = remainder.multipliedReportingOverflow(by: 2)
    if twice.overflow || twice.partialValue > UInt64(whole) || (twice.partialValue == UInt64(whole) && quotient % 2 == 1) {
        result &+= 1
    }
    let value = Int64(clamping: result)
    return negative ? -value : value
}

/// Outstanding amounts by how long they are past due, as of a date, in minor units: not yet due, then one amount
/// per bucket of ``AgingBuckets`` (the last one open-ended).
public struct Aging: Sendable, Hashable {
    /// The buckets in order, for tables: not yet due, then each bucket past due (``AgingBuckets/count`` in all).
    public var buckets: [Int64]

    /// Zero in every bucket of `limits`.
    public init(_ limits: AgingBuckets) {
        buckets = Array(repeating: 0, count: limits.count)
    }

    /// The amounts of the standard buckets (``AgingBuckets/standard``).
    public init(notDue: Int64 = 0, days1to30: Int64 = 0, days31to60: Int64 = 0, days61to90: Int64 = 0, over90: Int64 = 0) {
        buckets = [notDue, days1to30, days31to60, days61to90, over90]
    }

    /// Not yet due (due on or after the as-of date).
    public var notDue: Int64 { buckets.first ?? 0 }
    /// The amounts past due, bucket by bucket (every bucket but the first).
    public var pastDue: ArraySlice<Int64> { buckets.dropFirst() }
}

/// The buckets of aging (`aging_buckets`, `--aging-buckets`): increasing limits in days past due. `[30, 60, 90]`
/// (the default) makes the buckets not yet due, 1–30, 31–60, 61–90 and over 90 days.
public struct AgingBuckets: Sendable, Hashable, CustomStringConvertible {
    /// The default: 30, 60 and 90 days.
    public static let standard = AgingBuckets(checked: [30, 60, 90])
    /// The most limits a list may have.
    public static let maximumLimits = 8
    /// The largest limit, in days (about 27 years).
    public static let maximumDays = 9999

    /// The limits, increasing, each from 1 to ``maximumDays``.
    public let limits: [Int]

    private init(checked limits: [Int]) { self.limits = limits }

    /// The limits in `text`, comma-separated (`30,60,90`), or why they are refused.
    public static func parse(_ text: String) -> Result<AgingBuckets, AgingBucketsProblem> {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
            String($0.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        }
        guard !text.allSatisfy(\.isWhitespace) else {
            return .failure(AgingBucketsProblem("'\(text)' is empty; expected increasing days past due, e.g. 30,60,90"))
        }
        guard parts.count <= maximumLimits else {
            return .failure(AgingBucketsProblem("'\(text)' has \(parts.count) limits; at most \(maximumLimits) are allowed, e.g. 30,60,90"))
        }
        var limits: [Int] = []
        for part in parts {
            guard let days = Int(part), days >= 1, days <= maximumDays else {
                return .failure(AgingBucketsProblem("'\(text)': '\(part)' is not a number of days from 1 to \(maximumDays); expected increasing days past due, e.g. 30,60,90"))
            }
            if let last = limits.last, days <= last {
                return .failure(AgingBucketsProblem("'\(text)': \(days) does not follow \(last); the limits must increase, e.g. 30,60,90"))
            }
            limits.append(days)
        }
        return .success(AgingBuckets(checked: limits))
    }

    /// How many amounts an ``Aging`` holds: not yet due, one per limit, and the one past the last limit.
    public var count: Int { limits.count + 2 }

    /// The index in ``Aging/buckets`` of an amount `daysLate` days past due (0 or less: not yet due).
    public func index(daysLate: Int) -> Int {
        guard daysLate > 0 else { return 0 }
        for (offset, limit) in limits.enumerated() where daysLate <= limit { return offset + 1 }
        return limits.count + 1
    }

    /// The days each bucket covers: nil for not yet due; the last one has no upper bound.
    public var ranges: [(low: Int, high: Int?)?] {
        var result: [(low: Int, high: Int?)?] = [nil]
        var low = 1
        for limit in limits {
            result.append((low, limit))
            low = limit + 1
        }
        result.append((limits.last ?? 0, nil))
        return result
    }

    /// The column names of the buckets in aging.csv and report.json: `not_due`, `days_LOW_HIGH` for each limit, and
    /// `days_over_LAST` (`not_due`, `days_1_30`, `days_31_60`, `days_61_90`, `days_over_90` by default).
    public var columnNames: [String] {
        ranges.map { range in
            guard let range else { return "not_due" }
            guard let high = range.high else { return "days_over_\(range.low)" }
            return "days_\(range.low)_\(high)"
        }
    }

    /// `30,60,90`: as `--aging-buckets` takes it.
    public var description: String { limits.map(String.init).joined(separator: ",") }
}

/// Why a list of aging buckets is refused: the message names the value and what is expected.
public struct AgingBucketsProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// A sum did not fit in 64-bit minor units.
public struct ReportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The client whose total overflowed, or nil for a grand total.
    public var client: String?
    public var currency: CurrencyCode
    public var description: String {
        if let client {
            return "the \(currency) total of client \(client) does not fit in 64-bit minor units; check the store's amounts"
        }
        return "the \(currency) grand total does not fit in 64-bit minor units; check the store's amounts"
    }
}

/// Adds with an overflow check.
@inline(__always)
func checkedAdd(_ a: inout Int64, _ b: Int64) -> Bool {
    let (sum, overflow) = a.addingReportingOverflow(b)
    a = sum
    return !overflow
}

/// A currency and a tax (index in ``Books/taxes``): the key of a tax summary row.
public struct TaxKey: Sendable, Hashable {
    public var currency: CurrencyCode
    public var taxIndex: Int

    public init(currency: CurrencyCode, taxIndex: Int) {
        self.currency = currency
        self.taxIndex = taxIndex
    }
}

/// One invoice's (or credit note's) part of a tax summary row: the invoice behind the figures.
public struct TaxSource: Sendable, Equatable {
    /// Index in ``Books/invoices``.
    public var invoiceIndex: Int
    public var figures: TaxFigures
}

extension Report {
    /// The invoices behind the taxes of the days `from...to`, per currency and tax, in invoice order: on the accrual
    /// basis each sent invoice issued in those days with its tax line (a credit note's subtracted), on the cash basis
    /// each payment's proportional share of the line (rounded half to even per payment), as ``Report/taxes`` counts
    /// them. The sums of a row's sources are its figures over those days.
    public static func taxSources(in books: Books, from: CalendarDate, to: CalendarDate) -> [TaxKey: [TaxSource]] {
        taxSources(in: books, from: from, to: to, lines: books.taxLines.indices)
    }

    /// The same sources from the tax lines at `lines` (indices in ``Books/taxLines``, ascending) alone: the same
    /// lists whenever `lines` holds every line of each invoice issued or paid in those days, as
    /// ``taxLines(in:periods:)`` gives them, without a pass over every line.
    public static func taxSources<Lines: Sequence<Int>>(in books: Books, from: CalendarDate, to: CalendarDate, lines: Lines) -> [TaxKey: [TaxSource]] {
        var sources: [TaxKey: [TaxSource]] = [:]
        // The tax lines and the payments are both sorted by invoice: the first payment of each line's invoice is
        // found from the previous line's, forward, not by a search over every payment per line.
        var firstPayment = 0
        for position in lines {
            let line = books.taxLines[position]
            let index = Int(line.invoiceIndex)
            firstPayment = Self.firstPayment(of: line.invoiceIndex, in: books.payments, from: firstPayment)
            let invoice = books.invoices[index]
            guard invoice.counts else { continue }
            // Sums that overflow wrap here: Report's figures, computed first, refuse them.
            var figures = TaxFigures()
            if invoice.issued >= from, invoice.issued <= to {
                _ = TaxRule.addAccrual(line, kind: invoice.kind, to: &figures)
            }
            var payment = firstPayment
            while payment < books.payments.count, books.payments[payment].invoiceIndex == line.invoiceIndex {
                let paid = books.payments[payment]
                payment += 1
                guard paid.date >= from, paid.date <= to else { continue }
                _ = TaxRule.addCash(paid.amount, line, gross: invoice.amount, to: &figures)
            }
            guard figures.isActive || (invoice.issued >= from && invoice.issued <= to) else { continue }
            let key = TaxKey(currency: books.currencies[Int(invoice.currencyIndex)], taxIndex: Int(line.taxIndex))
            sources[key, default: []].append(TaxSource(invoiceIndex: index, figures: figures))
        }
        // A list grows by doubling: each is copied to its own length, so the sources a build holds through the
        // render are not up to twice their size (docs/performance.md, "The figures held through the render").
        return sources.mapValues { list in
            [TaxSource](unsafeUninitializedCapacity: list.count) { buffer, count in count = buffer.initialize(fromContentsOf: list) }
        }
    }

    /// The index of the first payment of `invoice` in `payments` (sorted by invoice index), or of the first payment
    /// of a later invoice when it has none, searched forward from `start` (at most that index): a step when the
    /// next invoice's payments follow, a galloping search past invoices without tax lines.
    static func firstPayment(of invoice: Int32, in payments: [PaymentSnapshot], from start: Int) -> Int {
        var low = start
        guard low < payments.count, payments[low].invoiceIndex < invoice else { return low }
        // payments[low] is before the invoice's; the first that is not lies in low + 1 ... high.
        var step = 1, high = low + 1
        while high < payments.count, payments[high].invoiceIndex < invoice {
            low = high
            step *= 2
            high = low + step
        }
        return Self.first(of: Int(invoice), in: payments, within: (low + 1)..<min(high, payments.count)) { $0.invoiceIndex }
    }

    /// Per entry of `periods` (its first and last day; nil for none), the indices in ``Books/taxLines``, ascending,
    /// of every line of each invoice that counts and was issued, or has a payment dated, in those days: the lines
    /// ``taxSources(in:from:to:lines:)`` needs for the period's sources, in one pass over the lines and payments.
    /// The periods must not overlap (a report's fiscal quarters do not).
    public static func taxLines(in books: Books, periods: [ClosedRange<CalendarDate>?]) -> [[Int32]] {
        // The periods by their first day, to find a date's by a binary search.
        let ordered = periods.indices.compactMap { position in periods[position].map { (days: $0, position: position) } }
            .sorted { $0.days.lowerBound < $1.days.lowerBound }
        func period(of date: CalendarDate) -> Int? {
            var low = 0, high = ordered.count
            while low < high {
                let middle = (low + high) / 2
                if ordered[middle].days.lowerBound <= date { low = middle + 1 } else { high = middle }
            }
            guard low > 0, ordered[low - 1].days.contains(date) else { return nil }
            return ordered[low - 1].position
        }
        var lines = [[Int32]](repeating: [], count: periods.count)
        var touched: [Int] = []
        var firstPayment = 0
        var line = 0
        while line < books.taxLines.count {
            let invoiceIndex = books.taxLines[line].invoiceIndex
            var end = line + 1
            while end < books.taxLines.count, books.taxLines[end].invoiceIndex == invoiceIndex { end += 1 }
            defer { line = end }
            let invoice = books.invoices[Int(invoiceIndex)]
            guard invoice.counts else { continue }
            touched.removeAll(keepingCapacity: true)
            if let issued = period(of: invoice.issued) { touched.append(issued) }
            firstPayment = Self.firstPayment(of: invoiceIndex, in: books.payments, from: firstPayment)
            var payment = firstPayment
            while payment < books.payments.count, books.payments[payment].invoiceIndex == invoiceIndex {
                if let paid = period(of: books.payments[payment].date), !touched.contains(paid) { touched.append(paid) }
                payment += 1
            }
            for position in touched {
                for index in line..<end { lines[position].append(Int32(index)) }
            }
        }
        // Each list at its length: they are held through the render (docs/performance.md, "The peak at L under 1 GB").
        return lines.map { list in
            [Int32](unsafeUninitializedCapacity: list.count) { buffer, count in count = buffer.initialize(fromContentsOf: list) }
        }
    }
}
