public import Foundation

/// A folder with the v2 cases' store (payments, a write-off, a tax line, a credit note), built through the binary
/// into `site` with its trail beside it: the project the CLI tests of closed periods and of the files the tool reads
/// share, rather than a copy each.
public struct BuiltProject {
    public let folder: TemporaryFolder
    /// Seconds `run` may take before `timeout` stops the binary (a hang then fails the test instead of the run).
    public let timeout: Int?
    public var store: String { folder.path("books.sqlite") }
    public var site: String { folder.path("site") }
    public var trail: String { folder.path(".site.trail") }

    public init(timeout: Int? = nil) throws {
        folder = try TemporaryFolder()
        self.timeout = timeout
        try StoreFixture.make(at: folder.path("books.sqlite"), sql: StoreFixture.v2Cases, version: 2)
    }

    /// `invoices ARGUMENTS`, under `timeout` when the project has one.
    public func run(_ arguments: [String]) throws -> CLI.Result {
        guard let timeout else { return try CLI.run(arguments) }
        let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        return try CLI.shell("timeout \(timeout) '\(CLI.executable.path)' \(quoted)")
    }

    public func build(_ extra: [String] = [], output: String? = nil) throws -> CLI.Result {
        try run(["build", "--store", store, "--output", output ?? site, "--quiet"] + extra)
    }

    public func sql(_ text: String) throws { try StoreFixture.execute(store, text) }

    /// The text of the site's file at `path`.
    public func text(_ path: String) throws -> String { try String(contentsOfFile: site + "/" + path, encoding: .utf8) }

    /// Every file of the site with its bytes.
    public func files() throws -> [String: Data] { try SiteFiles.read(site) }
}
