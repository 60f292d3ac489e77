import Foundation
import InvoicesTesting
import Testing

/// Shapes the sample generator never makes build, with their pages right (issue 10): a note of 1 MB of markup, one
/// client with 100,000 invoices, 10,000 clients in one month. Each shape's store comes from its SQL in
/// `scripts/shapes/`, built once at that size.
///
/// That the build time grows linearly with these shapes is measured, not asserted here: `make bench`
/// (scripts/bench.py) builds each shape at half the size and at the size and reports the ratio of the two times
/// (linear work gives 2, quadratic 4). A wall-clock ratio is a benchmark's figure, not a test's (docs/performance.md).
struct PathologicalSizeTests {
    static let shapes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/shapes")

    /// Makes the store of `shape` (`scripts/shapes/<shape>.sql` with `{size}` replaced) and builds it in full into
    /// `site`; returns the folder.
    func build(_ shape: String, size: Int) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let sql = try String(contentsOf: Self.shapes.appendingPathComponent("\(shape).sql"), encoding: .utf8)
        let store = folder.path("\(shape).sqlite")
        try StoreFixture.make(at: store, sql: sql.replacingOccurrences(of: "{size}", with: "\(size)"))
        let result = try CLI.run(["build", "--store", store, "--output", folder.path("site"), "--quiet", "--full"])
        #expect(result.status == 0, "\(result.stderr)")
        return folder
    }

    @Test func aNoteOfOneMegabyte() throws {
        let size = 1024 * 1024
        let folder = try build("note", size: size)
        defer { folder.remove() }
        let pages = try FileManager.default.contentsOfDirectory(atPath: folder.path("site/clients"))
        let page = try String(contentsOfFile: folder.path("site/clients/\(pages[0])"), encoding: .utf8)
        // The note sits in an invoice row, rendered after cmark with HTML escaping.
        #expect(page.contains(String(repeating: "&lt;*", count: 1000)))
        #expect(page.utf8.count > size * 5 / 2)
    }

    @Test func aClientWithOneHundredThousandInvoices() throws {
        let size = 100_000
        let folder = try build("one-client", size: size)
        defer { folder.remove() }
        let totals = try String(contentsOfFile: folder.path("site/totals.csv"), encoding: .utf8)
        // `invoices` is column 9 of totals.csv (docs/exports.md); the client's name has no comma.
        let counts = totals.split(separator: "\r\n").dropFirst().compactMap { line -> Int? in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            return cells.count > 8 ? Int(cells[8]) : nil
        }
        #expect(counts.reduce(0, +) == size)
    }

    @Test func tenThousandClientsInOneMonth() throws {
        let size = 10_000
        let folder = try build("clients-in-one-month", size: size)
        defer { folder.remove() }
        let clients = try FileManager.default.contentsOfDirectory(atPath: folder.path("site/clients")).filter { $0.hasSuffix(".html") }
        let months = try FileManager.default.contentsOfDirectory(atPath: folder.path("site/months"))
        #expect(clients.count == size)
        // More clients than a page: the month's client list and the client list are on pages of their own.
        #expect(months.sorted() == ["2025-01", "2025-01.html"])
        let pages = try FileManager.default.contentsOfDirectory(atPath: folder.path("site/months/2025-01/EUR")).count
        #expect((size / 2000...size / 200).contains(pages), "\(pages) pages of the month's list")
        #expect(FileManager.default.fileExists(atPath: folder.path("site/clients/pages/1.html")))
    }
}
