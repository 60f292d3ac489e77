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

    /// Every folder of `root` (relative paths) with its permission bits.
    func folders(_ root: String) throws -> [String: Int] {
        var found: [String: Int] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            var info = stat()
            if lstat(root + "/" + path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { found[path] = Int(info.st_mode & 0o7777) }
        }
        var info = stat()
        if lstat(root, &info) == 0 { found["."] = Int(info.st_mode & 0o7777) }
        return found
    }

    /// Two rebuilds leave a retired site; the third takes its folders as its staging folder, with folders planted in it that the new site does not use, a folder where the new site has
    /// a file, a folder with another mode, and a file left deep inside: the site equals a full build into a fresh
    /// folder, files, folders and their modes.
    @Test(.temporaryFolder) func aRebuildIntoTheRetiredSitesFoldersEqualsAFullBuild() throws {
        let project = try TestProject.initialized()
        try changeNewestInvoice(project)
        try project.buildSummary(project.site)
        let retiredName = try #require(try retired(project).first)
        let old = project.folder.path(retiredName)
        let manager = FileManager.default
        let clients = try #require(try manager.contentsOfDirectory(atPath: old + "/clients").sorted().first)
        try manager.createDirectory(atPath: old + "/unused/deeper/deepest", withIntermediateDirectories: true)
        try Data("left".utf8).write(to: URL(fileURLWithPath: old + "/unused/deeper/file"))
        try manager.removeItem(atPath: old + "/index.html")
        try manager.createDirectory(atPath: old + "/index.html/inside", withIntermediateDirectories: true)
        #expect(chmod(old + "/clients", 0o700) == 0)
        try changeNewestInvoice(project)
        try project.expectSameAsFullBuild()
        // Whether the folders were taken depends on the removal ending before the load (it does here, but that is
        // timing); SpareFoldersTests takes them for certain. The site is a full build's either way.
        #expect(manager.fileExists(atPath: project.site + "/clients/" + clients))
        let full = try #require(try manager.contentsOfDirectory(atPath: project.folder.path("")).first { $0.hasPrefix("full-") })
        #expect(try folders(project.site) == folders(project.folder.path(full)))
        // The next build still works from what this one retired.
        try changeNewestInvoice(project)
        try project.expectSameAsFullBuild()
    }

    /// Links planted in the retired site (a folder's and a file's, pointing outside) are unlinked where they are when
    /// it is emptied for the next staging folder: what they point to is left as it was.
    @Test(.temporaryFolder) func aLinkPlantedInTheRetiredSiteIsUnlinkedNotFollowed() throws {
        let project = try TestProject.initialized()
        try changeNewestInvoice(project)
        try project.buildSummary(project.site)
        let old = project.folder.path(try #require(try retired(project).first))
        let victim = project.folder.path("victim")
        try FileManager.default.createDirectory(atPath: victim + "/inner", withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: victim + "/file"))
        try Data("keep".utf8).write(to: URL(fileURLWithPath: victim + "/inner/file"))
        try FileManager.default.createSymbolicLink(atPath: old + "/clients/planted", withDestinationPath: victim)
        try FileManager.default.createSymbolicLink(atPath: old + "/planted-file", withDestinationPath: victim + "/file")
        // A folder the new site has, replaced by a link to a folder outside.
        try FileManager.default.removeItem(atPath: old + "/quarters")
        try FileManager.default.createSymbolicLink(atPath: old + "/quarters", withDestinationPath: victim + "/inner")
        try changeNewestInvoice(project)
        try project.expectSameAsFullBuild()
        #expect(try Data(contentsOf: URL(fileURLWithPath: victim + "/file")) == Data("keep".utf8))
        #expect(try Data(contentsOf: URL(fileURLWithPath: victim + "/inner/file")) == Data("keep".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: victim).sorted() == ["file", "inner"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: victim + "/inner") == ["file"])
    }

    /// A build that fails after writing into the retired site's folders (a change in a closed period, refused after
    /// the render) leaves the previous site as it was: the files the retired site shared with it (hard links of
    /// unchanged files) were unlinked from the retired tree, never written through.
    @Test(.temporaryFolder) func aFailedBuildInTheRetiredSitesFoldersLeavesThePreviousSite() throws {
        let project = try TestProject.initialized()
        try changeNewestInvoice(project)
        try project.buildSummary(project.site)
        #expect(try retired(project).count == 1)
        let before = try project.files()
        // The oldest invoice: its pages were not changed by the last build, so the retired site shares them.
        try project.sql("UPDATE invoice SET amount = amount + 1, net = net + 1 WHERE id = (SELECT MIN(id) FROM invoice)")
        let refused = try project.build(["--closed-through", "2099-12-31"])
        #expect(refused.status == 65 && refused.stderr.contains("closed period"), "\(refused.stderr)")
        #expect(try project.files() == before, "the previous site is kept")
        #expect(try retired(project).isEmpty, "the retired site is gone: taken as the failed build's staging folder and discarded with it")
        try project.expectSameAsFullBuild()
    }
}
