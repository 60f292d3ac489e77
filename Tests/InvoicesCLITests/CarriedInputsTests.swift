import Foundation
import InvoicesTesting
import Testing

/// A build whose books are read from the bytes and settings the previous build read them from, with the same
/// options, takes every unit's inputs from the previous build (`.Output.inputs`) instead of fingerprinting the books
/// again; anything that can change them (the store, an option, a title from the templates' tables) works them out.
/// Either way the site is a full build's.
@Suite(.serialized)
struct CarriedInputsTests {
    static let carried = "inputs carried from the previous build"

    func build(_ project: TestProject, _ extra: [String] = []) throws -> String {
        let result = try CLI.run(["build", "--store", project.store, "--templates", project.templates, "--output", project.site] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stderr
    }

    func append(_ line: String, to template: String, in project: TestProject) throws {
        let path = project.templates + "/" + template
        try Data((try String(contentsOfFile: path, encoding: .utf8) + "\n\(line)\n").utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test(.temporaryFolder) func aTemplateChangedTakesTheInputsFromThePreviousBuild() throws {
        let project = try TestProject.initialized()
        #expect(FileManager.default.fileExists(atPath: project.folder.path(".site.inputs")))
        try append("One more line.", to: "month.md", in: project)
        #expect(try build(project).contains(Self.carried))
        try project.expectSameAsFullBuild()
        // The store changed: worked out again, and carried from then on.
        try project.sql("UPDATE invoice SET amount = amount + 3, net = net + 3 WHERE id = (SELECT MIN(id) FROM invoice)")
        #expect(try !build(project).contains(Self.carried))
        try project.expectSameAsFullBuild()
        try append("And another.", to: "month.md", in: project)
        #expect(try build(project).contains(Self.carried))
        try project.expectSameAsFullBuild()
        // An option changed: worked out again.
        #expect(try !build(project, ["--page-size", "10"]).contains(Self.carried))
        try project.expectSameAsFullBuild(["--page-size", "10"])
    }

    /// The title the pages carry comes from the templates' tables when no title is set: feed.xml, whose unit has no
    /// template, shows it, so inputs carried under the options as set (not as the pages see them) would leave it stale.
    @Test(.temporaryFolder) func aTitleFromTheTablesIsNotCarried() throws {
        let project = try TestProject.initialized()
        let options = ["--base-url", "https://example.com/r/"]
        _ = try build(project, options)
        try FileManager.default.createDirectory(atPath: project.templates + "/i18n", withIntermediateDirectories: true)
        try Data("layout.defaultTitle: 'Books of the carried test'\n".utf8).write(to: URL(fileURLWithPath: project.templates + "/i18n/en.yaml"))
        #expect(try !build(project, options).contains(Self.carried))
        #expect(try project.text("feed.xml").contains("Books of the carried test"))
        try project.expectSameAsFullBuild(options)
    }

    /// Damaged carried inputs are not used: the build works them out, and gives a full build's site.
    @Test(.temporaryFolder) func damagedCarriedInputsAreNotUsed() throws {
        let project = try TestProject.initialized()
        let path = project.folder.path(".site.inputs")
        var text = try String(contentsOfFile: path, encoding: .utf8)
        let client = try #require(text.range(of: "\nC "))
        text.replaceSubrange(client.upperBound..<text.index(client.upperBound, offsetBy: 1), with: text[client.upperBound] == "0" ? "1" : "0")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try append("One more line.", to: "month.md", in: project)
        #expect(try !build(project).contains(Self.carried))
        try project.expectSameAsFullBuild()
    }
}
