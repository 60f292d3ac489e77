import Foundation
import InvoicesCore
import InvoicesReport
@testable import InvoicesSite
import InvoicesStore
import InvoicesTesting
import Testing

struct OutputTests {
    func files(baseURL: String?) throws -> [SiteBuilder.File] {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try StoreFixture.make(at: folder.path("s.sqlite"), sql: StoreFixture.small)
        let books = try BooksStore(path: folder.path("s.sqlite")).books
        let site = SiteBuilder(
            books: books, report: try Report(books: books), templates: try TemplateSet(), options: SiteOptions(baseURL: baseURL))
        return site.files()
    }

    @Test func aBaseURLAddsAFeedASitemapAndCanonicalLinksThatAreTheSameEachTime() throws {
        let first = try files(baseURL: "https://example.com/r/")
        let second = try files(baseURL: "https://example.com/r/")
        #expect(first.map(\.path) == second.map(\.path))
        #expect(first.map(\.data) == second.map(\.data))
        let feed = String(decoding: try #require(first.first { $0.path == "feed.xml" }).data, as: UTF8.self)
        // Updated dates come from the data: the latest issue or payment day in each month.
        #expect(feed.contains("<id>https://example.com/r/months/2025-02.html</id>\n<link rel=\"alternate\" type=\"text/html\" href=\"https://example.com/r/months/2025-02.html\"/>\n<updated>2025-02-25T00:00:00Z</updated>"))
        #expect(feed.contains("<updated>2025-01-31T00:00:00Z</updated>"))
        let sitemap = String(decoding: try #require(first.first { $0.path == "sitemap.xml" }).data, as: UTF8.self)
        #expect(sitemap.contains("<loc>https://example.com/r/clients/c-001-acme-corp.html</loc>"))
        let month = String(decoding: try #require(first.first { $0.path == "months/2025-01.html" }).data, as: UTF8.self)
        #expect(month.contains("<link rel=\"canonical\" href=\"https://example.com/r/months/2025-01.html\">"))
        let notFound = String(decoding: try #require(first.first { $0.path == "404.html" }).data, as: UTF8.self)
        #expect(notFound.contains("href=\"https://example.com/r/style.css\""))
        #expect(notFound.contains("<a href=\"https://example.com/r/index.html\">overview</a>"))
    }

    @Test func withoutABaseURLThe404PageHasNoRelativeLinks() throws {
        let files = try files(baseURL: nil)
        #expect(!files.contains { $0.path == "feed.xml" || $0.path == "sitemap.xml" })
        let notFound = String(decoding: try #require(files.first { $0.path == "404.html" }).data, as: UTF8.self)
        #expect(notFound.contains("<style>"))
        #expect(notFound.matches(of: /(?:href|src)="/).isEmpty, "\(notFound)")
    }

    @Test func baseURLsAreCheckedAndNormalized() {
        #expect(SiteOptions.normalizedBaseURL("https://example.com/reports") == "https://example.com/reports/")
        #expect(SiteOptions.normalizedBaseURL("http://127.0.0.1:8080/") == "http://127.0.0.1:8080/")
        for bad in ["", "example.com", "/reports/", "javascript:alert(1)", "ftp://x/", "https://x/?q=1", "https://x/a b", "https://x/\"<"] {
            #expect(SiteOptions.normalizedBaseURL(bad) == nil, "\(bad)")
        }
    }

    @Test(.temporaryFolder) func unchangedFilesKeepTheirBytesAndModificationTimes() throws {
        let folder = try TemporaryFolder.current
        let output = folder.path("site")
        let files = try files(baseURL: nil)
        try SiteWriter(output: output).write(files)
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: folder.path("site/index.html"))
        var changedFiles = files
        let index = try #require(changedFiles.firstIndex { $0.path == "clients.html" })
        changedFiles[index].data.append(Data("\n".utf8))
        let summary = try SiteWriter(output: output).write(changedFiles)
        #expect(summary.changed == 1)
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.path("site/index.html"))
        #expect(attributes[.modificationDate] as? Date == old)
        #expect(FileManager.default.contents(atPath: folder.path("site/index.html")) == files.first { $0.path == "index.html" }?.data)
    }

    /// A file written in pieces (the exports) is compared with the previous site's file on the way: equal, it is
    /// the previous file hard-linked; different anywhere (start, middle, end, length), it has exactly the new bytes.
    @Test(.temporaryFolder) func aFileWrittenInPiecesIsLinkedWhenEqualAndExactWhenNot() throws {
        let folder = try TemporaryFolder.current
        let output = folder.path("site")
        let old = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        var cases: [String: [UInt8]] = [
            "same.bin": old, "start.bin": [1] + old.dropFirst(), "middle.bin": old, "longer.bin": old + [9, 9],
            "shorter.bin": Array(old.dropLast(5)), "empty.bin": [], "new.bin": old,
        ]
        cases["middle.bin"]![150_001] ^= 0xff
        let first = try SiteWriter(output: output).begin()
        for name in cases.keys where name != "new.bin" { try first.write(name, Data(old)) }
        _ = try first.commit()
        let inodeBefore = try FileManager.default.attributesOfItem(atPath: output + "/same.bin")[.systemFileNumber] as? Int
        let staging = try SiteWriter(output: output).begin()
        for (name, bytes) in cases.sorted(by: { $0.key < $1.key }) {
            // Uneven pieces, so piece boundaries fall inside the previous file's blocks.
            let file = try staging.write(name) { emit in
                var start = 0
                var size = 1
                while start < bytes.count {
                    let end = min(bytes.count, start + size)
                    bytes[start..<end].withUnsafeBytes(emit)
                    start = end
                    size = size * 3 + 1
                }
            }
            #expect(file.size == bytes.count, "\(name)")
            #expect(file.hash == bytes.withUnsafeBytes { Fingerprint.of($0) }, "\(name)")
        }
        let summary = try staging.commit()
        #expect(summary.changed == cases.count - 1, "only same.bin is unchanged")
        for (name, bytes) in cases {
            #expect(FileManager.default.contents(atPath: output + "/" + name) == Data(bytes), "\(name)")
        }
        let inodeAfter = try FileManager.default.attributesOfItem(atPath: output + "/same.bin")[.systemFileNumber] as? Int
        #expect(inodeBefore != nil && inodeAfter == inodeBefore)
    }

    @Test(.temporaryFolder) func aTemplateErrorStopsTheBuildWithStatus65AndWritesNothing() throws {
        let folder = try TemporaryFolder.current
        try StoreFixture.make(at: folder.path("s.sqlite"), sql: StoreFixture.small)
        try FileManager.default.createDirectory(atPath: folder.path("templates"), withIntermediateDirectories: true)
        try Data("# {{nmae}}\n".utf8).write(to: folder.url.appendingPathComponent("templates/client.md"))
        let result = try CLI.run([
            "build", "--store", folder.path("s.sqlite"), "--templates", folder.path("templates"), "--output", folder.path("out"),
        ])
        #expect(result.status == 65)
        #expect(result.stderr.contains(folder.path("templates/client.md") + ":1:5: unknown variable 'nmae'"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out")))
    }
}
