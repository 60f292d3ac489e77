import Foundation
import InvoicesImport
import InvoicesTesting
import Testing

/// The service imports (Xero, Stripe JSON and CSV, QuickBooks Online, Invoice Ninja, Wave) fed hostile files: each is
/// refused with its file, line (or JSON path) and column, exit 65, nothing written; never a trap, never a silent accept.
struct HostileServiceImportTests {
    /// The problems of importing `fixture` with `old` replaced by `new` (once), written to a temporary folder.
    func problems(_ fixture: String, _ old: String, _ new: String) throws -> (path: String, problems: [ImportProblem]) {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var bytes = [UInt8](try #require(Support.bytes(Support.fixture(fixture))))
        let from = Array(old.utf8)
        let at = try #require((0...(bytes.count - from.count)).first { Array(bytes[$0..<($0 + from.count)]) == from }, "\(old) in \(fixture)")
        bytes.replaceSubrange(at..<(at + from.count), with: Array(new.utf8))
        let path = folder.path((fixture as NSString).lastPathComponent)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        do {
            _ = try ImportReader(options: .init(dateFormat: "dd/MM/yyyy", currency: "USD")).read(files: [path])
            return (path, [])
        } catch {
            return (path, error.problems)
        }
    }

    /// A NUL byte in a cell imported as part of the name (`Harbor\0Lane`); it is refused at its line and column, in the
    /// file of every service.
    @Test func aNULByteInACellIsRefusedAtItsLineAndColumn() throws {
        let cases: [(fixture: String, old: String, line: Int, column: String)] = [
            ("stripe/invoices.csv", "Harbor & Lane LLC", 7, "Customer Name"),
            ("xero-invoices-export.csv", "Highland Joinery Ltd", 2, "ContactName"),
            ("quickbooks-invoice-list.csv", "Website redesign", 6, "Memo/Description"),
            ("quickbooks-transactions-by-customer.csv", "Hosting and support", 9, "Memo/Description"),
            ("invoiceninja/invoiceninja-clients.csv", "Ana Admin", 2, "Client User"),
            ("wave/wave-customers.csv", "Pixel Forge LLC", 3, "customer_name"),
        ]
        for item in cases {
            let (path, found) = try problems(item.fixture, item.old, item.old.prefix(3) + "\u{0}" + item.old.dropFirst(3))
            #expect(
                found.map(\.description) == ["\(path):\(item.line): column '\(item.column)': holds a NUL byte (U+0000); no export writes one: remove it"],
                "\(item.fixture): \(found)")
        }
    }

    /// Stripe's JSON may write a NUL as `\u0000`: refused at its path.
    @Test func aNULInAStripeJSONStringIsRefusedAtItsPath() throws {
        let (path, found) = try problems("stripe-invoices.json", "\"customer_name\": \"Harbor & Lane LLC\"", "\"customer_name\": \"Harbor\\u0000Lane\"")
        #expect(!found.isEmpty && found.allSatisfy { $0.description.hasPrefix("\(path): data[") && $0.description.hasSuffix(".customer_name: holds a NUL byte (U+0000); no export writes one: remove it") }, "\(found)")
    }

    /// 100,000 nested arrays: Foundation's parser said only "The data is not in the correct format"; the file is refused
    /// before parsing, naming the limit, exit 65, nothing written.
    @Test(.temporaryFolder) func jsonNestedPastTheBudgetIsRefusedNamingTheLimit() throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("deep.json")
        let store = folder.path("books.sqlite")
        try Data(("{\"object\": \"list\",\n\"data\": " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}").utf8)
            .write(to: URL(fileURLWithPath: path))
        let result = try CLI.run(["import", "--store", store, path])
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("Error: \(path):2: nests arrays and objects deeper than 64 levels, the limit for a JSON file"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store))
        // Within the budget (Stripe's list nests about 6 levels) the file is read as before.
        #expect(try ImportReader().read(files: [Support.fixture("stripe-invoices.json")]).invoices.count == 8)
    }

    /// Amounts past 64-bit minor units are refusals at their cell in each service's file (these held before this test).
    @Test func amountsPast64BitsAreRefusedAtTheirCell() throws {
        let cases: [(fixture: String, old: String, new: String, column: String)] = [
            ("stripe/invoices.csv", "1000.00,1210.00,210.00", "1000.00,92233720368547758.08,210.00", "Total"),
            ("quickbooks-invoice-list.csv", "\"1,234.56\",0.00", "\"92,233,720,368,547,758.08\",0.00", "Amount"),
        ]
        for item in cases {
            let (path, found) = try problems(item.fixture, item.old, item.new)
            #expect(found.contains { $0.description.hasPrefix(path) && $0.column == item.column && $0.message.contains("does not fit in 64-bit minor units") },
                "\(item.fixture): \(found)")
        }
    }

    /// A cell that starts like a spreadsheet formula is data: imported as the text it is (the tool's own CSV exports put
    /// a `'` in front of it, docs/reliability.md); text that is not UTF-8 is refused at its line.
    @Test func aFormulaLikeCellIsTextAndBytesThatAreNotUTF8AreRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let text = String(decoding: try #require(Support.bytes(Support.fixture("stripe/invoices.csv"))), as: UTF8.self)
        let path = folder.path("invoices.csv")
        try Data(text.replacingOccurrences(of: "Harbor & Lane LLC", with: "\"=HYPERLINK(\"\"http://x.example\"\",\"\"y\"\")\"").utf8)
            .write(to: URL(fileURLWithPath: path))
        let batch = try ImportReader().batch(from: [path])
        #expect(batch.clients.contains { $0.name == "=HYPERLINK(\"http://x.example\",\"y\")" }, "\(batch.clients.map(\.name))")

        var bytes = Array(text.utf8)
        let at = try #require(text.utf8.firstIndex(of: UInt8(ascii: "&")).map { text.utf8.distance(from: text.utf8.startIndex, to: $0) })
        bytes[at] = 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: ImportError.self) { try ImportReader().read(files: [path]) }
        #expect(error.problems.map(\.description) == ["\(path):7: the text is not UTF-8; save the file as UTF-8"])
    }

    /// A file past the 1 GB import budget (sparse: nothing is written to disk) is refused before it is read, exit 65.
    @Test(.temporaryFolder) func aFilePastTheImportBudgetIsRefusedBeforeItIsRead() throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("invoices.csv")
        #expect(FileManager.default.createFile(atPath: path, contents: Data("id,Number\n".utf8)))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: (1 << 30) + 1)
        try handle.close()
        let result = try CLI.run(["import", "--store", folder.path("books.sqlite"), path])
        #expect(result.status == 65 && result.stderr.contains("1 GB"), "\(result.status) \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("books.sqlite")))
    }
}
