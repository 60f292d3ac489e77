import Foundation
import InvoicesCore
import InvoicesImport
import InvoicesStore
import InvoicesTesting
import Testing

/// The Stripe Dashboard's invoices and credit notes CSV exports (issue 44): every status, a partial payment, an
/// uncollectible invoice written off, a draft without a number, a void, a credit note against its invoice, one whose
/// invoice is not in the books, a void credit note; eur, usd and jpy (no decimals); empty dates and 0.00 cells.
struct StripeCSVBooksTests {
    static let files = ["stripe/invoices.csv", "stripe/credit_notes.csv"]

    /// Stripe's own balances per (customer name, currency), from the invoices export: `Amount Remaining` of each open or
    /// paid invoice; and the credit that credit notes of invoices not in the export leave (issued ones only).
    static func stripeBalances() throws -> [String: (owed: Int64, credit: Int64)] {
        let invoices = try CSVDocument(bytes: [UInt8](try #require(Support.bytes(Support.fixture(files[0])))))
        let column = { (name: String) in try #require(invoices.header.firstIndex(of: name)) }
        var result: [String: (owed: Int64, credit: Int64)] = [:]
        var names: [String: String] = [:]
        var ids: Set<String> = []
        for record in invoices.records {
            let fields = record.fields
            let currency = try CurrencyCode(fields[try column("Currency")].uppercased())
            names[fields[try column("Customer")]] = fields[try column("Customer Name")]
            ids.insert(fields[try column("id")])
            guard ["open", "paid"].contains(fields[try column("Status")]) else { continue }
            let key = fields[try column("Customer Name")] + " " + currency.code
            result[key, default: (0, 0)].owed += try Money(parsing: fields[try column("Amount Remaining")], currency: currency).minorUnits
        }
        let notes = try CSVDocument(bytes: [UInt8](try #require(Support.bytes(Support.fixture(files[1])))))
        for record in notes.records where record.fields[7] == "issued" && !ids.contains(record.fields[2]) {
            let currency = try CurrencyCode(record.fields[6].uppercased())
            let key = try #require(names[record.fields[3]]) + " " + currency.code
            result[key, default: (0, 0)].credit += try Money(parsing: record.fields[5], currency: currency).minorUnits
        }
        return result
    }

    @Test(.temporaryFolder) func bothExportsImportWithStripesOwnBalances() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let paths = Self.files.map(Support.fixture)
        let batch = try ImportReader().read(files: paths)
        #expect(batch.warnings.map(\.description) == [
            "\(paths[0]): 2 open or uncollectible invoice(s) with an Amount Paid: each amount is recorded as one payment on the invoice's "
                + "issue date; the export does not say when a partial payment was made",
            "\(paths[0]): 1 uncollectible invoice(s): each Amount Remaining is written off on the invoice's issue date; the export does "
                + "not say when the invoice was marked uncollectible",
        ])
        let summary = try ImportWriter.apply(batch, to: store)
        #expect(summary.invoices.added == 11 && summary.clients.added == 3)
        #expect(summary.warnings.map(\.message) == [
            "credit note ORE-0099-CN-01 corrects invoice 'in_1RzOld0099', which is neither imported nor in the store: it is kept as the "
                + "client's unapplied credit"
        ])
        let books = try BooksStore(path: store).books
        func invoice(_ identifier: String) throws -> InvoiceSnapshot { try #require(books.invoices.first { $0.identifier == identifier }) }

        // Statuses as the API list's: draft (named by its id), void, and open, paid, uncollectible sent.
        #expect(try invoice("in_1SbQBhDraft0005").status == .draft && invoice("ORE-0004").status == .void)
        for sent in ["ORE-0001", "ORE-0002", "ORE-0003", "HL-0001", "HL-0002", "YMD-0001"] { #expect(try invoice(sent).status == .sent, "\(sent)") }
        // Issued on the finalization day (UTC), else the creation day; no due date: 30 days.
        #expect(try invoice("ORE-0001").issued.description == "2026-01-06" && invoice("YMD-0001").issued.description == "2026-02-28")
        #expect(try invoice("in_1SbQBhDraft0005").issued.description == "2026-02-02" && invoice("in_1SbQBhDraft0005").due.description == "2026-03-04")
        #expect(try invoice("HL-0002").due.description == "2026-03-03" && invoice("HL-0001").due.description == "2026-02-18")
        // Major units: yen without decimals; the net is the total less the tax, one tax line at the rate it makes.
        #expect(try invoice("YMD-0001").amount == 110_000 && books.currencies[Int(invoice("YMD-0001").currencyIndex)].code == "JPY")
        #expect(try invoice("ORE-0001").amount == 121_000 && invoice("ORE-0001").net == 100_000)
        let inv1 = try #require(books.invoices.firstIndex { $0.identifier == "ORE-0001" })
        let lines = books.taxLines.filter { $0.invoiceIndex == Int32(inv1) }.map { "\(books.taxes[Int($0.taxIndex)].name) \(books.taxes[Int($0.taxIndex)].percent) \($0.amount)" }
        #expect(lines == ["Tax 21 21000"])
        // Payments: paid ones on Paid At's day; the partial and the uncollectible one's on the issue day.
        let payments = books.payments.map { "\(books.invoices[Int($0.invoiceIndex)].identifier) \($0.amount) \($0.date)" }.sorted()
        #expect(payments == [
            "HL-0001 10000 2026-01-19", "HL-0002 150000 2026-02-01", "ORE-0001 121000 2026-01-30", "ORE-0002 20000 2026-01-12",
            "YMD-0001 110000 2026-03-03",
        ])
        let writeOffs = books.writeOffs.map { "\(books.invoices[Int($0.invoiceIndex)].identifier) \($0.amount) \($0.date)" }
        #expect(writeOffs == ["HL-0001 20000 2026-01-19"])
        // Credit notes: against their invoice (named by its Stripe id), applied on their day; the orphan is the
        // client's credit; the void one is void and corrects nothing.
        let note = try invoice("ORE-0003-CN-01")
        #expect(note.kind == .creditNote && note.amount == 12_100 && note.corrects >= 0 && books.invoices[Int(note.corrects)].identifier == "ORE-0003")
        #expect(note.applied?.description == "2026-02-10")
        #expect(try invoice("ORE-0099-CN-01").corrects == -1 && invoice("HL-0002-CN-01").status == .void)
        let client = try #require(books.clients.first { $0.number == "cus_TaOresund" })
        #expect(client.name == "Øresund Design, ApS" && client.email == "ap@oresund.example")
        #expect(books.clients.first { $0.number == "cus_TaYamada" }?.name == "山田商事株式会社")

        // The report's outstanding and credit per client and currency are Stripe's.
        let built = try Support.reportBalances(books)
        let stripe = try Self.stripeBalances()
        #expect(stripe["Øresund Design, ApS EUR"]?.owed == 52_600 && stripe["Øresund Design, ApS EUR"]?.credit == 5_000)
        for (key, value) in stripe {
            #expect(built[key]?.owed == value.owed && built[key]?.credit == value.credit, "\(key): \(String(describing: built[key])) vs \(value)")
        }

        // The same exports again change nothing.
        let before = try Support.dump(store)
        let again = try Support.importFixtures(Self.files, into: store)
        #expect(again.invoices == .init(unchanged: 11) && again.clients == .init(unchanged: 3))
        #expect(try Support.dump(store) == before)
    }

    /// `path` in `folder` with `edit` applied to the fixture's text.
    static func variant(_ folder: TemporaryFolder, _ fixture: String, _ edit: (String) -> String) throws -> String {
        let text = String(decoding: try #require(Support.bytes(Support.fixture(fixture))), as: UTF8.self)
        let path = folder.path((fixture as NSString).lastPathComponent)
        let changed = edit(text)
        #expect(changed != text, "the edit changed nothing")
        try Data(changed.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Without its credit note, ORE-0003's balance (121.00) is not its total less what was paid (242.00): reported.
    @Test(.temporaryFolder) func aBalanceNoCreditNoteExplainsIsReportedNotFixed() throws {
        let error = try #require(throws: ImportError.self) { try ImportReader().read(files: [Support.fixture(Self.files[0])]) }
        #expect(error.problems.map(\.description) == [
            "\(Support.fixture(Self.files[0])):4: column 'Amount Remaining': Stripe's balance 121.00 EUR is not the total less Amount Paid less the "
                + "credit notes of this import (0.00 EUR, 121.00 EUR expected); something the files do not show settled it (the customer's "
                + "balance, a credit note not imported), so it is not imported"
        ])
    }

    @Test(.temporaryFolder) func aBrokenCellIsRefusedWithFileLineColumnAndExit65() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let bad = try Self.variant(folder, Self.files[0]) { $0.replacingOccurrences(of: "2026-01-12 08:01:40", with: "2026-01-12T08:01:40Z") }
        let result = try CLI.run(["import", "--store", store, bad, Support.fixture(Self.files[1])])
        #expect(result.status == 65)
        #expect(
            result.stderr.hasPrefix(
                "Error: \(bad):3: column 'Finalized At (UTC)': '2026-01-12T08:01:40Z' is not a time YYYY-MM-DD HH:MM:SS (UTC)"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store))

        // Yen have no decimals: a total with one is refused at its cell, not rounded.
        let yen = try Self.variant(folder, Self.files[0]) { $0.replacingOccurrences(of: ",100000,110000,10000,", with: ",100000,110000.5,10000,") }
        let error = try #require(throws: ImportError.self) { try ImportReader().read(files: [yen, Support.fixture(Self.files[1])]) }
        #expect(error.problems.map(\.description).first?.hasPrefix("\(yen):9: column 'Total': '110000.5' has more decimals than JPY allows (0)") == true,
            "\(error.problems)")
    }
}
