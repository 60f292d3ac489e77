import Foundation
import InvoicesTesting
import Testing

/// Two figures that contradicted docs/exports.md (issue 28): a month whose only activity sums to zero, and a credit
/// note whose balance turned positive. Built through the binary, read back from the CSV files it writes.
struct DocumentedFiguresTests {
    /// Client C-1: INV-1 paid in full in February; in March a second payment and its refund (a mistaken double
    /// payment sent back), nothing else. Client C-2: credit note CN-2 of 100.00, refunded 150.00 in February, so the
    /// client owes 50.00 back, due since 2025-01-20.
    static let sql = """
        INSERT INTO client (id, number, name) VALUES (1, 'C-1', 'Zero sum'), (2, 'C-2', 'Over-refunded');
        INSERT INTO invoice (id, identifier, clientId, amount, net, currency, issuedOn, dueOn, status, kind) VALUES
          (1, 'INV-1', 1, 10000, NULL, 'EUR', '2025-01-10', '2025-02-10', 'sent', 'invoice'),
          (2, 'CN-2', 2, 10000, NULL, 'EUR', '2025-01-15', '2025-01-20', 'sent', 'credit');
        INSERT INTO payment (invoiceId, paidOn, amount, method, reference) VALUES
          (1, '2025-02-05', 10000, '', ''),
          (1, '2025-03-03', 2500, '', 'DOUBLE'), (1, '2025-03-20', -2500, '', 'REFUND'),
          (2, '2025-02-12', -15000, '', 'REFUND-CN');
        """

    func build() throws -> (folder: TemporaryFolder, totals: [[String]], aging: [[String]]) {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        try StoreFixture.make(at: store, sql: Self.sql, version: 2)
        let result = try CLI.run(["build", "--store", store, "--output", folder.path("site"), "--as-of", "2025-03-31", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        func csv(_ name: String) throws -> [[String]] {
            try String(contentsOfFile: folder.path("site/" + name), encoding: .utf8)
                .split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        }
        return (folder, try csv("totals.csv"), try csv("aging.csv"))
    }

    @Test(.temporaryFolder) func aMonthWhosePaymentAndRefundCancelOutKeepsItsRow() throws {
        let (folder, totals, _) = try build()
        let header = try #require(totals.first)
        let month = try #require(header.firstIndex(of: "month")), paid = try #require(header.firstIndex(of: "paid"))
        let rows = totals.filter { $0.first == "C-1" }
        // docs/exports.md: a row for every month with a payment, even when the month's payments sum to zero.
        #expect(rows.map { $0[month] } == ["2025-01", "2025-02", "2025-03"], "\(rows)")
        #expect(rows.last?[paid] == "0.00")
        // The month page lists the client too.
        let page = try String(contentsOfFile: folder.path("site/months/2025-03.html"), encoding: .utf8)
        #expect(page.contains("Zero sum"))
    }

    @Test(.temporaryFolder) func aCreditNotesPositiveBalanceIsOverdueInTheMonthRowsAsInAging() throws {
        let (_, totals, aging) = try build()
        let header = try #require(totals.first)
        let month = try #require(header.firstIndex(of: "month"))
        let outstanding = try #require(header.firstIndex(of: "outstanding")), overdue = try #require(header.firstIndex(of: "overdue"))
        let march = try #require(totals.first { $0.first == "C-2" && $0[month] == "2025-03" })
        #expect(march[outstanding] == "50.00" && march[overdue] == "50.00", "\(march)")
        // aging.csv at the same day (the as-of date is March's last) puts the same 50.00 past due.
        let row = try #require(aging.first { $0.first == "C-2" })
        let agingHeader = try #require(aging.first)
        let notDue = try #require(agingHeader.firstIndex(of: "not_due"))
        #expect(row[notDue] == "0.00")
        let pastDue = row[(notDue + 1)...].map { Int($0.replacingOccurrences(of: ".", with: ""))! }.reduce(0, +)
        #expect(pastDue == 5000, "\(row)")
    }
}
