import Foundation
import InvoicesCore
import InvoicesImport
import InvoicesStore
import InvoicesTesting
import Testing

/// The tool's own CSV and JSON formats carry payments, credit notes, statuses, write-offs and tax lines (issue 17).
@Suite struct NativeBooksTests {
    @Test(.temporaryFolder) func jsonCarriesEveryPartOfTheBooksAndAReimportChangesNothing() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let first = try Support.importFixtures(["books-v2.json"], into: store)
        #expect(first.invoices == .init(added: 5) && first.payments == .init(added: 4))
        #expect(
            try StoreFixture.query(store, "SELECT identifier, status, kind, net, (SELECT identifier FROM invoice c WHERE c.id = invoice.correctsId) AS corrects, appliedOn FROM invoice ORDER BY id").map { row in
                ["identifier", "status", "kind", "net", "corrects", "appliedOn"].map { row[$0] ?? "" }.joined(separator: " ")
            } == [
                "INV-2025-001 sent invoice 100000 NULL NULL",
                "CN-2025-001 sent credit 10000 INV-2025-001 2025-03-09",
                "INV-2025-002 sent invoice NULL NULL NULL",
                "INV-2025-003 draft invoice NULL NULL NULL",
                "INV-2025-004 void invoice NULL NULL NULL",
            ])
        #expect(try StoreFixture.query(store, "SELECT name, rate, amount FROM taxLine ORDER BY id") == [
            ["name": "VAT", "rate": "21", "amount": "21000"], ["name": "VAT", "rate": "21", "amount": "2100"],
        ])
        #expect(try StoreFixture.query(store, "SELECT writtenOffOn, amount, reason FROM writeOff") == [
            ["writtenOffOn": "2025-09-30", "amount": "20000", "reason": "uncollectable"],
        ])
        #expect(try StoreFixture.query(store, "SELECT paidOn, amount, reference FROM payment ORDER BY paidOn").map { "\($0["paidOn"] ?? "") \($0["amount"] ?? "") \($0["reference"] ?? "")" } == [
            "2025-02-03 48400 DEPOSIT", "2025-02-20 30000 ", "2025-03-04 72600 ", "2025-03-09 -12100 REFUND",
        ])
        // INV-2025-001: 1210 − 484 − 726 − 121 (credit note, applied) + 121 (refund) = 0, settled on 2025-03-04.
        let books = try BooksStore(path: store).books
        #expect(books.invoices.first { $0.identifier == "INV-2025-001" }?.paid?.description == "2025-03-04")
        let bytes = Support.bytes(store)
        let second = try Support.importFixtures(["books-v2.json"], into: store)
        #expect(second.invoices == .init(unchanged: 5) && second.payments == .init(unchanged: 4))
        #expect(Support.bytes(store) == bytes)
    }

    @Test(.temporaryFolder) func theInvoicesCSVCarriesStatusCreditNotesATaxLineAndAWriteOff() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        try Support.importFixtures(["clients.csv", "invoices-v2.csv"], into: store)
        let books = try BooksStore(path: store).books
        func invoice(_ identifier: String) throws -> InvoiceSnapshot { try #require(books.invoices.first { $0.identifier == identifier }) }
        let credit = try invoice("CN-10")
        #expect(credit.kind == .creditNote && credit.applied?.description == "2025-04-10")
        #expect(books.invoices[Int(credit.corrects)].identifier == "INV-10")
        #expect(try invoice("INV-10").net == 100_000 && books.taxes == [TaxRate(name: "MWST", milliPercent: 7_700)])
        #expect(books.writeOffs.map(\.amount) == [10_000] && books.writeOffs.map(\.reason) == ["bad debt"])
        #expect(try invoice("INV-12").status == .draft && invoice("INV-13").status == .void)
        let bytes = Support.bytes(store)
        try Support.importFixtures(["clients.csv", "invoices-v2.csv"], into: store)
        #expect(Support.bytes(store) == bytes)
    }

    @Test(.temporaryFolder) func badBooksFieldsAreNamedByFileLineAndColumn() throws {
        let folder = try TemporaryFolder.current
        let file = folder.path("invoices.csv")
        let original = try String(contentsOfFile: Support.fixture("invoices-v2.csv"), encoding: .utf8)
        let broken = original
            .replacingOccurrences(of: "1000.00,MWST,7.7,77.00", with: "1000.00,MWST,7.7,76.00")
            .replacingOccurrences(of: "credit,INV-10,", with: "credit,INV-99,")
            .replacingOccurrences(of: ",draft,", with: ",drafted,")
        try Data(broken.utf8).write(to: URL(fileURLWithPath: file))
        let batch = try ImportReader().batch(from: [Support.fixture("clients.csv"), file])
        let error = try #require(throws: ImportError.self) { try ImportWriter.apply(batch, to: folder.path("books.sqlite")) }
        #expect(error.kind == .badData)
        let lines = error.problems.map(\.description)
        #expect(lines.contains { $0.hasPrefix("\(file):2: column 'net': 100000 plus tax lines 7600 is 107600, not the amount 107700") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("\(file):3: column 'corrects': invoice 'INV-99' is neither in the imported invoices nor in the store") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("\(file):5: column 'status': 'drafted' is not a status") }, "\(lines)")
    }
}
