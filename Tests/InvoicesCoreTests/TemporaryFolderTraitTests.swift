import Foundation
import InvoicesTesting
import Testing

/// `.temporaryFolder` gives each run of a test its own folder and removes it afterwards.
struct TemporaryFolderTraitTests {
    @Test(.temporaryFolder) func theTestsFolderExistsWhileItRuns() throws {
        let folder = try TemporaryFolder.current
        #expect(FileManager.default.fileExists(atPath: folder.url.path))
        #expect(folder.url.lastPathComponent.hasPrefix("invoices-test-"))
    }

    /// Each case of a parameterized test has a folder of its own: a file one case writes is not there for the other.
    @Test(.temporaryFolder, arguments: ["a", "b"]) func eachCaseHasItsOwnFolder(name: String) throws {
        let folder = try TemporaryFolder.current
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
        try Data(name.utf8).write(to: URL(fileURLWithPath: folder.path(name)))
    }

    /// The scope makes the folder (with the trait's name), hands it to the body, and removes it after the body,
    /// also when the body throws.
    @Test func theFolderIsRemovedAfterTheTestEvenWhenItThrows() async throws {
        struct Thrown: Error {}
        let test = try #require(Test.current)
        let seen = Seen()
        let trait: TemporaryFolderTrait = .temporaryFolder("trait-check")
        await #expect(throws: Thrown.self) {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                let folder = try TemporaryFolder.current
                #expect(folder.url.lastPathComponent.hasPrefix("trait-check-"))
                #expect(FileManager.default.fileExists(atPath: folder.url.path))
                seen.path = folder.url.path
                throw Thrown()
            }
        }
        let path = try #require(seen.path)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// Without the trait there is no folder, and the error says what to add.
    @Test func withoutTheTraitTheErrorNamesIt() {
        let error = #expect(throws: (any Error).self) { try TemporaryFolder.current }
        #expect("\(error.map { "\($0)" } ?? "")".contains("@Test(.temporaryFolder)"), "\(String(describing: error))")
    }
}

/// `@Suite(.temporaryFolder)`: every test of the suite gets a folder.
@Suite(.temporaryFolder) struct TemporaryFolderSuiteTraitTests {
    @Test func aTestOfTheSuiteHasAFolder() throws {
        #expect(FileManager.default.fileExists(atPath: try TemporaryFolder.current.url.path))
    }
}

private final class Seen: @unchecked Sendable {
    // @unchecked Sendable: written once inside the scope, read after it returns.
    var path: String?
}
