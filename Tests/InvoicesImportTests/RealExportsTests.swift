import Foundation
import InvoicesCore
import InvoicesImport
import InvoicesStore
import InvoicesTesting
import Testing

/// Zoho Invoice's and FreshBooks' exports as the services write them: every column in their order, every status,
/// empty dates and `0.00` cells where the real files have them (issue 28).
struct RealExportsTests {
    /// What the imported books say an invoice still owes: nothing for a void one, else its amount less its
    /// payments and write-offs.
    static func balances(_ books: Books) -> [String: Int64] {
        var owed: [String: Int64] = [:]
        for (index, invoice) in books.invoices.enumerated() {
            let paid = books.payments.filter { $0.invoiceIndex == Int32(index) }.reduce(0) { $0 + $1.amount }
            let writtenOff = books.writeOffs.filter { $0.invoiceIndex == Int32(index) }.reduce(0) { $0 + $1.amount }
            owed[invoice.identifier] = invoice.status == .void ? 0 : invoice.amount - paid - writtenOff
        }
        return owed
    }

    @Test(.temporaryFolder) func zohoExportWithEveryStatusImportsWithZohosOwnBalances() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let summary = try Support.importFixtures(["zoho-invoices-export.csv"], into: store)
        #expect(summary.invoices.added == 12 && summary.clients.added == 4)
        let books = try BooksStore(path: store).books

        // Zoho's `Balance` column, read from the fixture itself: one value per invoice (the same on its lines).
        let text = try Data(contentsOf: URL(fileURLWithPath: Support.fixture("zoho-invoices-export.csv")))
        let csv = try CSVDocument(bytes: [UInt8](text))
        #expect(csv.header.count == 83)
        let column = { (name: String) in try #require(csv.header.firstIndex(of: name)) }
        let (number, balance, currency, status) = (try column("Invoice Number"), try column("Balance"), try column("Currency Code"), try column("Invoice Status"))
        var expected: [String: Int64] = [:]
        var statuses: Set<String> = []
        for record in csv.records {
            let code = try CurrencyCode(record.fields[currency])
            expected[record.fields[number]] = try Money(parsing: record.fields[balance], currency: code).minorUnits
            statuses.insert(record.fields[status])
        }
        #expect(statuses == ["Draft", "Sent", "Viewed", "Overdue", "PartiallyPaid", "Paid", "Void", "WrittenOff"])
        #expect(Self.balances(books) == expected)

        func invoice(_ identifier: String) throws -> InvoiceSnapshot {
            try #require(books.invoices.first { $0.identifier == identifier })
        }
        #expect(try invoice("INV-000101").status == .draft)
        #expect(try invoice("INV-000107").status == .void)
        // A void invoice's `Balance` 0.00 is not a payment; the written-off ones are settled on their write-off.
        let void = try #require(books.invoices.firstIndex { $0.identifier == "INV-000107" })
        #expect(!books.payments.contains { $0.invoiceIndex == Int32(void) })
        #expect(try invoice("INV-000108").paid?.description == "2025-06-30")
        #expect(try invoice("INV-000109").paid?.description == "2025-07-01")
        #expect(try invoice("INV-000106").paid?.description == "2025-02-28")
        #expect(try invoice("INV-000105").paid == nil)
        // A shipping charge and an adjustment are not a tax: the invoice without tax columns has no tax line.
        let shipped = try #require(books.invoices.firstIndex { $0.identifier == "INV-000110" })
        #expect(!books.taxLines.contains { $0.invoiceIndex == Int32(shipped) })
        #expect(try invoice("INV-000110").amount == 11_450)

        // The same export again changes nothing.
        let again = try Support.importFixtures(["zoho-invoices-export.csv"], into: store)
        #expect(again.invoices == .init(unchanged: 12))
    }

    @Test(.temporaryFolder) func freshBooksExportWithEveryStatusImports() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let summary = try Support.importFixtures(
            ["freshbooks-clients-export.csv", "freshbooks-invoices-export.csv", "freshbooks-payments-export.csv"], into: store)
        #expect(summary.invoices.added == 9 && summary.clients.added == 3)
        let books = try BooksStore(path: store).books
        func invoice(_ identifier: String) throws -> InvoiceSnapshot {
            try #require(books.invoices.first { $0.identifier == identifier })
        }
        #expect(try invoice("0000001").status == .draft && invoice("0000001").amount == 114_000)
        for sent in ["0000002", "0000003", "0000006", "0000007", "0000008", "0000009"] {
            #expect(try invoice(sent).status == .sent && invoice(sent).paid == nil, "\(sent)")
        }
        // `paid` and `auto-paid` are paid in full on `Date Paid`.
        #expect(try invoice("0000004").paid?.description == "2025-02-20")
        #expect(try invoice("0000005").paid?.description == "2025-02-12")
        // The partial invoice owes what the Payments Collected report leaves: 1417.50 − 567.00 − 300.00.
        #expect(Self.balances(books)["0000008"] == 55_050)
        // Lines whose tax cells are `0.00` with no tax named carry no tax; the taxed ones do.
        #expect(Set(books.taxes.map(\.name)) == ["GST", "PST"])
    }
}
