import Foundation
import InvoicesTesting
import Testing

/// `check` and `build` stop at the same template errors, with exit 65, and never crash (issue 16).
@Suite(.serialized)
struct TemplateGraphCommandTests {
    static let broken: [(name: String, files: [String: String], expected: String)] = [
        ("self", ["invoice-list.md": "{{#invoices}}\n{{> invoice-list}}\n{{/invoices}}\n"], "invoice-list.md:2:5: partial 'invoice-list' includes itself"),
        ("mutual", ["invoice-list.md": "{{> ping}}\n", "ping.md": "{{> invoice-list}}\n"], "includes itself"),
        ("deep", ["client.md": String(repeating: "{{#hasAddress}}", count: 5_000) + String(repeating: "{{/hasAddress}}", count: 5_000)], "nested more than"),
        ("missing", ["month.md": "{{> nope}}\n"], "month.md:1:5: missing partial 'nope'"),
        ("unclosed", ["month.md": "# {{label}}\n{{#currencies}}\n"], "month.md:2:4: unclosed section 'currencies'"),
    ]

    @Test(.temporaryFolder, arguments: broken.indices)
    func checkAndBuildAgreeWithExit65(_ index: Int) throws {
        let (_, files, expected) = Self.broken[index]
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        #expect(try CLI.run(["sample", "--clients", "3", "--invoices", "20", "--seed", "1", "--output", store]).status == 0)
        let templates = folder.url.appendingPathComponent("templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: templates.appendingPathComponent(name)) }

        let check = try CLI.run(["check", "--store", store, "--templates", templates.path])
        #expect(check.status == 65, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains(expected), "\(check.stdout)")
        let build = try CLI.run(["build", "--store", store, "--templates", templates.path, "--output", folder.path("site")])
        #expect(build.status == 65, "\(build.stderr)")
        #expect(build.stderr.contains(expected), "\(build.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("site")))
    }
}
