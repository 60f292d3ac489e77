import Foundation
import InvoicesCore
import InvoicesReport
import InvoicesStore
import InvoicesTesting
import Testing

/// Month boundaries and time zones: dates are calendar dates and never shift with the machine's zone.
struct MonthBoundaryTests {
    static let sql = """
        INSERT INTO client (id, number, name) VALUES (1, 'C-1', 'Edge');
        INSERT INTO invoice (id, identifier, clientId, amount, currency, issuedOn, dueOn, paidOn) VALUES
          (1, 'LAST', 1, 100, 'EUR', '2024-02-29', '2024-02-29', '2024-03-31'),
          (2, 'FIRST', 1, 20, 'EUR', '2024-03-01', '2024-03-31', '2024-04-01'),
          (3, 'YEAR', 1, 3, 'EUR', '2024-12-31', '2025-01-01', '2025-01-01');
        """

    func report() throws -> (Books, Report) {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try StoreFixture.make(at: folder.path("s.sqlite"), sql: Self.sql)
        let books = try BooksStore(path: folder.path("s.sqlite")).books
        return (books, try Report(books: books))
    }

    @Test func theTestsRunInAFarTimeZoneWhenTZIsSet() throws {
        // `make test` runs with TZ=Pacific/Kiritimati (UTC+14): if dates went through Date and the local zone,
        // month boundaries would shift there.
        if let zone = ProcessInfo.processInfo.environment["TZ"], !["UTC", "GMT", "Etc/UTC"].contains(zone) {
            #expect(TimeZone.current.identifier == zone)
            #expect(TimeZone.current.secondsFromGMT() != 0)
        }
        // What going through an instant would do: UTC midnight of 1 March 2024 is still February in Pago Pago.
        let utc = DateFormatter(), far = DateFormatter()
        for (formatter, zone) in [(utc, "UTC"), (far, "Pacific/Pago_Pago")] {
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: zone)
            #expect(formatter.timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: 0)) == (zone == "UTC" ? 0 : -11 * 3600))
            formatter.dateFormat = "yyyy-MM-dd"
        }
        let instant = try #require(utc.date(from: "2024-03-01"))
        #expect(far.string(from: instant) == "2024-02-29")
        #expect(try #require(CalendarDate(iso: "2024-03-01")).month.description == "2024-03")
    }

    @Test(arguments: ["2024-02-29", "2024-03-01", "2024-12-31", "2025-01-01", "1999-12-31", "2000-02-29"])
    func dayNumbersAgreeWithFoundationInUTCWhateverTheLocalZone(text: String) throws {
        let date = try #require(CalendarDate(iso: text))
        #expect(date.description == text)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let parsed = try #require(formatter.date(from: text))
        #expect(Int(date.dayNumber) == Int(parsed.timeIntervalSince1970 / 86_400))
        // Formatting the same instant in the local (far) zone may give another day; CalendarDate never does.
        #expect(date.month.description == String(text.prefix(7)))
    }

    @Test func theLastDayCountsInItsMonthAndTheFirstInTheNext() throws {
        let (books, report) = try report()
        #expect(report.months.map(\.description) == ["2024-02", "2024-03", "2024-04", "2024-05", "2024-06", "2024-07",
            "2024-08", "2024-09", "2024-10", "2024-11", "2024-12", "2025-01"])
        let eur = try #require(report.clients.first?.currencies.first)
        let february = eur.months[0], march = eur.months[1], april = eur.months[2]
        let december = eur.months[10], january = eur.months[11]
        // Issued on 29 February: February. Due that day: not overdue at February's end, overdue at March's end
        // unless paid by then; paid on 31 March: paid in March, nothing outstanding at March's end.
        #expect(february == Figures(invoiced: 100, paid: 0, outstanding: 100, overdue: 0, invoices: 1))
        #expect(march == Figures(invoiced: 20, paid: 100, outstanding: 20, overdue: 0, invoices: 1, movements: 1))
        #expect(april == Figures(invoiced: 0, paid: 20, outstanding: 0, overdue: 0, invoices: 0, movements: 1))
        #expect(december == Figures(invoiced: 3, paid: 0, outstanding: 3, overdue: 0, invoices: 1))
        #expect(january == Figures(invoiced: 0, paid: 3, outstanding: 0, overdue: 0, invoices: 0, movements: 1))
        // The exports say the same months.
        let rows = try RFC4180.records(ReportExports(books: books, report: report).totalsCSV()).dropFirst()
        #expect(rows.map { $0[3] } == ["2024-02", "2024-03", "2024-04", "2024-12", "2025-01"])
    }

    @Test(.temporaryFolder) func agingCountsDaysFromTheDueDate() throws {
        let folder = try TemporaryFolder.current
        try StoreFixture.make(
            at: folder.path("a.sqlite"),
            sql: """
                INSERT INTO client (id, number, name) VALUES (1, 'C-1', 'Aging');
                INSERT INTO invoice (id, identifier, clientId, amount, currency, issuedOn, dueOn) VALUES
                  (1, 'D0', 1, 1, 'KWD', '2025-01-01', '2025-03-31'),
                  (2, 'D1', 1, 10, 'KWD', '2025-01-01', '2025-03-30'),
                  (3, 'D30', 1, 100, 'KWD', '2025-01-01', '2025-03-01'),
                  (4, 'D31', 1, 1000, 'KWD', '2025-01-01', '2025-02-28'),
                  (5, 'D91', 1, 10000, 'KWD', '2024-12-01', '2024-12-30');
                """)
        let books = try BooksStore(path: folder.path("a.sqlite")).books
        let asOf = try #require(CalendarDate(iso: "2025-03-31"))
        let entry = try #require(try Report(books: books, period: ReportPeriod(asOf: asOf)).clients.first?.currencies.first)
        // Due on the as-of date: not due; one day late to 30: 1-30; 31: 31-60; 91: over 90.
        #expect(entry.aging == Aging(notDue: 1, days1to30: 110, days31to60: 1000, days61to90: 0, over90: 10000))
        #expect(entry.period.overdue == 11110)
    }
}
