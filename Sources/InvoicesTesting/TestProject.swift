public import Foundation

/// A project in a temporary folder as the CLI tests use one: its store, templates, site and trail paths, files
/// written into it, and `invoices` run against it. The folder is the test's `.temporaryFolder` unless one is given,
/// so the trait removes it; the tests build their own stores and settings on it (``v2Cases(timeout:)`` is the shared
/// one for closed periods and the files the tool reads).
public struct TestProject: Sendable {
    public let folder: TemporaryFolder
    /// Seconds `run` may take before `timeout` stops the binary (a hang then fails the test instead of the run).
    public let timeout: Int?
    /// The store's path (`books.sqlite` in the folder unless the project says otherwise).
    public let store: String
    /// The templates folder's path (`templates` in the folder unless the project says otherwise).
    public let templates: String
    public var site: String { folder.path("site") }
    public var trail: String { folder.path(".site.trail") }
    /// The folder as a URL, to run the binary in.
    public var url: URL { folder.url }

    /// A project in `folder` (the test's `.temporaryFolder` when nil), its store and templates at those relative paths.
    public init(in folder: TemporaryFolder? = nil, store: String = "books.sqlite", templates: String = "templates", timeout: Int? = nil) throws {
        self.folder = try folder ?? TemporaryFolder.current
        self.store = self.folder.path(store)
        self.templates = self.folder.path(templates)
        self.timeout = timeout
    }

    /// The v2 cases' store (payments, a write-off, a tax line, a credit note) at `books.sqlite`.
    public static func v2Cases(timeout: Int? = nil) throws -> TestProject {
        let project = try TestProject(timeout: timeout)
        try StoreFixture.make(at: project.store, sql: StoreFixture.v2Cases, version: 2)
        return project
    }

    /// The path of `name` inside the project's folder.
    public func path(_ name: String) -> String { folder.path(name) }

    /// Writes `text` to `name` in the folder; returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        let path = folder.path(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `invoices ARGUMENTS` (in `directory` when given), under `timeout` when the project has one.
    public func run(_ arguments: [String], in directory: URL? = nil) throws -> CLI.Result {
        guard let timeout else { return try CLI.run(arguments, in: directory) }
        let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let cd = directory.map { "cd '\($0.path)' && " } ?? ""
        return try CLI.shell("\(cd)timeout \(timeout) '\(CLI.executable.path)' \(quoted)")
    }

    /// `invoices build --store STORE --output SITE --quiet EXTRA` (`output` instead of the site when given).
    public func build(_ extra: [String] = [], output: String? = nil) throws -> CLI.Result {
        try run(["build", "--store", store, "--output", output ?? site, "--quiet"] + extra)
    }

    public func sql(_ text: String) throws { try StoreFixture.execute(store, text) }

    /// The store's rows for `query`, as dictionaries.
    public func rows(_ query: String) throws -> [[String: String]] { try StoreFixture.query(store, query) }

    /// The text of the site's file at `path`.
    public func text(_ path: String) throws -> String { try String(contentsOfFile: site + "/" + path, encoding: .utf8) }

    /// Every file of the site (or of `folder`) with its bytes.
    public func files(in folder: String? = nil) throws -> [String: Data] { try SiteFiles.read(folder ?? site) }
}
