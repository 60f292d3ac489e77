import Foundation
import InvoicesCore
import InvoicesStore
import InvoicesTesting
import Testing

struct SampleGeneratorTests {
    @Test(.temporaryFolder) func theSameArgumentsGiveTheSameBytes() throws {
        let folder = try TemporaryFolder.current
        try SampleGenerator(clients: 30, invoices: 900, seed: 7).write(to: folder.path("a.sqlite"))
        try SampleGenerator(clients: 30, invoices: 900, seed: 7).write(to: folder.path("b.sqlite"))
        try SampleGenerator(clients: 30, invoices: 900, seed: 8).write(to: folder.path("c.sqlite"))
        let a = try Data(contentsOf: folder.url.appendingPathComponent("a.sqlite"))
        #expect(a == (try Data(contentsOf: folder.url.appendingPathComponent("b.sqlite"))))
        #expect(a != (try Data(contentsOf: folder.url.appendingPathComponent("c.sqlite"))))
    }

    @Test(.temporaryFolder) func theSampleIsRealistic() throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("s.sqlite")
        try SampleGenerator(clients: 50, invoices: 2000, seed: 1).write(to: path)
        let books = try BooksStore(path: path).books
        #expect(books.clients.count == 50)
        #expect(books.invoices.filter { $0.kind == .invoice }.count == 2000)
        #expect(books.schemaVersion == 3)
        // Schema v2: partial payments, refunds, credit notes, voids, drafts, write-offs, taxes at several rates.
        let paymentsPerInvoice = Dictionary(grouping: books.payments, by: \.invoiceIndex)
        #expect(paymentsPerInvoice.values.contains { $0.count == 2 })
        #expect(paymentsPerInvoice.values.contains { $0.count == 3 })
        #expect(books.payments.contains { $0.amount < 0 })
        #expect(books.invoices.contains { $0.kind == .creditNote && $0.corrects >= 0 && $0.applied != nil })
        #expect(books.invoices.contains { $0.kind == .creditNote && $0.applied == nil })
        #expect(books.invoices.contains { $0.status == .void && paymentsPerInvoice[Int32(books.invoices.firstIndex(of: $0)!)] != nil })
        #expect(books.invoices.contains { $0.status == .draft })
        #expect(!books.writeOffs.isEmpty)
        #expect(Set(books.taxes.map(\.percent)) == ["0", "7.7", "20"])
        #expect(books.invoices.contains { $0.status == .sent && $0.kind == .invoice && $0.net == $0.amount })
        #expect(Set(books.currencies.map(\.minorUnitDigits)) == [0, 2, 3])
        let months = Set(books.invoices.map(\.issued.month))
        #expect(months.count >= 24)
        let asOf = try #require(CalendarDate(iso: "2025-12-31"))
        #expect(books.invoices.contains { $0.paid != nil })
        #expect(books.invoices.contains { $0.paid == nil && $0.due < asOf })
        #expect(books.invoices.contains { $0.paid == nil && $0.due >= asOf })
        #expect(books.clients.contains { $0.name.unicodeScalars.contains { !$0.isASCII } })
        #expect(books.invoices.contains { $0.notes.contains("*") || $0.notes.contains("[") })
        #expect(books.invoices.contains { $0.notes.contains("<") })
    }
}
