import Foundation
import InvoicesCore
import InvoicesImport
import InvoicesReport
import InvoicesStore
import InvoicesTesting
import Testing

/// Invoice Ninja v5's clients, invoices, credits and payments exports, laid out as its English export writes them
/// (BaseExport's default columns in order, `Invoice Invoice Number` and the like, plain decimals, ISO dates, empty cells),
/// imported together: every invoice, credit and payment status, a partial payment, a partial and a full refund, credits
/// applied, a cancelled invoice with and without payments, a reversed one, a draft, two currencies (issue 44).
struct InvoiceNinjaBooksTests {
    static let files = ["clients", "invoices", "credits", "payments"].map { "invoiceninja/invoiceninja-\($0).csv" }

    /// Invoice Ninja's own balances per (client, currency), from the clients export: `Balance` (what the client owes,
    /// the sum of its invoices' balances) and `Credit Balance` (the credit it has left).
    static func ninjaBalances() throws -> [String: (owed: Int64, credit: Int64)] {
        let csv = try CSVDocument(bytes: [UInt8](try #require(Support.bytes(Support.fixture(files[0])))))
        let column = { (name: String) in try #require(csv.header.firstIndex(of: name)) }
        let (name, currency, balance, credit) = (try column("Name"), try column("Client Currency"), try column("Balance"), try column("Credit Balance"))
        var result: [String: (owed: Int64, credit: Int64)] = [:]
        for record in csv.records {
            let code = try CurrencyCode(record.fields[currency])
            result[record.fields[name] + " " + code.code] = (
                try Money(parsing: record.fields[balance], currency: code).minorUnits, try Money(parsing: record.fields[credit], currency: code).minorUnits)
        }
        return result
    }

    /// The export `name` with `edit` applied to its text, written to `folder`; the other files copied beside it.
    static func variant(_ folder: TemporaryFolder, _ name: String, _ edit: (String) -> String) throws -> [String] {
        try files.map { file in
            let text = String(decoding: try #require(Support.bytes(Support.fixture(file))), as: UTF8.self)
            let path = folder.path((file as NSString).lastPathComponent)
            try Data((file.hasSuffix(name) ? edit(text) : text).utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    @Test(.temporaryFolder) func theFourExportsImportTogetherWithInvoiceNinjasOwnBalances() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let batch = try ImportReader().read(files: Self.files.map(Support.fixture))
        // A voided and a failed payment move no money; one of no invoice and one of 0 (paid from a credit) are skipped.
        #expect(batch.skippedPayments == 2)
        let summary = try ImportWriter.apply(batch, to: store)
        #expect(summary.clients.added == 2 && summary.invoices.added == 16 && summary.payments?.added == 11)
        let books = try BooksStore(path: store).books
        func index(_ identifier: String) throws -> Int { try #require(books.invoices.firstIndex { $0.identifier == identifier }) }
        func invoice(_ identifier: String) throws -> InvoiceSnapshot { books.invoices[try index(identifier)] }

        // Statuses: Draft a draft; Cancelled without payments and Reversed void; Cancelled with a payment sent, the rest written off.
        #expect(try invoice("0001").status == .draft && invoice("CR-0003").status == .draft)
        #expect(try invoice("0007").status == .void && invoice("0009").status == .void)
        for sent in ["0002", "0003", "0004", "0005", "0006", "0008", "0010", "0011", "0012", "CR-0001", "CR-0002", "CR-0004"] {
            #expect(try invoice(sent).status == .sent, "\(sent)")
        }
        let inv8 = Int32(try index("0008"))
        #expect(books.writeOffs.filter { $0.invoiceIndex == inv8 }.map { "\($0.amount) \($0.date) \($0.reason)" } == ["25700 2025-02-14 cancelled in Invoice Ninja"])
        // Credits are credit notes, the client's credit; what was applied to invoices left it as a negative payment.
        #expect(try invoice("CR-0001").kind == .creditNote && invoice("CR-0001").corrects == -1 && invoice("0002").kind == .invoice)

        // Payments: the listed ones, refunds negative on their day, and the part paid from a credit on the invoice's date.
        let payments = books.payments.map { "\(books.invoices[Int($0.invoiceIndex)].identifier) \($0.amount) \($0.date)" }.sorted()
        #expect(payments == [
            "0003 20000 2025-01-20", "0004 119000 2025-02-10", "0005 -10000 2025-02-20", "0005 50000 2025-02-20", "0006 -30000 2025-02-15",
            "0006 30000 2025-02-15", "0008 10000 2025-02-25", "0010 10000 2025-02-20", "0010 13800 2025-03-01", "0012 100000 2025-03-10",
            "0012 8000 2025-03-05", "CR-0001 -10000 2025-02-15", "CR-0004 -8000 2025-03-03",
        ])
        // Each invoice's balance is Invoice Ninja's `Invoice Balance`.
        let balances = RealExportsTests.balances(books)
        for (identifier, balance) in ["0002": 119_000, "0003": 39_500, "0004": 0, "0005": 10_000, "0006": 30_000, "0008": 0, "0010": 0, "0011": 100_000, "0012": 108_000] as [String: Int64] {
            #expect(balances[identifier] == balance, "\(identifier): \(String(describing: balances[identifier]))")
        }

        // Taxes: the invoice-level rate; two rates on one invoice, each on the net; the due date from --default-terms.
        let inv12 = Int32(try index("0012"))
        #expect(books.taxLines.filter { $0.invoiceIndex == inv12 }.map { "\(books.taxes[Int($0.taxIndex)].name) \(books.taxes[Int($0.taxIndex)].percent) \($0.amount)" }.sorted()
            == ["County 2 4000", "State 6 12000"])
        #expect(try invoice("0012").net == 200_000 && invoice("0005").net == 42_017)
        #expect(try invoice("0011").due.description == "2025-03-31")

        // The client with a comma and non-ASCII letters, its number and address.
        let client = try #require(books.clients.first { $0.name == "Müller, Schäfer & Co. KG" })
        #expect(client.number == "0001" && client.street == "Hohe Straße 12\n2. OG" && client.city == "Köln" && client.country == "Germany")

        // The report's totals per client and currency are Invoice Ninja's own client balances.
        let report = try Report(books: books)
        var built: [String: (owed: Int64, credit: Int64)] = [:]
        for totals in report.clients {
            for currency in totals.currencies {
                built[books.clients[totals.clientIndex].name + " " + currency.currency.code] = (currency.period.outstanding, currency.period.credit)
            }
        }
        let ninja = try Self.ninjaBalances()
        #expect(ninja.count == 2 && built.count == 2)
        for (key, value) in ninja {
            #expect(built[key]?.owed == value.owed && built[key]?.credit == value.credit, "\(key): \(String(describing: built[key])) vs \(value)")
        }

        // The same exports again change nothing.
        let before = try Support.dump(store)
        let again = try Support.importFixtures(Self.files, into: store)
        #expect(again.invoices == .init(unchanged: 16) && again.clients == .init(unchanged: 2))
        #expect(try Support.dump(store) == before)
    }

    /// The built site's totals.csv, at each client's and currency's last month, are Invoice Ninja's client balances.
    @Test(.temporaryFolder) func theBuiltSitesTotalsPerClientAndCurrencyAreInvoiceNinjasBalances() throws {
        let folder = try TemporaryFolder.current
        let last = try Support.builtTotals(importing: Self.files.map(Support.fixture), in: folder)
        let ninja = try Self.ninjaBalances()
        #expect(Set(last.keys) == Set(ninja.keys))
        for (key, value) in ninja {
            #expect(last[key]?.owed == value.owed && last[key]?.credit == value.credit, "\(key): \(String(describing: last[key])) vs \(value)")
        }
    }

    @Test func theExportsAreDetectedByTheirHeaders() throws {
        let batch = try ImportReader().batch(from: Self.files.map(Support.fixture))
        #expect(batch.problems.isEmpty)
        #expect(batch.clients.map(\.number) == ["0001", "0002"])
        // Without the payments export, each paid amount is one payment on the invoice's date, with a warning.
        let alone = try ImportReader().read(files: Self.files.dropLast().map(Support.fixture))
        #expect(alone.payments.isEmpty)
        #expect(alone.invoices.first { $0.identifier == "0012" }?.receipts == ImportedReceipts(received: 108_000, receivedOn: CalendarDate(iso: "2025-03-05")))
        #expect(alone.warnings.count == 2)
    }

    @Test(.temporaryFolder) func oneBrokenCellIsRefusedWithFileLineAndColumnAndExit65() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let paths = try Self.variant(folder, "invoices.csv") { $0.replacingOccurrences(of: ",0003,595,395,200,", with: ",0003,595,39S,200,") }
        let result = try CLI.run(["import", "--store", store] + paths)
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("Error: \(paths[1]):4: column 'Invoice Balance': '39S'"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test(.temporaryFolder) func aBalanceThatDisagreesIsReportedNotFixed() throws {
        let folder = try TemporaryFolder.current
        // 0003 owes 595 less the 200 paid: Invoice Ninja's 390 is not that.
        let paths = try Self.variant(folder, "invoices.csv") { $0.replacingOccurrences(of: ",0003,595,395,200,", with: ",0003,595,390,200,") }
        let error = try #require(throws: ImportError.self) { try ImportReader().read(files: paths) }
        #expect(error.problems.map(\.description) == [
            "\(paths[1]):4: column 'Invoice Balance': Invoice Ninja's balance 390.00 is not Invoice Amount less Invoice Paid to Date (395.00); "
                + "the file does not say what else settled it, so it is not imported"
        ])
        // Payments listing more than the invoice's paid to date are reported at the invoice.
        let more = try Self.variant(folder, "payments.csv") { $0.replacingOccurrences(of: "2025-01-20,200,0,200,", with: "2025-01-20,250,0,250,") }
        let moreError = try #require(throws: ImportError.self) { try ImportReader().read(files: more) }
        #expect(moreError.problems.map(\.description) == [
            "\(more[1]):4: column 'Invoice Paid to Date': Invoice Ninja's paid to date 200.00 is less than the payments the payments export lists "
                + "for invoice '0003' (250.00); a payment may name one invoice only"
        ])
    }

    /// The invoice *item* export (the invoice columns and one row per line item): three lines at two rates give one tax
    /// line per rate with its lines' net; lines that an invoice-level discount makes disagree leave the invoice's figures.
    @Test(.temporaryFolder) func theInvoiceItemExportGivesTaxLinesPerRate() throws {
        let batch = try ImportReader().read(files: [Self.files[0], "invoiceninja/invoiceninja-invoice-items.csv"].map(Support.fixture))
        let tax = { (identifier: String) in batch.invoices.first { $0.identifier == identifier }?.tax }
        #expect(batch.invoices.map(\.identifier) == ["0013", "0014"])
        #expect(tax("0013") == ImportedTax(net: 35_000, lines: [
            ImportedTax.Line(name: "USt", rate: "19", net: 30_000, amount: 5_700), ImportedTax.Line(name: "USt ermäßigt", rate: "7", net: 5_000, amount: 350),
        ]))
        #expect(tax("0014") == ImportedTax(net: 25_000, name: "State", rate: "8", amount: 2_000))
        #expect(batch.invoices.first?.source.line == 2)
        // The invoice columns of one invoice's lines must agree.
        let folder = try TemporaryFolder.current
        let path = folder.path("items.csv")
        let text = String(decoding: try #require(Support.bytes(Support.fixture("invoiceninja/invoiceninja-invoice-items.csv"))), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        try Data((lines[..<3] + [lines[3].replacingOccurrences(of: ",0013,410.5,410.5,", with: ",0013,410.5,400.5,")[...]] + lines[4...]).joined(separator: "\n").utf8)
            .write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: ImportError.self) { try ImportReader().read(files: [Support.fixture(Self.files[0]), path]) }
        #expect(error.problems.map(\.description) == ["\(path):4: column 'Invoice Balance': '400.5' differs from '410.5' on line 2 of invoice '0013'"])
    }

    /// Dates a spreadsheet rewrote (`1/20/2025`) are read in the order the file's dates show, or as --date-format says.
    @Test(.temporaryFolder) func dateOrderIsReadFromTheFileOrFromTheDateFormat() throws {
        let folder = try TemporaryFolder.current
        let iso = try #require(try? Regex("([0-9]{4})-([0-9]{2})-([0-9]{2})"))
        func rewrite(_ text: String, dayFirst: Bool) -> String {
            text.replacing(iso) { match in
                let (year, month, day) = (String(match.output[1].substring!), Int(match.output[2].substring!)!, Int(match.output[3].substring!)!)
                return dayFirst ? "\(day)/\(month)/\(year)" : "\(month)/\(day)/\(year)"
            }
        }
        let expected = try ImportReader().read(files: Self.files.map(Support.fixture))
        let dated = { (batch: ImportBatch) in batch.invoices.map { "\($0.identifier) \($0.issued) \($0.due)" } + batch.payments.map { "\($0.invoice) \($0.date)" } }
        for dayFirst in [false, true] {
            let sub = folder.path(dayFirst ? "dmy" : "mdy")
            try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
            let paths = try Self.files.map { file in
                let path = sub + "/" + (file as NSString).lastPathComponent
                try Data(rewrite(String(decoding: try #require(Support.bytes(Support.fixture(file))), as: UTF8.self), dayFirst: dayFirst).utf8)
                    .write(to: URL(fileURLWithPath: path))
                return path
            }
            #expect(String(decoding: try #require(Support.bytes(paths[1])), as: UTF8.self).contains(dayFirst ? ",20/1/2025," : ",1/20/2025,"))
            #expect(dated(try ImportReader().read(files: paths)) == dated(expected))
        }
    }

    @Test(.temporaryFolder) func aPaymentsExportWithoutTheInvoiceColumnSaysWhatToAdd() throws {
        let folder = try TemporaryFolder.current
        let paths = try Self.variant(folder, "payments.csv") { text in
            text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).dropLast().joined(separator: ",") }
                .joined(separator: "\n") + "\n"
        }
        let error = try #require(throws: ImportError.self) { try ImportReader().read(files: paths) }
        #expect(error.problems.first?.description.hasPrefix("\(paths[3]):1: has no 'Invoice Invoice Number' column") == true, "\(error.problems)")
    }
}
