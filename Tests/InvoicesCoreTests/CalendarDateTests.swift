import Foundation
import InvoicesCore
import Testing

struct CalendarDateTests {
    @Test func dayNumbersMatchFoundationsGregorianCalendar() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        for year in [1999, 2000, 2023, 2024, 2025, 2100] {
            for month in 1...12 {
                for day in [1, 15, 28] {
                    let date = try #require(CalendarDate(year: year, month: month, day: day))
                    let foundation = try #require(calendar.date(from: DateComponents(year: year, month: month, day: day)))
                    #expect(Int(date.dayNumber) == Int(foundation.timeIntervalSince1970 / 86_400))
                    #expect(date.components == (year, month, day))
                }
            }
        }
    }

    @Test(arguments: ["2025-02-30", "2025-13-01", "2025-00-10", "2025-1-01", "20250101", "2023-02-29", "abcd-ef-gh", ""])
    func impossibleOrMalformedDatesAreRejected(_ text: String) {
        #expect(CalendarDate(iso: text) == nil)
    }

    @Test func leapDaysAndMonthEndsAreRealDates() throws {
        #expect(CalendarDate(iso: "2024-02-29")?.description == "2024-02-29")
        #expect(YearMonth(year: 2024, month: 2).lastDay.description == "2024-02-29")
        #expect(YearMonth(year: 2025, month: 12).next.description == "2026-01")
        #expect(YearMonth(year: 2025, month: 1).previous.description == "2024-12")
        #expect(try #require(CalendarDate(iso: "2025-01-31")).month != (try #require(CalendarDate(iso: "2025-02-01"))).month)
    }
}
