import Foundation
import InvoicesCore
import InvoicesImport
import InvoicesReport
import InvoicesStore
import InvoicesTesting
import Testing

/// Wave's customers export and accounting transactions export, laid out as Wave writes them (the header rows of the
/// exports kept in Invoice Ninja's Wave import tests, with rows of our own), imported together: an invoice with three
/// lines at two tax rates, a partial payment, a payment and a refund, a write-off to bad debts, two currencies from the
/// customers export, a supplier's bill left out, due dates from --default-terms (issue 44).
struct WaveBooksTests {
    static let files = ["wave/wave-customers.csv", "wave/wave-transactions.csv"]

    /// The ledger's Accounts Receivable per customer (the sum of its `Amount (One column)`), in the customer's currency.
    static func ledgerBalances() throws -> [String: Int64] {
        let customers = try CSVDocument(bytes: [UInt8](try #require(Support.bytes(Support.fixture(files[0])))))
        var currencies: [String: CurrencyCode] = [:]
        for record in customers.records { currencies[record.fields[0]] = try CurrencyCode(record.fields[4]) }
        let csv = try CSVDocument(bytes: [UInt8](try #require(Support.bytes(Support.fixture(files[1])))))
        let column = { (name: String) in try #require(csv.header.firstIndex(of: name)) }
        let (account, amount, customer) = (try column("Account Name"), try column("Amount (One column)"), try column("Customer"))
        var result: [String: Int64] = [:]
        for record in csv.records where record.fields[account] == "Accounts Receivable" {
            let code = try #require(currencies[record.fields[customer]])
            result[record.fields[customer] + " " + code.code, default: 0] += try Money(parsing: record.fields[amount], currency: code).minorUnits
        }
        return result
    }

    static func variant(_ folder: TemporaryFolder, _ edit: (String) -> String) throws -> [String] {
        try files.map { file in
            let text = String(decoding: try #require(Support.bytes(Support.fixture(file))), as: UTF8.self)
            let path = folder.path((file as NSString).lastPathComponent)
            try Data((file.hasSuffix("transactions.csv") ? edit(text) : text).utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    @Test(.temporaryFolder) func theLedgerAndCustomersImportWithTheLedgersReceivables() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let batch = try ImportReader(options: .init(defaultTerms: 14)).read(files: Self.files.map(Support.fixture))
        let summary = try ImportWriter.apply(batch, to: store)
        #expect(summary.clients.added == 3 && summary.invoices.added == 5 && summary.payments?.added == 4)
        let books = try BooksStore(path: store).books
        func index(_ identifier: String) throws -> Int { try #require(books.invoices.firstIndex { $0.identifier == identifier }) }
        func invoice(_ identifier: String) throws -> InvoiceSnapshot { books.invoices[try index(identifier)] }

        // Currencies from the customers export; due dates from --default-terms; every invoice sent.
        func currency(_ identifier: String) throws -> String { books.currencies[Int(try invoice(identifier).currencyIndex)].code }
        #expect(try invoice("1").amount == 37_150 && currency("1") == "CAD" && currency("4") == "USD")
        #expect(try invoice("1").due.description == "2025-01-24" && invoice("1").status == .sent)
        #expect(try invoice("1").notes == "Espresso machine service, Grinder calibration, Descaling kit")

        // Three lines at two rates: one tax line per rate, with its lines' net.
        let inv1 = Int32(try index("1"))
        let lines = books.taxLines.filter { $0.invoiceIndex == inv1 }
            .map { "\(books.taxes[Int($0.taxIndex)].name) \(books.taxes[Int($0.taxIndex)].percent) \($0.net) \($0.amount)" }.sorted()
        #expect(lines == ["GST 5 30000 1500", "HST (13%) 13 5000 650"])
        #expect(try invoice("1").net == 35_000)

        // Payments, the refund negative, and the write-off to Bad Debts.
        let payments = books.payments.map { "\(books.invoices[Int($0.invoiceIndex)].identifier) \($0.amount) \($0.date)" }.sorted()
        #expect(payments == ["1 20000 2025-02-01", "2 -10000 2025-02-20", "2 52500 2025-02-05", "5 30000 2025-03-01"])
        let inv3 = Int32(try index("3"))
        #expect(books.writeOffs.filter { $0.invoiceIndex == inv3 }.map { "\($0.amount) \($0.date) \($0.reason)" } == ["8000 2025-03-31 Bad Debts"])

        // The customer with a comma and non-ASCII letters; a customer without an account number gets one of ours.
        let client = try #require(books.clients.first { $0.name == "Ça Va Café, Montréal" })
        #expect(client.street == "4200 Rue Saint-Denis\nLocal 2" && client.city == "Montréal" && client.zip == "H2J 2K8")
        #expect(Set(books.clients.map(\.number)) == ["C-00001", "PF-100", "C-00003"])

        // The report's outstanding per client and currency is the ledger's Accounts Receivable.
        let report = try Report(books: books)
        var built: [String: Int64] = [:]
        for totals in report.clients {
            for currency in totals.currencies { built[books.clients[totals.clientIndex].name + " " + currency.currency.code] = currency.period.outstanding }
        }
        let ledger = try Self.ledgerBalances()
        #expect(ledger == ["Ça Va Café, Montréal CAD": 27_150, "Pixel Forge LLC USD": 120_000])
        #expect(built == ledger)

        // The same files again change nothing.
        let before = try Support.dump(store)
        let again = try Support.importFixtures(Self.files, into: store, options: .init(defaultTerms: 14))
        #expect(again.invoices == .init(unchanged: 5) && again.clients == .init(unchanged: 3))
        #expect(try Support.dump(store) == before)
    }

    @Test(.temporaryFolder) func theBuiltSitesTotalsPerClientAndCurrencyAreTheLedgersReceivables() throws {
        let folder = try TemporaryFolder.current
        let last = try Support.builtTotals(importing: Self.files.map(Support.fixture), in: folder)
        let ledger = try Self.ledgerBalances()
        #expect(Set(last.keys) == Set(ledger.keys))
        for (key, value) in ledger { #expect(last[key]?.owed == value && last[key]?.credit == 0, "\(key)") }
    }

    /// Dates a spreadsheet rewrote day first (`20/1/2025`) are read so, told by a day past 12.
    @Test(.temporaryFolder) func dayFirstDatesAreReadFromTheFile() throws {
        let folder = try TemporaryFolder.current
        let iso = try #require(try? Regex("([0-9]{4})-([0-9]{2})-([0-9]{2})"))
        let paths = try Self.variant(folder) { text in
            text.replacing(iso) { match in "\(Int(match.output[3].substring!)!)/\(Int(match.output[2].substring!)!)/\(match.output[1].substring!)" }
        }
        let dated = { (batch: ImportBatch) in batch.invoices.map { "\($0.identifier) \($0.issued) \($0.due)" } + batch.payments.map { "\($0.invoice) \($0.date)" } }
        #expect(dated(try ImportReader().read(files: paths)) == dated(try ImportReader().read(files: Self.files.map(Support.fixture))))
    }

    @Test func theTransactionsWithoutTheCustomersAreRefusedNamingThem() throws {
        let error = try #require(throws: ImportError.self) { try ImportReader().read(files: [Support.fixture(Self.files[1])]) }
        #expect(error.problems.count == 5)
        #expect(error.problems.first?.description.contains("column 'Customer': customer 'Ça Va Café, Montréal' is not in the Wave customers export") == true)
    }

    @Test(.temporaryFolder) func oneBrokenCellIsRefusedWithFileLineAndColumnAndExit65() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let paths = try Self.variant(folder) { $0.replacingOccurrences(of: ",200.00,,,200.00,", with: ",2OO.00,,,200.00,") }
        let result = try CLI.run(["import", "--store", store] + paths)
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("Error: \(paths[1]):3: column 'Amount (One column)': '2OO.00'"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test(.temporaryFolder) func aReceivableOutsideAnInvoiceIsReportedNotFixed() throws {
        let folder = try TemporaryFolder.current
        // The payment of invoice 1 no longer names it: the customer's receivable would differ from the ledger's.
        let paths = try Self.variant(folder) {
            $0.replacingOccurrences(of: "-200.00,,,200.00,Cash on Hand,\"Ça Va Café, Montréal\",,1,", with: "-200.00,,,200.00,Cash on Hand,\"Ça Va Café, Montréal\",,,")
        }
        let error = try #require(throws: ImportError.self) { try ImportReader().read(files: paths) }
        #expect(error.problems.map(\.description) == [
            "\(paths[1]):11: column 'Invoice Number': is empty on an Accounts Receivable line of customer 'Ça Va Café, Montréal'; the ledger moves "
                + "the receivable outside an invoice (a customer payment not applied to one), which the books cannot hold, so the customer's balance would differ"
        ])
        // An invoice whose receivable is not its lines plus their tax is reported at its Accounts Receivable line.
        let sum = try Self.variant(folder) { $0.replacingOccurrences(of: ",371.50,,371.50,", with: ",371.60,,371.60,") }
        let sumError = try #require(throws: ImportError.self) { try ImportReader().read(files: sum) }
        #expect(sumError.problems.map(\.description) == [
            "\(sum[1]):7: column 'Amount (One column)': 371.60 on Accounts Receivable is not the income lines (350.00) plus their Sales Tax Amount "
                + "(21.50); the ledger's invoice does not add up"
        ])
    }
}
