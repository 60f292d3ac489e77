internal import Foundation

/// Publishes a built site folder into versioned release folders at a ``PublishTarget`` and switches the served
/// site atomically.
///
/// The layout at the destination:
/// ```
/// DEST/releases/<id>/   one folder per release; <id> derives from the content (``ReleaseManifest``)
/// DEST/current          a symbolic link to releases/<id>: what the web server serves
/// DEST/history          the ids published, oldest first (what --rollback goes back through)
/// DEST/htpasswd         bcrypt hashes, with --users (outside every release)
/// DEST/nginx.conf       with --server nginx
/// ```
/// A release is uploaded into `releases/.<id>.partial/` with `rsync --link-dest` against the kept releases (files
/// whose content is unchanged become hard links, not uploads), renamed to `releases/<id>` when complete, and only
/// then does `current` change: a new link is made beside it and renamed over it, which is atomic. A failure at
/// any step before leaves `current` as it was.
public struct Publisher: Sendable {
    public var target: PublishTarget
    public var options: PublishOptions
    let runner = CommandRunner()

    public init(target: PublishTarget, options: PublishOptions) {
        self.target = target
        self.options = options
    }

    /// What the destination holds.
    public struct State: Sendable, Equatable {
        /// The release `current` points at, or nil.
        public var current: String?
        /// Complete release folders (ids), sorted.
        public var releases: [String] = []
        /// Unfinished uploads (ids) left by an interrupted publish.
        public var partials: [String] = []
        /// The ids published, oldest first.
        public var history: [String] = []
        /// The published htpasswd file's text, if any.
        public var htpasswd: String?
        /// Whether the destination folder exists.
        public var exists = true
    }

    /// Reads the destination's state. With `create`, makes the folder and `releases/` when missing.
    public func state(create: Bool) throws(PublishError) -> State {
        let folder = shellQuoted(target.path)
        let script = """
            d=\(folder)
            if [ ! -d "$d" ]; then \(create ? "mkdir -p \"$d\" || exit 3" : "echo missing; exit 0"); fi
            cd "$d" || exit 3
            \(create ? "mkdir -p releases || exit 3" : "")
            echo "current $(readlink current 2>/dev/null)"
            for r in releases/* releases/.*.partial; do
              [ -d "$r" ] && [ ! -L "$r" ] || continue
              n=${r#releases/}; i=${n#.}; i=${i%.partial}
              case $i in ''|*[!0-9a-f]*) continue;; esac
              [ ${#i} -eq 16 ] && echo "release $n"
            done
            if [ -f history ]; then while IFS= read -r l; do echo "history $l"; done < history; fi
            if [ -f \(ServerSnippet.htpasswdName) ]; then while IFS= read -r l; do echo "htpasswd $l"; done < \(ServerSnippet.htpasswdName); fi
            echo end
            """
        let output = try shell(script, step: "read the destination")
        var state = State()
        var htpasswd: [String] = []
        for line in output.split(separator: "\n") {
            if line == "missing" { state.exists = false; continue }
            guard let space = line.firstIndex(of: " ") else { continue }
            let value = String(line[line.index(after: space)...])
            switch line[..<space] {
            case "current": state.current = value.hasPrefix("releases/") ? String(value.dropFirst("releases/".count)) : nil
            case "release":
                // Only names the tool itself makes are ever used (a release id, or `.ID.partial`): any other
                // folder there is left alone, never named in a command.
                if value.hasPrefix("."), value.hasSuffix(".partial"), Self.isReleaseID(String(value.dropFirst().dropLast(".partial".count))) {
                    state.partials.append(String(value.dropFirst().dropLast(".partial".count)))
                } else if Self.isReleaseID(value) {
                    state.releases.append(value)
                }
            case "history": if Self.isReleaseID(value) { state.history.append(value) }
            case "htpasswd": htpasswd.append(value)
            default: break
            }
        }
        if state.exists && output.split(separator: "\n").last != "end" {
            throw PublishError(.internalError, "\(target): unexpected answer while reading the destination: \(output.prefix(200))")
        }
        if !htpasswd.isEmpty { state.htpasswd = htpasswd.joined(separator: "\n") + "\n" }
        state.releases.sort()
        return state
    }

    /// Whether `text` is a release id as ``ReleaseManifest`` makes them: 16 lowercase hexadecimal digits (ASCII).
    static func isReleaseID(_ text: String) -> Bool {
        text.utf8.count == 16 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Runs `script` with `sh` on the destination's machine and returns its standard output.
    func shell(_ script: String, step: String) throws(PublishError) -> String {
        let output: CommandRunner.Output
        if let server = target.server {
            output = try runner.run("ssh", sshArguments(server) + [server.login, "sh -s"], input: "set -u\n" + script + "\n")
            if output.notFound { throw PublishError(.unavailable, "ssh is not installed; install openssh-client") }
            if output.status == 255 {
                throw PublishError(.unavailable, "cannot \(step): ssh to \(server.login) failed: \(output.errorTail)")
            }
        } else {
            output = try runner.run("sh", ["-s"], input: "set -u\n" + script + "\n")
        }
        guard output.status == 0 else {
            throw PublishError(.transfer, "\(target): cannot \(step) (exit \(output.status)): \(output.errorTail)")
        }
        return output.stdout
    }

    /// The options every `ssh` gets: never ask for a password (`BatchMode`), the port, the key, the known hosts.
    func sshArguments(_ server: PublishTarget.Server) -> [String] {
        var arguments = ["-o", "BatchMode=yes", "-o", "ConnectTimeout=20"]
        if let port = server.port { arguments += ["-p", String(port)] }
        if let identity = options.identity { arguments += ["-i", identity, "-o", "IdentitiesOnly=yes"] }
        if let knownHosts = options.knownHosts {
            arguments += ["-o", "UserKnownHostsFile=\(knownHosts)", "-o", "StrictHostKeyChecking=yes"]
        }
        return arguments
    }

    /// rsync's arguments to reach the destination: `-e ssh ...` and the remote prefix `user@host:`.
    func rsyncRemote() -> (arguments: [String], prefix: String) {
        guard let server = target.server else { return ([], "") }
        let ssh = (["ssh"] + sshArguments(server)).map { $0.allSatisfy { $0.isLetter || $0.isNumber || "-=_./:".contains($0) } ? $0 : shellQuoted($0) }
        return (["-e", ssh.joined(separator: " ")], server.login + ":")
    }

    /// Runs rsync; standard output is returned, failures become ``PublishError``s naming `what`.
    func rsync(_ arguments: [String], what: String) throws(PublishError) -> String {
        var all = arguments
        if let limit = options.bandwidthLimit { all.insert("--bwlimit=\(limit)", at: 0) }
        let output = try runner.run("rsync", all)
        if output.notFound { throw PublishError(.unavailable, "rsync is not installed; install it (apt-get install rsync)") }
        switch output.status {
        case 0: return output.stdout
        case 255: throw PublishError(.unavailable, "\(what) failed: cannot reach \(target): \(output.errorTail)")
        default: throw PublishError(.transfer, "\(what) failed (rsync exit \(output.status)): \(output.errorTail)")
        }
    }
}

/// How to publish, besides the destination.
public struct PublishOptions: Sendable {
    /// The built site folder.
    public var site: String
    /// How many releases to keep, the current one included (at least 1).
    public var keep = 5
    /// The SSH private key (`-i`); by default the agent's or ssh's own.
    public var identity: String?
    /// A known_hosts file holding the server's key; then no other key is accepted.
    public var knownHosts: String?
    /// Upload at most this many KiB per second.
    public var bandwidthLimit: Int?
    /// Write a web-server snippet for this server.
    public var server: ServerSnippet.Kind?
    /// The users file (`name:password` lines) that the htpasswd file is made from.
    public var users: String?
    /// The address path the site is served under (for the snippet).
    public var urlPath = "/reports/"
    /// The bcrypt cost for new hashes.
    public var bcryptCost = Bcrypt.defaultCost
    /// The web server's group: the htpasswd file is given to it and made unreadable to others (0640). Without
    /// it the file is readable by every local user (0644), as `htpasswd` makes it.
    public var webGroup: String?
    /// No `X-Robots-Tag: noindex` in the snippet.
    public var isPublic = false

    public init(site: String) { self.site = site }

    /// Whether `path` is `folder` or lies anywhere under it, however either is spelt: relative, through `./` or
    /// `..`, or through symbolic links (both are resolved as the system resolves them).
    public static func isInside(_ path: String, folder: String) -> Bool {
        func resolved(_ path: String) -> String {
            if let real = realpath(path, nil) {
                defer { free(real) }
                return String(cString: real)
            }
            return URL(fileURLWithPath: path).standardizedFileURL.path
        }
        let file = resolved(path)
        let root = resolved(folder)
        return file == root || file.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }
}
