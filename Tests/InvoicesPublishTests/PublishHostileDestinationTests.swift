import Foundation
import InvoicesTesting
import Testing

/// Names found at the destination never reach a shell as code, and only folders the tool made are removed (issue 28).
@Suite(.serialized)
struct PublishHostileDestinationTests {
    @Test(.temporaryFolder) func hostileFolderNamesInReleasesAreNeitherRunNorRemoved() throws {
        let folder = try TemporaryFolder.current
        let store = try PublishLocalTests.store(in: folder)
        for id in ["1", "2"] {
            #expect(try CLI.run(["build", "--store", store, "--output", folder.path("site-\(id)"), "--build-id", id, "--quiet"]).status == 0)
        }
        let dest = folder.path("www")
        let first = try CLI.run(["publish", dest, "--site", folder.path("site-1")])
        #expect(first.status == 0, "\(first.stderr)")
        let firstRelease = try FileManager.default.destinationOfSymbolicLink(atPath: dest + "/current")

        // Folders a hostile user of the server (or a stray script) could leave there.
        let hostile = [
            ".x$(touch PWNED).partial", ".x * .partial", ".x`touch PWNED2`.partial", "x;touch PWNED3",
            "bad\nrelease 0123456789abcdef", ".0123456789abcdeF.partial",
        ]
        for name in hostile {
            try FileManager.default.createDirectory(atPath: dest + "/releases/" + name, withIntermediateDirectories: true)
        }
        let second = try CLI.run(["publish", dest, "--site", folder.path("site-2"), "--keep", "1"])
        #expect(second.status == 0, "\(second.stderr)")

        let releases = try FileManager.default.contentsOfDirectory(atPath: dest + "/releases")
        for name in hostile { #expect(releases.contains(name), "'\(name)' was removed") }
        for marker in ["PWNED", "PWNED2", "PWNED3"] {
            #expect(!FileManager.default.fileExists(atPath: dest + "/" + marker), "a folder name ran as a command")
            #expect(!FileManager.default.fileExists(atPath: dest + "/releases/" + marker))
        }
        // The tool's own work still happened: the new release is current, the first one removed by --keep 1.
        let current = try FileManager.default.destinationOfSymbolicLink(atPath: dest + "/current")
        #expect(current != firstRelease)
        #expect(FileManager.default.fileExists(atPath: dest + "/" + current + "/index.html"))
        #expect(!releases.contains(String(firstRelease.dropFirst("releases/".count))))
        #expect(releases.count == hostile.count + 1, "\(releases)")
    }

    /// A folder named like a release that this tool did not publish (the history does not list it) survives
    /// `--keep 1`, as the releases the tool made do not (issue 41).
    @Test(.temporaryFolder) func keepRemovesOnlyReleasesTheHistoryLists() throws {
        let folder = try TemporaryFolder.current
        let store = try PublishLocalTests.store(in: folder)
        for id in ["1", "2", "3"] {
            #expect(try CLI.run(["build", "--store", store, "--output", folder.path("site-\(id)"), "--build-id", id, "--quiet"]).status == 0)
        }
        let dest = folder.path("www")
        #expect(try CLI.run(["publish", dest, "--site", folder.path("site-1")]).status == 0)
        let first = try FileManager.default.destinationOfSymbolicLink(atPath: dest + "/current")
        // Someone else's folder among the releases, named as a release id is, with a file in it.
        let foreign = dest + "/releases/0123456789abcdef"
        try FileManager.default.createDirectory(atPath: foreign, withIntermediateDirectories: true)
        try Data("theirs".utf8).write(to: URL(fileURLWithPath: foreign + "/index.html"))
        for id in ["2", "3"] {
            let result = try CLI.run(["publish", dest, "--site", folder.path("site-\(id)"), "--keep", "1"])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let current = try FileManager.default.destinationOfSymbolicLink(atPath: dest + "/current")
        let releases = try FileManager.default.contentsOfDirectory(atPath: dest + "/releases").sorted()
        #expect(releases == ["0123456789abcdef", String(current.dropFirst("releases/".count))].sorted(), "\(releases)")
        #expect(!releases.contains(String(first.dropFirst("releases/".count))))
        #expect(FileManager.default.contents(atPath: foreign + "/index.html") == Data("theirs".utf8))
    }

    @Test(.temporaryFolder, arguments: ["site/users.txt", "./site/users.txt", "site/../site/users.txt", "link/users.txt", "site/./sub/../users.txt"])
    func aUsersFileInsideTheSiteIsRefusedHoweverItIsSpelt(spelling: String) throws {
        let folder = try TemporaryFolder.current
        let store = try PublishLocalTests.store(in: folder)
        #expect(try CLI.run(["build", "--store", store, "--output", folder.path("site"), "--quiet"]).status == 0)
        try FileManager.default.createDirectory(atPath: folder.path("site/sub"), withIntermediateDirectories: true)
        try Data("ann:secret\n".utf8).write(to: URL(fileURLWithPath: folder.path("site/users.txt")))
        try FileManager.default.createSymbolicLink(atPath: folder.path("link"), withDestinationPath: folder.path("site"))
        let result = try CLI.run(["publish", "www", "--site", "site", "--users", spelling], in: folder.url)
        #expect(result.status == 64, "\(spelling): \(result.stderr)")
        #expect(result.stderr.contains("inside the site folder"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("www")), "something was published")
    }

    @Test(.temporaryFolder) func linksPrintsOneLinePerClientWhateverTheNamesHold() throws {
        let folder = try TemporaryFolder.current
        let store = try PublishLocalTests.store(in: folder)
        try Data((String(repeating: "k", count: 40) + "\n").utf8).write(to: URL(fileURLWithPath: folder.path("link.key")))
        // A name that would forge a second row, one that clears the terminal line, a number with a tab and a bidi override.
        try StoreFixture.execute(store, """
            UPDATE client SET name = 'Acme' || char(10) || 'C-9' || char(9) || 'Forged' || char(9) || 'c/evil/' WHERE id = 1;
            UPDATE client SET name = 'Beta' || char(13) || char(27) || '[2KGood' WHERE id = 2;
            UPDATE client SET number = 'C' || char(9) || '3' || char(0x202E) WHERE id = 3;
            UPDATE client SET name = 'Back\\slash' WHERE id = 4;
            """)
        let result = try CLI.run(["links", "--store", store, "--client-links", folder.path("link.key")])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 4, "\(result.stdout)")
        for line in lines {
            #expect(line.split(separator: "\t", omittingEmptySubsequences: false).count == 3, "\(line)")
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" || $0.value == 0x1B || $0.value == 0x202E })
        }
        #expect(result.stdout.contains("Acme\\nC-9\\tForged\\tc/evil/\t"))
        #expect(result.stdout.contains("Beta\\r\\u{1b}[2KGood\t"))
        #expect(result.stdout.contains("C\\t3\\u{202e}\t"))
        #expect(result.stdout.contains("Back\\\\slash\t"))
    }
}
