import Foundation
import InvoicesImport
import InvoicesTesting
import Testing

/// Files of services `invoices import` does not read are named for what they are, with what to do next; an
/// empty file says it is empty (issue 16). The fixtures in Fixtures/foreign/ have the header rows of the
/// services' real exports and rows of our own.
@Suite struct UnreadFilesTests {
    static let exports: [(String, String)] = [
        ("wave-vendors.csv", "looks like a Wave vendors export; vendors are suppliers, not clients"),
        ("invoicely-invoices.csv", "looks like an Invoicely invoices export; it has no invoice numbers and no currency"),
        ("invoicely-clients.csv", "looks like an Invoicely or Invoice2go clients export; invoices import does not read them; convert it"),
        ("invoice2go-invoices.csv", "looks like an Invoice2go invoices export; invoices import does not read Invoice2go; convert its invoices"),
        ("xero-import-template.csv",
         "looks like Xero's sales invoice import template (its required columns marked '*'); it is a file for importing into Xero, with no status"),
        ("zoho-contacts.csv", "looks like a Zoho contacts export; Zoho's clients are read from its invoices export"),
        ("zoho-books-invoices-no-currency.csv",
         "looks like a Zoho invoices export without the 'Currency Code' column (as Zoho Books writes it); the store needs each invoice's currency: add a 'Currency Code' column"),
    ]

    @Test(arguments: exports)
    func anExportOfAServiceWeDoNotReadIsNamed(file: String, message: String) throws {
        let path = Support.fixture("foreign/" + file)
        let error = try #require(throws: ImportError.self) { try ImportReader().read(files: [path]) }
        #expect(error.kind == .badData)
        let problem = try #require(error.problems.first)
        #expect(error.problems.count == 1)
        #expect(problem.location.line == 1)
        #expect(problem.message.hasPrefix(message), "\(problem.message)")
        #expect(!problem.message.contains("--format"), "--format cannot help with these files")
    }

    @Test func namingAFormatForAForeignFileStillSaysWhatItLooksLike() throws {
        let path = Support.fixture("foreign/zoho-books-invoices-no-currency.csv")
        let error = try #require(throws: ImportError.self) {
            try ImportReader(options: .init(format: .zohoInvoices)).read(files: [path])
        }
        #expect(error.problems.count == 1)
        #expect(error.problems.first?.description.hasPrefix(
            "\(path):1: the header row lacks column(s) 'Currency Code' of the zoho-invoices format; the file looks like "
                + "a Zoho invoices export without the 'Currency Code' column") == true)
    }

    @Test(.temporaryFolder, arguments: [("zero.csv", [UInt8]()), ("bom.csv", [0xEF, 0xBB, 0xBF]), ("blank.csv", Array("\n \r\n\t\n".utf8)),
                      ("bom-blank.json", [0xEF, 0xBB, 0xBF, 0x0A, 0x0A])])
    func anEmptyFileSaysItIsEmpty(name: String, bytes: [UInt8]) throws {
        let folder = try TemporaryFolder.current
        let path = folder.path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: ImportError.self) { try ImportReader().read(files: [path]) }
        let detail = bytes.isEmpty ? "0 bytes" : "no header row, only blank lines"
        #expect(error.problems.map(\.description) == [
            "\(path): is empty (\(detail)); export the data again, or leave the file out"
        ])
    }

    @Test(.temporaryFolder) func aHeaderOfNoKnownExportIsQuotedAndNoFormatFlagIsSuggested() throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("odd.csv")
        try Data("Ref,Customer,Sum,Cur,When\nA,B,1,EUR,2025-01-01\n".utf8).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: ImportError.self) { try ImportReader().read(files: [path]) }
        #expect(error.problems.map(\.description) == [
            "\(path):1: the header row ('Ref', 'Customer', 'Sum', 'Cur', ...) matches no import format; a file needs the "
                + "columns of one of clients-csv, invoices-csv, payments-csv, freshbooks-clients, freshbooks-invoices, freshbooks-payments, zoho-invoices, xero-invoices, "
                + "quickbooks-invoice-list, quickbooks-transactions, invoiceninja-clients, "
                + "invoiceninja-invoices, invoiceninja-credits, invoiceninja-payments, wave-customers, wave-transactions, stripe-invoices-csv, stripe-credit-notes-csv, "
                + "or is JSON (see docs/import.md for each format's columns)"
        ])
    }

    @Test(.temporaryFolder) func theCommandNamesAWaveExportAndAnEmptyFileInOneRunAndExits65() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let empty = folder.path("empty.csv")
        try Data().write(to: URL(fileURLWithPath: empty))
        let wave = Support.fixture("foreign/wave-vendors.csv")
        let result = try CLI.run(["import", "--store", store, wave, empty])
        #expect(result.status == 65)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(result.stderr)")
        #expect(lines.first?.hasPrefix("Error: \(wave):1: looks like a Wave vendors export") == true)
        #expect(lines.dropFirst().first == "Error: \(empty): is empty (0 bytes); export the data again, or leave the file out")
        #expect(!FileManager.default.fileExists(atPath: store))
    }
}
