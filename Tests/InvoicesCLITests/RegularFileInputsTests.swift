import Foundation
import InvoicesCore
import InvoicesTesting
import Testing

/// Issue 41: every file the tool reads is a regular file, read within a budget (`RegularFile`, `FileBudget`), and
/// the trail's first line is checked against its lines where it alone would decide. Each test runs the built
/// binary under `timeout 20`: before the fix a FIFO hung the build (timeout's 124) and `/dev/zero` was read forever.
@Suite(.serialized)
struct RegularFileInputsTests {
    /// Finding MEDIUM 3: `mkfifo .Output.trail` hung every build.
    @Test(.temporaryFolder) func aFIFOInThePlaceOfTheTrailIsRefusedAtOnce() throws {
        let project = try TestProject.v2Cases(timeout: 20)
        #expect(try project.build().status == 0)
        try project.replaceTrail { #expect(mkfifo($0, 0o600) == 0) }
        try project.sql("UPDATE invoice SET amount = 51000 WHERE identifier = 'INV-2'")
        let result = try project.build()
        #expect(result.status == 65, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains(".site.trail: is a FIFO (named pipe), not a regular file"), "\(result.stderr)")
        #expect(result.stderr.contains("restore it from the last build"), "\(result.stderr)")
    }

    /// Finding MEDIUM 3: a trail symlinked to `/dev/zero` spun. The trail is the tool's own file: a link is refused
    /// before anything is read through it.
    @Test(.temporaryFolder) func aTrailLinkedToDevZeroIsRefused() throws {
        let project = try TestProject.v2Cases(timeout: 20)
        #expect(try project.build().status == 0)
        try project.replaceTrail { try FileManager.default.createSymbolicLink(atPath: $0, withDestinationPath: "/dev/zero") }
        let result = try project.build(["--closed-through", "2025-09-30"])
        #expect(result.status == 65, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains(".site.trail: is a symbolic link"), "\(result.stderr)")
    }

    /// Finding MEDIUM 3: `client_links` naming a FIFO hung; naming `/dev/zero` read 6.4 GB in 10 s.
    @Test(.temporaryFolder, arguments: ["fifo", "/dev/zero"])
    func aClientLinkKeyThatIsNotAFileIsRefused(key: String) throws {
        let project = try TestProject.v2Cases(timeout: 20)
        let path = key == "fifo" ? project.folder.path("link.key") : key
        if key == "fifo" { #expect(mkfifo(path, 0o600) == 0) }
        let expected = key == "fifo" ? "is a FIFO (named pipe), not a regular file" : "is a character device, not a regular file"
        for command in [["build", "--output", project.site], ["links"]] {
            let result = try project.run(command + ["--store", project.store, "--client-links", path])
            #expect(result.status == 65, "\(command): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("\(path): \(expected)"), "\(command): \(result.stderr)")
        }
        // The same key named in the project file.
        try Data("store: books.sqlite\noutput: site\nclient_links: \(path)\n".utf8).write(to: project.folder.url.appendingPathComponent("invoices.yaml"))
        let result = try CLI.shell("cd '\(project.folder.path(""))' && timeout 20 '\(CLI.executable.path)' build")
        #expect(result.status == 65 && result.stderr.contains(expected), "\(result.status) \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: project.site))
    }

    /// Finding MEDIUM 3: a trail with one 2 MB line took 53 s. A line past the trail's line budget (8 MB) is refused
    /// naming the file, the line and the limit.
    @Test(.temporaryFolder) func aTrailWithALineLongerThanItsBudgetIsRefusedNamingTheLimit() throws {
        let project = try TestProject.v2Cases(timeout: 20)
        #expect(try project.build().status == 0)
        var text = try String(contentsOfFile: project.trail, encoding: .utf8)
        text += "zzz\t" + String(repeating: "x", count: FileBudget.trailLine.bytes + (1 << 20)) + "\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: project.trail))
        try project.sql("UPDATE invoice SET amount = 51000 WHERE identifier = 'INV-2'")
        let result = try project.build()
        #expect(result.status == 65, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains(".site.trail: line "), "\(result.stderr)")
        #expect(result.stderr.contains("is longer than the \(FileBudget.trailLine) that a trail line may have"), "\(result.stderr)")
    }

    /// The tool never writes a trail it would refuse: books one of whose records would make a line past the trail's
    /// line budget are refused naming the record, and nothing is built.
    @Test(.temporaryFolder) func booksWhoseTrailLineWouldPassTheBudgetAreRefusedNamingTheRecord() throws {
        let project = try TestProject.v2Cases(timeout: 20)
        try project.sql("UPDATE invoice SET notes = replace(hex(zeroblob(\(FileBudget.trailLine.bytes / 2 + 10_000))), '0', 'x') WHERE identifier = 'INV-2'")
        let result = try project.build()
        #expect(result.status == 65, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains("invoice INV-2: its record in the trail would be "), "\(result.stderr)")
        #expect(result.stderr.contains("past the \(FileBudget.trailLine) that a trail line may have"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: project.site) && !FileManager.default.fileExists(atPath: project.trail))
    }

    /// Finding LOW 3: `--closed-through` passed when the first line of a scratch build's trail (made from books
    /// changed in the closed period) was copied over the trail. The first line carries a hash of the lines after
    /// it: where it alone would decide, a first line that does not match them is refused.
    @Test(.temporaryFolder) func aTrailHeaderCopiedFromAnotherBuildIsRefusedWithClosedPeriodsOn() throws {
        let project = try TestProject.v2Cases(timeout: 20)
        #expect(try project.build().status == 0)
        #expect(try project.build(["--closed-through", "2025-09-30"]).status == 0, "unchanged books pass")
        // The closed period changed; a scratch build of the changed books gives a first line that says so.
        try project.sql("UPDATE invoice SET amount = 51000 WHERE identifier = 'INV-2'")
        #expect(try project.build(output: project.folder.path("scratch")).status == 0)
        let scratch = try Data(contentsOf: URL(fileURLWithPath: project.folder.path(".scratch.trail")))
        var trail = try Data(contentsOf: URL(fileURLWithPath: project.trail))
        let header = scratch.prefix { $0 != 0x0A }
        trail.replaceSubrange(0..<(try #require(trail.firstIndex(of: 0x0A))), with: header)
        try trail.write(to: URL(fileURLWithPath: project.trail))

        let refused = try project.build(["--closed-through", "2025-09-30"])
        #expect(refused.status == 65, "\(refused.status) \(refused.stderr)")
        #expect(refused.stderr.contains(".site.trail: the first line of the record of the previous build does not match"), "\(refused.stderr)")
        // With --allow-closed-changes the books are compared with the lines in full: the change is found and recorded.
        let allowed = try project.build(["--closed-through", "2025-09-30", "--allow-closed-changes"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        let csv = try String(contentsOfFile: project.site + "/changes.csv", encoding: .utf8)
        #expect(csv.contains("INV-2") && csv.contains("510.00") && csv.contains(",yes\r\n"), "\(csv)")
        // The trail written then matches its first line again: the same books pass with the period closed.
        #expect(try project.build(["--closed-through", "2025-09-30"]).status == 0)
    }

    /// Finding LOW 6: `init --force` wrote through a symlinked `invoices.yaml`. init never writes through a link:
    /// the link's target keeps its bytes, and nothing is written.
    @Test(.temporaryFolder) func initForceNeverWritesThroughASymlinkedProjectFile() throws {
        let folder = try TemporaryFolder.current
        let target = folder.path("elsewhere.txt")
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createDirectory(atPath: folder.path("project"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path("project/invoices.yaml"), withDestinationPath: target)
        let result = try CLI.run(["init", folder.path("project"), "--force", "--clients", "2", "--invoices", "4"])
        #expect(result.status == 73, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains("project/invoices.yaml: is a symbolic link; init never writes through a link"), "\(result.stderr)")
        #expect(FileManager.default.contents(atPath: target) == Data("precious\n".utf8))
        #expect(!FileManager.default.fileExists(atPath: folder.path("project/books.sqlite")), "nothing was written")
        // A link standing for a template is refused the same way.
        try FileManager.default.removeItem(atPath: folder.path("project/invoices.yaml"))
        try FileManager.default.createDirectory(atPath: folder.path("project/templates"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path("project/templates/style.css"), withDestinationPath: target)
        let again = try CLI.run(["init", folder.path("project"), "--force", "--clients", "2", "--invoices", "4"])
        #expect(again.status == 73 && again.stderr.contains("templates/style.css: is a symbolic link"), "\(again.stderr)")
        #expect(FileManager.default.contents(atPath: target) == Data("precious\n".utf8))
    }
}

extension TestProject {
    /// Removes the trail and lets `make` put something else in its place.
    func replaceTrail(_ make: (String) throws -> Void) throws {
        try FileManager.default.removeItem(atPath: trail)
        try make(trail)
    }
}
