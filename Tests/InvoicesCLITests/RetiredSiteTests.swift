import Foundation
import InvoicesTesting
import Testing

/// The site a build replaces is retired beside the output (`.site.retired-PID`) and removed by the next build on a
/// thread of its own while that build reads the store, not at the end of the build that replaced it
/// (docs/reliability.md, "The previous site, retired and removed by the next build").
@Suite(.serialized)
struct RetiredSiteTests {
    func retired(_ project: TestProject) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: project.folder.path("")).filter { $0.hasPrefix(".site.retired-") }.sorted()
    }

    func changeNewestInvoice(_ project: TestProject) throws {
        try project.sql("UPDATE invoice SET amount = amount + 1, net = net + 1 WHERE id = (SELECT MAX(id) FROM invoice)")
    }

    @Test(.temporaryFolder) func theReplacedSiteIsRemovedByTheNextBuild() throws {
        let project = try TestProject.initialized()
        #expect(try retired(project) == [])
        let before = try project.files()
        let trail = try Data(contentsOf: URL(fileURLWithPath: project.trail))
        try changeNewestInvoice(project)
        try project.buildSummary(project.site)
        // The replaced site, whole, beside the new one; with it the replaced trail, so that the new one's rename
        // frees nothing.
        let first = try retired(project)
        try #require(first.count == 1, "\(first)")
        var retiredFiles = try project.files(in: project.folder.path(first[0]))
        #expect(retiredFiles.removeValue(forKey: ".previous-trail") == trail)
        #expect(try Data(contentsOf: URL(fileURLWithPath: project.trail)) != trail)
        #expect(retiredFiles == before)
        try Data("planted".utf8).write(to: URL(fileURLWithPath: project.folder.path(first[0] + "/sentinel")))
        // The next build removed it (the sentinel with it) and retired its own predecessor: one folder at a time.
        try changeNewestInvoice(project)
        try project.expectSameAsFullBuild()
        let second = try retired(project)
        #expect(second.count == 1, "\(second)")
        #expect(!second.contains { FileManager.default.fileExists(atPath: project.folder.path($0 + "/sentinel")) })
    }

    /// Only folders of that name are removed: a link planted under it is left, and so is what it points to.
    @Test(.temporaryFolder) func aLinkNamedLikeARetiredSiteIsNotFollowed() throws {
        let project = try TestProject.initialized()
        let victim = project.folder.path("victim")
        try FileManager.default.createDirectory(atPath: victim, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: victim + "/file"))
        try FileManager.default.createSymbolicLink(atPath: project.folder.path(".site.retired-1"), withDestinationPath: victim)
        try changeNewestInvoice(project)
        try project.buildSummary(project.site)
        #expect(FileManager.default.fileExists(atPath: victim + "/file"))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: project.folder.path(".site.retired-1"))) == victim)
    }
}
