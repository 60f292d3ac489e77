import Foundation
internal import InvoicesCore
internal import InvoicesReport

/// Two values of a context in one object: the fields of both, `second`'s over `first`'s for a name in both (a row
/// of figures with a field of its own, a list page's common fields with its list's).
struct Joined<First: Codable & Sendable, Second: Codable & Sendable>: Codable, Sendable {
    var first: First
    var second: Second

    init(_ first: First, _ second: Second) {
        self.first = first
        self.second = second
    }

    init(from decoder: any Decoder) throws {
        first = try First(from: decoder)
        second = try Second(from: decoder)
    }

    func encode(to encoder: any Encoder) throws {
        try first.encode(to: encoder)
        try second.encode(to: encoder)
    }
}

/// A context made of two (a client's address and its page's fields).
extension Joined: PageContext {}

/// The figures of one currency over a period, formatted: every row of `totals` (``TemplateVariables/figures``).
struct FiguresRow: Codable, Sendable {
    var currency: String
    var invoiced: String
    var paid: String
    var outstanding: String
    var overdue: String
    var invoices: String
}

/// The first row of a month's totals on the overview.
struct FirstRow: Codable, Sendable {
    var first: Bool?
}

/// A month's change of the amount invoiced against the month before.
struct MonthChange: Codable, Sendable {
    var change: String
}

/// One currency's aging: every bucket in order (`amounts`, not yet due first) and, with the default buckets, each
/// by name.
struct AgingRow: Codable, Sendable {
    struct Amount: Codable, Sendable { var amount: String }
    var currency: String
    var notDue: String
    var amounts: [Amount]
    var days1to30: String?
    var days31to60: String?
    var days61to90: String?
    var over90: String?
}

/// The head of one aging bucket: `notDue`, or `between` (`low`–`high` days), or `over` (`low` days). Every field
/// is set on every head: a missing one would be looked up in the enclosing context.
struct AgingColumn: Codable, Sendable {
    var notDue: Bool
    var between: Bool
    var over: Bool
    var low: String
    var high: String
}

/// Credit notes, write-offs and the client's credit of one currency over the period.
struct CreditsRow: Codable, Sendable {
    var currency: String
    var credited: String
    var writtenOff: String
    var credit: String
}

extension SiteView {
    /// `figures` of `currency`, formatted (``figuresCell(_:_:_:)``).
    func figuresFields(_ figures: Figures, _ currency: CurrencyCode) -> FiguresRow {
        FiguresRow(
            currency: currency.code, invoiced: money(figures.invoiced, currency), paid: money(figures.paid, currency),
            outstanding: money(figures.outstanding, currency), overdue: money(figures.overdue, currency), invoices: count(figures.invoices))
    }

    /// One currency's aging (``agingRow(_:_:)``), typed.
    func agingFields(_ aging: Aging, _ currency: CurrencyCode) -> AgingRow {
        var row = AgingRow(currency: currency.code, notDue: money(aging.notDue, currency), amounts: aging.buckets.map { AgingRow.Amount(amount: money($0, currency)) })
        if report.agingBuckets == .standard, aging.buckets.count == 5 {
            let past = aging.pastDue.map { money($0, currency) }
            if past.count == 4 { (row.days1to30, row.days31to60, row.days61to90, row.over90) = (past[0], past[1], past[2], past[3]) }
        }
        return row
    }

    /// The heads of the aging buckets (``agingColumns``), typed.
    var agingHeads: [AgingColumn] {
        report.agingBuckets.ranges.map { range in
            guard let range else { return AgingColumn(notDue: true, between: false, over: false, low: "", high: "") }
            guard let high = range.high else { return AgingColumn(notDue: false, between: false, over: true, low: String(range.low), high: "") }
            return AgingColumn(notDue: false, between: true, over: false, low: String(range.low), high: String(high))
        }
    }

    /// The rows of `credits` (``creditsContext(_:)``): per currency with a credit note, a write-off or a client credit.
    func creditRows(_ entries: [(CurrencyCode, Figures)]) -> [CreditsRow] {
        entries.filter { $0.1.credited != 0 || $0.1.writtenOff != 0 || $0.1.credit != 0 }.map {
            CreditsRow(currency: $0.0.code, credited: money($0.1.credited, $0.0), writtenOff: money($0.1.writtenOff, $0.0), credit: money($0.1.credit, $0.0))
        }
    }
}
