import Foundation
import GRDB
import InvoicesCore
import InvoicesReport
import InvoicesStore
import InvoicesTesting
import Testing

/// The collections figures: overdue clients, days to pay and DSO, by hand on the v2 cases and against SQL on a
/// generated store.
struct CollectionsTests {
    @Test func nearestRankPercentiles() {
        let ten = Array(1...10)
        #expect(Collections.nearestRank(ten, percent: 50) == 5)
        #expect(Collections.nearestRank(ten, percent: 90) == 9)
        #expect(Collections.nearestRank([7], percent: 50) == 7)
        #expect(Collections.nearestRank([7], percent: 90) == 7)
        #expect(Collections.nearestRank([1, 2], percent: 50) == 1)
        #expect(Collections.nearestRank([1, 2], percent: 90) == 2)
        #expect(Collections.nearestRank(Array(1...20), percent: 90) == 18)
    }

    @Test(.temporaryFolder) func theHandComputedCases() throws {
        let folder = try TemporaryFolder.current
        try StoreFixture.make(at: folder.path("v2.sqlite"), sql: StoreFixture.v2Cases, version: 2)
        let books = try BooksStore(path: folder.path("v2.sqlite")).books
        let report = try Report(books: books, period: ReportPeriod(asOf: CalendarDate(iso: "2025-09-30")))
        let collections = Collections(books: books, report: report)
        func number(_ index: Int) -> String { books.clients[index].number }
        // Only INV-4 is past due with a balance: the 50.00 refunded after it was paid, due 2025-05-31.
        let eur = try #require(collections.overdue.first { $0.first?.currency.code == "EUR" })
        #expect(eur.map { number($0.clientIndex) } == ["C-3"])
        #expect(eur.first?.overdue == 5_000)
        #expect(eur.first?.outstanding == 5_000)
        #expect(eur.first?.invoices == 1)
        #expect(eur.first?.oldestDaysLate == 122)
        // INV-8 (CHF) is partly paid but due on the as-of date: not overdue.
        #expect(collections.overdue.flatMap { $0 }.count == 1)
        // Issue to settled: INV-1 14 days (deposit and rest), INV-2 50 (credit note, then payment), INV-4 4 (paid
        // in full; the later refund does not move the day it was settled), INV-5 9 (overpaid), INV-6 91 (written off).
        let days = Dictionary(uniqueKeysWithValues: collections.daysToPay.map { (number($0.clientIndex), $0.median) })
        #expect(days == ["C-1": 14, "C-2": 50, "C-3": 4, "C-4": 9, "C-5": 91])
        #expect(collections.daysToPay.allSatisfy { $0.settled == 1 && $0.percentile90 == $0.median })
        // January in EUR: 1,000.00 invoiced, 600.00 outstanding at its end: 600 / 1000 × 31 days.
        let dso = try #require(collections.salesOutstanding.first { $0.currency.code == "EUR" })
        #expect(dso.months.count == 9)
        #expect(dso.months[0] == 600.0 / 1000.0 * 31)
        // February: nothing invoiced.
        #expect(dso.months[1] == nil)
    }

    /// On the generated store: the overdue lists are the report's overdue figures, largest first, and each client's
    /// count of overdue invoices and oldest days late are what SQL finds from the balance events.
    @Test func overdueMatchesSQL() throws {
        let path = try ReportCrossCheckTests.store.get()
        let books = try BooksStore(path: path).books
        let report = try Report(books: books)
        let asOf = try #require(report.asOf)
        let collections = Collections(books: books, report: report)
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        var expected: [String: (invoices: Int, oldest: Int)] = [:]
        try queue.readNow { db in
            for row in try Row.fetchAll(
                db,
                sql: """
                    WITH \(ReportCrossCheckTests.events), \(ReportCrossCheckTests.balances(at: "'\(asOf)'"))
                    SELECT c.number, b.currency, count(*) AS n, max(late) AS oldest
                    FROM balance b JOIN client c ON c.id = b.clientId WHERE b > 0 AND late > 0 AND kind = 'invoice' GROUP BY 1, 2
                    """)
            {
                expected["\(row["number"] as String) \(row["currency"] as String)"] = (row["n"], row["oldest"])
            }
        }
        #expect(expected.count > 10)
        var seen = 0
        for (currency, rows) in zip(report.currencies, collections.overdue) {
            let want = report.clients.compactMap { client -> (Int, Int64)? in
                guard let entry = client.currencies.first(where: { $0.currency == currency.currency }), entry.period.overdue > 0 else { return nil }
                return (client.clientIndex, entry.period.overdue)
            }.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
            #expect(rows.map(\.clientIndex) == want.map(\.0))
            #expect(rows.map(\.overdue) == want.map(\.1))
            for row in rows {
                let key = "\(books.clients[row.clientIndex].number) \(currency.currency.code)"
                #expect(row.invoices == expected[key]?.invoices, "\(key)")
                #expect(row.oldestDaysLate == expected[key]?.oldest, "\(key)")
                seen += 1
            }
        }
        #expect(seen == expected.count)
    }
}
