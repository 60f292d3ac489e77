import Foundation
import InvoicesCore
import InvoicesImport
import InvoicesStore
import InvoicesTesting
import Testing

/// FreshBooks' line taxes, its Payments Collected report, drafts and voids (issue 17).
@Suite struct FreshBooksBooksTests {
    static let files = ["freshbooks-clients.csv", "freshbooks-invoices-taxes.csv", "freshbooks-payments.csv"]

    @Test(.temporaryFolder) func lineTaxesBecomeTheInvoicesTaxLinesExactly() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        try Support.importFixtures(Array(Self.files.prefix(2)), into: store)
        let books = try BooksStore(path: store).books
        let invoice = try #require(books.invoices.firstIndex { $0.identifier == "0000201" })
        // Net 1500.00 + 420.10 + 90.00; GST 75.00 + 21.01 on 1920.10 (4.999 %, half to even), PST 105.00 on 1500.00.
        #expect(books.invoices[invoice].net == 201_010 && books.invoices[invoice].amount == 221_111)
        let lines = books.taxLines.filter { $0.invoiceIndex == Int32(invoice) }.map { line in
            "\(books.taxes[Int(line.taxIndex)]) \(line.net) \(line.amount)"
        }
        #expect(lines.sorted() == ["GST 5% 192010 9601", "PST 7% 150000 10500"])
        #expect(
            try StoreFixture.query(store, "SELECT name, rate, taxLine.net AS net, taxLine.amount AS amount FROM taxLine JOIN invoice ON invoice.id = invoiceId WHERE identifier = '0000201' ORDER BY name")
                == [
                    ["name": "GST", "rate": "5", "net": "192010", "amount": "9601"],
                    ["name": "PST", "rate": "7", "net": "150000", "amount": "10500"],
                ])
    }

    @Test(.temporaryFolder) func draftsAndVoidsKeepTheirStatus() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let summary = try Support.importFixtures(Array(Self.files.prefix(2)), into: store)
        #expect(summary.invoices.added == 4 && summary.skippedInvoices == 0)
        let rows = try StoreFixture.query(store, "SELECT identifier, status FROM invoice ORDER BY identifier")
        #expect(rows.map { "\($0["identifier"] ?? "") \($0["status"] ?? "")" } == ["0000201 sent", "0000202 sent", "0000203 draft", "0000204 void"])
    }

    @Test(.temporaryFolder) func paymentsCollectedInTheSameImportOrALaterOneGiveTheSameStore() throws {
        let folder = try TemporaryFolder.current
        let together = folder.path("together.sqlite")
        let summary = try Support.importFixtures(Self.files, into: together)
        // The prepayment names no invoice (the client's credit): left out.
        #expect(summary.payments == .init(added: 4))
        let payments = try StoreFixture.query(
            together, "SELECT identifier, paidOn, payment.amount AS amount, method, reference FROM payment JOIN invoice ON invoice.id = invoiceId ORDER BY identifier, paidOn")
        let keys = ["identifier", "paidOn", "amount", "method", "reference"]
        #expect(payments.map { row in keys.map { row[$0] ?? "" }.joined(separator: "|") } == [
            "0000201|2025-03-10|88444|Bank Transfer|Deposit 40%",
            "0000201|2025-04-02|60000|Check|No. 1042",
            "0000202|2025-03-20|50000|Visa|",
            "0000202|2025-03-28|40400|Credit|From credit",
        ])
        let books = try BooksStore(path: together).books
        let partial = try #require(books.invoices.first { $0.identifier == "0000201" })
        #expect(partial.paid == nil, "1484.44 of 2211.11 received")
        #expect(books.invoices.first { $0.identifier == "0000202" }?.paid?.description == "2025-03-28")

        let later = folder.path("later.sqlite")
        try Support.importFixtures(Array(Self.files.prefix(2)), into: later)
        let second = try Support.importFixtures([Self.files[2]], into: later)
        // 0000202's one payment of its paid date gives way to the two listed.
        #expect(second.payments == .init(added: 4, removed: 1))
        #expect(try Support.dump(later).filter { $0.hasPrefix("payment") }.count == 4)
        #expect(try Self.content(later) == Self.content(together))

        // Each again: nothing changes, not even the bytes; the invoices file alone keeps the listed payments.
        for files in [Self.files, Array(Self.files.prefix(2)), [Self.files[2]]] {
            let bytes = Support.bytes(together)
            let again = try Support.importFixtures(files, into: together)
            #expect(again.invoices.updated == 0 && again.invoices.added == 0)
            #expect(Support.bytes(together) == bytes, "\(files)")
        }
    }

    /// The rows of every table without row ids (the two stores number their payments differently).
    static func content(_ store: String) throws -> [String] {
        try ["client", "invoice", "taxLine", "writeOff"].flatMap { table in
            try StoreFixture.query(store, "SELECT * FROM \(table) ORDER BY id").map { "\(table) \($0.sorted { $0.key < $1.key })" }
        } + StoreFixture.query(store, "SELECT invoiceId, paidOn, amount, method, reference FROM payment ORDER BY invoiceId, paidOn").map { "\($0.sorted { $0.key < $1.key })" }
    }

    @Test(.temporaryFolder) func aLineWhoseTotalIsNotSubtotalPlusTaxesAndAPaymentInAnotherCurrencyAreNamed() throws {
        let folder = try TemporaryFolder.current
        let invoices = folder.path("invoices.csv")
        let original = try String(contentsOfFile: Support.fixture("freshbooks-invoices-taxes.csv"), encoding: .utf8)
        try Data(original.replacingOccurrences(of: "21.01,,0,441.11", with: "21.01,,0,441.10").utf8).write(to: URL(fileURLWithPath: invoices))
        let payments = folder.path("payments.csv")
        try Data("Date,Client,Invoice #,Method,Notes,Amount,Currency\n2025-03-10,Jane Doe,0000202,Visa,,10.00,USD\n".utf8)
            .write(to: URL(fileURLWithPath: payments))
        let store = folder.path("books.sqlite")
        let batch = try ImportReader().batch(from: [Support.fixture("freshbooks-clients.csv"), invoices, payments])
        do {
            _ = try ImportWriter.apply(batch, to: store)
            Issue.record("the import should fail")
        } catch {
            #expect(error.kind == .badData)
            let lines = error.problems.map(\.description)
            #expect(lines.contains { $0.hasPrefix("\(invoices):3: column 'Line Total': '441.10' is not 'Line Subtotal' plus the taxes (441.11)") }, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("\(payments):2: column 'Currency': payment of invoice '0000202': 'USD' is not the invoice's currency CAD") }, "\(lines)")
        }
        #expect(!FileManager.default.fileExists(atPath: store))
    }
}
