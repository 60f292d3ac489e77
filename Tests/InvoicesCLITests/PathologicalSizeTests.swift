import Foundation
import InvoicesTesting
import Testing

/// Builds take time proportional to the data, also for shapes the sample generator never makes (issue 10).
///
/// Each test builds a store of size N and one of size 2N, three times each, and compares the medians of the
/// build's wall-clock time (the whole `invoices build` process). Linear work doubles the time (ratio 2, less
/// when the process's fixed start-up cost counts), n log n gives a little over 2, quadratic work 4. The
/// threshold is 3: between the two, with room for a noisy shared 2-core machine, where single runs vary by
/// ±30%. Absolute times are not asserted.
@Suite(.serialized)
struct PathologicalSizeTests {
    static let threshold = 3.0

    /// Seconds of the median of three builds of `store`.
    func medianBuildTime(_ store: String, in folder: TemporaryFolder) throws -> Double {
        var times: [Double] = []
        for _ in 0..<3 {
            let clock = ContinuousClock()
            let start = clock.now
            // --full: every run renders the whole site (an incremental rebuild of an unchanged store would be timed).
            let result = try CLI.run(["build", "--store", store, "--output", folder.path("site"), "--quiet", "--full"])
            let elapsed = clock.now - start
            #expect(result.status == 0, "\(result.stderr)")
            times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        return times.sorted()[1]
    }

    /// Builds stores of size `n` and `2n` from `sql(size)` and checks the doubling ratio of their build times.
    func expectLinear(_ name: String, n: Int, sql: (Int) -> String, check: (TemporaryFolder, Int) throws -> Void) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var medians: [Double] = []
        for size in [n, 2 * n] {
            let store = folder.path("\(size).sqlite")
            try StoreFixture.make(at: store, sql: sql(size))
            medians.append(try medianBuildTime(store, in: folder))
            try check(folder, size)
        }
        let ratio = medians[1] / medians[0]
        print("\(name): N=\(n) \(String(format: "%.3f", medians[0])) s, 2N \(String(format: "%.3f", medians[1])) s, ratio \(String(format: "%.2f", ratio))")
        #expect(ratio < Self.threshold, "\(name): doubling the data multiplied the build time by \(ratio)")
    }

    /// `count` rows numbered 1...count, for INSERT ... SELECT.
    static func numbers(_ count: Int) -> String {
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))"
    }

    @Test func aNoteOfOneMegabyte() throws {
        // Notes of 512 KB and 1 MB of text that is all markup characters: every byte is escaped.
        try expectLinear("note", n: 512 * 1024) { size in
            """
            INSERT INTO client (id, number, name) VALUES (1, 'C-1', 'Acme');
            INSERT INTO invoice (identifier, clientId, amount, currency, notes, issuedOn, dueOn)
              VALUES ('INV-1', 1, 100, 'EUR', replace(hex(zeroblob(\(size / 4))), '0', '<*'), '2025-01-10', '2025-02-10');
            """
        } check: { folder, size in
            let pages = try FileManager.default.contentsOfDirectory(atPath: folder.path("site/clients"))
            let page = try String(contentsOfFile: folder.path("site/clients/\(pages[0])"), encoding: .utf8)
            // The note sits in an invoice row, rendered after cmark with HTML escaping.
            #expect(page.contains(String(repeating: "&lt;*", count: 1000)))
            #expect(page.utf8.count > size * 5 / 2)
        }
    }

    @Test func aClientWithOneHundredThousandInvoices() throws {
        try expectLinear("invoices of one client", n: 50_000) { size in
            """
            INSERT INTO client (id, number, name) VALUES (1, 'C-1', 'Acme');
            \(Self.numbers(size))
            INSERT INTO invoice (identifier, clientId, amount, currency, notes, issuedOn, dueOn)
              SELECT 'INV-' || i, 1, 100, 'EUR', '', date('2024-01-01', '+' || (i % 365) || ' days'),
                date('2024-01-01', '+' || (i % 365 + 30) || ' days') FROM n;
            """
        } check: { folder, size in
            let totals = try String(contentsOfFile: folder.path("site/totals.csv"), encoding: .utf8)
            // `invoices` is column 9 of totals.csv (docs/exports.md); the client's name has no comma.
            let counts = totals.split(separator: "\r\n").dropFirst().compactMap { line -> Int? in
                let cells = line.split(separator: ",", omittingEmptySubsequences: false)
                return cells.count > 8 ? Int(cells[8]) : nil
            }
            #expect(counts.reduce(0, +) == size)
        }
    }

    @Test func tenThousandClientsInOneMonth() throws {
        try expectLinear("clients in one month", n: 5_000) { size in
            """
            \(Self.numbers(size))
            INSERT INTO client (id, number, name) SELECT i, printf('C-%06d', i), 'Client ' || i FROM n;
            \(Self.numbers(size))
            INSERT INTO invoice (identifier, clientId, amount, currency, issuedOn, dueOn)
              SELECT 'INV-' || i, i, 100 + i, 'EUR', '2025-01-15', '2025-02-15' FROM n;
            """
        } check: { folder, size in
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
}
