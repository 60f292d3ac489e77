import Foundation
import InvoicesCore
import InvoicesReport
@testable import InvoicesSite
import Testing

/// The index of the exports' pieces (``ExportPieces``) and the payment runs it keys.
struct ExportPiecesTests {
    @Test func theIndexReadsBackAsWritten() throws {
        let pieces = ExportPieces(files: [
            "report.json": .init(hash: 0xfeed, pieces: [.init(key: 1, offset: 12, length: 40), .init(key: 2, offset: 53, length: 0)]),
            "odd % name.csv": .init(hash: 7, pieces: []),
        ])
        #expect(ExportPieces(text: pieces.text) == pieces)
        // Upper-case digits, and a file named twice (the last one counts, as when the index was read as text).
        let twice = "invoices-export-pieces 1\nF 00000000000000AB a.csv\n00000000000000FF 0 9\nF 1 a.csv\n2 3 4\n"
        #expect(ExportPieces(text: twice) == ExportPieces(files: ["a.csv": .init(hash: 1, pieces: [.init(key: 2, offset: 3, length: 4)])]))
        #expect(ExportPieces(text: "invoices-export-pieces 1\n") == ExportPieces())
    }

    /// An index that is not whole, names a path outside the site, or a piece past any file, is no index.
    @Test(arguments: [
        "invoices-export-pieces 1\nF 0000000000000001 report.json\n0000000000000002 1 2",
        "invoices-export-pieces 1\nF 0000000000000001 ../outside.json\n",
        "invoices-export-pieces 1\n0000000000000002 1 2\n",
        "invoices-export-pieces 1\nF 0000000000000001 report.json\n0000000000000002 9223372036854775807 2\n",
        "invoices-export-pieces 2\n",
        // Each field of a piece's line is checked as the index is read byte by byte.
        "invoices-export-pieces 1\nF 0000000000000001 report.json\n0000000000000002 1 2 3\n",
        "invoices-export-pieces 1\nF 0000000000000001 report.json\n000000000000000g 1 2\n",
        "invoices-export-pieces 1\nF 0000000000000001 report.json\n0000000000000002 -1 2\n",
        "invoices-export-pieces 1\nF 0000000000000001 report.json\n0000000000000002 1  2\n",
        "invoices-export-pieces 1\nF 0000000000000001 report.json\n0000000000000002 1\n",
        "invoices-export-pieces 1\nF 0000000000000001 report.json\n\n",
        "invoices-export-pieces 1\nF 0000000000000001 report.json\n10000000000000000 1 2\n",
        "invoices-export-pieces 1\nF 0000000000000001 report.json\n0000000000000002 1 99999999999999999999\n",
        "invoices-export-pieces 1",
    ])
    func aDamagedIndexIsNone(_ text: String) {
        #expect(ExportPieces(text: text) == nil)
    }

    /// Runs of payments end after an anchor invoice's payments, so a payment added changes its own run's key and
    /// keeps every other run's.
    @Test func aPaymentAddedChangesOnlyItsRun() throws {
        let books = try Self.books(payments: 600)
        let inputs = SiteBuilder.Inputs(base: 42, all: 0, clients: [], months: [])
        let before = inputs.paymentRuns(books)
        #expect(before.runs.count > 5)
        #expect(before.runs.first?.lowerBound == 0 && before.runs.last?.upperBound == books.payments.count)
        var changed = books
        let invoice = books.payments[300].invoiceIndex
        changed.payments.insert(PaymentSnapshot(invoiceIndex: invoice, date: books.payments[300].date, amount: 1, details: -1), at: 301)
        let after = inputs.paymentRuns(changed)
        #expect(after.runs.count == before.runs.count)
        let differing = zip(before.keys, after.keys).filter { $0 != $1 }.count
        #expect(differing == 1)
    }

    /// Books with `payments` invoices of one client, each paid once.
    static func books(payments: Int) throws -> Books {
        var invoices: [InvoiceSnapshot] = []
        var paid: [PaymentSnapshot] = []
        for index in 0..<payments {
            let day = try #require(CalendarDate(year: 2024, month: 1, day: 1 + index % 28))
            invoices.append(
                InvoiceSnapshot(
                    id: Int64(index + 1), identifier: "INV-\(index)", clientIndex: 0, currencyIndex: 0, amount: 100, issued: day,
                    due: day, paid: nil, notes: ""))
            paid.append(PaymentSnapshot(invoiceIndex: Int32(index), date: day, amount: 100))
        }
        return Books(
            clients: [ClientSnapshot(id: 1, number: "C-1", name: "One")], invoices: invoices, currencies: [try CurrencyCode("EUR")],
            payments: paid, schemaVersion: 2)
    }
}
