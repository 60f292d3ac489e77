import Foundation
import InvoicesCore
import InvoicesReport
import InvoicesStore
import InvoicesTesting
import Testing

/// Issue 46 item 4: `Report.init` on two cores, two halves of the clients side by side and folded: the same figures,
/// the same tax cells in the same order, and the same overflow error as one pass.
struct ReportSideBySideTests {
    static let day = CalendarDate(iso: "2025-03-10")!

    static func invoice(_ client: Int32, _ amount: Int64, kind: InvoiceKind = .invoice, id: Int64) -> InvoiceSnapshot {
        InvoiceSnapshot(
            id: id, identifier: "X\(id)", clientIndex: client, currencyIndex: 0, amount: amount, issued: day,
            due: day.adding(days: 30), paid: nil, notes: "", kind: kind)
    }

    static func books(_ invoices: [InvoiceSnapshot], taxLines: [TaxLineSnapshot] = []) -> Books {
        Books(
            clients: [ClientSnapshot(id: 1, number: "C-1", name: "First"), ClientSnapshot(id: 2, number: "C-2", name: "Second")],
            invoices: invoices, currencies: [try! CurrencyCode("EUR")], payments: [], taxLines: taxLines,
            taxes: taxLines.isEmpty ? [] : [TaxRate(name: "VAT", milliPercent: 20_000)], schemaVersion: 3)
    }

    @Test func aSampleStoreGivesOnePassFiguresOnBothPaths() throws {
        let folder = try TemporaryFolder("report-side-by-side")
        defer { folder.remove() }
        let path = folder.path("generated.sqlite")
        try SampleGenerator(clients: 40, invoices: 3_000, seed: 46).write(to: path)
        let books = try BooksStore(path: path).books
        #expect(!books.taxLines.isEmpty && !books.payments.isEmpty)
        let one = try Report(books: books, parts: 1)
        let two = try Report(books: books, parts: 2)
        #expect(one.clients.count > 30 && !one.taxes.isEmpty && !one.balances.isEmpty)
        #expect(two == one)
        #expect(two.taxes.map(\.taxIndex) == one.taxes.map(\.taxIndex))
        let asOf = try #require(CalendarDate(iso: "2024-06-15"))
        #expect(try Report(books: books, period: ReportPeriod(asOf: asOf), parts: 2) == Report(books: books, period: ReportPeriod(asOf: asOf), parts: 1))
    }

    /// Both halves overflow (client C-1 is the first half's, C-2 the second's): the error names the slot whose
    /// overflow came last in invoice order, whichever half it is in.
    @Test func bothHalvesOverflowingNameTheSlotOnePassNames() throws {
        let big = Int64.max
        let lastInSecond = Self.books([
            Self.invoice(0, big, id: 1), Self.invoice(0, 1, id: 2), Self.invoice(1, big, id: 3), Self.invoice(1, 1, id: 4),
        ])
        let lastInFirst = Self.books([
            Self.invoice(1, big, id: 1), Self.invoice(1, 1, id: 2), Self.invoice(0, big, id: 3), Self.invoice(0, 1, id: 4),
        ])
        for (books, client) in [(lastInSecond, "C-2 'Second'"), (lastInFirst, "C-1 'First'")] {
            let one = try #require(throws: ReportError.self) { try Report(books: books, parts: 1) }
            let two = try #require(throws: ReportError.self) { try Report(books: books, parts: 2) }
            #expect(one.description.contains(client))
            #expect(two.description == one.description)
        }
    }

    /// A tax cell shared by both halves whose running sum overflows in invoice order (C-1's line, then C-2's) but
    /// whose halves do not (C-1's credit note takes its line back): one pass refuses it, so the fold must too.
    @Test func aTaxSumThatOverflowsInInvoiceOrderIsRefusedOnBothPaths() throws {
        let large = Int64.max / 2 + 10
        let books = Self.books(
            [Self.invoice(0, 100, id: 1), Self.invoice(1, 100, id: 2), Self.invoice(0, 100, kind: .creditNote, id: 3)],
            taxLines: [
                TaxLineSnapshot(invoiceIndex: 0, taxIndex: 0, net: 1, amount: large),
                TaxLineSnapshot(invoiceIndex: 1, taxIndex: 0, net: 1, amount: large),
                TaxLineSnapshot(invoiceIndex: 2, taxIndex: 0, net: 1, amount: large),
            ])
        let one = try #require(throws: ReportError.self) { try Report(books: books, parts: 1) }
        let two = try #require(throws: ReportError.self) { try Report(books: books, parts: 2) }
        #expect(two.description == one.description)
        // Below half of 64 bits the halves are folded, and give one pass's cells.
        let small = Self.books(
            [Self.invoice(0, 100, id: 1), Self.invoice(1, 100, id: 2), Self.invoice(0, 100, kind: .creditNote, id: 3)],
            taxLines: [
                TaxLineSnapshot(invoiceIndex: 0, taxIndex: 0, net: 80, amount: 20),
                TaxLineSnapshot(invoiceIndex: 1, taxIndex: 0, net: 70, amount: 30),
                TaxLineSnapshot(invoiceIndex: 2, taxIndex: 0, net: 10, amount: 5),
            ])
        let folded = try Report(books: small, parts: 2)
        #expect(folded == (try Report(books: small, parts: 1)))
        #expect(folded.taxes.first?.period == TaxFigures(accrualNet: 140, accrualTax: 45))
    }
}
