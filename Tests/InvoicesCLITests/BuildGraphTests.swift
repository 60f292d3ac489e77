import Foundation
import InvoicesTesting
import Testing

/// What `make test` and `make report` compile, and what a build with nothing changed compiles again (issue 42 item 7,
/// docs/performance.md "The build graph"). Held here because a dependency, a trait or a Makefile line brings it back.
extension SystemPackagesTests {
    /// `swift test` after `swift build --build-tests` plans the build again and relinks the embedding plugin's tool,
    /// so the embedding reruns: an unchanged DefaultTemplates.swift must keep its modification time, or InvoicesSite
    /// and its module are compiled again.
    @Test func theTemplateEmbeddingLeavesAnUnchangedFileAlone() throws {
        let tool = CLI.executable.deletingLastPathComponent().appendingPathComponent("EmbedTemplatesTool")
        try #require(FileManager.default.isExecutableFile(atPath: tool.path), "swift build --build-tests builds \(tool.path)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("embed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let templates = folder.appendingPathComponent("Templates")
        try FileManager.default.createDirectory(at: templates.appendingPathComponent("i18n"), withIntermediateDirectories: true)
        try "<h1>{{title}}</h1>".write(to: templates.appendingPathComponent("page.html"), atomically: true, encoding: .utf8)
        try "title: Invoices".write(to: templates.appendingPathComponent("i18n/en.yaml"), atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("DefaultTemplates.swift")
        func embed() throws {
            let process = Process()
            process.executableURL = tool
            process.arguments = [templates.path, output.path]
            try process.run()
            process.waitUntilExit()
            try #require(process.terminationStatus == 0)
        }
        func modified() throws -> Date {
            try #require(try FileManager.default.attributesOfItem(atPath: output.path)[.modificationDate] as? Date)
        }
        try embed()
        let first = try String(contentsOf: output, encoding: .utf8)
        #expect(first.contains("\"page.html\"") && first.contains("\"i18n/en.yaml\""))
        let past = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: output.path)
        try embed()
        #expect(try modified() == past, "the same templates: the file is not written again")
        try "<h1>{{title}}!</h1>".write(to: templates.appendingPathComponent("page.html"), atomically: true, encoding: .utf8)
        try embed()
        #expect(try modified() != past)
        #expect(try String(contentsOf: output, encoding: .utf8).contains("<h1>{{title}}!</h1>"))
    }

    /// Hummingbird's default traits bring swift-configuration into every build (nothing here uses its `ConfigReader`
    /// initializers), and two traits' `-D` flags are passed in a random order each time SwiftPM plans the build, which
    /// recompiled Hummingbird's modules on every switch between `swift build` and `swift test`: one trait, named.
    @Test func hummingbirdIsBuiltWithOneNamedTrait() throws {
        let manifest = try Self.read("Package.swift")
        let line = try #require(manifest.split(separator: "\n").first { $0.contains("hummingbird-project/hummingbird\"") })
        let traits = try #require(line.firstMatch(of: /traits: \[([^\]]*)\]/)).output.1
        #expect(traits.split(separator: ",").count <= 1, "\(line)")
        #expect(!traits.contains("ConfigurationSupport"))
        let sources = try FileManager.default.subpathsOfDirectory(atPath: Self.repository.appendingPathComponent("Sources").path)
            .filter { $0.hasSuffix(".swift") }
        for path in sources {
            let text = try Self.read("Sources/" + path)
            #expect(!text.contains("import Configuration") && !text.contains("ConfigReader"), "\(path) needs the trait")
        }
    }

    /// `make test` builds the package and its tests, then runs them: `swift test` without `--skip-build` planned the
    /// build again (its parameters differ from `swift build`'s) and relinked and re-embedded on the way.
    @Test func makeTestRunsTheTestsItBuilt() throws {
        let lines = try Self.recipe("test").split(separator: "\n")
        let build = try #require(lines.firstIndex { $0.contains("$(SWIFT) build --build-tests") })
        let run = try #require(lines.firstIndex { $0.contains("$(SWIFT) test") && !$0.contains("--package-path") })
        #expect(build < run)
        #expect(lines[run].contains("--skip-build"), "\(lines[run])")
    }
}
