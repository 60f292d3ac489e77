import Foundation
import InvoicesTesting
import Testing

/// A build whose store bytes, templates, options and previous trail are what the previous build read, and whose
/// site is still as that build wrote it, has nothing to do: it says so and leaves every file as it was. Anything else
/// renders, and gives what a full build gives.
@Suite(.serialized)
struct UpToDateBuildTests {

    /// Builds until the site is up to date: the build after a change lists it, the next says nothing changed, and the
    /// one after that has nothing to do.
    func settle(_ project: TestProject, _ extra: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws {
        for _ in 0..<3 {
            if try project.buildSummary(project.site, extra).hasPrefix("Up to date: ") { return }
        }
        Issue.record("three builds of the same inputs and the site was still not up to date", sourceLocation: sourceLocation)
    }

    @Test(.temporaryFolder) func theSameInputsLeaveTheSiteAsItWas() throws {
        let project = try TestProject.initialized()
        try settle(project)
        let before = try project.stamps()
        let summary = try project.buildSummary(project.site)
        #expect(summary.hasPrefix("Up to date: "), "\(summary)")
        #expect(summary.contains(" 0 changed"), "\(summary)")
        // The site's own files, inode and modification time alike: the folder was not replaced.
        #expect(try project.stamps() == before)
        let siblings = try FileManager.default.contentsOfDirectory(atPath: project.folder.path(""))
        #expect(!siblings.contains { $0.contains(".building-") || $0.hasSuffix(".tmp") }, "\(siblings)")
    }

    /// Each input the build reads, changed in turn, renders the site again (same as a full build), and a build of the
    /// same inputs after that is up to date again.
    @Test(.temporaryFolder) func everyInputChangedRendersAgain() throws {
        let project = try TestProject.initialized()
        try settle(project)
        // The store's bytes.
        try project.sql("UPDATE invoice SET amount = amount + 7, net = net + 7 WHERE id = (SELECT MAX(id) FROM invoice)")
        #expect(try project.expectSameAsFullBuild().hasPrefix("Wrote "))
        try settle(project)
        // A template.
        let month = project.templates + "/month.md"
        try Data((try String(contentsOfFile: month, encoding: .utf8) + "\nOne more line.\n").utf8).write(to: URL(fileURLWithPath: month))
        #expect(try project.expectSameAsFullBuild().hasPrefix("Wrote "))
        try settle(project)
        // A translation table of the folder: its bytes are fingerprinted before any template is parsed, so a word
        // changed there renders again, twice over.
        try FileManager.default.createDirectory(atPath: project.templates + "/i18n", withIntermediateDirectories: true)
        for words in ["made by the up-to-date test", "made again by the up-to-date test"] {
            try Data("layout.builtBy: '\(words)'\n".utf8).write(to: URL(fileURLWithPath: project.templates + "/i18n/en.yaml"))
            #expect(try project.expectSameAsFullBuild().hasPrefix("Wrote "))
            #expect(try String(contentsOfFile: project.site + "/index.html", encoding: .utf8).contains(words))
            try settle(project)
        }
        // An option.
        #expect(try project.expectSameAsFullBuild(["--page-size", "10"]).hasPrefix("Wrote "))
        try settle(project, ["--page-size", "10"])
        #expect(try project.buildSummary(project.site).hasPrefix("Wrote "))
        try settle(project)
        // The closed date (it is shown on the changes page).
        #expect(try project.buildSummary(project.site, ["--closed-through", "2023-12-31"]).hasPrefix("Wrote "))
        try settle(project, ["--closed-through", "2023-12-31"])
        // --full renders everything, whatever the fingerprints say.
        #expect(try project.buildSummary(project.site, ["--closed-through", "2023-12-31", "--full"]).hasPrefix("Wrote "))
    }

    /// A change still in the store's write-ahead log (the app has the store open) is a change of the store: the log's
    /// bytes are fingerprinted with the store file's.
    @Test(.temporaryFolder) func aChangeInTheWriteAheadLogRendersAgain() throws {
        let project = try TestProject.initialized()
        // The store in WAL mode (it stays so), then built until up to date.
        try StoreFixture.withChangeInWriteAheadLog(project.store, "SELECT 1") {}
        try settle(project)
        let storeBytes = try Data(contentsOf: URL(fileURLWithPath: project.store))
        try StoreFixture.withChangeInWriteAheadLog(project.store, "UPDATE client SET name = 'Only In The Log' WHERE id = (SELECT MIN(clientId) FROM invoice)") {
            #expect(try Data(contentsOf: URL(fileURLWithPath: project.store)) == storeBytes, "the change is in the log alone")
            let summary = try project.buildSummary(project.site)
            #expect(summary.hasPrefix("Wrote "), "\(summary)")
            #expect(try String(contentsOfFile: project.site + "/clients.html", encoding: .utf8).contains("Only In The Log"))
        }
    }

    /// The site changed under the build (a file added, edited or removed): the build renders, and the site is again
    /// what the build writes.
    @Test(.temporaryFolder) func aSiteChangedSinceTheBuildRendersAgain() throws {
        let project = try TestProject.initialized()
        try settle(project)
        let reference = try project.files()
        try Data("not ours".utf8).write(to: URL(fileURLWithPath: project.site + "/months/extra.html"))
        #expect(try project.buildSummary(project.site).hasPrefix("Wrote "))
        #expect(try project.files() == reference)
        try settle(project)
        try FileManager.default.createDirectory(atPath: project.site + "/empty", withIntermediateDirectories: false)
        #expect(try project.buildSummary(project.site).hasPrefix("Wrote "))
        #expect(!FileManager.default.fileExists(atPath: project.site + "/empty"))
        try settle(project)
        try FileManager.default.removeItem(atPath: project.site + "/collections.html")
        try FileManager.default.createSymbolicLink(atPath: project.site + "/collections.html", withDestinationPath: project.store)
        #expect(try project.buildSummary(project.site).hasPrefix("Wrote "))
        #expect(try project.files() == reference)
    }

    /// The store's bytes are fingerprinted beside the previous manifest's read (docs/performance.md, thirteenth
    /// session): a store that cannot be read is still refused as a build without a previous site refuses it (the same
    /// exit code and message), and the previous site is left as it was.
    @Test(.temporaryFolder) func aStoreErrorBesideThePreviousManifestIsReportedAsBefore() throws {
        let project = try TestProject.initialized()
        try settle(project)
        let before = try project.stamps()
        let saved = try Data(contentsOf: URL(fileURLWithPath: project.store))
        for damage in ["missing", "not a database", "a rollback journal left behind"] {
            switch damage {
            case "missing": try FileManager.default.removeItem(atPath: project.store)
            case "not a database": try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: project.store))
            default:
                try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: project.store))
                try Data(repeating: 0x42, count: 512).write(to: URL(fileURLWithPath: project.store + "-journal"))
            }
            let rebuild = try CLI.run(["build", "--store", project.store, "--templates", project.templates, "--output", project.site])
            let fresh = try CLI.run(["build", "--store", project.store, "--templates", project.templates, "--output", project.path("fresh")])
            #expect(rebuild.status != 0, "\(damage): \(rebuild.stdout)")
            #expect(rebuild.status == fresh.status, "\(damage)")
            #expect(rebuild.stderr == fresh.stderr, "\(damage)")
            #expect(!FileManager.default.fileExists(atPath: project.path("fresh")), "\(damage)")
            #expect(try project.stamps() == before, "\(damage)")
            try? FileManager.default.removeItem(atPath: project.store + "-journal")
            try saved.write(to: URL(fileURLWithPath: project.store))
        }
        #expect(try project.buildSummary(project.site).hasPrefix("Up to date: "))
    }
}
