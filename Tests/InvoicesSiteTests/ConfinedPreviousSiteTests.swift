import Foundation
@testable import InvoicesSite
import InvoicesTesting
import Testing

/// A build never reads, compares or links anything outside the output folder, whatever the manifest says or the
/// previous output holds (issue 28).
struct ConfinedPreviousSiteTests {
    /// In the test's `.temporaryFolder`: a site with one file, a secret outside it, and a symbolic link planted in the site pointing at the secret's folder.
    struct Planted {
        let folder: TemporaryFolder
        let output: String
        let secret = Data("the accountant's private notes\n".utf8)
        var secretPath: String { folder.path("outside/secret.txt") }
        var entry: SiteManifest.File {
            var fingerprint = Fingerprint.Bytes()
            secret.withUnsafeBytes { fingerprint.add($0) }
            return SiteManifest.File(path: "evil/secret.txt", size: secret.count, hash: fingerprint.value)
        }

        init() throws {
            folder = try TemporaryFolder.current
            output = folder.path("site")
            try FileManager.default.createDirectory(atPath: folder.path("outside"), withIntermediateDirectories: true)
            try secret.write(to: URL(fileURLWithPath: folder.path("outside/secret.txt")))
            let first = try SiteWriter(output: output).begin()
            try first.write("index.html", Data("<p>site</p>".utf8))
            _ = try first.commit()
            try FileManager.default.createSymbolicLink(atPath: output + "/evil", withDestinationPath: folder.path("outside"))
        }

        func inode(_ path: String) throws -> Int? {
            try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
        }
    }

    @Test(.temporaryFolder) func aManifestEntryUnderAPlantedLinkIsNotReused() throws {
        let planted = try Planted()
        let staging = try SiteWriter(output: planted.output).begin()
        defer { staging.discard() }
        #expect(staging.reuse([planted.entry]) == nil)
        #expect(!FileManager.default.fileExists(atPath: staging.folder.path + "/evil/secret.txt"))
        // Through `..` too, and an absolute path.
        var climbing = planted.entry
        climbing.path = "../outside/secret.txt"
        #expect(staging.reuse([climbing]) == nil)
        climbing.path = planted.secretPath
        #expect(staging.reuse([climbing]) == nil)
    }

    /// The same with a manifest that would trust the outside file's stamp, so that it is linked without being opened
    /// (``SiteStaging/reuse(_:from:)``'s first way): the folders are opened without following links there too, and a
    /// link planted in the file's place is a link, not the file it points at.
    @Test(.temporaryFolder) func aTrustedStampUnderAPlantedLinkIsNotReused() throws {
        let planted = try Planted()
        var info = stat()
        #expect(stat(planted.secretPath, &info) == 0)
        var entry = planted.entry
        entry.stamp = SiteManifest.Stamp(info)
        var manifest = SiteManifest(units: ["u": SiteManifest.Unit(inputs: 1, files: [entry])])
        manifest.written = SiteManifest.Stamp.nanoseconds(info.st_mtim) + 1_000_000_000
        #expect(manifest.trusts(entry, info), "the stamp alone would be trusted")
        let staging = try SiteWriter(output: planted.output).begin()
        defer { staging.discard() }
        #expect(staging.reuse([entry], from: manifest) == nil)
        #expect(!FileManager.default.fileExists(atPath: staging.folder.path + "/evil/secret.txt"))
        // A symbolic link in the file's own place, in a real folder of the site.
        try FileManager.default.createDirectory(atPath: planted.output + "/real", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: planted.output + "/real/secret.txt", withDestinationPath: planted.secretPath)
        entry.path = "real/secret.txt"
        #expect(staging.reuse([entry], from: manifest) == nil)
        var linked = stat()
        #expect(lstat(staging.folder.path + "/real/secret.txt", &linked) != 0, "nothing is left in the new site")
    }

    @Test(.temporaryFolder) func aRenderedFileEqualToALinkedOutsideFileIsWrittenNotLinked() throws {
        let planted = try Planted()
        let staging = try SiteWriter(output: planted.output).begin()
        try staging.write("evil/secret.txt", planted.secret)
        let written = staging.folder.path + "/evil/secret.txt"
        #expect(try planted.inode(written) != planted.inode(planted.secretPath), "the outside file was hard-linked into the site")
        staging.discard()
    }

    @Test func manifestUnitsNamingPathsOutsideTheSiteAreDropped() {
        let text = """
            invoices-site-manifest 2
            U 00000000000000aa assets
            F 3 0000000000000001 style.css
            U 00000000000000bb client:C-1
            F 3 0000000000000002 clients/../../etc/passwd
            U 00000000000000cc month:2025-01
            F 3 0000000000000003 /etc/passwd

            """
        let manifest = SiteManifest(text: text)
        #expect(manifest?.units.keys.sorted() == ["assets"])
    }
}
