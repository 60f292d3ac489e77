import Foundation
import Testing

/// `make test` runs the object contexts' tests in this package's test bundle, so Packages/ObjectContexts is compiled
/// once (docs/performance.md, "make test on a fresh machine: the object contexts built once").
extension SystemPackagesTests {
    @Test func makeTestBuildsTheObjectContextsOnce() throws {
        let recipe = try Self.recipe("test")
        #expect(!recipe.contains("--package-path Packages/ObjectContexts"), "a second build of the object contexts")
        // Their tests are still run: a target of this package, over the package's own test folder, with every file.
        let manifest = try Self.read("Package.swift")
        #expect(manifest.contains("name: \"ObjectContextsTests\""))
        #expect(manifest.contains("path: \"Packages/ObjectContexts/Tests/ObjectContextsTests\""))
        let files = try FileManager.default.contentsOfDirectory(
            atPath: Self.repository.appendingPathComponent("Packages/ObjectContexts/Tests/ObjectContextsTests").path)
        #expect(files.filter { $0.hasSuffix(".swift") }.count >= 8)
    }
}
