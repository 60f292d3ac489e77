import Foundation
import InvoicesTesting
import Testing

/// What a templates folder may hold besides templates, and what it may not (issue 28).
struct TemplateFolderFilesTests {
    func setUp() throws -> (TemporaryFolder, String) {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        #expect(try CLI.run(["sample", "--clients", "3", "--invoices", "20", "--output", store]).status == 0)
        try FileManager.default.createDirectory(atPath: folder.path("templates"), withIntermediateDirectories: true)
        return (folder, store)
    }

    @Test(.temporaryFolder, arguments: ["report.json", "totals.csv", "payments.csv", "sitemap.xml", "feed.xml", "clients"])
    func aFileNamedLikeOneTheBuildWritesIsRefused(name: String) throws {
        let (folder, store) = try setUp()
        try Data("{\"forged\": true}\n".utf8).write(to: URL(fileURLWithPath: folder.path("templates/" + name)))
        let result = try CLI.run(["build", "--store", store, "--templates", folder.path("templates"), "--output", folder.path("site")])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("templates/\(name): has the name of a file the build writes itself"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("site")))
    }

    @Test(.temporaryFolder) func aLinkOutOfTheFolderIsRefusedAndOneInsideItIsFollowed() throws {
        let (folder, store) = try setUp()
        try Data("secret\n".utf8).write(to: URL(fileURLWithPath: folder.path("secret.txt")))
        try FileManager.default.createSymbolicLink(atPath: folder.path("templates/notes.txt"), withDestinationPath: folder.path("secret.txt"))
        let refused = try CLI.run(["build", "--store", store, "--templates", folder.path("templates"), "--output", folder.path("site")])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("notes.txt: is a symbolic link to a file outside the templates folder"), "\(refused.stderr)")

        try FileManager.default.removeItem(atPath: folder.path("templates/notes.txt"))
        try Data("body { color: #222; }\n".utf8).write(to: URL(fileURLWithPath: folder.path("templates/extra.css")))
        try FileManager.default.createSymbolicLink(atPath: folder.path("templates/print.css"), withDestinationPath: "extra.css")
        let built = try CLI.run(["build", "--store", store, "--templates", folder.path("templates"), "--output", folder.path("site"), "--quiet"])
        #expect(built.status == 0, "\(built.stderr)")
        #expect(FileManager.default.contents(atPath: folder.path("site/print.css")) == FileManager.default.contents(atPath: folder.path("templates/extra.css")))
    }

    /// Issue 41, finding MEDIUM 4: every file of a templates folder was copied into the site, so a users file or a
    /// client-link key kept there was published. Only templates, stylesheets and scripts are read now; `check` and
    /// `build` refuse any other file with its name, and nothing of it reaches the site.
    @Test(.temporaryFolder) func aUsersFileOrAKeyInTheTemplatesFolderIsRefusedAndNeverPublished() throws {
        let (folder, store) = try setUp()
        let templates = folder.path("templates")
        try Data("alice:correct horse battery staple\n".utf8).write(to: URL(fileURLWithPath: templates + "/users.txt"))
        try Data("0123456789abcdef0123456789abcdef0123456789abcdef\n".utf8).write(to: URL(fileURLWithPath: templates + "/link.key"))
        try Data("a { color: red; }\n".utf8).write(to: URL(fileURLWithPath: templates + "/extra.css"))

        let check = try CLI.run(["check", "--store", store, "--templates", templates])
        #expect(check.status == 65, "\(check.stdout)\(check.stderr)")
        for name in ["users.txt", "link.key"] {
            #expect(check.stdout.contains("templates/\(name): is not a template (.md, .html), a stylesheet (.css) or a script (.js)"), "\(check.stdout)")
        }
        let json = try CLI.run(["check", "--store", store, "--templates", templates, "--format", "json"])
        #expect(json.status == 65 && json.stdout.contains("\"kind\" : \"otherKind\""), "\(json.stdout)")

        let build = try CLI.run(["build", "--store", store, "--templates", templates, "--output", folder.path("site")])
        #expect(build.status == 65, "\(build.stderr)")
        #expect(build.stderr.contains("link.key: is not a template"), "\(build.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("site")), "nothing is built, so nothing is published")

        // Moved out of the folder, the rest builds; the stylesheet is copied, an i18n/ folder of tables is not.
        try FileManager.default.removeItem(atPath: templates + "/users.txt")
        try FileManager.default.removeItem(atPath: templates + "/link.key")
        try FileManager.default.createDirectory(atPath: templates + "/i18n", withIntermediateDirectories: true)
        try Data("title: Rechnungen\n".utf8).write(to: URL(fileURLWithPath: templates + "/i18n/de.yaml"))
        let built = try CLI.run(["build", "--store", store, "--templates", templates, "--output", folder.path("site"), "--quiet"])
        #expect(built.status == 0, "\(built.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path("site/extra.css")))
        let published = try FileManager.default.subpathsOfDirectory(atPath: folder.path("site"))
        #expect(!published.contains { $0.hasPrefix("i18n") || $0.hasSuffix("users.txt") || $0.hasSuffix("link.key") }, "\(published)")
    }
}
