import Foundation
import InvoicesImport
import InvoicesTesting
import Testing

/// A bad import reports every problem with its line and writes nothing (issue 7).
@Suite struct ImportErrorsTests {
    @Test func everyBadRowIsReportedWithItsLineAndColumn() throws {
        let file = Support.fixture("freshbooks-invoices-bad.csv")
        let error = try #require(throws: ImportError.self) {
            try ImportReader().read(files: [Support.fixture("freshbooks-clients.csv"), file])
        }
        #expect(error.kind == .badData)
        #expect(error.problems.map(\.description) == [
            "\(file):3: column 'Line Total': '12.345' has more decimals than USD allows (2); it is not rounded",
            "\(file):4: column 'Date Issued': '03/04/2025' is not a date YYYY-MM-DD; for other forms use --date-format, "
                + "e.g. --date-format dd/MM/yyyy, naming a real day",
            "\(file):5: column 'Currency': 'USX' is not an ISO 4217 currency code (expected three capital letters such as 'EUR', 'USD' or 'JPY')",
            "\(file):5: column 'Date Paid': is empty; expected a date YYYY-MM-DD; for other forms use --date-format, e.g. --date-format dd/MM/yyyy",
        ])
    }

    @Test(.temporaryFolder) func anUnknownClientFailsTheWholeBatchAndLeavesTheStoreAsItWas() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        try Support.importFixtures(["clients.csv", "invoices.csv"], into: store)
        let before = try #require(Support.bytes(store))
        // FreshBooks invoices without the FreshBooks clients file: their clients are not in the store.
        let error = try #require(throws: ImportError.self) {
            try Support.importFixtures(["freshbooks-invoices.csv"], into: store)
        }
        #expect(error.problems.count == 3)
        // Line 6: the Workshop line item spans lines 4 and 5 (a quoted line break); line 7 is a draft.
        #expect(error.problems.map(\.location.line) == [2, 6, 7])
        #expect(error.problems[0].message.contains("client 'Globex Corporation' is neither in the imported clients nor in the store"))
        #expect(Support.bytes(store) == before)
    }

    @Test(.temporaryFolder) func aFailedImportIntoANewStoreLeavesNoFile() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("new.sqlite")
        #expect(throws: ImportError.self) { try Support.importFixtures(["invoices.csv"], into: store) }
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test func duplicateIdentifiersAcrossFilesAreReported() throws {
        let error = try #require(throws: ImportError.self) {
            try ImportReader().read(files: [Support.fixture("invoices.csv"), Support.fixture("invoices.csv")])
        }
        #expect(error.problems.count == 4)
        #expect(error.problems[0].description.contains("invoice 'INV-1' is also at"))
    }
}

extension ImportErrorsTests {
    @Test(.temporaryFolder) func manyProblemsAreCountedBeyondTheLimit() throws {
        let folder = try TemporaryFolder.current
        let file = folder.path("invoices.csv")
        var text = "identifier,clientNumber,amount,currency,issuedOn,dueOn,paidOn,notes\n"
        for index in 0..<250 { text += "X-\(index),C-1,1.234,EUR,2025-01-01,2025-01-31,,\n" }
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let error = try #require(throws: ImportError.self) { try ImportReader().read(files: [file]) }
        #expect(error.problems.count == 200)
        #expect(error.total == 250)
        #expect(error.problems.last?.location.line == 201)
        #expect(error.description.hasSuffix("\n... and 50 more problems"))
    }
}
