import Foundation
import InvoicesCore
import InvoicesImport
import InvoicesReport
import InvoicesStore
import InvoicesTesting
import Testing

/// Xero's invoices export as Xero writes it (44 columns in order, one row per line item, UK dates, credit notes
/// negative): every status, a partial payment, credit notes applied and refunded, a void, drafts, two currencies
/// (issue 44).
struct XeroBooksTests {
    static let fixture = "xero-invoices-export.csv"

    /// Xero's own balances per (contact, currency), from the fixture: the `InvoiceAmountDue` of each sent document
    /// (a credit note's is what the contact has in credit), summed into what is owed and what is in credit.
    static func xeroBalances(_ path: String) throws -> [String: (owed: Int64, credit: Int64)] {
        let csv = try CSVDocument(bytes: [UInt8](try #require(Support.bytes(path))))
        let column = { (name: String) in try #require(csv.header.firstIndex(of: name)) }
        let (contact, number, due, currency, status) = (
            try column("ContactName"), try column("InvoiceNumber"), try column("InvoiceAmountDue"), try column("Currency"), try column("Status"))
        var seen: Set<String> = []
        var result: [String: (owed: Int64, credit: Int64)] = [:]
        for record in csv.records where seen.insert(record.fields[number]).inserted {
            guard ["Awaiting Payment", "Paid"].contains(record.fields[status]) else { continue }
            let amount = try Money(parsing: record.fields[due], currency: CurrencyCode(record.fields[currency])).minorUnits
            let key = record.fields[contact] + " " + record.fields[currency]
            var entry = result[key] ?? (0, 0)
            if amount > 0 { entry.owed += amount } else { entry.credit -= amount }
            result[key] = entry
        }
        return result
    }

    @Test(.temporaryFolder) func exportWithEveryStatusImportsWithXerosOwnBalances() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let batch = try ImportReader().read(files: [Support.fixture(Self.fixture)])
        #expect(batch.warnings.map(\.message) == [
            "3 invoice(s) and credit note(s) with an InvoiceAmountPaid: each amount is recorded as one payment (a refund for a credit note) on "
                + "its InvoiceDate; Xero's invoice export does not say when it was paid"
        ])
        let summary = try ImportWriter.apply(batch, to: store)
        #expect(summary.invoices.added == 9 && summary.clients.added == 2)
        let books = try BooksStore(path: store).books
        func index(_ identifier: String) throws -> Int { try #require(books.invoices.firstIndex { $0.identifier == identifier }) }
        func invoice(_ identifier: String) throws -> InvoiceSnapshot { books.invoices[try index(identifier)] }

        // Statuses: Draft and Awaiting Approval are drafts, Voided void, Awaiting Payment and Paid sent.
        #expect(try invoice("INV-0001").status == .draft && invoice("INV-0002").status == .draft)
        #expect(try invoice("INV-0005").status == .void)
        for sent in ["INV-0003", "INV-0004", "INV-0006", "INV-0007", "CN-0001", "CN-0002"] { #expect(try invoice(sent).status == .sent, "\(sent)") }
        // Credit notes are their own kind, stored positive; CN-0001 names INV-0006 in Reference and is applied there.
        #expect(try invoice("CN-0001").kind == .creditNote && invoice("CN-0001").amount == 24_000)
        #expect(try invoice("CN-0001").corrects == Int32(index("INV-0006")))
        #expect(try invoice("CN-0002").kind == .creditNote && invoice("CN-0002").corrects == -1)
        // The paid amounts, one payment each on the invoice date; the credit note's refund negative.
        let payments = books.payments.map { "\(books.invoices[Int($0.invoiceIndex)].identifier) \($0.amount) \($0.date)" }.sorted()
        #expect(payments == ["CN-0002 -10000 2025-03-25", "INV-0003 80000 2025-02-14", "INV-0004 144000 2025-01-10"])
        #expect(try invoice("INV-0004").paid?.description == "2025-01-10")

        // Three lines at two rates: one tax line per rate, nets summed (a discount taken off the line).
        let inv3 = Int32(try index("INV-0003"))
        let lines = books.taxLines.filter { $0.invoiceIndex == inv3 }
            .map { "\(books.taxes[Int($0.taxIndex)].name) \($0.net) \($0.amount)" }
        #expect(lines == ["20% (VAT on Income) 139600 27920", "5% (VAT on Income) 15000 750"])
        #expect(try invoice("INV-0003").net == 154_600)
        #expect(Set(books.taxes.map(\.percent)) == ["20", "5", "0"])

        // The contact with a comma and non-ASCII letters, its address lines joined.
        let client = try #require(books.clients.first { $0.name == "Øresund Design, ApS" })
        #expect(client.street == "Strandgade 12\n3. sal" && client.city == "København K")

        // The report's totals per client and currency are Xero's own balances.
        let built = try Support.reportBalances(books)
        let xero = try Self.xeroBalances(Support.fixture(Self.fixture))
        #expect(xero.count == 2 && built.count == 2)
        for (key, value) in xero {
            #expect(built[key]?.owed == value.owed && built[key]?.credit == value.credit, "\(key): \(String(describing: built[key])) vs \(value)")
        }
        #expect(xero["Øresund Design, ApS EUR"]?.owed == 145_270 && xero["Øresund Design, ApS EUR"]?.credit == 20_000)

        // The same export again changes nothing.
        let before = try Support.dump(store)
        let again = try Support.importFixtures([Self.fixture], into: store)
        #expect(again.invoices == .init(unchanged: 9) && again.clients == .init(unchanged: 2))
        #expect(try Support.dump(store) == before)
    }

    /// The built site's totals.csv, at each client's and currency's last month, are Xero's own balances.
    @Test(.temporaryFolder) func theBuiltSitesTotalsPerClientAndCurrencyAreXerosBalances() throws {
        let folder = try TemporaryFolder.current
        let last = try Support.builtTotals(importing: [Support.fixture(Self.fixture)], in: folder)
        let xero = try Self.xeroBalances(Support.fixture(Self.fixture))
        #expect(Set(last.keys) == Set(xero.keys))
        for (key, value) in xero {
            #expect(last[key]?.owed == value.owed && last[key]?.credit == value.credit, "\(key): \(String(describing: last[key])) vs \(value)")
        }
    }

    /// The export has no payment dates: a payments CSV in the same import gives them, and its payments are the invoice's.
    @Test(.temporaryFolder) func aPaymentsFileInTheSameImportGivesTheRealDates() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let payments = folder.path("payments.csv")
        try Data("invoice,paidOn,amount,currency,method,reference\nINV-0003,2025-03-01,500.00,EUR,bank,\nINV-0003,2025-03-20,300.00,EUR,bank,\n".utf8)
            .write(to: URL(fileURLWithPath: payments))
        let batch = try ImportReader().read(files: [Support.fixture(Self.fixture), payments])
        _ = try ImportWriter.apply(batch, to: store)
        let books = try BooksStore(path: store).books
        let index = try #require(books.invoices.firstIndex { $0.identifier == "INV-0003" })
        #expect(books.payments.filter { $0.invoiceIndex == Int32(index) }.map { "\($0.date) \($0.amount)" } == ["2025-03-01 50000", "2025-03-20 30000"])
        #expect(RealExportsTests.balances(books)["INV-0003"] == 103_270)
    }

    /// The most negative 64-bit amount cannot be turned to the store's sign: a problem at its cell, not a trap.
    @Test(.temporaryFolder) func theMostNegativeAmountIsAProblemNotATrap() throws {
        let folder = try TemporaryFolder.current
        let path = try Self.variant(folder, "xero.csv") { $0.replacingOccurrences(of: ",-240.00,-40.00,0.00,0.00,", with: ",-92233720368547758.08,-40.00,0.00,0.00,") }
        let error = try #require(throws: ImportError.self) { try ImportReader().read(files: [path]) }
        // Refused at its cell; the invoice it would have been applied to then disagrees with Xero's balance.
        #expect(error.problems.map(\.description).contains("\(path):10: column 'Total': the GBP amount does not fit in 64-bit minor units"), "\(error.problems)")
    }

    /// The fixture with `replace` applied to its text, written to `folder`.
    static func variant(_ folder: TemporaryFolder, _ name: String, _ edit: (String) -> String) throws -> String {
        let text = String(decoding: try #require(Support.bytes(Support.fixture(fixture))), as: UTF8.self)
        let path = folder.path(name)
        try Data(edit(text).utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(.temporaryFolder) func oneBrokenCellIsRefusedWithFileLineAndColumnAndExit65() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let bad = try Self.variant(folder, "xero.csv") { $0.replacingOccurrences(of: ",79.20,", with: ",79.2O,") }
        let result = try CLI.run(["import", "--store", store, bad])
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("Error: \(bad):5: column 'TaxAmount': '79.2O'"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test(.temporaryFolder) func aBalanceThatDisagreesIsReportedNotFixed() throws {
        let folder = try TemporaryFolder.current
        // INV-0006 owes 960.00 less the 240.00 credit note: Xero's 700.00 is not that.
        let path = try Self.variant(folder, "xero.csv") { $0.replacingOccurrences(of: ",960.00,160.00,0.00,720.00,", with: ",960.00,160.00,0.00,700.00,") }
        let error = try #require(throws: ImportError.self) { try ImportReader().read(files: [path]) }
        #expect(error.problems.map(\.description) == [
            "\(path):9: column 'InvoiceAmountDue': Xero's balance 700.00 is not Total less InvoiceAmountPaid less the credit notes naming it in "
                + "Reference (720.00); the file does not say what else settled it, so it is not imported"
        ])
    }

    @Test(.temporaryFolder) func dateOrderIsReadFromTheFileOrFromTheDateFormat() throws {
        let folder = try TemporaryFolder.current
        let header = String(decoding: try #require(Support.bytes(Support.fixture(Self.fixture))), as: UTF8.self).components(separatedBy: "\r\n")[0]
        func file(_ name: String, issued: String, due: String) throws -> String {
            var fields = Array(repeating: "", count: 44)
            let columns = header.split(separator: ",").map(String.init)
            for (column, value) in [
                ("ContactName", "Ana"), ("InvoiceNumber", "INV-1"), ("InvoiceDate", issued), ("DueDate", due), ("Total", "£120.00"),
                ("TaxTotal", "20.00"), ("InvoiceAmountPaid", "0.00"), ("InvoiceAmountDue", "120.00"), ("LineAmount", "100.00"),
                ("TaxType", "20% (VAT on Income)"), ("TaxAmount", "20.00"), ("Currency", "GBP"), ("Type", "Sales invoice"),
                ("Status", "Awaiting Payment"),
            ] { fields[try #require(columns.firstIndex(of: column))] = value }
            let path = folder.path(name)
            try Data((header + "\n" + fields.joined(separator: ",") + "\n" as String).utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        // Month first, told by the due date's 14.
        let us = try ImportReader().read(files: [file("us.csv", issued: "1/5/2025", due: "2/14/2025")])
        #expect(us.invoices.map { "\($0.issued) \($0.due)" } == ["2025-01-05 2025-02-14"])
        // Day first, told by the 13.
        let uk = try ImportReader().read(files: [file("uk.csv", issued: "13/01/2025", due: "02/02/2025")])
        #expect(uk.invoices.map { "\($0.issued) \($0.due)" } == ["2025-01-13 2025-02-02"])
        // Neither: --date-format decides, and without it the file is refused at its first date.
        let both = try file("both.csv", issued: "01/02/2025", due: "03/02/2025")
        let month = try ImportReader(options: .init(dateFormat: "MM/dd/yyyy")).read(files: [both])
        #expect(month.invoices.map { "\($0.issued) \($0.due)" } == ["2025-01-02 2025-03-02"])
        let error = try #require(throws: ImportError.self) { try ImportReader().read(files: [both]) }
        #expect(error.problems.first?.description == "\(both):2: column 'InvoiceDate': '01/02/2025' and every other date of the file read day first or "
            + "month first alike; give --date-format dd/MM/yyyy or MM/dd/yyyy")
    }

    @Test(.temporaryFolder) func aCreditNoteInParenthesesIsStoredPositive() throws {
        let folder = try TemporaryFolder.current
        let path = try Self.variant(folder, "xero.csv") { text in
            text.replacingOccurrences(of: ",-240.00,-40.00,0.00,0.00,", with: ",(240.00),(40.00),0.00,0.00,")
                .replacingOccurrences(of: ",-200.00,200,", with: ",(£200.00),200,").replacingOccurrences(of: ",-40.00,,,,,GBP", with: ",(40.00),,,,,GBP")
        }
        #expect(String(decoding: try #require(Support.bytes(path)), as: UTF8.self).contains("(£200.00)"))
        let batch = try ImportReader().read(files: [path])
        let note = try #require(batch.invoices.first { $0.identifier == "CN-0001" })
        #expect(note.amount.minorUnits == 24_000 && note.kind == .creditNote && note.corrects == "INV-0006")
        #expect(note.tax == ImportedTax(net: 20_000, name: "20% (VAT on Income)", rate: "20", amount: 4_000))
    }
}
