import Foundation
import InvoicesCore
@testable import InvoicesStore
import InvoicesTesting
import Testing

/// A Core Data model with a Payment entity: its rows are the payments (issue 17); without one, the v1 reading.
struct CoreDataPaymentTests {
    /// The dated store plus a `Payment` entity (number 3, to-one `invoice`), as Core Data lays it out.
    static let withPayments = CoreDataFixture.dated + """
        CREATE TABLE ZPAYMENT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZINVOICE INTEGER, ZAMOUNT FLOAT,
            ZDATE TIMESTAMP, ZMETHOD VARCHAR, ZREFERENCE VARCHAR);
        CREATE INDEX ZPAYMENT_ZINVOICE_INDEX ON ZPAYMENT (ZINVOICE);
        INSERT INTO Z_PRIMARYKEY VALUES (3, 'Payment', 0, 4);
        INSERT INTO ZPAYMENT VALUES
          -- INV-2 (500.00 EUR): a deposit of 200.00 on 2025-02-10 09:00 and 300.00 on 2025-03-05 00:00
          (1, 3, 1, 2, 200, 760870800, 'bank transfer', 'DEP-1'),
          (2, 3, 1, 2, 300.0, 762825600, NULL, NULL),
          -- INV-1 (1234.50 EUR): paid in full on 2025-02-10, whatever its paidAt says
          (3, 3, 1, 1, 1234.5, 760870800, 'card', NULL),
          -- INV-4 (12.345 KWD): 10.000 on 2025-02-25 18:00, still 2.345 open
          (4, 3, 1, 4, 10, 762199200, NULL, NULL);
        """

    @Test(.temporaryFolder) func paymentRowsAreThePaymentsAndSetTheSettledDates() throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("Invoices.sqlite")
        try CoreDataFixture.make(at: path, sql: Self.withPayments)
        let books = try BooksStore(path: path).books
        func invoice(_ identifier: String) throws -> (index: Int, snapshot: InvoiceSnapshot) {
            let index = try #require(books.invoices.firstIndex { $0.identifier == identifier })
            return (index, books.invoices[index])
        }
        let second = try invoice("INV-2")
        #expect(books.payments.filter { $0.invoiceIndex == Int32(second.index) }.map { "\($0.date) \($0.amount)" } == [
            "2025-02-10 20000", "2025-03-05 30000",
        ])
        #expect(second.snapshot.paid?.description == "2025-03-05")
        #expect(try invoice("INV-1").snapshot.paid?.description == "2025-02-10")
        // INV-4's paidAt says 2025-02-25, but its one payment leaves 2.345 open: the payments win.
        #expect(try invoice("INV-4").snapshot.paid == nil)
        #expect(books.paymentDetails.contains(PaymentDetails(method: "bank transfer", reference: "DEP-1")))
        #expect(books.payments.count == 4)
    }

    @Test(.temporaryFolder) func withoutAPaymentEntityTheV1ReadingApplies() throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("Invoices.sqlite")
        try CoreDataFixture.make(at: path, sql: CoreDataFixture.dated)
        let books = try BooksStore(path: path).books
        // One payment of the whole amount per paid date: INV-1 and INV-4.
        #expect(books.payments.map(\.amount).sorted() == [12_345, 123_450])
    }

    @Test(.temporaryFolder) func aMappedPaymentEntityAndItsProblemsAreNamedByTableRowAndColumn() throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("Invoices.sqlite")
        let renamed = Self.withPayments
            .replacingOccurrences(of: "ZPAYMENT", with: "ZRECEIPT").replacingOccurrences(of: "'Payment'", with: "'Receipt'")
            .replacingOccurrences(of: "ZDATE TIMESTAMP", with: "ZRECEIVEDAT TIMESTAMP")
            .replacingOccurrences(of: "(4, 3, 1, 4, 10, 762199200", with: "(4, 3, 1, 9, 10.0001, 762199200")
        try CoreDataFixture.make(at: path, sql: renamed)
        // Unmapped, the model has no Payment entity: the v1 reading.
        #expect(try BooksStore(path: path).books.payments.count == 2)
        var mapping = CoreDataMapping()
        #expect(mapping.addNames(["Payment=Receipt", "Payment.date=receivedAt"]) == nil)
        let error = try #require(throws: StoreIssues.self) { try BooksStore(path: path, coreDataMapping: mapping) }
        let lines = error.issues.map(\.description)
        #expect(lines.contains { $0.contains("ZRECEIPT") && $0.contains("Z_PK 4") && $0.contains("ZINVOICE") && $0.contains("invoice Z_PK 9") }, "\(lines)")
        var missing = CoreDataMapping()
        #expect(missing.addNames(["Payment=Receipt"]) == nil)
        let noDate = try #require(throws: StoreIssues.self) { try BooksStore(path: path, coreDataMapping: missing) }
        #expect(noDate.issues.contains { $0.description.contains("ZDATE") && $0.description.contains("--core-data-name Payment.date=NAME") }, "\(noDate.issues)")
    }
}
