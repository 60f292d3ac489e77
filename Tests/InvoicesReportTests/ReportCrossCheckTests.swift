import Foundation
import GRDB
import InvoicesApp
import InvoicesCore
import InvoicesReport
import InvoicesStore
import InvoicesTesting
import Testing

/// Every figure of a report on a generated store, computed the way `build` computes it (the store file behind a
/// read-only main context, the totals in a private child context: ``BooksAndReport/read(store:period:fiscalYearStart:)``) and a
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

    /// Every balance event of the v2 store, in SQL: issues, credit notes (and their application), payments,
    /// write-offs. Columns: invoiceId, day, delta.
    static let events = """
        events(invoiceId, day, delta) AS (
            SELECT id, issuedOn, amount FROM invoice WHERE status = 'sent' AND kind = 'invoice'
            UNION ALL SELECT id, issuedOn, -amount FROM invoice WHERE status = 'sent' AND kind = 'credit'
            UNION ALL SELECT n.id, n.appliedOn, n.amount FROM invoice n JOIN invoice t ON t.id = n.correctsId
                WHERE n.status = 'sent' AND n.kind = 'credit' AND n.appliedOn IS NOT NULL AND t.status = 'sent'
            UNION ALL SELECT n.correctsId, n.appliedOn, -n.amount FROM invoice n JOIN invoice t ON t.id = n.correctsId
                WHERE n.status = 'sent' AND n.kind = 'credit' AND n.appliedOn IS NOT NULL AND t.status = 'sent'
            UNION ALL SELECT invoiceId, paidOn, -amount FROM payment
            UNION ALL SELECT w.invoiceId, w.writtenOffOn, -w.amount FROM writeOff w JOIN invoice i ON i.id = w.invoiceId
                WHERE i.status = 'sent' AND i.kind = 'invoice')
        """

    /// Balances per client and currency at `day` (an SQL expression): outstanding, overdue, credit and aging.
    static func balances(at day: String) -> String {
        """
        balance AS (SELECT i.id, i.clientId, i.currency, i.kind, i.dueOn, sum(e.delta) AS b,
                           CAST(julianday(\(day)) - julianday(i.dueOn) AS INTEGER) AS late
                    FROM events e JOIN invoice i ON i.id = e.invoiceId WHERE e.day <= \(day) GROUP BY i.id)
        """
    }

    @Test func monthlyFiguresMatchSQL() async throws {
        let (_, books, queue) = try open()
        let report = try await production()
        #expect(try Report(books: books) == report)
        // The span, independently: first issue month to the last month with an issue or an event.
        let span = try queue.readNow { db in
            try Row.fetchOne(
                db,
                sql: "WITH \(Self.events) SELECT substr(min(day), 1, 7) AS first, substr(max(day), 1, 7) AS last FROM events")
        }
        let first: String = try #require(span)["first"]
        let last: String = try #require(span)["last"]
        #expect(report.months.first?.description == first)
        #expect(report.months.last?.description == last)
        #expect(report.months.count == 24)

        var expected: [Key: Figures] = [:]
        func add(_ sql: String, _ body: (inout Figures, Row) -> Void) throws {
            try queue.readNow { db in
                for row in try Row.fetchAll(db, sql: sql) {
                    body(&expected[Key(client: row["number"], currency: row["currency"], month: row["month"]), default: Figures()], row)
                }
            }
        }
        try add(
            """
            SELECT c.number, i.currency, substr(i.issuedOn, 1, 7) AS month, sum(i.amount) AS total,
                   sum(coalesce(i.net, i.amount)) AS net, count(*) AS n
            FROM invoice i JOIN client c ON c.id = i.clientId WHERE i.status = 'sent' AND i.kind = 'invoice' GROUP BY 1, 2, 3
            """
        ) { figures, row in
            figures.invoiced = row["total"]
            figures.net = row["net"]
            figures.tax = figures.invoiced - figures.net
            figures.invoices = row["n"]
        }
        try add(
            """
            SELECT c.number, i.currency, substr(i.issuedOn, 1, 7) AS month, sum(i.amount) AS total, count(*) AS n
            FROM invoice i JOIN client c ON c.id = i.clientId WHERE i.status = 'sent' AND i.kind = 'credit' GROUP BY 1, 2, 3
            """
        ) { figures, row in
            figures.credited = row["total"]
            figures.movements += row["n"] as Int
        }
        try add(
            """
            SELECT c.number, i.currency, substr(p.paidOn, 1, 7) AS month, sum(p.amount) AS total, count(*) AS n
            FROM payment p JOIN invoice i ON i.id = p.invoiceId JOIN client c ON c.id = i.clientId GROUP BY 1, 2, 3
            """
        ) { figures, row in
            figures.paid = row["total"]
            figures.movements += row["n"] as Int
        }
        try add(
            """
            SELECT c.number, i.currency, substr(w.writtenOffOn, 1, 7) AS month, sum(w.amount) AS total, count(*) AS n
            FROM writeOff w JOIN invoice i ON i.id = w.invoiceId JOIN client c ON c.id = i.clientId
            WHERE i.status = 'sent' GROUP BY 1, 2, 3
            """
        ) { figures, row in
            figures.writtenOff = row["total"]
            figures.movements += row["n"] as Int
        }
        // Balances at each month's end; SQLite's date() finds the last day of the month.
        try add(
            """
            WITH RECURSIVE months(m) AS (
                SELECT '\(first)' UNION ALL
                SELECT strftime('%Y-%m', date(m || '-01', '+1 month')) FROM months WHERE m < '\(last)'),
            \(Self.events),
            perMonth AS (SELECT m, i.id, i.clientId, i.currency, i.kind, i.dueOn, date(m || '-01', '+1 month', '-1 day') AS lastDay,
                                sum(e.delta) AS b
                         FROM months JOIN events e ON e.day <= date(m || '-01', '+1 month', '-1 day')
                         JOIN invoice i ON i.id = e.invoiceId GROUP BY m, i.id)
            SELECT c.number, p.currency, p.m AS month,
                   sum(max(b, 0)) AS outstanding, sum(max(-b, 0)) AS credit,
                   sum(CASE WHEN b > 0 AND p.dueOn < p.lastDay THEN b ELSE 0 END) AS overdue
            FROM perMonth p JOIN client c ON c.id = p.clientId GROUP BY 1, 2, 3
            """
        ) { figures, row in
            figures.outstanding = row["outstanding"]
            figures.overdue = row["overdue"]
            figures.credit = row["credit"]
        }
        expected = expected.filter { $0.value != Figures() }
        #expect(expected.count > 500)
        #expect(expected.values.contains { $0.overdue > 0 })
        #expect(expected.values.contains { $0.credit > 0 })
        #expect(expected.values.contains { $0.credited > 0 })
        #expect(expected.values.contains { $0.writtenOff > 0 })
        #expect(expected.values.contains { $0.tax > 0 })

        var actual: [Key: Figures] = [:]
        var grand: [Key: Figures] = [:]
        for totals in report.clients {
            let number = books.clients[totals.clientIndex].number
            for entry in totals.currencies {
                for (offset, figures) in entry.months.enumerated() where figures != Figures() {
                    let key = Key(client: number, currency: entry.currency.code, month: report.months[offset].description)
                    actual[key] = figures
                    let grandKey = Key(client: "", currency: key.currency, month: key.month)
                    var sum = grand[grandKey, default: Figures()]
                    sum.invoiced += figures.invoiced
                    sum.net += figures.net
                    sum.tax += figures.tax
                    sum.paid += figures.paid
                    sum.credited += figures.credited
                    sum.writtenOff += figures.writtenOff
                    sum.outstanding += figures.outstanding
                    sum.overdue += figures.overdue
                    sum.credit += figures.credit
                    sum.invoices += figures.invoices
                    sum.movements += figures.movements
                    grand[grandKey] = sum
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

    /// Three as-of dates between the payments of one invoice paid in three instalments: after the first, after the
    /// second, on the last.
    func instalmentDates(_ queue: DatabaseQueue) throws -> (invoiceId: Int64, dates: [String]) {
        try queue.readNow { db in
            let row = try #require(
                try Row.fetchOne(
                    db,
                    sql: """
                        SELECT invoiceId, group_concat(paidOn) AS days FROM (SELECT invoiceId, paidOn FROM payment ORDER BY invoiceId, paidOn)
                        GROUP BY invoiceId HAVING count(*) = 3 AND count(DISTINCT paidOn) = 3 ORDER BY invoiceId LIMIT 1
                        """))
            let days = (row["days"] as String).split(separator: ",").compactMap { CalendarDate(iso: String($0)) }
            return (row["invoiceId"], [days[0], days[1], days[2].adding(days: -1)].map(\.description))
        }
    }

    @Test(arguments: [0, 1, 2])
    func agingAndPeriodFiguresMatchSQL(asOfChoice: Int) async throws {
        let (_, books, queue) = try open()
        let (invoiceId, dates) = try instalmentDates(queue)
        let asOfText = dates[asOfChoice]
        let asOf = try #require(CalendarDate(iso: asOfText))
        let report = try await production(ReportPeriod(asOf: asOf))
        #expect(report.asOf == asOf)
        // The instalment invoice's own balance, both ways.
        let index = try #require(books.invoices.firstIndex { $0.id == invoiceId })
        let sqlBalance = try queue.readNow { db in
            try Int64.fetchOne(
                db, sql: "WITH \(Self.events) SELECT sum(delta) FROM events WHERE invoiceId = ? AND day <= ?", arguments: [invoiceId, asOfText])
        }
        #expect(report.balance(of: index, in: books) == sqlBalance)
        #expect(sqlBalance.map { $0 > 0 && $0 < books.invoices[index].amount } == true || asOfChoice == 2)

        var expected: [Key: (aging: Aging, credit: Int64, figures: Figures)] = [:]
        try queue.readNow { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    WITH \(Self.events), \(Self.balances(at: "'\(asOfText)'"))
                    SELECT c.number, b.currency,
                      sum(CASE WHEN b > 0 AND late <= 0 THEN b ELSE 0 END) AS notDue,
                      sum(CASE WHEN b > 0 AND late BETWEEN 1 AND 30 THEN b ELSE 0 END) AS d30,
                      sum(CASE WHEN b > 0 AND late BETWEEN 31 AND 60 THEN b ELSE 0 END) AS d60,
                      sum(CASE WHEN b > 0 AND late BETWEEN 61 AND 90 THEN b ELSE 0 END) AS d90,
                      sum(CASE WHEN b > 0 AND late > 90 THEN b ELSE 0 END) AS over,
                      sum(max(-b, 0)) AS credit
                    FROM balance b JOIN client c ON c.id = b.clientId GROUP BY 1, 2
                    """)
            for row in rows {
                let key = Key(client: row["number"], currency: row["currency"], month: "")
                expected[key, default: (Aging(), 0, Figures())].aging = Aging(
                    notDue: row["notDue"], days1to30: row["d30"], days31to60: row["d60"], days61to90: row["d90"],
                    over90: row["over"])
                expected[key, default: (Aging(), 0, Figures())].credit = row["credit"]
            }
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT c.number, i.currency,
                           sum(CASE WHEN i.status = 'sent' AND i.kind = 'invoice' THEN amount ELSE 0 END) AS invoiced,
                           sum(CASE WHEN i.status = 'sent' AND i.kind = 'invoice' THEN 1 ELSE 0 END) AS n,
                           sum(CASE WHEN i.status = 'sent' AND i.kind = 'credit' THEN amount ELSE 0 END) AS credited,
                           (SELECT coalesce(sum(p.amount), 0) FROM payment p JOIN invoice j ON j.id = p.invoiceId
                            WHERE j.clientId = i.clientId AND j.currency = i.currency) AS paid
                    FROM invoice i JOIN client c ON c.id = i.clientId GROUP BY 1, 2
                    """)
            {
                let key = Key(client: row["number"], currency: row["currency"], month: "")
                expected[key, default: (Aging(), 0, Figures())].figures = Figures(
                    invoiced: row["invoiced"], paid: row["paid"], credited: row["credited"], invoices: row["n"])
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
                #expect(entry.period.credit == want.credit, "\(key)")
                // The period is every month of the store, whatever the as-of date.
                #expect(entry.period.invoiced == want.figures.invoiced, "\(key)")
                #expect(entry.period.paid == want.figures.paid, "\(key)")
                #expect(entry.period.credited == want.figures.credited, "\(key)")
                #expect(entry.period.invoices == want.figures.invoices, "\(key)")
            }
        }
        #expect(seen == expected.count)
        #expect(outstandingClients > 0)
    }

    /// Taxes per currency, tax and month, both bases, against SQL (half-even rounding per payment done in SQL).
    @Test func taxesMatchSQL() async throws {
        let (_, books, queue) = try open()
        let report = try await production()
        struct TaxKey: Hashable { var currency: String, name: String, rate: String, month: String }
        var expected: [TaxKey: TaxFigures] = [:]
        try queue.readNow { db in
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT i.currency, t.name, t.rate, substr(i.issuedOn, 1, 7) AS month,
                           sum(CASE i.kind WHEN 'credit' THEN -coalesce(t.net, i.net, i.amount) ELSE coalesce(t.net, i.net, i.amount) END) AS net,
                           sum(CASE i.kind WHEN 'credit' THEN -t.amount ELSE t.amount END) AS tax
                    FROM taxLine t JOIN invoice i ON i.id = t.invoiceId WHERE i.status = 'sent' GROUP BY 1, 2, 3, 4
                    """)
            {
                let key = TaxKey(currency: row["currency"], name: row["name"], rate: row["rate"], month: row["month"])
                expected[key, default: TaxFigures()].accrualNet = row["net"]
                expected[key, default: TaxFigures()].accrualTax = row["tax"]
            }
            func share(_ part: String) -> String {
                """
                (CASE WHEN p.amount < 0 THEN -1 ELSE 1 END) * (CASE WHEN \(part) < 0 THEN -1 ELSE 1 END)
                  * (abs(p.amount) * abs(\(part)) / i.amount
                  + CASE WHEN 2 * (abs(p.amount) * abs(\(part)) % i.amount) > i.amount
                           OR (2 * (abs(p.amount) * abs(\(part)) % i.amount) = i.amount AND (abs(p.amount) * abs(\(part)) / i.amount) % 2 = 1)
                         THEN 1 ELSE 0 END)
                """
            }
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT i.currency, t.name, t.rate, substr(p.paidOn, 1, 7) AS month,
                           sum(\(share("coalesce(t.net, i.net, i.amount)"))) AS net, sum(\(share("t.amount"))) AS tax
                    FROM payment p JOIN invoice i ON i.id = p.invoiceId JOIN taxLine t ON t.invoiceId = i.id
                    WHERE i.status = 'sent' AND i.amount > 0 GROUP BY 1, 2, 3, 4
                    """)
            {
                let key = TaxKey(currency: row["currency"], name: row["name"], rate: row["rate"], month: row["month"])
                expected[key, default: TaxFigures()].cashNet = row["net"]
                expected[key, default: TaxFigures()].cashTax = row["tax"]
            }
        }
        expected = expected.filter { $0.value.isActive }
        var actual: [TaxKey: TaxFigures] = [:]
        for totals in report.taxes {
            let tax = books.taxes[totals.taxIndex]
            for (offset, figures) in totals.months.enumerated() where figures.isActive {
                actual[TaxKey(currency: totals.currency.code, name: tax.name, rate: tax.percent, month: report.months[offset].description)] = figures
            }
        }
        #expect(expected.count > 50)
        #expect(Set(books.taxes.map(\.percent)).isSuperset(of: ["0", "7.7", "20"]))
        #expect(expected.values.contains { $0.cashTax != $0.accrualTax })
        for key in Set(expected.keys).union(actual.keys) {
            #expect(actual[key] == expected[key], "\(key)")
        }
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
                #expect(other.period.credit == entry.months[column].credit)
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
