import Foundation
import InvoicesCore
import InvoicesReport
import InvoicesStore
import InvoicesTesting
import Testing

/// Hand-computed cases of schema v2: partial payments, credit notes, refunds, overpayments, write-offs, voids,
/// taxes. Each client holds one case, so its figures can be read alone.
struct BooksV2Tests {
    static let cases = StoreFixture.v2Cases

    func books(_ sql: String = cases) throws -> Books {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try StoreFixture.make(at: folder.path("v2.sqlite"), sql: sql, version: 2)
        return try BooksStore(path: folder.path("v2.sqlite")).books
    }

    /// The client's figures for `month` (or the period, when nil) as of `asOf`.
    func figures(_ books: Books, client: String, month: String? = nil, asOf: String) throws -> (Figures, Aging) {
        let asOfDate = try #require(CalendarDate(iso: asOf))
        let report = try Report(books: books, period: ReportPeriod(month: month.flatMap(YearMonth.init(iso:)), asOf: asOfDate))
        let index = try #require(books.clients.firstIndex { $0.number == client })
        let entry = try #require(report.clients.first { $0.clientIndex == index }?.currencies.first)
        return (month == nil ? entry.period : entry.months[0], entry.aging)
    }

    func settled(_ books: Books, _ identifier: String) -> String? {
        books.invoices.first { $0.identifier == identifier }?.paid?.description
    }

    @Test func aDepositAndAFinalPaymentAcrossAMonthEnd() throws {
        let books = try books()
        let (january, _) = try figures(books, client: "C-1", month: "2025-01", asOf: "2025-01-31")
        #expect(january == Figures(invoiced: 100000, paid: 40000, outstanding: 60000, overdue: 0, invoices: 1, movements: 1))
        let (february, _) = try figures(books, client: "C-1", month: "2025-02", asOf: "2025-02-28")
        #expect(february == Figures(paid: 60000, outstanding: 0, movements: 1))
        #expect(settled(books, "INV-1") == "2025-02-03")
    }

    @Test func aCreditNoteAppliedAfterTheDueDate() throws {
        let books = try books()
        // Before it is applied, the credit note is the client's credit; the invoice stays overdue in full.
        let (march, aging) = try figures(books, client: "C-2", month: "2025-03", asOf: "2025-03-31")
        #expect(march == Figures(invoiced: 50000, credited: 10000, outstanding: 50000, overdue: 50000, credit: 10000, invoices: 1, movements: 1))
        #expect(aging == Aging(days1to30: 50000))
        let (april, _) = try figures(books, client: "C-2", asOf: "2025-04-15")
        #expect(april.outstanding == 40000 && april.overdue == 40000 && april.credit == 0)
        let (end, _) = try figures(books, client: "C-2", month: "2025-04", asOf: "2025-04-30")
        #expect(end == Figures(paid: 40000, outstanding: 0, overdue: 0, credit: 0, movements: 1))
        #expect(settled(books, "INV-2") == "2025-04-20")
        #expect(settled(books, "CN-1") == nil)
    }

    @Test func aRefundAfterFullPayment() throws {
        let books = try books()
        let (may, _) = try figures(books, client: "C-3", month: "2025-05", asOf: "2025-05-31")
        #expect(may == Figures(invoiced: 20000, paid: 15000, outstanding: 5000, overdue: 0, invoices: 1, movements: 2))
        // Settled when the balance first reached zero, before the refund.
        #expect(settled(books, "INV-4") == "2025-05-05")
        let (_, afterDue) = try figures(books, client: "C-3", asOf: "2025-06-10")
        #expect(afterDue == Aging(days1to30: 5000))
    }

    @Test func anOverpaymentIsTheClientsCreditNeverNetted() throws {
        let books = try books()
        let (june, _) = try figures(books, client: "C-4", month: "2025-06", asOf: "2025-06-30")
        #expect(june == Figures(invoiced: 30000, paid: 35000, outstanding: 0, credit: 5000, invoices: 1, movements: 1))
        #expect(settled(books, "INV-5") == "2025-06-10")
    }

    @Test func aWriteOff() throws {
        let books = try books()
        let (august, _) = try figures(books, client: "C-5", month: "2025-08", asOf: "2025-08-31")
        #expect(august == Figures(outstanding: 7000, overdue: 7000))
        let (september, _) = try figures(books, client: "C-5", month: "2025-09", asOf: "2025-09-30")
        #expect(september == Figures(writtenOff: 7000, outstanding: 0, movements: 1))
        #expect(settled(books, "INV-6") == "2025-09-30")
    }

    @Test func aVoidAfterAPaymentLeavesThePaymentAsCredit() throws {
        let books = try books()
        let (august, _) = try figures(books, client: "C-6", month: "2025-08", asOf: "2025-08-31")
        #expect(august == Figures(paid: 10000, outstanding: 0, credit: 10000, invoices: 0, movements: 1))
        #expect(settled(books, "INV-7") == nil)
    }

    @Test func draftsCountInNoTotal() throws {
        let books = try books()
        let (period, aging) = try figures(books, client: "C-8", asOf: "2025-12-31")
        #expect(period == Figures())
        #expect(aging == Aging())
    }

    @Test func taxesOnBothBasesWithHalfEvenSharesOfAPartialPayment() throws {
        let books = try books()
        let report = try Report(books: books, period: ReportPeriod(month: YearMonth(year: 2025, month: 9)))
        let (september, _) = try figures(books, client: "C-7", month: "2025-09", asOf: "2025-09-30")
        #expect(september == Figures(invoiced: 107700, net: 100000, tax: 7700, paid: 50000, outstanding: 57700, invoices: 1, movements: 1))
        let tax = try #require(report.taxes.first)
        #expect(books.taxes[tax.taxIndex] == TaxRate(name: "MWST", milliPercent: 7700))
        #expect(books.taxes[tax.taxIndex].percent == "7.7")
        // 500.00 of 1077.00: net 50000 × 100000 / 107700 = 46425.26… → 46425; tax 50000 × 7700 / 107700 = 3574.74… → 3575.
        #expect(tax.months == [TaxFigures(accrualNet: 100000, accrualTax: 7700, cashNet: 46425, cashTax: 3575)])
    }

    @Test func paymentsWrittenInAnyOrderAreReadSortedByInvoiceThenDay() throws {
        let ordered = try books()
        // The same payments with their row ids reversed: the loader reads by row id and sorts.
        let reversed = Self.cases.replacingOccurrences(
            of: "INSERT INTO payment (invoiceId,", with: "INSERT INTO payment (id, invoiceId,"
        ).replacingOccurrences(of: "(1, '2025-01-25'", with: "(20, 1, '2025-01-25'").replacingOccurrences(of: "(1, '2025-02-03'", with: "(19, 1, '2025-02-03'")
            .replacingOccurrences(of: "(2, '2025-04-20'", with: "(18, 2, '2025-04-20'").replacingOccurrences(of: "(4, '2025-05-05'", with: "(17, 4, '2025-05-05'")
            .replacingOccurrences(of: "(4, '2025-05-20'", with: "(16, 4, '2025-05-20'").replacingOccurrences(of: "(5, '2025-06-10'", with: "(15, 5, '2025-06-10'")
            .replacingOccurrences(of: "(6, '2025-07-15'", with: "(14, 6, '2025-07-15'").replacingOccurrences(of: "(7, '2025-08-05'", with: "(13, 7, '2025-08-05'")
            .replacingOccurrences(of: "(8, '2025-09-10'", with: "(12, 8, '2025-09-10'")
        #expect(reversed != Self.cases)
        let books = try books(reversed)
        func resolved(_ books: Books) -> [String] {
            books.payments.map { payment in
                let details = payment.details >= 0 ? books.paymentDetails[Int(payment.details)] : PaymentDetails(method: "", reference: "")
                return "\(payment.invoiceIndex) \(payment.date) \(payment.amount) \(details.method) \(details.reference)"
            }
        }
        #expect(resolved(books) == resolved(ordered))
        #expect(try Report(books: books) == (try Report(books: ordered)))
    }

    @Test func halfEvenSharesRoundTiesToEven() {
        #expect(proportionalShare(1, part: 1, whole: 2) == 0)
        #expect(proportionalShare(3, part: 1, whole: 2) == 2)
        #expect(proportionalShare(-3, part: 1, whole: 2) == -2)
        #expect(proportionalShare(5, part: 1, whole: 2) == 2)
        #expect(proportionalShare(Int64.max, part: 3, whole: 4) == 6_917_529_027_641_081_855)
    }

    /// A correction's zero-rated line is negative, and the other lines' nets are then above the gross (issue 44): a
    /// payment's share of each follows the line's sign and size, and the shares of a full payment are the lines.
    @Test func sharesOfNegativeLinesAndLinesAboveTheGross() {
        // 100.00 at 19 % (net 100.00, tax 19.00) and -25.00 zero-rated: gross 94.00.
        #expect(proportionalShare(9400, part: 10000, whole: 9400) == 10000)
        #expect(proportionalShare(9400, part: -2500, whole: 9400) == -2500)
        #expect(proportionalShare(4700, part: 10000, whole: 9400) == 5000)
        #expect(proportionalShare(4700, part: -2500, whole: 9400) == -1250)
        // Ties round to even on the magnitude, whatever the signs.
        #expect(proportionalShare(1, part: -1, whole: 2) == 0)
        #expect(proportionalShare(3, part: -1, whole: 2) == -2)
        #expect(proportionalShare(-3, part: -1, whole: 2) == 2)
        // A share past 64 bits is clamped, never a trap.
        #expect(proportionalShare(Int64.max, part: Int64.max, whole: 1) == Int64.max)
        #expect(proportionalShare(Int64.min, part: Int64.max, whole: 1) == Int64.min)
    }

    @Test func grossMustBeNetPlusTaxesExactly() throws {
        let sql = Self.cases.replacingOccurrences(of: "(8, 'MWST', '7.7', NULL, 7700)", with: "(8, 'MWST', '7.7', NULL, 7699)")
        let error = try #require(throws: StoreIssues.self) { try books(sql) }
        #expect(error.description.contains("invoice 'INV-8' column net: 100000 plus tax lines 7699 is 107699, not the amount 107700"), "\(error)")
    }

    @Test func aPaymentInAnotherCurrencyIsRefusedNamingIt() throws {
        let sql = Self.cases + "INSERT INTO payment (id, invoiceId, paidOn, amount, currency) VALUES (99, 1, '2025-02-01', 100, 'USD');"
        let error = try #require(throws: StoreIssues.self) { try books(sql) }
        #expect(error.description.contains("payment id 99 of invoice 'INV-1' column currency: 'USD' is not the invoice's currency EUR"), "\(error)")
    }

    /// A v1 store and the same store migrated to v2 (``Schema/migrationFromV1``) give the same figures and exports.
    @Test(.temporaryFolder) func aV1StoreReadsAsBeforeAndItsMigrationGivesTheSameFigures() throws {
        let folder = try TemporaryFolder.current
        let v1 = folder.path("v1.sqlite")
        try StoreFixture.make(at: v1, sql: StoreFixture.small)
        let v2 = folder.path("v2.sqlite")
        try FileManager.default.copyItem(atPath: v1, toPath: v2)
        try StoreFixture.migrateToV2(v2)
        let old = try BooksStore(path: v1).books
        let new = try BooksStore(path: v2).books
        #expect(old.schemaVersion == 1 && new.schemaVersion == 2)
        #expect(old.invoices == new.invoices)
        #expect(old.payments == new.payments)
        for asOf in ["2025-02-09", "2025-02-10", "2025-04-15"] {
            let period = ReportPeriod(asOf: CalendarDate(iso: asOf))
            let a = try Report(books: old, period: period)
            let b = try Report(books: new, period: period)
            #expect(a == b)
            #expect(a.balances.isEmpty)
            #expect(ReportExports(books: old, report: a).totalsCSV() == ReportExports(books: new, report: b).totalsCSV())
        }
    }
}
