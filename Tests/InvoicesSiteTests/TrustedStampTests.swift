import Foundation
import InvoicesReport
@testable import InvoicesSite
import InvoicesStore
import InvoicesTesting
import Testing

/// A reused file whose size, modification time, inode and device are still what the manifest recorded is linked
/// without reading its bytes, as git trusts its index; anything else is read, as before (issue 46, item 3).
struct TrustedStampTests {
    /// A small site built into `site` in the test's `.temporaryFolder`, with its manifest beside it.
    struct Built {
        let folder: TemporaryFolder
        var site: SiteBuilder
        var writer: SiteWriter { SiteWriter(output: folder.path("site")) }

        init() async throws {
            folder = try TemporaryFolder.current
            try StoreFixture.make(at: folder.path("s.sqlite"), sql: StoreFixture.small)
            site = try Self.site(folder.path("s.sqlite"))
            try await build(previous: nil)
        }

        static func site(_ store: String) throws -> SiteBuilder {
            let books = try BooksStore(path: store).books
            return SiteBuilder(books: books, report: try Report(books: books), templates: try TemplateSet(), options: SiteOptions())
        }

        /// Builds the site again, reusing what `previous` allows; writes the new manifest a clock tick after the
        /// site (as a real build does, after the swap), so that no stamp is as new as it.
        /// - Returns: The summary and how many reused files were read.
        @discardableResult
        func build(previous: SiteManifest?) async throws -> (summary: BuildSummary, read: Int) {
            let (summary, read, _) = try await rebuild(previous: previous)
            return (summary, read)
        }

        /// As ``build(previous:)``, and how many reused files were opened (not linked by their stamp alone).
        func rebuild(previous: SiteManifest?) async throws -> (summary: BuildSummary, read: Int, opened: Int) {
            let staging = try writer.begin()
            let manifest = try await site.write(to: staging, previous: previous)
            let summary = try staging.commit()
            try await Task.sleep(for: .milliseconds(30))
            try manifest.write(to: writer.manifestURL)
            return (summary, staging.reusedFilesRead, staging.reusedFilesOpened)
        }

        var manifest: SiteManifest { get throws { try #require(SiteManifest.read(writer.manifestURL)) } }
    }

    @Test(.temporaryFolder) func aRebuildWithNothingChangedLinksEveryFileWithoutReadingIt() async throws {
        let built = try await Built()
        let manifest = try built.manifest
        let files = manifest.units.values.flatMap(\.files)
        #expect(files.count > 5)
        #expect(files.allSatisfy { $0.stamp != nil }, "every file the build wrote has a stamp")
        let before = try SiteFiles.read(built.writer.output.path)
        let (summary, read) = try await built.build(previous: manifest)
        #expect(read == 0)
        #expect(summary.reused == files.count && summary.changed == 0)
        #expect(try SiteFiles.read(built.writer.output.path) == before)
        // The stamps carry over: the build after that reads nothing either.
        #expect(try await built.build(previous: built.manifest).read == 0)
    }

    /// A trusted file is hard-linked from its folder, opened once for its unit, without the file being opened
    /// (issue 46: 4,000 reused files cost a dozen system calls each in a one-invoice rebuild at S).
    @Test(.temporaryFolder) func aRebuildWithNothingChangedOpensNoReusedFile() async throws {
        let built = try await Built()
        let manifest = try built.manifest
        let files = manifest.units.values.flatMap(\.files)
        let before = try SiteFiles.read(built.writer.output.path)
        let (summary, read, opened) = try await built.rebuild(previous: manifest)
        #expect(opened == 0 && read == 0)
        #expect(summary.reused == files.count && summary.changed == 0)
        #expect(try SiteFiles.read(built.writer.output.path) == before)
        // Every file is the previous one, linked: the same inode.
        for file in files {
            var info = stat()
            #expect(lstat(built.writer.output.path + "/" + file.path, &info) == 0)
            #expect(UInt64(info.st_ino) == file.stamp?.inode, "\(file.path)")
        }
    }

    @Test(.temporaryFolder) func aFileReplacedBySameSizeBytesWithTheRecordedTimeIsReadAndRewritten() async throws {
        let built = try await Built()
        let manifest = try built.manifest
        let page = built.site.paths.client(0)
        let recorded = try #require(manifest.units.values.flatMap(\.files).first { $0.path == page })
        let stamp = try #require(recorded.stamp)
        let path = built.writer.output.path + "/" + page
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        // A copy with one byte changed renamed over it (another inode), its time set back to the recorded one.
        var changed = original
        changed[changed.count / 2] = changed[changed.count / 2] == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
        try changed.write(to: URL(fileURLWithPath: path + ".copy"))
        #expect(rename(path + ".copy", path) == 0)
        let seconds = stamp.modified / 1_000_000_000
        var times = [timespec(tv_sec: Int(seconds), tv_nsec: Int(stamp.modified - seconds * 1_000_000_000))]
        times.append(times[0])
        #expect(utimensat(AT_FDCWD, path, times, AT_SYMLINK_NOFOLLOW) == 0)
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(SiteManifest.Stamp.nanoseconds(info.st_mtim) == stamp.modified && Int(info.st_size) == recorded.size)
        #expect(UInt64(info.st_ino) != stamp.inode)

        let (summary, read) = try await built.build(previous: manifest)
        #expect(read == 1)
        #expect(summary.changed == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
    }

    @Test(.temporaryFolder) func aManifestWithoutStampsStillWorksByReadingTheBytes() async throws {
        let built = try await Built()
        // A version-2 manifest, as a build before stamps wrote it.
        let text = try built.manifest.text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("T ") }
            .map { $0 == Substring(SiteManifest.header) ? Substring(SiteManifest.headerWithoutStamps) : $0 }
            .joined(separator: "\n")
        try Data(text.utf8).write(to: built.writer.manifestURL)
        let old = try built.manifest
        let files = old.units.values.flatMap(\.files)
        #expect(files.allSatisfy { $0.stamp == nil })
        let (summary, read) = try await built.build(previous: old)
        #expect(read == files.count)
        #expect(summary.reused == files.count && summary.changed == 0)
        // The files were last modified before that build began: their stamps vouch for the bytes it read.
        #expect(try built.manifest.units.values.flatMap(\.files).allSatisfy { $0.stamp != nil })
        #expect(try await built.build(previous: built.manifest).read == 0)
    }

    /// Git's racy case: a stamp as new as the manifest may belong to a file changed again within the same clock tick.
    @Test(.temporaryFolder) func aStampAsNewAsTheManifestIsNotTrusted() async throws {
        let built = try await Built()
        var manifest = try built.manifest
        let files = manifest.units.values.flatMap(\.files)
        let newest = try #require(files.compactMap(\.stamp?.modified).max())
        manifest.written = newest
        let racy = files.count { $0.stamp!.modified >= newest }
        #expect(try await built.build(previous: manifest).read == racy)
        manifest.written = nil
        #expect(try await built.build(previous: manifest).read == files.count)
    }

    @Test(.temporaryFolder) func anIncrementalBuildAfterAChangedInvoiceEqualsAFullBuild() async throws {
        var built = try await Built()
        let manifest = try built.manifest
        try StoreFixture.execute(built.folder.path("s.sqlite"), "UPDATE invoice SET amount = amount + 1234 WHERE id = 3")
        built.site = try Built.site(built.folder.path("s.sqlite"))
        let (summary, read) = try await built.build(previous: manifest)
        #expect(summary.changed > 0 && summary.reused > 0, "\(summary)")
        #expect(read == 0)
        let full = SiteWriter(output: built.folder.path("full"))
        let staging = try full.begin()
        try await built.site.write(to: staging)
        _ = try staging.commit()
        #expect(try SiteFiles.read(built.writer.output.path) == SiteFiles.read(full.output.path))
    }

    @Test func theStampsReadBackAsWritten() {
        let stamp = SiteManifest.Stamp(modified: -5, inode: .max, device: 7)
        let manifest = SiteManifest(units: [
            "u": .init(inputs: 1, files: [.init(path: "a b.html", size: 3, hash: 9, stamp: stamp), .init(path: "c.html", size: 0, hash: 1)])
        ])
        #expect(SiteManifest(text: manifest.text) == manifest)
        // A stamp line needs a file before it, once, and a version-3 manifest.
        #expect(SiteManifest(text: "invoices-site-manifest 3\nU 01 u\nT 1 2 3\n") == nil)
        #expect(SiteManifest(text: "invoices-site-manifest 3\nU 01 u\nF 1 01 a\nT 1 2 3\nT 1 2 3\n") == nil)
        #expect(SiteManifest(text: "invoices-site-manifest 2\nU 01 u\nF 1 01 a\nT 1 2 3\n") == nil)
    }
}
