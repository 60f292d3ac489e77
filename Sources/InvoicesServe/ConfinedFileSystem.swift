public import Hummingbird
public import Logging
internal import Foundation

/// Hummingbird's ``LocalFileSystem`` that serves nothing outside its folder: a path whose real location (every
/// symbolic link resolved) is not inside the site's folder is answered as missing.
public struct ConfinedFileSystem: FileProvider {
    let files: LocalFileSystem
    let root: String

    public init(rootFolder: String, logger: Logger) {
        files = LocalFileSystem(rootFolder: rootFolder, threadPool: .singleton, logger: logger)
        root = rootFolder
    }

    public func getFileIdentifier(_ path: String) -> String? { files.getFileIdentifier(path) }

    public func getAttributes(id: String) async throws -> LocalFileSystem.FileAttributes? {
        guard let real = Self.realPath(id), let base = Self.realPath(root),
            real == base || real.hasPrefix(base.hasSuffix("/") ? base : base + "/")
        else { return nil }
        return try await files.getAttributes(id: id)
    }

    public func loadFile(id: String, context: some RequestContext) async throws -> ResponseBody {
        try await files.loadFile(id: id, context: context)
    }

    public func loadFile(id: String, range: ClosedRange<Int>, context: some RequestContext) async throws -> ResponseBody {
        try await files.loadFile(id: id, range: range, context: context)
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
