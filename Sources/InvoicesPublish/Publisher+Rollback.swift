internal import Foundation

extension Publisher {
    /// Points `current` back at the release published before it, and forgets the current one in the history
    /// (its folder stays until it is no longer among the kept releases). Returns (from, to).
    /// - Throws: ``PublishError`` with ``PublishError/Code/missingInput`` when there is no earlier release.
    public func rollback() throws(PublishError) -> (from: String, to: String) {
        let state = try self.state(create: false)
        guard state.exists, let current = state.current else {
            throw PublishError(.missingInput, "\(target): nothing is published there (no 'current'); nothing to roll back")
        }
        var history = state.history
        if let last = history.lastIndex(of: current) { history.removeSubrange(last...) }
        while let candidate = history.last, candidate == current || !state.releases.contains(candidate) { history.removeLast() }
        guard let previous = history.last else {
            throw PublishError(.missingInput, "\(target): release \(current) is the oldest one kept; there is no earlier release to roll back to")
        }
        try activate(previous, partial: false, history: history, remove: [], partials: [])
        return (current, previous)
    }

    /// One line of a dry run: what would happen to a file.
    public struct Change: Sendable, Equatable {
        public enum Kind: String, Sendable { case new, changed, deleted }
        public var kind: Kind
        public var path: String
    }

    /// What publishing would do, without writing anything.
    public struct Plan: Sendable {
        public var release: String
        public var current: String?
        public var changes: [Change]
        public var unchanged: Int
        /// The release exists already and would only be switched to (or is current).
        public var exists: Bool
    }

    /// Compares the site with the current release (by content) without writing anything at the destination.
    public func plan() throws(PublishError) -> Plan {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let release = try scratch.releaseExtras(options: options, target: target)
        let manifest = try ReleaseManifest(folders: [options.site, release])
        let state = try self.state(create: false)
        guard state.exists, let current = state.current, state.releases.contains(current) else {
            return Plan(
                release: manifest.id, current: nil, changes: manifest.files.map { Change(kind: .new, path: $0.path) }, unchanged: 0,
                exists: false)
        }
        let (remoteArguments, prefix) = rsyncRemote()
        let output = try rsync(
            ["-n", "-rlc", "--delete", "--chmod=D755,F644", "--itemize-changes"] + remoteArguments
                + [options.site + "/", release + "/", prefix + target.path + "/releases/\(current)/"],
            what: "comparing with release \(current) at \(target)")
        var changes: [Change] = []
        for line in output.split(separator: "\n") {
            if line.hasPrefix("*deleting ") {
                let path = String(line.dropFirst("*deleting ".count).drop(while: { $0 == " " }))
                if !path.hasSuffix("/") { changes.append(Change(kind: .deleted, path: path)) }
            } else if line.count > 12, line.hasPrefix(">f") || line.hasPrefix("<f") {
                let flags = line.prefix(11)
                let path = String(line.dropFirst(12))
                changes.append(Change(kind: flags.contains("+++++") ? .new : .changed, path: path))
            }
        }
        changes.sort { ($0.path, $0.kind.rawValue) < ($1.path, $1.kind.rawValue) }
        let touched = changes.filter { $0.kind != .deleted }.count
        return Plan(
            release: manifest.id, current: current, changes: changes, unchanged: manifest.files.count - touched,
            exists: state.releases.contains(manifest.id))
    }
}
