import Foundation
import InvoicesTesting
import Testing

/// What a templates folder may hold besides templates, and what it may not (issue 28).
struct TemplateFolderFilesTests {
    func setUp() throws -> (TemporaryFolder, String) {
        let folder = try TemporaryFolder()
        let store = folder.path("books.sqlite")
        #expect(try CLI.run(["sample", "--clients", "3", "--invoices", "20", "--output", store]).status == 0)
        try FileManager.default.createDirectory(atPath: folder.path("templates"), withIntermediateDirectories: true)
        return (folder, store)
    }

    @Test(arguments: ["report.json", "totals.csv", "payments.csv", "sitemap.xml", "feed.xml", "clients"])
    func aFileNamedLikeOneTheBuildWritesIsRefused(name: String) throws {
        let (folder, store) = try setUp()
        defer { folder.remove() }
        try Data("{\"forged\": true}\n".utf8).write(to: URL(fileURLWithPath: folder.path("templates/" + name)))
        let result = try CLI.run(["build", "--store", store, "--templates", folder.path("templates"), "--output", folder.path("site")])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("templates/\(name): has the name of a file the build writes itself"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("site")))
    }

    @Test func aLinkOutOfTheFolderIsRefusedAndOneInsideItIsFollowed() throws {
        let (folder, store) = try setUp()
        defer { folder.remove() }
        try Data("secret\n".utf8).write(to: URL(fileURLWithPath: folder.path("secret.txt")))
        try FileManager.default.createSymbolicLink(atPath: folder.path("templates/notes.txt"), withDestinationPath: folder.path("secret.txt"))
        let refused = try CLI.run(["build", "--store", store, "--templates", folder.path("templates"), "--output", folder.path("site")])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("notes.txt: is a symbolic link to a file outside the templates folder"), "\(refused.stderr)")

        try FileManager.default.removeItem(atPath: folder.path("templates/notes.txt"))
        try Data("<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n".utf8).write(to: URL(fileURLWithPath: folder.path("templates/logo.svg")))
        try FileManager.default.createSymbolicLink(atPath: folder.path("templates/mark.svg"), withDestinationPath: "logo.svg")
        let built = try CLI.run(["build", "--store", store, "--templates", folder.path("templates"), "--output", folder.path("site"), "--quiet"])
        #expect(built.status == 0, "\(built.stderr)")
        #expect(FileManager.default.contents(atPath: folder.path("site/mark.svg")) == FileManager.default.contents(atPath: folder.path("templates/logo.svg")))
    }
}
