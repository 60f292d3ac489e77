import Foundation
import InvoicesCore
import InvoicesReport
import InvoicesStore
import InvoicesTesting
import Testing

struct ReportTests {
    func books(_ sql: String = StoreFixture.small) throws -> Books {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try StoreFixture.make(at: folder.path("s.sqlite"), sql: sql)
        return try BooksStore(path: folder.path("s.sqlite")).books
    }

    @Test func monthBoundariesFollowTheCalendarDate() throws {
        let report = try Report(books: try books())
        #expect(report.months.map(\.description) == ["2025-01", "2025-02"])
        let eur = try #require(report.currencies.first { $0.currency.code == "EUR" })
        // INV-1 issued on 2025-01-31 counts in January, INV-2 issued on 2025-02-01 in February.
        #expect(eur.months[0] == Figures(invoiced: 123450, paid: 0, outstanding: 123450, overdue: 0, invoices: 1))
        #expect(eur.months[1] == Figures(invoiced: 50000, paid: 123450, outstanding: 50000, overdue: 0, invoices: 1, movements: 1))
        #expect(eur.period == Figures(invoiced: 173450, paid: 123450, outstanding: 50000, overdue: 0, invoices: 2, movements: 1))
    }

    @Test func noInvoicesAndNoMonthMeansNoPeriod() throws {
        let empty = Books(clients: [ClientSnapshot(id: 1, number: "C-1", name: "A")], invoices: [], currencies: [])
        let report = try Report(books: empty)
        #expect(report.months.isEmpty)
        #expect(report.asOf == nil)
        #expect(report.clients.isEmpty && report.currencies.isEmpty)
        let asOf = try #require(CalendarDate(iso: "2025-06-30"))
        #expect(try Report(books: empty, period: ReportPeriod(asOf: asOf)).asOf == asOf)
        let month = YearMonth(year: 2025, month: 3)
        let single = try Report(books: empty, period: ReportPeriod(month: month))
        #expect(single.months == [month])
        #expect(single.asOf == month.lastDay)
    }

    @Test func overdueAndAgingAreMeasuredAtTheAsOfDate() throws {
        let asOf = try #require(CalendarDate(iso: "2025-04-15"))
        let report = try Report(books: try books(), period: ReportPeriod(asOf: asOf))
        let jpy = try #require(report.currencies.first { $0.currency.code == "JPY" })
        // INV-3 was due 2025-01-31: 74 days late on 2025-04-15.
        #expect(jpy.period.outstanding == 1500000)
        #expect(jpy.period.overdue == 1500000)
        #expect(jpy.aging == Aging(days61to90: 1500000))
        // Due on the last day of January: not overdue at the end of January, overdue at the end of February.
        #expect(jpy.months[0].overdue == 0)
        #expect(jpy.months[1].overdue == 1500000)
    }

    @Test func currenciesAreNeverAddedTogether() throws {
        let report = try Report(books: try books())
        let client = try #require(report.clients.first { $0.clientIndex == 1 })
        #expect(client.currencies.map(\.currency.code) == ["JPY", "KWD"])
        #expect(client.currencies[1].period.invoiced == 12345)
        #expect(report.currencies.map(\.currency.code) == ["EUR", "JPY", "KWD"])
    }

    @Test func anOverflowingSumIsAnErrorNamingClientAndCurrency() throws {
        let sql = """
            INSERT INTO client (id, number, name) VALUES (1, 'C-9', 'Big');
            INSERT INTO invoice (identifier, clientId, amount, currency, issuedOn, dueOn) VALUES
              ('X1', 1, 9223372036854775807, 'EUR', '2025-01-01', '2025-01-02'),
              ('X2', 1, 1, 'EUR', '2025-01-01', '2025-01-02');
            """
        let error = try #require(throws: ReportError.self) { try Report(books: try books(sql)) }
        #expect(error.description.contains("C-9 'Big'"))
        #expect(error.currency.code == "EUR")
    }
}
