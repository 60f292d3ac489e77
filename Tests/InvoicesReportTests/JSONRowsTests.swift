import Foundation
import InvoicesCore
@testable import InvoicesReport
import InvoicesStore
import InvoicesTesting
import Testing

/// `report.json`'s clients are written directly for speed; they must be the bytes JSONEncoder writes.
struct JSONRowsTests {
    @Test(.temporaryFolder) func theDirectlyWrittenJSONEqualsJSONEncodersBytes() throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("s.sqlite")
        try SampleGenerator(clients: 25, invoices: 800, seed: 4).write(to: path)
        // Names and numbers that need escaping: quotes, backslashes, control characters, slashes, non-ASCII.
        try StoreFixture.execute(path, """
            UPDATE client SET name = 'Quote " back\\slash / tab\there' || char(10) || 'line' || char(1) || char(31) || ' é 日本 😀' WHERE id = 1;
            UPDATE client SET number = 'N/' || char(8) || char(12) || char(13) || '<&>' WHERE id = 2;
            """)
        let books = try BooksStore(path: path).books
        for period in [ReportPeriod(), ReportPeriod(month: YearMonth(year: 2025, month: 3))] {
            let report = try Report(books: books, period: period)
            let exports = ReportExports(books: books, report: report)
            let fast = exports.json()
            #expect(fast == exports.jsonThroughEncoder())
            #expect(try JSONSerialization.jsonObject(with: fast) is [String: Any])
        }
    }
}
