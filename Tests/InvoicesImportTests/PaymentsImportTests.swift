import Foundation
import InvoicesCore
import InvoicesImport
import InvoicesStore
import InvoicesTesting
import Testing

/// Several payments per invoice survive import, as they are, and re-imports (issue 17).
@Suite struct PaymentsImportTests {
    /// The payment rows of a store by invoice and day: `identifier paidOn amount method reference`.
    static func payments(_ store: String) throws -> [String] {
        try StoreFixture.query(
            store,
            "SELECT identifier, paidOn, payment.amount AS amount, method, reference FROM payment JOIN invoice ON invoice.id = invoiceId ORDER BY identifier, paidOn, payment.id"
        ).map { row in ["identifier", "paidOn", "amount", "method", "reference"].map { row[$0] ?? "NULL" }.joined(separator: " ") }
    }

    static let expected = [
        "INV-1 2025-02-10 123450 bank transfer SEPA-0001",
        "INV-2 2025-02-10 20000 bank transfer DEP-40",
        "INV-2 2025-03-05 15000 card ",
        "INV-2 2025-03-05 15000 card ",
        "INV-4 2025-02-25 12345 cash ",
        "INV-4 2025-03-01 -2345 bank transfer REFUND-1",
    ]

    @Test(.temporaryFolder) func aPaymentsFileStoresEveryPaymentAsItIsAndAReimportChangesNothing() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let files = ["clients.csv", "invoices.csv", "payments.csv"]
        let first = try Support.importFixtures(files, into: store)
        #expect(first.payments == .init(added: 6))
        #expect(try Self.payments(store) == Self.expected)
        // INV-2 (500.00): 200 + 150 + 150 settle it on 2025-03-05; INV-4 was paid in full and refunded 2.345.
        let books = try BooksStore(path: store).books
        #expect(books.invoices.first { $0.identifier == "INV-2" }?.paid?.description == "2025-03-05")
        #expect(books.payments.count == 6 && books.paymentDetails.contains(PaymentDetails(method: "bank transfer", reference: "DEP-40")))
        let dump = try Support.dump(store)
        let bytes = Support.bytes(store)
        let second = try Support.importFixtures(files, into: store)
        #expect(second.payments == .init(unchanged: 6))
        #expect(second.invoices == .init(unchanged: 4))
        #expect(try Support.dump(store) == dump)
        #expect(Support.bytes(store) == bytes, "an import with nothing to change does not write")
    }

    @Test(.temporaryFolder) func reimportingTheInvoicesAloneKeepsPaymentsThatAgreeWithThem() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        try Support.importFixtures(["clients.csv", "invoices.csv", "payments.csv"], into: store)
        let bytes = Support.bytes(store)
        // invoices.csv says INV-1 and INV-4 were paid in full on 2025-02-10 and 2025-02-25 (their payments say so
        // too: INV-4's refund comes after) and INV-2 is not paid in full (its payments of 200 + 150 + 150 = 500
        // say it is): INV-2's payments give way, the rest stand.
        let summary = try Support.importFixtures(["clients.csv", "invoices.csv"], into: store)
        #expect(summary.invoices == .init(updated: 1, unchanged: 3))
        #expect(try Self.payments(store) == Self.expected.filter { !$0.hasPrefix("INV-2") })
        #expect(Support.bytes(store) != bytes)
    }

    @Test(.temporaryFolder) func anImportThatUpdatesAnInvoiceKeepsItsPartialPayments() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        try StoreFixture.make(
            at: store,
            sql: """
                INSERT INTO client (id, number, name) VALUES (1, 'C-001', 'Acme, Inc.');
                INSERT INTO invoice (id, identifier, clientId, amount, currency, notes, issuedOn, dueOn) VALUES
                  (1, 'INV-2', 1, 50000, 'EUR', 'old notes', '2025-02-01', '2025-03-01');
                INSERT INTO payment (id, invoiceId, paidOn, amount, method, reference) VALUES
                  (7, 1, '2025-02-10', 20000, 'bank transfer', 'DEP-40'),
                  (9, 1, '2025-02-20', 10000, 'card', '');
                """, version: 2)
        let file = folder.path("invoices.csv")
        try Data(
            """
            identifier,clientNumber,amount,currency,issuedOn,dueOn,paidOn,notes
            INV-2,C-001,500,EUR,2025-02-01,2025-03-01,,new notes

            """.utf8
        ).write(to: URL(fileURLWithPath: file))
        let summary = try ImportWriter.apply(try ImportReader().read(files: [file]), to: store)
        #expect(summary.invoices == .init(updated: 1))
        #expect(try StoreFixture.query(store, "SELECT notes FROM invoice") == [["notes": "new notes"]])
        #expect(
            try StoreFixture.query(store, "SELECT id, paidOn, amount, method FROM payment ORDER BY id") == [
                ["id": "7", "paidOn": "2025-02-10", "amount": "20000", "method": "bank transfer"],
                ["id": "9", "paidOn": "2025-02-20", "amount": "10000", "method": "card"],
            ])
    }

    @Test(.temporaryFolder) func aPaymentsFileInALaterImportReplacesTheOnePaymentOfAPaidDate() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        try Support.importFixtures(["clients.csv", "invoices.csv"], into: store)
        #expect(try Self.payments(store) == ["INV-1 2025-02-10 123450  ", "INV-4 2025-02-25 12345  "])
        let summary = try Support.importFixtures(["payments.csv"], into: store)
        #expect(summary.payments == .init(added: 6, removed: 2))
        #expect(try Self.payments(store) == Self.expected)
    }

    @Test(.temporaryFolder) func badPaymentsAreNamedByFileLineAndColumnAndNothingIsWritten() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        try Support.importFixtures(["clients.csv", "invoices.csv"], into: store)
        let bytes = Support.bytes(store)
        let file = folder.path("payments.csv")
        try Data(
            """
            invoice,paidOn,amount,currency,method,reference
            INV-2,2025-02-10,200.00,USD,card,
            INV-9,2025-02-10,1.00,EUR,card,
            INV-2,2025-01-10,1.00,EUR,card,
            INV-2,2025-02-10,0.00,EUR,card,
            INV-2,2025-02-10,1.001,EUR,card,

            """.utf8
        ).write(to: URL(fileURLWithPath: file))
        let batch = try ImportReader().batch(from: [file])
        #expect(throws: ImportError.self) { try ImportWriter.apply(batch, to: store) }
        do {
            _ = try ImportWriter.apply(batch, to: store)
        } catch {
            #expect(error.kind == .badData)
            let lines = error.problems.map(\.description)
            #expect(lines.count == 5, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("\(file):2: column 'currency'") && $0.contains("'USD' is not the invoice's currency EUR") })
            #expect(lines.contains { $0.hasPrefix("\(file):3: column 'invoice'") && $0.contains("'INV-9' is neither in the imported invoices nor in the store") })
            #expect(lines.contains { $0.hasPrefix("\(file):4: column 'paidOn'") && $0.contains("before the invoice's issue date 2025-02-01") })
            #expect(lines.contains { $0.hasPrefix("\(file):5: column 'amount'") && $0.contains("is 0") })
            #expect(lines.contains { $0.hasPrefix("\(file):6: column 'amount'") && $0.contains("more decimals than EUR allows") })
        }
        #expect(Support.bytes(store) == bytes)
    }

    @Test(.temporaryFolder) func intoAVersion1StoreThePaymentsGiveThePaidDate() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        try StoreFixture.make(at: store, sql: "")
        try Support.importFixtures(["clients.csv", "invoices.csv", "payments.csv"], into: store)
        let rows = try StoreFixture.query(store, "SELECT identifier, paidOn FROM invoice ORDER BY id")
        // INV-2 settled on 2025-03-05; INV-4's refund after full payment does not unpay it.
        #expect(rows.map { "\($0["identifier"] ?? "") \($0["paidOn"] ?? "NULL")" } == [
            "INV-1 2025-02-10", "INV-2 2025-03-05", "INV-3 NULL", "INV-4 2025-02-25",
        ])
    }
}
