public import InvoicesCore

/// The figures of one client (or of everyone) in one currency over one period, in minor units.
public struct Figures: Sendable, Hashable {
    /// Sum of the amounts of invoices issued in the period.
    public var invoiced: Int64 = 0
    /// Sum of the amounts of invoices paid in the period (an invoice is paid in full on its paid date).
    public var paid: Int64 = 0
    /// Sum of the amounts issued on or before the end of the period and not paid by then.
    public var outstanding: Int64 = 0
    /// The part of ``outstanding`` that is past its due date at the end of the period.
    public var overdue: Int64 = 0
    /// How many invoices were issued in the period.
    public var invoices: Int = 0

    public init(invoiced: Int64 = 0, paid: Int64 = 0, outstanding: Int64 = 0, overdue: Int64 = 0, invoices: Int = 0) {
        self.invoiced = invoiced
        self.paid = paid
        self.outstanding = outstanding
        self.overdue = overdue
        self.invoices = invoices
    }

    /// Whether anything happened: an invoice issued or paid, or a balance outstanding.
    public var isActive: Bool { invoices > 0 || paid != 0 || outstanding != 0 }
}

/// Outstanding amounts by how long they are past due, as of a date, in minor units.
public struct Aging: Sendable, Hashable {
    /// Not yet due (due on or after the as-of date).
    public var notDue: Int64 = 0
    public var days1to30: Int64 = 0
    public var days31to60: Int64 = 0
    public var days61to90: Int64 = 0
    public var over90: Int64 = 0

    public init(notDue: Int64 = 0, days1to30: Int64 = 0, days31to60: Int64 = 0, days61to90: Int64 = 0, over90: Int64 = 0) {
        self.notDue = notDue
        self.days1to30 = days1to30
        self.days31to60 = days31to60
        self.days61to90 = days61to90
        self.over90 = over90
    }

    /// The buckets in order, for tables.
    public var buckets: [Int64] { [notDue, days1to30, days31to60, days61to90, over90] }
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
