import Foundation
import InvoicesImport
import InvoicesTesting
import Testing

/// Every problem of an import is reported in one run, unknown clients together with the rows' other problems,
/// in file and line order; nothing is written (issue 16).
@Suite struct AllProblemsInOneRunTests {
    static let header = "identifier,clientNumber,amount,currency,issuedOn,dueOn,paidOn,notes\n"

    func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test(.temporaryFolder) func unknownClientsAreReportedWithTheRowsOtherProblems() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        try Support.importFixtures(["clients.csv"], into: store)
        let before = try #require(Support.bytes(store))
        let file = folder.path("invoices.csv")
        try write(
            Self.header
                + "A-1,C-404,10.00,EUR,2025-01-01,2025-01-31,,\n"  // valid, but its client is unknown
                + "A-2,C-405,1.234,EUR,2025-01-01,2025-01-31,,\n"  // a bad amount, and an unknown client
                + "A-3,C-001,10.00,EUR,01/02/2025,2025-01-31,,\n",  // a bad date; its client is known
            to: file)
        let result = try CLI.run(["import", "--store", store, file])
        #expect(result.status == 65)
        #expect(result.stderr.split(separator: "\n").map(String.init) == [
            "Error: \(file):2: column 'clientNumber': client number 'C-404' is neither in the imported clients nor in the store; import its client too",
            "Error: \(file):3: column 'amount': '1.234' has more decimals than EUR allows (2); it is not rounded",
            "Error: \(file):3: column 'clientNumber': client number 'C-405' is neither in the imported clients nor in the store; import its client too",
            "Error: \(file):4: column 'issuedOn': '01/02/2025' is not a date YYYY-MM-DD; for other forms use --date-format, e.g. --date-format dd/MM/yyyy, naming a real day",
            "Error: nothing was written to \(store)",
        ])
        #expect(Support.bytes(store) == before)
    }

    @Test(.temporaryFolder) func problemsOfSeveralFilesComeInTheOrderOfTheFiles() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("new.sqlite")
        // Without the FreshBooks clients file, neither file's clients are known; the second file has bad rows too.
        let unknown = Support.fixture("freshbooks-invoices.csv")
        let bad = Support.fixture("freshbooks-invoices-bad.csv")
        let batch = try ImportReader().batch(from: [unknown, bad])
        #expect(batch.problems.count == 4)
        let error = try #require(throws: ImportError.self) { try ImportWriter.apply(batch, to: store) }
        #expect(error.kind == .badData)
        #expect(error.problems.map { "\($0.location):\($0.column ?? "")" } == [
            "\(unknown):2:Client Name", "\(unknown):6:Client Name", "\(unknown):7:Client Name",
            "\(bad):2:Client Name", "\(bad):3:Line Total", "\(bad):4:Date Issued", "\(bad):4:Client Name",
            "\(bad):5:Currency", "\(bad):5:Date Paid", "\(bad):5:Client Name",
        ])
        #expect(!FileManager.default.fileExists(atPath: store), "a failed import into a new store leaves no file")
    }

    @Test(.temporaryFolder) func aClientRowWithAProblemIsNotReportedAgainForItsInvoices() throws {
        let folder = try TemporaryFolder.current
        let clients = folder.path("clients.csv")
        let invoices = folder.path("invoices.csv")
        try write("number,name\nC-009,\n", to: clients)
        try write(Self.header + "A-1,C-009,10.00,EUR,2025-01-01,2025-01-31,,\n", to: invoices)
        let batch = try ImportReader().batch(from: [clients, invoices])
        let error = try #require(throws: ImportError.self) { try ImportWriter.apply(batch, to: folder.path("books.sqlite")) }
        #expect(error.problems.map(\.description) == ["\(clients):2: column 'name': is empty; every client needs one"])
    }

    @Test(.temporaryFolder) func jsonInvoicesWithProblemsHaveTheirClientsCheckedToo() throws {
        let folder = try TemporaryFolder.current
        let file = folder.path("books.json")
        try write(
            #"{"invoices": [{"identifier": "J-1", "clientNumber": "C-7", "amount": 5, "currency": "USD", "#
                + #""issuedOn": "2025-05-02", "dueOn": "2025-06-01"}]}"#,
            to: file)
        let batch = try ImportReader().batch(from: [file])
        let error = try #require(throws: ImportError.self) { try ImportWriter.apply(batch, to: folder.path("books.sqlite")) }
        #expect(error.problems.map(\.description) == [
            "\(file): invoices[0]: column 'amount': is not a string; write every value as a JSON string, amounts too (\"1234.50\")",
            "\(file): invoices[0]: column 'clientNumber': client number 'C-7' is neither in the imported clients nor in the store; import its client too",
        ])
    }

    @Test(.temporaryFolder) func aMissingFileIsReportedWithTheOtherFilesProblems() throws {
        let folder = try TemporaryFolder.current
        let bad = Support.fixture("freshbooks-invoices-bad.csv")
        let missing = folder.path("nope.csv")
        let result = try CLI.run(["import", "--store", folder.path("books.sqlite"), bad, missing])
        #expect(result.status == 66)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(result.stderr)")
        #expect(lines.first?.hasPrefix("Error: \(bad):3: column 'Line Total'") == true)
        #expect(lines.last == "Error: \(missing): no such file")
    }
}
