import Foundation
import InvoicesCore
import InvoicesImport
import InvoicesStore
import InvoicesTesting
import Testing

/// The `language` column of the clients CSV and JSON imports, and Stripe's `preferred_locales` (issue 43).
struct LanguageImportTests {
    static func write(_ text: String, _ path: String) throws { try Data(text.utf8).write(to: URL(fileURLWithPath: path)) }

    static let clientsCSV = """
        number,name,country,language
        C-1,Bistro Lyon,FR,fr
        C-2,Zürich AG,CH,de-CH
        C-3,Plain Ltd,GB,

        """

    @Test(.temporaryFolder) func csvAndJSONLanguagesAreStoredAndReadBack() throws {
        let folder = try TemporaryFolder.current
        let csv = folder.path("clients.csv"), json = folder.path("more.json"), store = folder.path("books.sqlite")
        try Self.write(Self.clientsCSV, csv)
        try Self.write(#"{"clients": [{"number": "C-4", "name": "Roma Srl", "language": "it"}, {"number": "C-5", "name": "Null", "language": null}]}"#, json)
        let result = try CLI.run(["import", "--store", store, csv, json])
        #expect(result.status == 0, "\(result.stderr)")
        let languages = Dictionary(uniqueKeysWithValues: try BooksStore(path: store).books.clients.map { ($0.number, $0.language) })
        #expect(languages == ["C-1": "fr", "C-2": "de-CH", "C-3": "", "C-4": "it", "C-5": ""])
        #expect(try StoreFixture.query(store, "PRAGMA user_version").first?.values.first == "3")
        // An empty language is NULL in the table; a second import changes nothing.
        #expect(try StoreFixture.query(store, "SELECT language FROM client WHERE number = 'C-3'").first?["language"] == "NULL")
        let again = try CLI.run(["import", "--store", store, csv, json])
        #expect(again.stdout.contains("clients: 0 added, 0 updated, 5 unchanged"), "\(again.stdout)")
        // A changed language updates the client.
        try Self.write(Self.clientsCSV.replacingOccurrences(of: "C-1,Bistro Lyon,FR,fr", with: "C-1,Bistro Lyon,FR,fr-BE"), csv)
        #expect(try CLI.run(["import", "--store", store, csv]).stdout.contains("clients: 0 added, 1 updated, 2 unchanged"))
        #expect(try BooksStore(path: store).books.clients.first { $0.number == "C-1" }?.language == "fr-BE")
    }

    @Test(.temporaryFolder) func aMalformedLanguageIsRefusedWithItsFileRowAndColumn() throws {
        let folder = try TemporaryFolder.current
        let csv = folder.path("clients.csv"), json = folder.path("clients.json"), store = folder.path("books.sqlite")
        try Self.write(Self.clientsCSV.replacingOccurrences(of: "CH,de-CH", with: "CH,de_CH"), csv)
        try Self.write(#"{"clients": [{"number": "C-9", "name": "X", "language": "français"}]}"#, json)
        let result = try CLI.run(["import", "--store", store, csv, json])
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(csv):3: column 'language': 'de_CH' is not a well-formed BCP 47 language tag"), "\(result.stderr)")
        #expect(result.stderr.contains("\(json): clients[0]: column 'language': 'français' is not a well-formed BCP 47 language tag"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    /// Into an existing v2 store the import writes v2 rows: the store keeps its version and columns, and one warning
    /// says the languages were not stored.
    @Test(.temporaryFolder) func intoAV2StoreTheLanguagesAreLeftOutWithAWarning() throws {
        let folder = try TemporaryFolder.current
        let csv = folder.path("clients.csv"), store = folder.path("books.sqlite")
        try Self.write(Self.clientsCSV, csv)
        try StoreFixture.make(at: store, sql: StoreFixture.v2Cases, version: 2)
        let result = try CLI.run(["import", "--store", store, csv])
        #expect(result.status == 0, "\(result.stderr)")
        #expect((result.stdout + result.stderr).contains("2 client language(s) not stored: the store is schema version 2"), "\(result.stdout)\(result.stderr)")
        #expect(try StoreFixture.query(store, "PRAGMA user_version").first?.values.first == "2")
        let books = try BooksStore(path: store).books
        #expect(books.clients.contains { $0.number == "C-2" && $0.name == "Zürich AG" && $0.language.isEmpty })
    }

    /// An expanded Stripe customer's first preferred locale is the client's language.
    @Test(.temporaryFolder) func stripesPreferredLocaleIsTheClientsLanguage() throws {
        let folder = try TemporaryFolder.current
        var text = try String(contentsOfFile: Support.fixture("stripe-invoices.json"), encoding: .utf8)
        let first = try #require(text.range(of: #""customer": "cus_"#))
        let end = try #require(text[first.upperBound...].firstIndex(of: "\""))
        let id = "cus_" + text[first.upperBound..<end]
        text.replaceSubrange(first.lowerBound...end, with: #""customer": {"id": "\#(id)", "object": "customer", "preferred_locales": ["fr-CH", "de-CH"]}"#)
        let file = folder.path("stripe.json"), store = folder.path("books.sqlite")
        try Self.write(text, file)
        let result = try CLI.run(["import", "--store", store, file])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try BooksStore(path: store).books.clients.first { $0.number == id }?.language == "fr-CH")
        try Self.write(text.replacingOccurrences(of: #"["fr-CH", "de-CH"]"#, with: #"["fr_CH"]"#), file)
        let bad = try CLI.run(["import", "--store", folder.path("other.sqlite"), file])
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("customer.preferred_locales[0]: column 'preferred_locales': 'fr_CH' is not a well-formed BCP 47"), "\(bad.stderr)")
    }
}
