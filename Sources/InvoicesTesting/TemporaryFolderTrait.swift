public import Testing

/// `@Test(.temporaryFolder)`: each run of the test (each case of a parameterized one) gets a fresh folder, read with
/// `try TemporaryFolder.current` in the test, and removed when the test ends, whether it passed, failed or threw.
/// It replaces the two-line `let folder = try TemporaryFolder()` / `defer { folder.remove() }` preamble.
public struct TemporaryFolderTrait: TestTrait, SuiteTrait, TestScoping {
    /// The folder's name prefix.
    public let name: String

    /// On a suite, every test function of it (and of its nested suites) gets its own folder.
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let folder = try TemporaryFolder(name)
        defer { folder.remove() }
        try await TemporaryFolder.$scoped.withValue(folder, operation: function)
    }
}

extension Trait where Self == TemporaryFolderTrait {
    /// A fresh temporary folder for the test, removed after it: read it with `try TemporaryFolder.current`.
    public static var temporaryFolder: Self { TemporaryFolderTrait(name: "invoices-test") }

    /// A fresh temporary folder named `name-UUID` for the test, removed after it.
    public static func temporaryFolder(_ name: String) -> Self { TemporaryFolderTrait(name: name) }
}

extension TemporaryFolder {
    @TaskLocal static var scoped: TemporaryFolder?

    /// The folder the test's `.temporaryFolder` trait made; an error when the test has no such trait.
    public static var current: TemporaryFolder {
        get throws {
            guard let scoped else { throw MissingTrait() }
            return scoped
        }
    }

    struct MissingTrait: Error, CustomStringConvertible {
        var description: String { "TemporaryFolder.current needs the test (or its suite) marked @Test(.temporaryFolder)" }
    }
}
