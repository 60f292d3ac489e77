public import InvoicesCore

/// Who owes what and how late, and how long clients take to pay, as of ``Report/asOf``.
///
/// - Overdue: per currency, every client with an overdue balance, largest first: the overdue amount (the aging
///   buckets past due), the outstanding, how many invoices are overdue, and the days past due of the oldest.
/// - Days to pay: per client, over the invoices issued in the report's period and settled by the as-of date
///   (``InvoiceSnapshot/paid``), the days from issue to settled: the median and the 90th percentile, both by the
///   nearest-rank method (the value at position ⌈p × n⌉ of the sorted days; for the median of an even count, the
///   lower of the two middle values), so each is a number of days some invoice took.
/// - DSO (days sales outstanding) per currency and month: the outstanding at the month's end divided by the
///   amount invoiced in the month, times the days in the month; none for a month with nothing invoiced.
public struct Collections: Sendable, Equatable {
    public struct Overdue: Sendable, Equatable {
        /// Index of the client in ``Books/clients``.
        public var clientIndex: Int
        public var currency: CurrencyCode
        public var overdue: Int64
        public var outstanding: Int64
        /// Invoices with a balance past their due date.
        public var invoices: Int
        /// Days past due of the oldest of them.
        public var oldestDaysLate: Int
    }

    public struct DaysToPay: Sendable, Equatable {
        public var clientIndex: Int
        /// Invoices issued in the period and settled by the as-of date.
        public var settled: Int
        public var median: Int
        public var percentile90: Int
    }

    public struct SalesOutstanding: Sendable, Equatable {
        public var currency: CurrencyCode
        /// Per reported month: days sales outstanding, or nil when nothing was invoiced in the month.
        public var months: [Double?]
    }

    /// Per currency (in code order), clients by overdue amount, largest first (ties in client order).
    public var overdue: [[Overdue]]
    /// Clients with at least one settled invoice, in client order.
    public var daysToPay: [DaysToPay]
    /// Per currency, in code order.
    public var salesOutstanding: [SalesOutstanding]

    public init(books: Books, report: Report) {
        var late: [Int: (invoices: Int, oldest: Int)] = [:]  // by client × currencies + currency
        var days: [Int: [Int]] = [:]
        let currencyCount = max(books.currencies.count, 1)
        if let asOf = report.asOf, let first = report.months.first {
            let from = first.firstDay
            for index in books.invoices.indices {
                let invoice = books.invoices[index]
                guard invoice.counts, invoice.kind == .invoice else { continue }
                let client = Int(invoice.clientIndex)
                if invoice.due < asOf, report.balance(of: index, in: books) > 0 {
                    let key = client * currencyCount + Int(invoice.currencyIndex)
                    let daysLate = Int(asOf.dayNumber - invoice.due.dayNumber)
                    let current = late[key] ?? (0, 0)
                    late[key] = (current.invoices + 1, max(current.oldest, daysLate))
                }
                if let paid = invoice.paid, paid <= asOf, invoice.issued >= from, invoice.issued <= asOf {
                    days[client, default: []].append(Int(paid.dayNumber - invoice.issued.dayNumber))
                }
            }
        }
        overdue = report.currencies.map { currency in
            let code = books.currencies.firstIndex(of: currency.currency) ?? 0
            var rows: [Overdue] = []
            for client in report.clients {
                guard let entry = client.currencies.first(where: { $0.currency == currency.currency }), entry.period.overdue > 0 else { continue }
                let facts = late[client.clientIndex * currencyCount + code] ?? (0, 0)
                rows.append(
                    Overdue(
                        clientIndex: client.clientIndex, currency: currency.currency, overdue: entry.period.overdue,
                        outstanding: entry.period.outstanding, invoices: facts.invoices, oldestDaysLate: facts.oldest))
            }
            rows.sort { $0.overdue != $1.overdue ? $0.overdue > $1.overdue : $0.clientIndex < $1.clientIndex }
            return rows
        }
        daysToPay = days.keys.sorted().map { client in
            let sorted = days[client]!.sorted()
            return DaysToPay(
                clientIndex: client, settled: sorted.count, median: Self.nearestRank(sorted, percent: 50),
                percentile90: Self.nearestRank(sorted, percent: 90))
        }
        salesOutstanding = report.currencies.map { currency in
            SalesOutstanding(
                currency: currency.currency,
                months: report.months.indices.map { offset in
                    let figures = currency.months[offset]
                    guard figures.invoiced > 0 else { return nil }
                    let month = report.months[offset]
                    let length = Double(month.lastDay.dayNumber - month.firstDay.dayNumber + 1)
                    return Double(figures.outstanding) / Double(figures.invoiced) * length
                })
        }
    }

    /// The value at position ⌈percent × count / 100⌉ (1-based) of `sorted`, which is not empty.
    public static func nearestRank(_ sorted: [Int], percent: Int) -> Int {
        let rank = (percent * sorted.count + 99) / 100
        return sorted[max(rank, 1) - 1]
    }
}
