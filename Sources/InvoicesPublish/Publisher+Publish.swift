internal import Foundation

extension Publisher {
    /// What a publish did.
    public struct Result: Sendable {
        /// The release now current.
        public var release: String
        /// The release current before, if any.
        public var previous: String?
        /// Files in the release.
        public var files: Int
        /// Files uploaded (new or changed); the others were hard-linked from kept releases.
        public var transferred: Int
        /// The release folder existed already (same content published before): nothing was uploaded.
        public var reused: Bool
        /// Releases removed to keep ``PublishOptions/keep``.
        public var removed: [String]
        /// Files beside the releases that changed (`htpasswd`, `nginx.conf`).
        public var changedServerFiles: [String]
    }

    /// Publishes the site folder as a new release and makes it current.
    /// - Throws: ``PublishError``; `current` is unchanged unless the error says otherwise.
    public func publish() throws(PublishError) -> Result {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let release = try scratch.releaseExtras(options: options, target: target)
        let manifest = try ReleaseManifest(folders: [options.site, release])
        let id = manifest.id
        let state = try self.state(create: true)

        try uploadServerFiles(scratch: scratch, state: state)
        var transferred = 0
        let reused = state.releases.contains(id)
        if !reused {
            var arguments = ["-rlc", "--delete", "--chmod=D755,F644", "--stats"]
            let kept = Self.newestFirst(history: state.history, existing: state.releases, current: state.current)
            arguments += Self.linkDestinations(kept, destination: target.path)
            let (remoteArguments, prefix) = rsyncRemote()
            arguments += remoteArguments
            arguments += [options.site + "/", release + "/", prefix + target.path + "/releases/.\(id).partial/"]
            let current = state.current.map { "release \($0)" } ?? "nothing (no release was current)"
            let stats: String
            do {
                stats = try rsync(arguments, what: "uploading release \(id) to \(target)")
            } catch {
                throw PublishError(error.code, "\(error.message)\n\(target)/current still points at \(current); nothing was switched")
            }
            transferred = Self.statistic("Number of regular files transferred", in: stats) ?? manifest.files.count
        }

        var history = state.history
        if history.last != id { history.append(id) }
        let keep = Self.kept(history: history, current: id, count: options.keep)
        let removed = Self.removable(releases: state.releases, history: history, keep: keep)
        do {
            try activate(id, partial: !reused, history: history, remove: removed, partials: state.partials.filter { $0 != id })
        } catch {
            throw PublishError(error.code, "\(error.message)\nrelease \(id) is uploaded but \(target)/current may still point at the previous release; run the publish again")
        }
        return Result(
            release: id, previous: state.current, files: manifest.files.count, transferred: transferred, reused: reused,
            removed: removed, changedServerFiles: scratch.changedServerFiles)
    }

    /// Points `current` at `id` (finishing its upload first when `partial`), writes the history, removes releases.
    func activate(_ id: String, partial: Bool, history: [String], remove: [String], partials: [String]) throws(PublishError) {
        // Every id named in the script is one the tool made or validated (``isReleaseID``), and quoted besides.
        for value in [id] + history + remove + partials where !Self.isReleaseID(value) {
            throw PublishError(.internalError, "\(target): refusing to name '\(value)' in a command: not a release id")
        }
        let release = shellQuoted("releases/" + id)
        let upload = shellQuoted("releases/.\(id).partial")
        var script = """
            set -e
            cd \(shellQuoted(target.path))

            """
        if partial {
            script += "if [ ! -d \(release) ]; then mv -- \(upload) \(release); else rm -rf -- \(upload); fi\n"
        }
        script += """
            [ -d \(release) ]
            rm -f .current.new
            ln -s \(release) .current.new
            # rename(2) over the old link: readers see the old release or the new one, never neither.
            mv -T .current.new current 2>/dev/null || mv -fh .current.new current
            printf '%s\\n' \(history.suffix(100).map(shellQuoted).joined(separator: " ")) > .history.new
            mv -f .history.new history

            """
        for old in remove { script += "rm -rf -- \(shellQuoted("releases/" + old))\n" }
        for old in partials { script += "rm -rf -- \(shellQuoted("releases/.\(old).partial"))\n" }
        _ = try shell(script, step: "switch current to release \(id)")
    }

    /// The releases to keep: `current` and the newest `count - 1` others from the history.
    static func kept(history: [String], current: String, count: Int) -> Set<String> {
        var keep: Set<String> = [current]
        for id in history.reversed() where keep.count < max(count, 1) { keep.insert(id) }
        return keep
    }

    /// The release folders `--keep` removes: those the destination's history lists (the ids this tool published there)
    /// and `keep` does not. A folder named like a release that the history does not list, one someone else put in
    /// `releases/`, is never removed.
    static func removable(releases: [String], history: [String], keep: Set<String>) -> [String] {
        let published = Set(history)
        return releases.filter { published.contains($0) && !keep.contains($0) }
    }

    /// The existing releases, the current one first, then as published, newest first; then any others.
    static func newestFirst(history: [String], existing: [String], current: String?) -> [String] {
        var order: [String] = []
        for id in [current].compactMap({ $0 }) + history.reversed() + existing where existing.contains(id) && !order.contains(id) {
            order.append(id)
        }
        return order
    }

    /// `--link-dest` for the kept releases, newest first (rsync accepts up to 20): unchanged files are hard-linked
    /// from them, changed ones sent as a delta against them. Each is named by its absolute path on the destination,
    /// never as `../<id>` from the upload folder: the receiver of Debian 12's rsync 3.2.7 (3.2.7-1+deb12u6, from
    /// its security fixes; upstream 3.4.3 was reported the same, rsync issue #928) cannot open a delta basis under a
    /// relative `../` folder, so every changed file whose delta reuses blocks of a kept release failed ("failed
    /// verification -- update discarded", rsync exit 23). An absolute folder works with 3.2.7 and 3.5.0, through a
    /// symbolic link in the destination's path too (docs/publishing.md).
    static func linkDestinations(_ kept: [String], destination: String) -> [String] {
        let releases = (destination == "/" ? "" : destination) + "/releases/"
        return kept.prefix(20).map { "--link-dest=" + releases + $0 }
    }

    /// A number from rsync's `--stats` output, e.g. "Number of regular files transferred: 1,234".
    static func statistic(_ name: String, in output: String) -> Int? {
        for line in output.split(separator: "\n") where line.hasPrefix(name + ":") {
            let digits = line.dropFirst(name.count + 1).drop(while: { $0 == " " }).prefix { $0.isNumber || $0 == "," }
            return Int(digits.filter(\.isNumber))
        }
        return nil
    }

    /// Writes `htpasswd` and the nginx snippet beside the releases (only what changed is uploaded).
    func uploadServerFiles(scratch: Scratch, state: State) throws(PublishError) {
        var files: [(String, String)] = []
        if let users = options.users {
            files.append((ServerSnippet.htpasswdName, try Htpasswd(usersFile: users, previous: state.htpasswd, cost: options.bcryptCost).text))
        }
        if let snippet = snippet, snippet.kind == .nginx { files += snippet.files }
        guard !files.isEmpty else { return }
        let folder = try scratch.folder("server")
        let secretMode = options.webGroup == nil ? 0o644 : 0o640
        for (name, text) in files { try scratch.write(text, to: folder + "/" + name, mode: name == ServerSnippet.htpasswdName ? secretMode : 0o644) }
        let (remoteArguments, prefix) = rsyncRemote()
        // -p keeps the modes; with a web group, -g --chown gives the files to it (docs/publishing.md).
        let group = options.webGroup.map { ["-g", "--chown=:\($0)"] } ?? []
        let output = try rsync(
            ["-lpc", "--itemize-changes"] + group + remoteArguments + files.map { folder + "/" + $0.0 } + [prefix + target.path + "/"],
            what: "uploading \(files.map(\.0).joined(separator: " and ")) to \(target)")
        scratch.changedServerFiles = files.map(\.0).filter { name in
            output.split(separator: "\n").contains { $0.hasPrefix(">f") && $0.hasSuffix(" " + name) }
        }
    }

    /// The snippet the options ask for, or nil.
    var snippet: ServerSnippet? {
        options.server.map {
            ServerSnippet(kind: $0, destination: target.path, urlPath: options.urlPath, authentication: options.users != nil, isPublic: options.isPublic)
        }
    }
}

/// A temporary folder for the files a publish generates (never inside the site folder).
final class Scratch: @unchecked Sendable {
    // @unchecked Sendable: used by one publish on one thread; `changedServerFiles` is set once before it is read.
    let root: String
    var changedServerFiles: [String] = []

    init() throws(PublishError) {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("invoices-publish-\(UUID().uuidString)").path
        do {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw PublishError(.cannotCreate, "\(root): cannot create a temporary folder: \(error)")
        }
    }

    func folder(_ name: String) throws(PublishError) -> String {
        let path = root + "/" + name
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw PublishError(.cannotCreate, "\(path): cannot create: \(error)")
        }
        return path
    }

    func write(_ text: String, to path: String, mode: Int) throws(PublishError) {
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: mode]) else {
                throw CocoaError(.fileWriteUnknown)
            }
        } catch {
            throw PublishError(.cannotCreate, "\(path): cannot write: \(error)")
        }
    }

    /// The files a release gets besides the site (Apache's `.htaccess` files); returns their folder.
    func releaseExtras(options: PublishOptions, target: PublishTarget) throws(PublishError) -> String {
        let folder = try self.folder("release")
        if options.server == .apache {
            let snippet = ServerSnippet(
                kind: .apache, destination: target.path, urlPath: options.urlPath, authentication: options.users != nil,
                isPublic: options.isPublic)
            for (path, text) in snippet.files { try write(text, to: folder + "/" + path, mode: 0o644) }
        }
        return folder
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }
}
