import Foundation
import InvoicesCore
import InvoicesImport
import InvoicesReport
import InvoicesStore
import InvoicesTesting
import Testing

/// QuickBooks Online's reports as QuickBooks exports them to CSV (issue 44): the Transaction List by Customer with
/// multicurrency columns (title rows, customer group rows, `Total for …`, `TOTAL` and the timestamp below) and the
/// Invoice List without multicurrency, day first. Every transaction type, a partial payment, credit memos applied and
/// left as credit, a refund receipt, a void, a non-posting estimate, an empty due date, a customer with a comma and
/// non-ASCII letters, two currencies. The reports carry no lines and no taxes, so neither is tested here.
struct QuickBooksImportTests {
    static let ledger = "quickbooks-transactions-by-customer.csv"
    static let invoiceList = "quickbooks-invoice-list.csv"

    /// QuickBooks' own balances per (customer, currency) in the Transaction List by Customer fixture, read from its
    /// `Foreign open balance` column without the importer: invoices' open balances are owed, credit memos' are credit.
    static func quickBooksBalances(_ path: String) throws -> [String: (owed: Int64, credit: Int64)] {
        let csv = try CSVDocument(bytes: [UInt8](try #require(Support.bytes(path))))
        let header = try #require(csv.records.first { $0.fields.contains("Foreign open balance") }).fields
        let column = { (name: String) in try #require(header.firstIndex(of: name)) }
        let (type, currency, open) = (try column("Transaction type"), try column("Currency"), try column("Foreign open balance"))
        var customer = ""
        var result: [String: (owed: Int64, credit: Int64)] = [:]
        for record in csv.records where record.fields.count == header.count && record.fields != header {
            let fields = record.fields
            if !fields[0].isEmpty {
                if !fields[0].hasPrefix("Total"), fields.dropFirst().allSatisfy(\.isEmpty) { customer = fields[0] }
                continue
            }
            guard ["Invoice", "Credit Memo"].contains(fields[type]) else { continue }
            let amount = try Money(parsing: fields[open].replacingOccurrences(of: ",", with: ""), currency: CurrencyCode(fields[currency])).minorUnits
            var entry = result[customer + " " + fields[currency]] ?? (0, 0)
            if fields[type] == "Invoice" { entry.owed += amount } else { entry.credit += abs(amount) }
            result[customer + " " + fields[currency]] = entry
        }
        return result
    }

    static func variant(_ folder: TemporaryFolder, _ fixture: String, _ edit: (String) -> String) throws -> String {
        let text = String(decoding: try #require(Support.bytes(Support.fixture(fixture))), as: UTF8.self)
        let path = folder.path(fixture)
        try Data(edit(text).utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(.temporaryFolder) func transactionListWithEveryTypeImportsWithQuickBooksOwnBalances() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let batch = try ImportReader().read(files: [Support.fixture(Self.ledger)])
        #expect(batch.warnings.map(\.message) == [
            "1 non-posting transaction(s) (Estimate, Delayed Charge, Delayed Credit, Statement…) left out: they move no money"
        ])
        let summary = try ImportWriter.apply(batch, to: store)
        #expect(summary.invoices.added == 10 && summary.clients.added == 2 && summary.payments?.added == 3)
        let books = try BooksStore(path: store).books
        func index(_ identifier: String) throws -> Int { try #require(books.invoices.firstIndex { $0.identifier == identifier }) }
        func invoice(_ identifier: String) throws -> InvoiceSnapshot { books.invoices[try index(identifier)] }

        // Types: invoices and sales receipts are invoices, credit memos and refund receipts credit notes; the estimate is left out.
        for identifier in ["1001", "1002", "1003", "1005", "1006", "1009"] { #expect(try invoice(identifier).kind == .invoice, "\(identifier)") }
        for identifier in ["1004", "1008", "1010", "1011"] { #expect(try invoice(identifier).kind == .creditNote, "\(identifier)") }
        #expect(!books.invoices.contains { $0.identifier == "1007" })
        // The voided invoice (memo "Voided", amount 0.00) is void; the others sent.
        #expect(try invoice("1005").status == .void && invoice("1005").amount == 0)
        #expect(try invoice("1003").status == .sent && invoice("1011").status == .sent)
        // Amounts in the transaction's currency (Foreign amount), "1,234.56" and "(150.00)" read exactly, stored positive.
        #expect(try invoice("1001").amount == 123_456 && invoice("1002").amount == 200_000 && books.currencies[Int(invoice("1002").currencyIndex)].code == "EUR")
        #expect(try invoice("1010").amount == 15_000)
        // Credit memos applied whole to the oldest open invoice they fit in; the 600.00 fits in none and stays credit.
        #expect(try invoice("1004").corrects == Int32(index("1003")) && invoice("1004").applied?.description == "2026-02-25")
        #expect(try invoice("1010").corrects == Int32(index("1002")))
        #expect(try invoice("1011").corrects == -1)
        // Payments land in the payment table, dated as the report dates them; the partial ones leave the rest open.
        let payments = books.payments.map { "\(books.invoices[Int($0.invoiceIndex)].identifier) \($0.amount) \($0.date) \($0.details < 0 ? "" : books.paymentDetails[Int($0.details)].reference)" }.sorted()
        #expect(payments == [
            "1001 123456 2026-01-19 ", "1002 50000 2026-02-13 SEPA-88", "1003 30000 2026-02-20 4471", "1006 7500 2026-03-05 ", "1008 -2000 2026-03-10 ",
        ])
        #expect(try invoice("1001").paid?.description == "2026-01-19" && invoice("1003").paid == nil)
        // The empty due date is the issue date plus the default terms (30 days).
        #expect(try invoice("1009").due.description == "2026-04-14")
        // The customer with a comma and non-ASCII letters.
        #expect(books.clients.map(\.name).sorted() == ["Bluebird Bakery", "Müller, Søren & Co. GmbH"])

        // The report's totals per client and currency are QuickBooks' own balances.
        let built = try Support.reportBalances(books)
        let quickBooks = try Self.quickBooksBalances(Support.fixture(Self.ledger))
        #expect(quickBooks.count == 2 && built.count == 2)
        for (key, value) in quickBooks {
            #expect(built[key]?.owed == value.owed && built[key]?.credit == value.credit, "\(key): \(String(describing: built[key])) vs \(value)")
        }
        #expect(quickBooks["Bluebird Bakery USD"]?.owed == 46_000 && quickBooks["Bluebird Bakery USD"]?.credit == 60_000)
        #expect(quickBooks["Müller, Søren & Co. GmbH EUR"]?.owed == 135_000)

        // The same report again changes nothing.
        let before = try Support.dump(store)
        let again = try Support.importFixtures([Self.ledger], into: store)
        #expect(again.invoices == .init(unchanged: 10) && again.clients == .init(unchanged: 2))
        #expect(try Support.dump(store) == before)
    }

    /// The built site's totals.csv, at each client's and currency's last month, are QuickBooks' own balances.
    @Test(.temporaryFolder) func theBuiltSitesTotalsPerClientAndCurrencyAreQuickBooksBalances() throws {
        let folder = try TemporaryFolder.current
        let last = try Support.builtTotals(importing: [Support.fixture(Self.ledger)], in: folder)
        let quickBooks = try Self.quickBooksBalances(Support.fixture(Self.ledger))
        #expect(Set(last.keys) == Set(quickBooks.keys))
        for (key, value) in quickBooks {
            #expect(last[key]?.owed == value.owed && last[key]?.credit == value.credit, "\(key): \(String(describing: last[key])) vs \(value)")
        }
    }

    /// The Invoice List without multicurrency: the home currency from --currency, day first told by 19/01/2026, the
    /// received part (Amount less Open balance) one payment on the invoice date with a warning.
    @Test(.temporaryFolder) func invoiceListReadsDayFirstInTheHomeCurrency() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let batch = try ImportReader(options: .init(currency: "GBP")).read(files: [Support.fixture(Self.invoiceList)])
        #expect(batch.warnings.map(\.message) == [
            "2 invoice(s) partly or wholly paid: each Amount less Open Balance is recorded as one payment on its Date; the Invoice List does not "
                + "say when it was paid (the Transaction List by Customer does)"
        ])
        _ = try ImportWriter.apply(batch, to: store)
        let books = try BooksStore(path: store).books
        let rows = books.invoices.map { "\($0.identifier) \($0.amount) \(books.currencies[Int($0.currencyIndex)].code) \($0.issued) \($0.due) \($0.status)" }
        #expect(rows == [
            "2001 123456 GBP 2026-01-05 2026-02-04 sent", "2002 200000 GBP 2026-01-19 2026-02-18 sent", "2003 0 GBP 2026-02-02 2026-03-04 void",
            "2004 6000 GBP 2026-03-15 2026-04-14 sent",
        ])
        #expect(RealExportsTests.balances(books) == ["2001": 0, "2002": 150_000, "2003": 0, "2004": 6_000])
        #expect(books.payments.map { "\($0.amount) \($0.date)" } == ["123456 2026-01-05", "50000 2026-01-19"])

        // Without --currency the report names no currency: refused, saying what to give.
        let error = try #require(throws: ImportError.self) { try ImportReader().read(files: [Support.fixture(Self.invoiceList)]) }
        #expect(error.problems.map(\.description) == [
            "\(Support.fixture(Self.invoiceList)):5: the report names no currency (multicurrency is off); give the company's home currency with --currency, e.g. --currency USD"
        ])
    }

    @Test(.temporaryFolder) func oneBrokenCellIsRefusedWithFileLineAndColumnAndExit65() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let bad = try Self.variant(folder, Self.ledger) { $0.replacingOccurrences(of: ",-500.00,0.00", with: ",-5OO.00,0.00") }
        let result = try CLI.run(["import", "--store", store, bad])
        #expect(result.status == 65)
        // Only the broken cell: the customer's other rows are not checked against a ledger that lacks it.
        #expect(result.stderr == "Error: \(bad):21: column 'Foreign amount': '5OO.00' is not a decimal EUR amount (expected e.g. '1234.50')\n"
            + "Error: nothing was written to \(store)\n", "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test(.temporaryFolder) func anOpenBalanceThatDisagreesIsReportedNotFixed() throws {
        let folder = try TemporaryFolder.current
        // Invoice 1003 owes 800.00 less the 300.00 payment less the 100.00 credit memo: QuickBooks' 450.00 is not that.
        let path = try Self.variant(folder, Self.ledger) { $0.replacingOccurrences(of: ",800.00,400.00,USD,1.00,800.00,400.00", with: ",800.00,450.00,USD,1.00,800.00,450.00") }
        let error = try #require(throws: ImportError.self) { try ImportReader().read(files: [path]) }
        #expect(error.problems.map(\.description) == [
            "\(path):9: column 'Foreign open balance': QuickBooks' open balance 450.00 is not the tool's outstanding 400.00: the Amount less the "
                + "payments and credit memos of 'Bluebird Bakery' in the report, applied to the oldest open invoices first; the report does not say "
                + "what else settled it, so it is not imported"
        ])
    }

    /// Month first is told by 01/19/2026; a file whose dates all read both ways takes the order from --date-format.
    @Test(.temporaryFolder) func dateOrderIsReadFromTheFileOrFromTheDateFormat() throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("list.csv")
        try Data("Invoice List\nAcme\n\nDate,Num,Customer,Due date,Amount,Open balance\n03/04/2026,7,Ana,04/05/2026,10.00,10.00\n".utf8)
            .write(to: URL(fileURLWithPath: path))
        let ambiguous = try #require(throws: ImportError.self) { try ImportReader(options: .init(currency: "USD")).read(files: [path]) }
        #expect(ambiguous.problems.first?.description.contains("give --date-format dd/MM/yyyy or MM/dd/yyyy") == true, "\(ambiguous.problems)")
        let dayFirst = try ImportReader(options: .init(dateFormat: "dd/MM/yyyy", currency: "USD")).read(files: [path])
        #expect(dayFirst.invoices.map { "\($0.issued) \($0.due)" } == ["2026-04-03 2026-05-04"])
        let monthFirst = try ImportReader(options: .init(dateFormat: "MM/dd/yyyy", currency: "USD")).read(files: [path])
        #expect(monthFirst.invoices.map { "\($0.issued) \($0.due)" } == ["2026-03-04 2026-04-05"])
    }

    /// A transaction the books do not hold (a journal entry) is refused at its type's cell, a row after TOTAL that is
    /// not the footer at its line; the estimate (non-posting) and the footer rows are passed over.
    @Test(.temporaryFolder) func unknownTypesAndStrayRowsAreRefusedAtTheirCells() throws {
        let folder = try TemporaryFolder.current
        let path = try Self.variant(folder, Self.ledger) {
            $0.replacingOccurrences(of: ",03/15/2026,Invoice,1009,", with: ",03/15/2026,Journal Entry,1009,")
                .replacingOccurrences(of: "\n\n\n\"Tuesday", with: "\nAmy's Bird Sanctuary,,,,,,,,9.00,,,,,\n\n\"Tuesday")
        }
        let error = try #require(throws: ImportError.self) { try ImportReader().read(files: [path]) }
        #expect(error.problems.map(\.description) == [
            "\(path):16: column 'Transaction type': 'Journal Entry' is not a sales transaction the books hold; expected Invoice, Payment, "
                + "Credit Memo, Sales Receipt or Refund Receipt (Estimate and other non-posting ones are left out); filter it out of the report "
                + "(Customize › Filter › Transaction Type)",
            "\(path):25: comes after the report's TOTAL row, where only its basis and the time it was run stand; remove it",
        ])
    }
}
