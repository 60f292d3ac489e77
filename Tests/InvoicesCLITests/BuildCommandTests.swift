import Foundation
import InvoicesTesting
import Testing

@Suite(.serialized)
struct BuildCommandTests {
    @Test(.temporaryFolder) func sampleThenBuildWritesASiteAndLeavesTheStoreAlone() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let sample = try CLI.run(["sample", "--clients", "12", "--invoices", "300", "--seed", "3", "--output", store])
        #expect(sample.status == 0, "\(sample.stderr)")
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let build = try CLI.run(["build", "--store", store, "--output", folder.path("site")])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stdout.hasPrefix("Wrote "))
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        let index = try String(contentsOfFile: folder.path("site/index.html"), encoding: .utf8)
        #expect(index.contains("months/2024-01.html"))
        #expect(FileManager.default.fileExists(atPath: folder.path("site/clients.html")))
    }

    @Test(.temporaryFolder) func aMissingStoreExits66AndWritesNothing() throws {
        let folder = try TemporaryFolder.current
        let result = try CLI.run(["build", "--store", folder.path("nope.sqlite"), "--output", folder.path("site")])
        #expect(result.status == 66)
        #expect(result.stderr == "Error: \(folder.path("nope.sqlite")): no such file; create one with 'invoices sample' or 'invoices import'\n")
        #expect(!FileManager.default.fileExists(atPath: folder.path("site")))
        #expect(!FileManager.default.fileExists(atPath: folder.path("nope.sqlite")))
    }

    @Test(.temporaryFolder) func aFileThatIsNotAStoreExits65AndKeepsThePreviousSite() throws {
        let folder = try TemporaryFolder.current
        #expect(try CLI.run(["sample", "--clients", "2", "--invoices", "5", "--output", folder.path("books.sqlite")]).status == 0)
        #expect(try CLI.run(["build", "--store", folder.path("books.sqlite"), "--output", folder.path("site"), "--quiet"]).status == 0)
        let previous = try String(contentsOfFile: folder.path("site/index.html"), encoding: .utf8)
        try Data("hello".utf8).write(to: folder.url.appendingPathComponent("text.sqlite"))
        let result = try CLI.run(["build", "--store", folder.path("text.sqlite"), "--output", folder.path("site")])
        #expect(result.status == 65)
        #expect(result.stderr.contains("not a SQLite database"))
        #expect(try String(contentsOfFile: folder.path("site/index.html"), encoding: .utf8) == previous)
    }

    /// Issue 16: an empty store used to report the invented period "January 2000".
    @Test(.temporaryFolder) func anEmptyStoreBuildsAnHonestEmptySite() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("empty.sqlite")
        try StoreFixture.make(at: store, sql: "INSERT INTO client (number, name) VALUES ('C-1', 'Only client');")
        let build = try CLI.run(["build", "--store", store, "--output", folder.path("site"), "--base-url", "https://example.com/books/"])
        #expect(build.status == 0, "\(build.stderr)")
        let index = try String(contentsOfFile: folder.path("site/index.html"), encoding: .utf8)
        #expect(index.contains("No invoices yet."))
        #expect(!index.contains("2000"))
        #expect(!index.contains("Figures as of"))
        #expect(!index.contains("feed.xml"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("site/months")))
        #expect(!FileManager.default.fileExists(atPath: folder.path("site/feed.xml")))
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.path("site/report.json")))) as? [String: Any])
        let period = try #require(json["period"] as? [String: Any])
        #expect(period["months"] as? [String] == [])
        #expect(period["as_of"] == nil)

        // A month asked for is a real period, even with nothing in it.
        let month = try CLI.run(["build", "--store", store, "--output", folder.path("month"), "--month", "2025-03"])
        #expect(month.status == 0, "\(month.stderr)")
        let monthIndex = try String(contentsOfFile: folder.path("month/index.html"), encoding: .utf8)
        #expect(monthIndex.contains("Figures as of 2025-03-31"))
        #expect(FileManager.default.fileExists(atPath: folder.path("month/months/2025-03.html")))
    }

    @Test func aBadMonthIsAUsageError() throws {
        let result = try CLI.run(["build", "--store", "x.sqlite", "--month", "2025-13"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--month '2025-13' is not a month"))
    }
}
