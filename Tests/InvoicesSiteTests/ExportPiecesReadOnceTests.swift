import Foundation
@testable import InvoicesReport
@testable import InvoicesSite
import InvoicesTesting
import Testing

/// A reused export piece is read once (a review finding on issue 46, item 1): the rebuild reads it from the previous
/// file to put it into the new one, and the writer, knowing those bytes for the previous file's own at the same
/// place, does not read them again to compare the new file with the old.
struct ExportPiecesReadOnceTests {
    static let pieces = 40

    /// A file like `report.json`: `[`, pieces joined by `,`, `]`; piece `index` is a small object, `changed` holding
    /// other letters.
    static func layout(changed: Int? = nil, head: String = "[") -> ExportLayout {
        ExportLayout(head: Array(head.utf8), separator: Array(",".utf8), tail: Array("]\n".utf8), count: pieces) { index, bytes in
            let text = String(repeating: index == changed ? "y" : "x", count: 200 + index % 7)
            bytes.append(contentsOf: "{\"piece\":\(index),\"text\":\"\(text)\"}".utf8)
        }
    }

    static func keys(changed: Int? = nil) -> [UInt64] { (0..<pieces).map { $0 == changed ? 1_000 : UInt64($0 + 1) } }

    struct Written {
        var file: SiteManifest.File
        var index: ExportPieces.FileIndex
        var reused: Int
        /// The bytes the writer read back from the previous file to compare or copy.
        var compared: Int
        /// The bytes the pieces' source read from the previous file.
        var piecesRead: Int
    }

    /// Writes the file into a new site at `output`, taking pieces from the site there when `previous` describes
    /// it, and swaps it in.
    static func build(_ output: String, _ layout: ExportLayout, keys: [UInt64], previous: Written?) throws -> Written {
        let staging = try SiteWriter(output: output).begin()
        let manifest = previous.map { SiteManifest(units: ["exports": .init(inputs: 0, files: [$0.file])]) }
        let source = ExportPieces.Source("report.json", index: previous?.index, manifest: manifest, root: output)
        let result = try staging.write("report.json", layout: layout, keys: keys, previous: source)
        let written = Written(
            file: result.file, index: result.index, reused: result.reused, compared: staging.previousBytesCompared,
            piecesRead: source?.bytesRead ?? 0)
        _ = try staging.commit()
        return written
    }

    @Test(.temporaryFolder) func aRebuildReadsEachReusedByteOnce() throws {
        let folder = try TemporaryFolder.current
        let site = folder.path("site")
        let first = try Self.build(site, Self.layout(), keys: Self.keys(), previous: nil)
        let before = try Data(contentsOf: URL(fileURLWithPath: site + "/report.json"))
        #expect(first.reused == 0 && first.file.size == before.count && before.count > Self.pieces * 200)
        let inode = try #require(FileManager.default.attributesOfItem(atPath: site + "/report.json")[.systemFileNumber] as? Int)
        // Nothing changed: every piece's key where the previous file has it, the same head, separators and tail. The
        // previous file is linked (the same inode): no piece read, only those 42 bytes, to compare them.
        let second = try Self.build(site, Self.layout(), keys: Self.keys(), previous: first)
        #expect(second.reused == Self.pieces)
        #expect(second.piecesRead == 1 + (Self.pieces - 1) + 2, "the head, the separators and the tail, not the pieces")
        #expect(second.compared == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: site + "/report.json")[.systemFileNumber] as? Int == inode)
        #expect(try Data(contentsOf: URL(fileURLWithPath: site + "/report.json")) == before)
        #expect(second.file.hash == first.file.hash && second.index == first.index)

        // Another head, the same pieces: every piece taken and read once, the file made anew; equal to a full build.
        let third = try Self.build(site, Self.layout(head: "[ "), keys: Self.keys(), previous: second)
        let full = try Self.build(folder.path("full"), Self.layout(head: "[ "), keys: Self.keys(), previous: nil)
        #expect(third.reused == Self.pieces)
        #expect(third.piecesRead >= before.count - 3, "the pieces and their separators, once")
        #expect(third.compared <= 2, "\(third.compared) bytes read back")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: site + "/report.json")) == Data(contentsOf: URL(fileURLWithPath: folder.path("full/report.json"))))
        #expect(third.file.hash == full.file.hash && third.index == full.index)
    }

    @Test(.temporaryFolder) func aRebuildWithAPieceChangedReadsTheOthersOnceAndEqualsAFullBuild() throws {
        let folder = try TemporaryFolder.current
        let site = folder.path("site")
        let first = try Self.build(site, Self.layout(), keys: Self.keys(), previous: nil)
        let changed = Self.pieces / 2
        let second = try Self.build(site, Self.layout(changed: changed), keys: Self.keys(changed: changed), previous: first)
        let full = try Self.build(folder.path("full"), Self.layout(changed: changed), keys: Self.keys(changed: changed), previous: nil)
        #expect(second.reused == Self.pieces - 1)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: site + "/report.json")) == Data(contentsOf: URL(fileURLWithPath: folder.path("full/report.json"))))
        #expect(second.file.hash == full.file.hash && second.index == full.index)
        // The pieces before the change are taken, not compared: the writer reads back at most the made head and the
        // changed piece (it then differs), not the half of the file before it.
        #expect(second.compared <= 2 + 260, "\(second.compared) of \(second.file.size) bytes read back")
        #expect(second.piecesRead <= second.file.size)
    }
}
