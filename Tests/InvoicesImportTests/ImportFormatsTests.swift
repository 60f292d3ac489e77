import Foundation
import InvoicesCore
import InvoicesImport
import InvoicesStore
import InvoicesTesting
import Testing

/// Each format imports into a store whose report totals match hand-computed values (issue 7).
@Suite struct ImportFormatsTests {
    @Test(.temporaryFolder) func theToolsOwnCSVFormats() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let summary = try Support.importFixtures(["clients.csv", "invoices.csv"], into: store)
        #expect(summary == ImportSummary(clients: .init(added: 2), invoices: .init(added: 4)))

        // EUR: 1234.50 (paid) + 500.00; JPY 15000 open; KWD 12.345 paid (three decimals).
        #expect(try Support.totals(store) == [
            "EUR": [173_450, 123_450, 50_000], "JPY": [15_000, 0, 15_000], "KWD": [12_345, 12_345, 0],
        ])
        let books = try BooksStore(path: store).books
        #expect(books.clients.map(\.name) == ["Acme, Inc.", "Müller & Söhne"])
        #expect(books.clients[0].street == "Main St 1\r\nSuite 2")
        let notes = books.invoices.first { $0.identifier == "INV-2" }?.notes
        #expect(notes == "Hosting, \"premium\"")
        let paid = books.invoices.first { $0.identifier == "INV-1" }?.paid
        #expect(paid == CalendarDate(iso: "2025-02-10"))
    }

    @Test(.temporaryFolder) func theToolsOwnJSONFormat() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let summary = try Support.importFixtures(["books.json"], into: store)
        #expect(summary == ImportSummary(clients: .init(added: 1), invoices: .init(added: 2)))
        // 99.90 paid in May, 1000.00 open.
        #expect(try Support.totals(store) == ["USD": [109_990, 9_990, 100_000]])
    }

    @Test(.temporaryFolder) func freshBooksClientsAndMultiLineInvoices() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let summary = try Support.importFixtures(["freshbooks-clients.csv", "freshbooks-invoices.csv"], into: store)
        #expect(summary == ImportSummary(clients: .init(added: 2), invoices: .init(added: 3)))
        // 0000101: 1575.00 + 420.10 + 90.00 = 2085.10 USD, open. 0000102: 904.00 CAD, paid.
        // 0000103 is a draft: imported as a draft, it counts in no total.
        #expect(try Support.totals(store) == ["USD": [208_510, 0, 208_510], "CAD": [90_400, 90_400, 0]])
        let books = try BooksStore(path: store).books
        #expect(books.clients.map(\.name) == ["Globex Corporation", "Jane Doe"])
        #expect(books.clients.map(\.number) == ["C-00001", "C-00002"])
        #expect(books.clients[1].zip == "M5V 2T6")
        let globex = try #require(books.invoices.first { $0.identifier == "0000101" })
        #expect(globex.due == CalendarDate(iso: "2025-04-02"), "due = issue date + 30 days (--default-terms)")
        #expect(globex.notes == "Consulting, Travel, Workshop")
        let jane = try #require(books.invoices.first { $0.identifier == "0000102" })
        #expect(jane.paid == CalendarDate(iso: "2025-03-20"))
        #expect(books.invoices.first { $0.identifier == "0000103" }?.status == .draft)
    }

    @Test(.temporaryFolder) func freshBooksDefaultTermsSetTheDueDate() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        try Support.importFixtures(
            ["freshbooks-clients.csv", "freshbooks-invoices.csv"], into: store, options: .init(defaultTerms: 14))
        let books = try BooksStore(path: store).books
        #expect(books.invoices.first { $0.identifier == "0000101" }?.due == CalendarDate(iso: "2025-03-17"))
    }

    @Test(.temporaryFolder) func zohoInvoicesAndTheirCustomers() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let summary = try Support.importFixtures(["zoho-invoices.csv"], into: store)
        #expect(summary == ImportSummary(clients: .init(added: 2), invoices: .init(added: 4)))
        // USD: 1080.00 open (two lines, amount = Total) + 324.00 paid (Balance 0). EUR: 99.99, of which
        // Total − Balance = 50.00 was paid on the Last Payment Date 2025-04-30: 49.99 open. The void one counts nowhere.
        #expect(try Support.totals(store) == ["USD": [140_400, 32_400, 108_000], "EUR": [9_999, 5_000, 4_999]])
        #expect(try ImportReader().read(files: [Support.fixture("zoho-invoices.csv")]).skippedInvoices == 0)
        let books = try BooksStore(path: store).books
        // INV-000004 is void: imported with its status, listed apart.
        #expect(books.invoices.first { $0.identifier == "INV-000004" }?.status == .void)
        let partial = try #require(books.invoices.firstIndex { $0.identifier == "INV-000003" })
        #expect(books.payments.filter { $0.invoiceIndex == Int32(partial) } == [
            PaymentSnapshot(invoiceIndex: Int32(partial), date: try #require(CalendarDate(iso: "2025-04-30")), amount: 5_000)
        ])
        // SubTotal 1000.00 of Total 1080.00: net 1000.00 and a tax of 80.00, at 8 % (no rate column: tax over net).
        let taxed = try #require(books.invoices.first { $0.identifier == "INV-000001" })
        #expect(taxed.net == 100_000)
        #expect(books.taxes.map(\.percent) == ["8"])
        #expect(books.taxLines.map(\.amount).sorted() == [2_400, 8_000])
        let initech = try #require(books.clients.first { $0.name == "Initech" })
        #expect(initech.street == "4120 Freidrich Ln\nBuilding 3")
        #expect(initech.city == "Austin")
        #expect(books.invoices.first { $0.identifier == "INV-000002" }?.paid == CalendarDate(iso: "2025-04-18"))
        #expect(books.invoices.first { $0.identifier == "INV-000003" }?.paid == nil)
    }

    @Test(.temporaryFolder) func aNewerExportUpdatesTheInvoiceThatGotPaid() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        try Support.importFixtures(["zoho-invoices.csv"], into: store)
        let summary = try Support.importFixtures(["zoho-invoices-later.csv"], into: store)
        #expect(summary == ImportSummary(clients: .init(unchanged: 2), invoices: .init(updated: 1, unchanged: 3)))
        // INV-000001 paid on 2025-05-02: the span now runs to May; everything in USD is paid.
        #expect(try Support.totals(store) == ["USD": [140_400, 140_400, 0], "EUR": [9_999, 5_000, 4_999]])
    }

    @Test(.temporaryFolder) func datesInAnotherFormNeedDateFormat() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        #expect(throws: ImportError.self) {
            try Support.importFixtures(["clients.csv", "invoices-dmy.csv"], into: store)
        }
        try Support.importFixtures(["clients.csv", "invoices-dmy.csv"], into: store, options: .init(dateFormat: "dd/MM/yyyy"))
        let invoice = try #require(try BooksStore(path: store).books.invoices.first)
        #expect(invoice.issued == CalendarDate(iso: "2025-03-05"))
        #expect(invoice.due == CalendarDate(iso: "2025-04-04"))
    }
}

/// FreshBooks' `Date Due` column (issue 16): stated due dates are kept, not replaced by the default terms.
extension ImportFormatsTests {
    @Test(.temporaryFolder) func freshBooksDateDueIsTheDueDateWhenTheExportHasIt() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        try Support.importFixtures(
            ["freshbooks-clients.csv", "freshbooks-invoices-due.csv"], into: store, options: .init(defaultTerms: 14))
        let due = try BooksStore(path: store).books.invoices.map { "\($0.identifier) \($0.due)" }
        // 0000301 and 0000302 state their due dates; 0000303's is empty: issue date + 14 days.
        #expect(due.sorted() == ["0000301 2025-05-02", "0000302 2025-03-24", "0000303 2025-03-26"])
    }

    @Test(.temporaryFolder) func aStatedDueDateReplacesAStoredOneOnReimport() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let file = folder.path("fb.csv")
        let text = try String(contentsOfFile: Support.fixture("freshbooks-invoices-due.csv"), encoding: .utf8)
        try Data(text.replacingOccurrences(of: "2025-05-02", with: "2025-04-30").utf8).write(to: URL(fileURLWithPath: file))
        try Support.importFixtures(["freshbooks-clients.csv", "freshbooks-invoices-due.csv"], into: store)
        let batch = try ImportReader().read(files: [file])
        let summary = try ImportWriter.apply(batch, to: store)
        #expect(summary.invoices == ImportSummary.Counts(updated: 1, unchanged: 2))
        let invoice = try BooksStore(path: store).books.invoices.first { $0.identifier == "0000301" }
        #expect(invoice?.due == CalendarDate(iso: "2025-04-30"))
    }

    @Test(.temporaryFolder) func aDateDueBeforeTheIssueDateIsReportedInItsColumn() throws {
        let folder = try TemporaryFolder.current
        let file = folder.path("fb.csv")
        try Data("""
            Client Name,Invoice #,Date Issued,Date Due,Invoice Status,Date Paid,Line Total,Currency
            Jane Doe,7,2025-03-10,2025-03-01,sent,,10.00,CAD
            Jane Doe,8,2025-03-10,2025-02-31,sent,,10.00,CAD
            """.utf8).write(to: URL(fileURLWithPath: file))
        let error = try #require(throws: ImportError.self) { try ImportReader().read(files: [file]) }
        #expect(error.problems.map(\.location.line) == [2, 3])
        #expect(error.problems.map(\.column) == ["Date Due", "Date Due"])
        #expect(error.problems[1].message.hasPrefix("'2025-02-31' is not a date YYYY-MM-DD"))
    }
}

/// Zoho's partial payments, write-offs, drafts and tax columns (schema v2), and re-importing them.
struct ZohoBooksV2Tests {
    static let csv = """
        Invoice Date,Invoice Number,Invoice Status,Customer Name,Due Date,Currency Code,SubTotal,Total,Balance,Last Payment Date,WriteOff Date,WriteOff Amount,Tax Name,Tax Percentage,Tax Amount
        2025-03-01,INV-10,PartiallyPaid,Globex,2025-03-31,CHF,,1077.00,677.00,2025-03-20,,,MWST,7.7,77.00
        2025-03-02,INV-11,Paid,Globex,2025-04-01,CHF,,500.00,0.00,2025-03-10,2025-06-30,100.00,,,
        2025-03-03,INV-12,Draft,Globex,2025-04-02,CHF,,250.00,250.00,,,,,,

        """

    @Test(.temporaryFolder) func partialPaymentsWriteOffsDraftsAndTaxes() throws {
        let folder = try TemporaryFolder.current
        let file = folder.path("zoho.csv")
        try Data(Self.csv.utf8).write(to: URL(fileURLWithPath: file))
        let store = folder.path("books.sqlite")
        let first = try ImportWriter.apply(try ImportReader().batch(from: [file]), to: store)
        #expect(first.invoices.added == 3)
        let books = try BooksStore(path: store).books
        func index(_ identifier: String) throws -> Int { try #require(books.invoices.firstIndex { $0.identifier == identifier }) }
        // INV-10: 1077.00 − 677.00 = 400.00 received on the Last Payment Date, not the invoice date.
        let partial = try index("INV-10")
        #expect(books.payments.filter { $0.invoiceIndex == Int32(partial) }.map(\.amount) == [40_000])
        #expect(books.payments.filter { $0.invoiceIndex == Int32(partial) }.map(\.date.description) == ["2025-03-20"])
        #expect(books.invoices[partial].net == 100_000 && books.invoices[partial].paid == nil)
        #expect(books.taxes == [TaxRate(name: "MWST", milliPercent: 7_700)])
        // INV-11: 500.00 − 0.00 − 100.00 written off = 400.00 received; settled on the write-off, the later day.
        let writtenOff = try index("INV-11")
        #expect(books.payments.filter { $0.invoiceIndex == Int32(writtenOff) }.map(\.amount) == [40_000])
        #expect(books.writeOffs.map(\.amount) == [10_000])
        #expect(books.invoices[writtenOff].paid?.description == "2025-06-30")
        #expect(books.invoices[try index("INV-12")].status == .draft)
        // The same export again changes nothing, not even the file's bytes.
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let again = try ImportWriter.apply(try ImportReader().batch(from: [file]), to: store)
        #expect(again.invoices == .init(unchanged: 3))
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }

    @Test(.temporaryFolder) func aWriteOffWithoutItsDateIsNamedByFileLineAndColumn() throws {
        let folder = try TemporaryFolder.current
        let file = folder.path("zoho.csv")
        try Data(Self.csv.replacingOccurrences(of: "2025-06-30,100.00", with: ",100.00").utf8).write(to: URL(fileURLWithPath: file))
        let batch = try ImportReader().batch(from: [file])
        #expect(batch.problems.map(\.description).contains { $0.contains("zoho.csv:3") && $0.contains("WriteOff Date") }, "\(batch.problems)")
    }
}
