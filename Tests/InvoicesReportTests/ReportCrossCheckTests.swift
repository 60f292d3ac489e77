import Foundation
import GRDB
import InvoicesApp
import InvoicesCore
import InvoicesReport
import InvoicesStore
import InvoicesTesting
import Testing

/// Every figure of a report on a generated store, computed the way `build` computes it (the store file behind a
/// read-only main context, the totals in a private child context: ``BooksAndReport/read(store:period:)``) and a
/// second way: SQL GROUP BY over the same SQLite file.

struct ReportCrossCheckTests {
    /// Per client number, currency code and month (`YYYY-MM`).
    struct Key: Hashable, CustomStringConvertible {
        var client: String
        var currency: String
        var month: String
        var description: String { "\(client) \(currency) \(month)" }
    }

    static let store: Result<String, any Error> = Result {
        let folder = try TemporaryFolder("cross-check")
        let path = folder.path("generated.sqlite")
        try SampleGenerator(clients: 60, invoices: 4_000, seed: 20_250_601).write(to: path)
        return path
    }

    func open() throws -> (path: String, books: Books, queue: DatabaseQueue) {
        let path = try Self.store.get()
        var configuration = Configuration()
        configuration.readonly = true
        return (path, try BooksStore(path: path).books, try DatabaseQueue(path: path, configuration: configuration))
    }

    /// The report as `build` computes it: through the contexts, from the store file.
    func production(_ period: ReportPeriod = ReportPeriod()) async throws -> Report {
        try await BooksAndReport.read(store: BooksStore(path: Self.store.get()), period: period).report
    }

    @Test func theGeneratedStoreHasEveryKindOfCurrency() throws {
        let (_, books, _) = try open()
        let digits = Set(books.currencies.map(\.minorUnitDigits))
        #expect(digits == [0, 2, 3])
        #expect(books.currencies.map(\.code).contains("JPY"))
        #expect(books.currencies.map(\.code).contains("KWD"))
    }

    @Test func monthlyFiguresMatchSQL() async throws {
        let (_, books, queue) = try open()
        let report = try await production()
        #expect(try Report(books: books) == report)
        // The span, independently: first issue month to the last issue or payment month.
        let span = try queue.readNow { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT substr(min(issuedOn), 1, 7) AS first,
                           substr(max(max(issuedOn, coalesce(paidOn, issuedOn))), 1, 7) AS last FROM invoice
                    """)
        }
        let first: String = try #require(span)["first"]
        let last: String = try #require(span)["last"]
        #expect(report.months.first?.description == first)
        #expect(report.months.last?.description == last)
        #expect(report.months.count == 24)

        var expected: [Key: Figures] = [:]
        try queue.readNow { db in
            let issued = try Row.fetchAll(
                db,
                sql: """
                    SELECT c.number, i.currency, substr(i.issuedOn, 1, 7) AS month, sum(i.amount) AS total, count(*) AS n
                    FROM invoice i JOIN client c ON c.id = i.clientId GROUP BY 1, 2, 3
                    """)
            for row in issued {
                let key = Key(client: row["number"], currency: row["currency"], month: row["month"])
                expected[key, default: Figures()].invoiced = row["total"]
                expected[key, default: Figures()].invoices = row["n"]
            }
            let paid = try Row.fetchAll(
                db,
                sql: """
                    SELECT c.number, i.currency, substr(i.paidOn, 1, 7) AS month, sum(i.amount) AS total
                    FROM invoice i JOIN client c ON c.id = i.clientId WHERE i.paidOn IS NOT NULL GROUP BY 1, 2, 3
                    """)
            for row in paid {
                expected[Key(client: row["number"], currency: row["currency"], month: row["month"]), default: Figures()]
                    .paid = row["total"]
            }
            // Outstanding and overdue at each month's end; SQLite's date() finds the last day of the month.
            let balances = try Row.fetchAll(
                db,
                sql: """
                    WITH RECURSIVE months(m) AS (
                        SELECT '\(first)' UNION ALL
                        SELECT strftime('%Y-%m', date(m || '-01', '+1 month')) FROM months WHERE m < '\(last)'),
                    ends(m, lastDay) AS (SELECT m, date(m || '-01', '+1 month', '-1 day') FROM months)
                    SELECT c.number, i.currency, e.m AS month, sum(i.amount) AS outstanding,
                           sum(CASE WHEN i.dueOn < e.lastDay THEN i.amount ELSE 0 END) AS overdue
                    FROM ends e
                    JOIN invoice i ON i.issuedOn <= e.lastDay AND (i.paidOn IS NULL OR i.paidOn > e.lastDay)
                    JOIN client c ON c.id = i.clientId
                    GROUP BY 1, 2, 3
                    """)
            for row in balances {
                let key = Key(client: row["number"], currency: row["currency"], month: row["month"])
                expected[key, default: Figures()].outstanding = row["outstanding"]
                expected[key, default: Figures()].overdue = row["overdue"]
            }
        }
        #expect(expected.count > 500)
        #expect(expected.values.contains { $0.overdue > 0 })

        var actual: [Key: Figures] = [:]
        var grand: [Key: Figures] = [:]
        for totals in report.clients {
            let number = books.clients[totals.clientIndex].number
            for entry in totals.currencies {
                for (offset, figures) in entry.months.enumerated() where figures != Figures() {
                    let key = Key(client: number, currency: entry.currency.code, month: report.months[offset].description)
                    actual[key] = figures
                    var sum = grand[Key(client: "", currency: key.currency, month: key.month), default: Figures()]
                    sum.invoiced += figures.invoiced
                    sum.paid += figures.paid
                    sum.outstanding += figures.outstanding
                    sum.overdue += figures.overdue
                    sum.invoices += figures.invoices
                    grand[Key(client: "", currency: key.currency, month: key.month)] = sum
                }
            }
        }
        // Every cell, both ways, to the minor unit.
        for key in Set(expected.keys).union(actual.keys) {
            #expect(actual[key] == expected[key], "\(key)")
        }
        // Grand totals per currency and month are the sums of the clients' cells.
        for totals in report.currencies {
            for (offset, figures) in totals.months.enumerated() {
                let key = Key(client: "", currency: totals.currency.code, month: report.months[offset].description)
                #expect(figures == grand[key] ?? Figures(), "\(key)")
            }
        }
    }

    @Test(arguments: ["2024-07-15", "2025-02-28", "2025-12-31"])
    func agingAndPeriodFiguresMatchSQL(asOfText: String) async throws {
        let (_, books, queue) = try open()
        let asOf = try #require(CalendarDate(iso: asOfText))
        let report = try await production(ReportPeriod(asOf: asOf))
        #expect(report.asOf == asOf)
        var expected: [Key: (aging: Aging, invoiced: Int64, paid: Int64, invoices: Int)] = [:]
        try queue.readNow { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT c.number, i.currency,
                      sum(CASE WHEN late <= 0 THEN amount ELSE 0 END) AS notDue,
                      sum(CASE WHEN late BETWEEN 1 AND 30 THEN amount ELSE 0 END) AS d30,
                      sum(CASE WHEN late BETWEEN 31 AND 60 THEN amount ELSE 0 END) AS d60,
                      sum(CASE WHEN late BETWEEN 61 AND 90 THEN amount ELSE 0 END) AS d90,
                      sum(CASE WHEN late > 90 THEN amount ELSE 0 END) AS over
                    FROM (SELECT clientId, currency, amount,
                                 CAST(julianday('\(asOfText)') - julianday(dueOn) AS INTEGER) AS late
                          FROM invoice WHERE issuedOn <= '\(asOfText)' AND (paidOn IS NULL OR paidOn > '\(asOfText)')) i
                    JOIN client c ON c.id = i.clientId GROUP BY 1, 2
                    """)
            for row in rows {
                let key = Key(client: row["number"], currency: row["currency"], month: "")
                expected[key, default: (Aging(), 0, 0, 0)].aging = Aging(
                    notDue: row["notDue"], days1to30: row["d30"], days31to60: row["d60"], days61to90: row["d90"],
                    over90: row["over"])
            }
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT c.number, i.currency, sum(amount) AS invoiced, count(*) AS n,
                           sum(CASE WHEN paidOn IS NOT NULL THEN amount ELSE 0 END) AS paid
                    FROM invoice i JOIN client c ON c.id = i.clientId GROUP BY 1, 2
                    """)
            {
                let key = Key(client: row["number"], currency: row["currency"], month: "")
                expected[key, default: (Aging(), 0, 0, 0)].invoiced = row["invoiced"]
                expected[key, default: (Aging(), 0, 0, 0)].paid = row["paid"]
                expected[key, default: (Aging(), 0, 0, 0)].invoices = row["n"]
            }
        }
        var seen = 0
        var outstandingClients = 0
        for totals in report.clients {
            let number = books.clients[totals.clientIndex].number
            for entry in totals.currencies {
                let key = Key(client: number, currency: entry.currency.code, month: "")
                let want = try #require(expected[key], "\(key)")
                seen += 1
                #expect(entry.aging == want.aging, "\(key)")
                let outstanding = want.aging.buckets.reduce(0, +)
                if outstanding > 0 { outstandingClients += 1 }
                #expect(entry.period.outstanding == outstanding, "\(key)")
                #expect(entry.period.overdue == outstanding - want.aging.notDue, "\(key)")
                // The period is every month of the store, whatever the as-of date.
                #expect(entry.period.invoiced == want.invoiced, "\(key)")
                #expect(entry.period.paid == want.paid, "\(key)")
                #expect(entry.period.invoices == want.invoices, "\(key)")
            }
        }
        #expect(seen == expected.count)
        #expect(outstandingClients > 0)
    }
}

extension ReportCrossCheckTests {
    @Test(arguments: ["2024-01", "2024-12", "2025-03", "2025-12"])
    func oneMonthReportsAgreeWithTheFullReport(monthText: String) async throws {
        let (_, books, _) = try open()
        let month = try #require(YearMonth(iso: monthText))
        let full = try await production()
        let single = try await production(ReportPeriod(month: month))
        #expect(try Report(books: books, period: ReportPeriod(month: month)) == single)
        let column = try #require(full.months.firstIndex(of: month))
        #expect(single.months == [month])
        #expect(single.asOf == month.lastDay)
        var compared = 0
        for totals in full.clients {
            for entry in totals.currencies {
                let other = try #require(
                    single.clients.first { $0.clientIndex == totals.clientIndex }?.currencies.first {
                        $0.currency == entry.currency
                    })
                #expect(other.months == [entry.months[column]])
                if column > 0 { #expect(other.previousMonth == entry.months[column - 1]) }
                #expect(other.period.invoiced == entry.months[column].invoiced)
                #expect(other.period.paid == entry.months[column].paid)
                #expect(other.period.outstanding == entry.months[column].outstanding)
                #expect(other.period.overdue == entry.months[column].overdue)
                compared += 1
            }
        }
        #expect(compared > 0)
    }
}

extension DatabaseQueue {
    /// GRDB's synchronous read, callable from the async tests above (which would otherwise pick the async one).
    func readNow<T>(_ body: (Database) throws -> T) throws -> T { try read(body) }
}
