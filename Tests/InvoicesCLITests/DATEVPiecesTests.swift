import Foundation
import InvoicesTesting
import Testing

/// Issue 46 item 1: the DATEV files come in pieces, as the other exports do (a run of the journals' transactions, cut
/// at the fiscal years' ends, after a header made every build): a rebuild takes every piece whose inputs did not
/// change from the previous file, and writes the bytes a full build writes.
@Suite(.serialized)
struct DATEVPiecesTests {
    /// The DATEV files' piece keys in the exports' index (`.site.pieces` beside `site`), by file.
    static func datevKeys(_ folder: TemporaryFolder) throws -> [String: [String]] {
        var keys: [String: [String]] = [:]
        var path = ""
        for line in try String(contentsOfFile: folder.path(".site.pieces"), encoding: .utf8).split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            if fields.first == "F" {
                path = fields[2...].joined(separator: " ")
            } else if path.hasPrefix("datev/") {
                keys[path, default: []].append(String(fields[0]))
            }
        }
        return keys
    }

    /// Builds incrementally, then everything into `full` (with a copy of the trail the rebuild compared with, so their
    /// changes pages agree), and expects every file of `site` with the same bytes there, and no other.
    /// - Returns: The rebuild's export pieces (reused, made), from its render line.
    static func rebuildAsFull(_ folder: TemporaryFolder) throws -> (reused: Int, made: Int) {
        try? FileManager.default.removeItem(atPath: folder.path(".full.trail"))
        try FileManager.default.copyItem(atPath: folder.path(".site.trail"), toPath: folder.path(".full.trail"))
        let result = try CLI.run(["build", "--rates", "rates.csv", "--base-currency", "EUR"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        let counts = try #require(result.stderr.firstMatch(of: /export pieces: (\d+) reused, (\d+) made/), "\(result.stderr)")
        let full = try CLI.run(["build", "--quiet", "--full", "--output", "full", "--rates", "rates.csv", "--base-currency", "EUR"], in: folder.url)
        #expect(full.status == 0, "\(full.stderr)")
        let manager = FileManager.default
        let site = try #require(manager.subpaths(atPath: folder.path("site"))).sorted()
        let other = try #require(manager.subpaths(atPath: folder.path("full"))).sorted()
        #expect(site == other)
        var compared = 0
        for path in site {
            var folderFlag: ObjCBool = false
            guard manager.fileExists(atPath: folder.path("site/" + path), isDirectory: &folderFlag), !folderFlag.boolValue else { continue }
            let ours = try Data(contentsOf: URL(fileURLWithPath: folder.path("site/" + path)))
            let theirs = try Data(contentsOf: URL(fileURLWithPath: folder.path("full/" + path)))
            #expect(ours == theirs, "\(path)")
            compared += 1
        }
        #expect(compared > 100)
        try? manager.removeItem(atPath: folder.path("full"))
        return (Int(counts.1)!, Int(counts.2)!)
    }

    /// After the newest invoice changed, only the piece of its run is made in its year's file (two when its run
    /// crosses a fiscal year's end), every other DATEV piece is taken from the previous files, and the files equal a
    /// full build's. Before the DATEV files came in pieces the index held none of theirs.
    @Test(.temporaryFolder) func aRebuildTakesTheUnchangedDATEVPieces() throws {
        let folder = try TemporaryFolder.current
        try DATEVExportTests.store(folder, latin: true)
        #expect(try DATEVExportTests.build(folder).status == 0)
        let before = try Self.datevKeys(folder)
        #expect(before.count >= 2, "\(before.keys.sorted())")
        let pieces = before.values.map(\.count).reduce(0, +)
        #expect(pieces >= 4, "\(before)")

        let newest = try StoreFixture.query(folder.path("books.sqlite"), "SELECT id FROM invoice ORDER BY issuedOn DESC, id DESC LIMIT 1")[0]
        let id = try #require(newest["id"])
        try StoreFixture.execute(folder.path("books.sqlite"), "UPDATE invoice SET amount = amount + 1234, net = net + 1234 WHERE id = \(id)")
        let counts = try Self.rebuildAsFull(folder)
        let after = try Self.datevKeys(folder)
        #expect(after.keys.sorted() == before.keys.sorted())
        let changed = after.map { path, keys in Set(keys).subtracting(before[path] ?? []).count }.reduce(0, +)
        #expect((1...2).contains(changed), "\(changed)")
        // The other exports: the client's piece of report.json, totals.csv and aging.csv, taxes.csv, a run in each
        // journal (IncrementalBuildTests); then the DATEV pieces of the changed run.
        #expect(counts.made == 6 + changed, "\(counts)")
        #expect(counts.reused >= pieces - changed, "\(counts)")
    }

    /// A damaged index, or a DATEV file edited since the previous build, makes the pieces again: the files still equal
    /// a full build's.
    @Test(.temporaryFolder) func aDamagedIndexOrAnEditedFileMakesEveryPiece() throws {
        let folder = try TemporaryFolder.current
        try DATEVExportTests.store(folder, latin: true)
        #expect(try DATEVExportTests.build(folder).status == 0)
        let pieces = try Self.datevKeys(folder).values.map(\.count).reduce(0, +)
        #expect(pieces >= 4)
        let sql = "UPDATE invoice SET amount = amount + 1, net = net + 1 WHERE id = (SELECT MIN(id) FROM invoice)"

        try Data("invoices-export-pieces 1\nF 0000000000000001 report.json\n00000000000000zz 1 2\n".utf8)
            .write(to: folder.url.appendingPathComponent(".site.pieces"))
        try StoreFixture.execute(folder.path("books.sqlite"), sql)
        let damaged = try Self.rebuildAsFull(folder)
        #expect(damaged.reused == 0, "\(damaged)")
        #expect(damaged.made >= pieces, "\(damaged)")

        // A DATEV file edited in place (same size, a digit changed): none of its pieces is taken.
        let keys = try Self.datevKeys(folder)
        let (path, filePieces) = try #require(keys.max { $0.value.count < $1.value.count })
        let url = folder.url.appendingPathComponent("site/" + path)
        var bytes = try Data(contentsOf: url)
        let digit = try #require(bytes.lastIndex(of: UInt8(ascii: "7")))
        bytes[digit] = UInt8(ascii: "8")
        try bytes.write(to: url)
        try StoreFixture.execute(folder.path("books.sqlite"), sql)
        let edited = try Self.rebuildAsFull(folder)
        #expect(edited.made >= filePieces.count, "\(edited)")
    }
}
