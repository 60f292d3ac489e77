internal import Foundation

/// The previous site's folders that one unit's files are in, each opened once under the output folder as
/// ``PreviousFile`` opens them (one component at a time, `O_NOFOLLOW`, only confined paths), so that a reused file
/// whose stamp is trusted is hard-linked from its folder without being opened (``SiteStaging/reuse(_:from:)``).
struct PreviousFolders {
    private let root: String
    /// Each folder's descriptor by its path under the root ("" for the root); -1 for one that cannot be opened.
    private var opened: [Substring: Int32] = [:]

    init(root: String) { self.root = root }

    /// The open folder holding `path` and the file's name in it; nil when the path is not confined or a folder on
    /// the way is missing, not a folder, or a symbolic link.
    mutating func locate(_ path: String) -> (folder: Int32, name: String)? {
        guard PreviousFile.isConfined(path) else { return nil }
        let slash = path.lastIndex(of: "/")
        let parent = slash.map { path[..<$0] } ?? ""
        let name = String(slash.map { path[path.index(after: $0)...] } ?? path[...])
        let folder = open(parent)
        return folder >= 0 ? (folder, name) : nil
    }

    /// The folder at `folder` under the root, opened once.
    private mutating func open(_ folder: Substring) -> Int32 {
        if let known = opened[folder] { return known }
        let descriptor: Int32
        if folder.isEmpty {
            descriptor = Foundation.open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        } else {
            let slash = folder.lastIndex(of: "/")
            let parent = open(slash.map { folder[..<$0] } ?? "")
            let name = String(slash.map { folder[folder.index(after: $0)...] } ?? folder)
            descriptor = parent >= 0 ? openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1
        }
        opened[folder] = descriptor
        return descriptor
    }

    func close() {
        for descriptor in opened.values where descriptor >= 0 { Foundation.close(descriptor) }
    }
}
