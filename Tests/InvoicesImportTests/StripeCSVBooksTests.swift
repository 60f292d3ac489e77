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
                + "not say when the invoice was marked uncollectible (add the Marked Uncollectible At (UTC) column)",
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
                + "balance, a credit note not imported, money paid outside Stripe), so it is not imported"
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

    /// An invoices export laid out column for column as a real one (a Dashboard export with its columns chosen, without
    /// `Number`, `Customer Name` or `Amount Remaining`; docs/import.md names where it is), with rows of our own: it is
    /// told by its header, an empty `Tax` cell is no tax, `Marked Uncollectible At (UTC)` dates the write-off, and an hour
    /// of one digit (`9:05`, as a spreadsheet writes the file back) is read. With it, credit notes whose refund columns
    /// say they went back to the customer: refunded on their day, leaving no credit for that part.
    @Test(.temporaryFolder) func anExportLaidOutAsARealOneWithRefundedCreditNotes() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let files = ["stripe/invoices-chosen-columns.csv", "stripe/credit_notes-refunds.csv"]
        let batch = try ImportReader().read(files: files.map(Support.fixture))
        #expect(batch.warnings.isEmpty, "\(batch.warnings)")
        let summary = try ImportWriter.apply(batch, to: store)
        #expect(summary.invoices.added == 10 && summary.clients.added == 2 && summary.warnings.isEmpty, "\(summary.warnings)")
        let books = try BooksStore(path: store).books
        func invoice(_ identifier: String) throws -> InvoiceSnapshot { try #require(books.invoices.first { $0.identifier == identifier }) }

        #expect(try invoice("in_1TcA05Fjord0003").status == .draft && invoice("in_1TcA05Fjord0003").issued.description == "2026-03-25")
        // Its `Due Date (UTC)` is Stripe's zero timestamp, 1970-01-01 0:00, as a real export's drafts have it: unset.
        #expect(try invoice("in_1TcA05Fjord0003").due.description == "2026-04-24")
        #expect(try invoice("in_1TcA04Fjord0002").status == .void && invoice("in_1TcA06Fjord0004").net == 9_000)
        #expect(try invoice("in_1TcA02Kite0002").net == 5_000 && invoice("in_1TcA06Fjord0004").due.description == "2026-03-31")
        let writeOffs = books.writeOffs.map { "\(books.invoices[Int($0.invoiceIndex)].identifier) \($0.amount) \($0.date)" }
        #expect(writeOffs == ["in_1TcA03Fjord0001 30000 2026-03-20"])
        let payments = books.payments.map { "\(books.invoices[Int($0.invoiceIndex)].identifier) \($0.amount) \($0.date)" }.sorted()
        #expect(payments == [
            "FJORD-CN-01 -1000 2026-03-14", "KITE-CN-01 -12100 2026-03-12", "in_1TcA01Kite0001 12100 2026-03-02", "in_1TcA06Fjord0004 9000 2026-03-01",
        ])
        // Refunded or left on the balance, a credit note of a paid invoice is not applied to it; the void one is void.
        #expect(try invoice("KITE-CN-01").applied == nil && invoice("FJORD-CN-02").applied == nil && invoice("FJORD-CN-03").status == .void)
        let built = try Support.reportBalances(books)
        #expect(built["cus_TbKite EUR"]?.owed == 6_050 && built["cus_TbKite EUR"]?.credit == 0, "\(built)")
        #expect(built["cus_TbFjord USD"]?.owed == 0 && built["cus_TbFjord USD"]?.credit == 3_500, "\(built)")

        let before = try Support.dump(store)
        let again = try Support.importFixtures(files, into: store)
        #expect(again.invoices == .init(unchanged: 10) && again.clients == .init(unchanged: 2))
        #expect(try Support.dump(store) == before)
    }

    /// Refunds above the credit note, or on a void one, are refused at their cell.
    @Test(.temporaryFolder) func aRefundTheCreditNoteCannotHoldIsRefusedAtItsCell() throws {
        let folder = try TemporaryFolder.current
        let invoices = Support.fixture("stripe/invoices-chosen-columns.csv")
        let above = try Self.variant(folder, "stripe/credit_notes-refunds.csv") { $0.replacingOccurrences(of: "Refunded in full,121.00,0.00", with: "Refunded in full,121.00,0.01") }
        var error = try #require(throws: ImportError.self) { try ImportReader().read(files: [invoices, above]) }
        #expect(error.problems.map(\.description) == [
            "\(above):2: column 'Out of Band Amount': the refunds (Refund Amount + Out of Band Amount) are more than the credit note's Total '121.00'"
        ])
        let void = try Self.variant(folder, "stripe/credit_notes-refunds.csv") { $0.replacingOccurrences(of: "Issued twice,,", with: "Issued twice,5.00,") }
        error = try #require(throws: ImportError.self) { try ImportReader().read(files: [invoices, void]) }
        #expect(error.problems.map(\.description) == [
            "\(void):5: column 'Refund Amount': is 5.00 on a void credit note; a void credit note refunds nothing"
        ])
    }

    static let balanceFixture = "stripe/invoices-customer-balance.csv"

    /// Stripe's own figures per (customer, currency) from an invoices export with the balance columns: the outstanding is
    /// `Amount Due − Amount Paid` of the open invoices plus a positive customer balance (a debit the next invoice
    /// charges), the credit a negative one; the balance is the `Ending Balance` of the customer's last finalized invoice.
    static func stripeCustomerBalances(_ fixture: String) throws -> [String: (owed: Int64, credit: Int64)] {
        let csv = try CSVDocument(bytes: [UInt8](try #require(Support.bytes(Support.fixture(fixture)))))
        let column = { (name: String) in try #require(csv.header.firstIndex(of: name)) }
        var owed: [String: Int64] = [:]
        var last: [String: (time: String, end: Int64)] = [:]
        for record in csv.records {
            let fields = record.fields
            guard ["open", "paid", "uncollectible"].contains(fields[try column("Status")]) else { continue }
            let currency = try CurrencyCode(fields[try column("Currency")].uppercased())
            let key = fields[try column("Customer")] + " " + currency.code
            let amount = { (name: String) in try Money(parsing: fields[try column(name)], currency: currency).minorUnits }
            owed[key, default: 0] += fields[try column("Status")] == "open" ? try amount("Amount Due") - amount("Amount Paid") : 0
            // The times have one-digit hours: compare them as numbers.
            let time = fields[try column("Finalized At (UTC)")].split(whereSeparator: { " :".contains($0) }).map { $0.count == 1 ? "0" + $0 : String($0) }.joined()
            if last[key].map({ $0.time < time }) ?? true { last[key] = (time, try amount("Ending Balance")) }
        }
        var result: [String: (owed: Int64, credit: Int64)] = [:]
        for (key, amount) in owed {
            let end = last[key]?.end ?? 0
            result[key] = (amount + max(end, 0), max(-end, 0))
        }
        return result
    }

    /// A real Stripe export refused 84 of its 8,075 invoices whole because they moved money through the customer's balance,
    /// and 7 paid ones with an Amount Paid of 0.00 (docs/import.md, "Stripe's customer balance"). Each case, in that export's
    /// layout with rows of our own: a negative total (with tax) put on the balance is a credit note; invoices paid from it,
    /// wholly and in part (one open), are paid by payments "Stripe customer balance" that the credit note's refunds match; a
    /// balance from before the export is a credit note of its own; a total below Stripe's minimum stays owed until the next
    /// charge collects it; an invoice finalized in the same minute as another, balance unchanged, keeps the chain; a paid
    /// invoice with nothing paid in Stripe was paid outside it. The site's outstanding and credit per client are Stripe's.
    @Test(.temporaryFolder) func invoicesThatMovedMoneyThroughTheCustomersBalanceImportWithStripesOwnBalances() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let path = Support.fixture(Self.balanceFixture)
        let batch = try ImportReader().read(files: [path])
        #expect(batch.warnings.map(\.description) == [
            "\(path): 1 paid invoice(s) with an Amount Paid below what was due and no credit note of this import: each rest is a payment "
                + "'paid outside Stripe' on its Paid At day (marked paid in the Dashboard); if credit notes settled them, import the credit "
                + "notes export with the invoices"
        ])
        let summary = try ImportWriter.apply(batch, to: store)
        #expect(summary.invoices.added == 11 && summary.clients.added == 4 && summary.warnings.isEmpty, "\(summary.warnings)")
        let books = try BooksStore(path: store).books
        func invoice(_ identifier: String) throws -> InvoiceSnapshot { try #require(books.invoices.first { $0.identifier == identifier }) }

        // The negative total is a credit note of the opposite figures, its tax turned; the balance before the export one too.
        let note = try invoice("in_1TdD01Dune0001")
        #expect(note.kind == .creditNote && note.status == .sent && note.amount == 5_000 && note.net == 4_000 && note.corrects == -1)
        let opening = try invoice("cus_TdElm-starting-balance-usd")
        #expect(opening.kind == .creditNote && opening.amount == 1_500 && opening.issued.description == "2026-01-10")
        let payments = books.payments.map {
            "\(books.invoices[Int($0.invoiceIndex)].identifier) \($0.amount) \($0.date) \($0.details >= 0 ? books.paymentDetails[Int($0.details)].method : "")"
        }.sorted()
        #expect(payments == [
            "cus_TdElm-starting-balance-usd -1000 2026-01-10 Stripe customer balance",
            "in_1TdD01Dune0001 -2000 2026-03-05 Stripe customer balance", "in_1TdD01Dune0001 -3000 2026-02-05 Stripe customer balance",
            "in_1TdD02Dune0002 3000 2026-02-05 Stripe customer balance", "in_1TdD04Dune0004 2000 2026-03-05 Stripe customer balance",
            "in_1TdE01Elm0001 1000 2026-01-10 Stripe customer balance", "in_1TdF01Fern0001 30 2026-02-20 ", "in_1TdF02Fern0002 3900 2026-02-20 ",
            "in_1TdG01Gale0001 50000 2026-02-01 paid outside Stripe",
        ])

        let stripe = try Self.stripeCustomerBalances(Self.balanceFixture)
        #expect(stripe["cus_TdDune EUR"]! == (2_500, 0) && stripe["cus_TdElm USD"]! == (0, 500) && stripe["cus_TdFern EUR"]! == (40, 0))
        let built = try Support.reportBalances(books)
        let siteFolder = try TemporaryFolder()
        defer { siteFolder.remove() }
        let site = try Support.builtTotals(importing: [path], in: siteFolder)
        for (key, value) in stripe {
            #expect(built[key]?.owed == value.owed && built[key]?.credit == value.credit, "\(key): \(String(describing: built[key])) vs \(value)")
            #expect(site[key]?.owed == value.owed && site[key]?.credit == value.credit, "\(key): \(String(describing: site[key])) vs \(value)")
        }

        // The same export again changes nothing.
        let before = try Support.dump(store)
        let again = try Support.importFixtures([Self.balanceFixture], into: store)
        #expect(again.invoices == .init(unchanged: 11) && again.clients == .init(unchanged: 4))
        #expect(try Support.dump(store) == before)
    }

    /// Credit notes credited to the customer's balance (Stripe's default for a paid invoice's) are the credit the invoices'
    /// balance gained before them: the balance from before the export, and one gained between two invoices, are those credit
    /// notes, used by the next invoices' pairs of payments, and not counted again as documents of their own. Without the
    /// credit notes export, the balance gained between two invoices is a document `…-balance-adjustment`, with a warning.
    @Test(.temporaryFolder) func creditNotesCreditedToTheBalanceAreTheCreditTheInvoicesUse() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        // Between D02 and D04, the customer's balance gained 12.00: D04 starts from -32.00 and charges 13.00.
        let invoices = try Self.variant(folder, Self.balanceFixture) {
            $0.replacingOccurrences(of: "in_1TdD04Dune0004,25.00,", with: "in_1TdD04Dune0004,13.00,")
                .replacingOccurrences(of: ",-20.00,sub_1TdDune,45.00,", with: ",-32.00,sub_1TdDune,45.00,")
        }
        let notes = Support.fixture("stripe/credit_notes-customer-balance.csv")
        let batch = try ImportReader().read(files: [invoices, notes])
        let summary = try ImportWriter.apply(batch, to: store)
        #expect(summary.invoices.added == 12, "\(summary)")
        let books = try BooksStore(path: store).books
        #expect(!books.invoices.contains { $0.identifier.hasSuffix("-balance-adjustment") || $0.identifier.hasPrefix("cus_TdElm-starting") })
        let payments = books.payments.filter { ["DUNE-CN-01", "ELM-CN-01", "in_1TdD04Dune0004", "in_1TdD01Dune0001"].contains(books.invoices[Int($0.invoiceIndex)].identifier) }
            .map { "\(books.invoices[Int($0.invoiceIndex)].identifier) \($0.amount) \($0.date)" }.sorted()
        #expect(payments == [
            "DUNE-CN-01 -1200 2026-03-05", "ELM-CN-01 -1000 2026-01-10", "in_1TdD01Dune0001 -2000 2026-03-05", "in_1TdD01Dune0001 -3000 2026-02-05",
            "in_1TdD04Dune0004 1200 2026-03-05", "in_1TdD04Dune0004 2000 2026-03-05",
        ])
        let built = try Support.reportBalances(books)
        #expect(built["cus_TdDune EUR"]?.owed == 1_300 && built["cus_TdDune EUR"]?.credit == 0, "\(built)")
        #expect(built["cus_TdElm USD"]?.owed == 0 && built["cus_TdElm USD"]?.credit == 500, "\(built)")

        let alone = try ImportReader().read(files: [invoices])
        #expect(alone.invoices.first { $0.identifier == "in_1TdD04Dune0004-balance-adjustment" }.map { "\($0.kind == .creditNote) \($0.amount.minorUnits)" } == "true 1200")
        #expect(alone.warnings.contains { $0.message.hasPrefix("1 customer balance(s) moved between two invoices outside them") })
    }

    /// A broken balance cell (a decimal comma, as a spreadsheet writes it back) is refused at its file, line and column with
    /// exit 65, and nothing is written; a negative total its Ending Balance does not hold is refused at Ending Balance.
    @Test(.temporaryFolder) func aBrokenBalanceCellIsRefusedAtItsLineAndColumn() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let comma = try Self.variant(folder, Self.balanceFixture) { $0.replacingOccurrences(of: ",-15.00,sub_1TdElm,", with: ",\"-15,00\",sub_1TdElm,") }
        let result = try CLI.run(["import", "--store", store, comma])
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("Error: \(comma):7: column 'Starting Balance': '-15,00' is not a decimal"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store))

        let negative = try Self.variant(folder, Self.balanceFixture) { $0.replacingOccurrences(of: ",-50.00,false,true,2026-01-05", with: ",-40.00,false,true,2026-01-05") }
        let error = try #require(throws: ImportError.self) { try ImportReader().read(files: [negative]) }
        #expect(error.problems.map(\.description) == [
            "\(negative):5: column 'Ending Balance': is -40.00, its Starting Balance 0.00: a negative Total (-50.00) goes to the customer's balance "
                + "whole, so the Ending Balance must be the Starting Balance plus it"
        ])
        // The most negative amount 64 bits hold is refused at its cell, not trapped on when the balance's figures are added up.
        let huge = try Self.variant(folder, Self.balanceFixture) {
            $0.replacingOccurrences(of: ",,-5.00,false,true,2026-02-10 9:00", with: ",,-92233720368547758.08,false,true,2026-02-10 9:00")
        }
        let hugeError = try #require(throws: ImportError.self) { try ImportReader().read(files: [huge]) }
        #expect(hugeError.problems.map(\.description) == ["\(huge):6: column 'Ending Balance': does not fit in 64-bit minor units (the amounts are too large to add up)"])
    }

    /// Balance figures Stripe does not write are refused at their cell: a negative total in a file without the balance
    /// columns (nothing says where the credit went), a positive total whose balance falls below 0 (cash goes to the
    /// invoice, not to the balance), a tax whose sign is not the negative total's.
    @Test(.temporaryFolder) func balanceFiguresStripeWouldNotWriteAreRefusedAtTheirCell() throws {
        let folder = try TemporaryFolder.current
        let path = try Self.variant(folder, Self.balanceFixture) {
            $0.replacingOccurrences(of: "2026-01-05 10:00,,-50.00,false", with: "2026-01-05 10:00,,,false")
                .replacingOccurrences(of: "2026-01-10 9:00,,-5.00,false,true,2026-01-10 10:00", with: "2026-01-10 9:00,,-25.00,false,true,2026-01-10 10:00")
        }
        var error = try #require(throws: ImportError.self) { try ImportReader().read(files: [path]) }
        #expect(error.problems.map(\.description) == [
            "\(path):5: column 'Total': '-50.00' is negative, and the file has no Starting Balance and Ending Balance to show it went to the "
                + "customer's balance",
            "\(path):7: column 'Ending Balance': is -25.00, its Starting Balance -15.00: an invoice of a positive Total takes no credit onto the "
                + "customer's balance; Stripe's figures disagree, so the invoice is not imported",
        ])
        let tax = try Self.variant(folder, Self.balanceFixture) { $0.replacingOccurrences(of: ",-10.00,25,-50.00,", with: ",10.00,25,-50.00,") }
        error = try #require(throws: ImportError.self) { try ImportReader().read(files: [tax]) }
        #expect(error.problems.map(\.description) == ["\(tax):5: column 'Tax': '10.00' is positive on a negative Total; the tax of a credit has the total's sign"])
    }

    /// A paid invoice is owed nothing: in a file without `Amount Remaining`, one paid less than its total is made up by the
    /// import's credit notes that correct it, or, when none does, was paid outside Stripe (it was refused at `Amount Paid`).
    @Test(.temporaryFolder) func aPaidInvoicePaidLessThanItsTotalWasPaidOutsideStripe() throws {
        let folder = try TemporaryFolder.current
        let path = try Self.variant(folder, "stripe/invoices-chosen-columns.csv") {
            $0.replacingOccurrences(of: ",90.00,90.00,paid,", with: ",90.00,0.00,paid,")
        }
        let batch = try ImportReader().read(files: [path])
        #expect(batch.payments.map { "\($0.invoice) \($0.amount.minorUnits) \($0.date) \($0.method)" } == ["in_1TcA06Fjord0004 9000 2026-03-01 paid outside Stripe"])
        #expect(batch.warnings.count == 1)
    }
}
