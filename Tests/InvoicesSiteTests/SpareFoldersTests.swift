import Foundation
@testable import InvoicesSite
import InvoicesTesting
import Testing

/// The retired site emptied by the next build's removal and taken as its staging folder
/// (``SiteWriter/removeRetiredSites()``, ``SiteWriter/begin(reusing:)``), through the library, the removal waited for
/// so the folders are always taken (through the binary it is the load that it runs beside: `RetiredSiteTests`).
@Suite struct SpareFoldersTests {
    /// Every folder under `root` (relative paths) with its permission bits, and every file with its bytes.
    func tree(_ root: String) -> [String: String] {
        var found: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            var info = stat()
            guard lstat(root + "/" + path, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                found[path] = "folder " + String(info.st_mode & 0o7777, radix: 8)
            } else {
                found[path] = (try? String(contentsOfFile: root + "/" + path, encoding: .utf8)) ?? "?"
            }
        }
        return found
    }

    func write(_ files: [String: String], into staging: SiteStaging) throws {
        for (path, text) in files.sorted(by: { $0.key < $1.key }) { try staging.write(path, Data(text.utf8)) }
    }

    func inode(_ path: String) -> UInt {
        var info = stat()
        return lstat(path, &info) == 0 ? UInt(info.st_ino) : 0
    }

    /// Two sites of `files` written by `writer`, so that the first is retired beside the second.
    func writeTwice(_ files: [String: String], with writer: SiteWriter) throws {
        for _ in 0..<2 {
            let staging = try writer.begin()
            try write(files, into: staging)
            _ = try staging.commit(retiring: true)
        }
    }

    /// A site of `files` written by `writer` into the retired site's folders, the removal waited for so they are taken.
    func writeIntoRetired(_ files: [String: String], with writer: SiteWriter) throws {
        let removal = writer.removeRetiredSites()
        removal.wait()
        let staging = try writer.begin(reusing: removal)
        try write(files, into: staging)
        _ = try staging.commit(retiring: true)
    }

    /// A site of `files` written into a new folder at `output`.
    func writeAfresh(_ files: [String: String], to output: String) throws {
        let staging = try SiteWriter(output: output).begin()
        try write(files, into: staging)
        _ = try staging.commit()
    }

    @Test(.temporaryFolder) func aSiteWrittenIntoTheRetiredSitesFoldersEqualsOneWrittenAfresh() throws {
        let folder = try TemporaryFolder.current
        let output = folder.path("site")
        let writer = SiteWriter(output: output)
        let first = ["a/b/one.html": "1", "a/c/two.html": "2", "gone/deep/three.html": "3", "becomes-file/x.html": "4", "index.html": "i"]
        try writeTwice(first, with: writer)
        let retired = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path("")).first { $0.hasPrefix(".site.retired-") })
        #expect(chmod(folder.path(retired + "/a"), 0o700) == 0)
        let takenInode = inode(folder.path(retired + "/a/b"))
        // What the next site holds: some folders kept, one gone, a folder that became a file, a new folder.
        let second = ["a/b/one.html": "1", "a/new/five.html": "5", "becomes-file": "now a file", "index.html": "j"]
        try writeIntoRetired(second, with: writer)
        #expect(inode(output + "/a/b") == takenInode, "the retired site's folders were taken")
        let fresh = folder.path("fresh")
        try writeAfresh(second, to: fresh)
        #expect(tree(output) == tree(fresh))
        var info = stat()
        var freshInfo = stat()
        #expect(lstat(output, &info) == 0 && lstat(fresh, &freshInfo) == 0 && info.st_mode == freshInfo.st_mode)
    }

    @Test(.temporaryFolder) func linksInTheRetiredSiteAreUnlinkedAndAFailedSiteLeavesThePreviousOne() throws {
        let folder = try TemporaryFolder.current
        let output = folder.path("site")
        let writer = SiteWriter(output: output)
        let files = ["a/b/one.html": "1", "a/c/two.html": "2", "index.html": "i"]
        try writeTwice(files, with: writer)
        let retired = folder.path(try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path("")).first { $0.hasPrefix(".site.retired-") }))
        let victim = folder.path("victim")
        try FileManager.default.createDirectory(atPath: victim + "/inner", withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: victim + "/inner/file"))
        try FileManager.default.createSymbolicLink(atPath: retired + "/a/b/link", withDestinationPath: victim)
        try FileManager.default.removeItem(atPath: retired + "/a/c")
        try FileManager.default.createSymbolicLink(atPath: retired + "/a/c", withDestinationPath: victim + "/inner")
        let before = tree(output)
        let removal = writer.removeRetiredSites()
        removal.wait()
        let staging = try writer.begin(reusing: removal)
        // Every file changed (written, not linked), then the site given up.
        try write(files.mapValues { $0 + " changed" }, into: staging)
        staging.discard()
        #expect(tree(output) == before, "the previous site is kept")
        #expect(tree(victim).keys.sorted() == ["inner", "inner/file"])
        #expect(try String(contentsOfFile: victim + "/inner/file", encoding: .utf8) == "keep")
        // The staging folder (the emptied retired site) went with the failed site.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("")).sorted() == ["site", "victim"])
    }

    /// In a folder with the set-group-ID bit (a shared web root), `mkdir` gives each new folder that bit: the taken
    /// folders keep it, as a site written afresh there has it.
    @Test(.temporaryFolder) func takenFoldersInASetGroupIDFolderKeepTheBitAFreshSiteHas() throws {
        let folder = try TemporaryFolder.current
        let shared = folder.path("shared")
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        #expect(chmod(shared, 0o2775) == 0)
        let output = shared + "/site"
        let writer = SiteWriter(output: output)
        let files = ["a/b/one.html": "1", "a/c/two.html": "2", "index.html": "i"]
        try writeTwice(files, with: writer)
        let retired = try #require(try FileManager.default.contentsOfDirectory(atPath: shared).first { $0.hasPrefix(".site.retired-") })
        let takenInode = inode(shared + "/" + retired + "/a/b")
        try writeIntoRetired(files, with: writer)
        #expect(inode(output + "/a/b") == takenInode, "the retired site's folders were taken")
        let fresh = shared + "/fresh"
        try writeAfresh(files, to: fresh)
        #expect(tree(fresh)["a/b"] == "folder 2755", "mkdir under a set-group-ID folder gives the bit")
        #expect(tree(output) == tree(fresh))
    }
}
