import Foundation
import InvoicesImport
import InvoicesTesting
import Testing

/// Importing the same export twice changes nothing (issue 7).
@Suite struct ReimportTests {
    static let exports: [[String]] = [
        ["clients.csv", "invoices.csv"],
        ["books.json"],
        ["freshbooks-clients.csv", "freshbooks-invoices.csv"],
        ["zoho-invoices.csv"],
    ]

    @Test(.temporaryFolder, arguments: exports)
    func aSecondImportOfTheSameFilesChangesNothing(files: [String]) throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let first = try Support.importFixtures(files, into: store)
        let dump = try Support.dump(store)
        let bytes = Support.bytes(store)
        let second = try Support.importFixtures(files, into: store)
        #expect(try Support.dump(store) == dump)
        #expect(Support.bytes(store) == bytes, "an import with nothing to change does not write")
        #expect(second.clients == ImportSummary.Counts(unchanged: first.clients.added))
        #expect(second.invoices == ImportSummary.Counts(unchanged: first.invoices.added))
    }

    @Test(.temporaryFolder) func theImportsValuesWinForTheFieldsItCarries() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        try StoreFixture.make(
            at: store,
            sql: """
                INSERT INTO client (id, number, name, email, street, city, zip, country) VALUES
                  (1, 'C-00001', 'Initech', 'billing@initech.example', 'Old Rd 1', 'Dallas', '75001', 'USA');
                INSERT INTO invoice (id, identifier, clientId, amount, currency, notes, issuedOn, dueOn, paidOn) VALUES
                  (1, 'INV-000002', 1, 1, 'USD', 'old note', '2025-04-05', '2025-04-20', NULL);
                """)
        let summary = try Support.importFixtures(["zoho-invoices.csv"], into: store)
        // A v1 store has no status: the void INV-000004 is left out there, and counted as skipped.
        var expected = ImportSummary(clients: .init(added: 1, updated: 1), invoices: .init(added: 2, updated: 1))
        expected.skippedInvoices = 1
        #expect(summary == expected)
        let clients = try StoreFixture.query(store, "SELECT * FROM client WHERE id = 1")
        // Zoho carries the billing address but no e-mail: the address is replaced, the e-mail kept.
        #expect(clients.first?["email"] == "billing@initech.example")
        #expect(clients.first?["city"] == "Austin")
        let invoice = try StoreFixture.query(store, "SELECT amount, notes, paidOn FROM invoice WHERE id = 1")
        #expect(invoice == [["amount": "32400", "notes": "", "paidOn": "2025-04-18"]])
    }
}
