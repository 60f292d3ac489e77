internal import Foundation
internal import Synchronization
internal import InvoicesCore

/// The previous site, once a build has swapped the new one into place, is retired rather than removed: renamed to
/// ``SiteWriter/retiredURL`` beside the output (`.Output.retired-PID` for `Output`), and removed by the next build on a
/// thread of its own while that build reads the store (``SiteWriter/removeRetiredSites()``).
///
/// Removing a site is mostly waiting: on a file system mounted with `discard` every freed extent and folder block is
/// discarded before `unlink`/`rmdir` returns (at S about 1 s for the previous exports and folders, with little CPU),
/// and it ran on one core at the end of the build, after the swap. A retired folder is never part of a site: the output
/// folder is the new site from the swap on, whether or not its predecessor is gone yet.
extension SiteWriter {
    /// The start of the name of a retired site beside the output (`.Output.retired-`).
    var retiredPrefix: String { ".\(output.lastPathComponent).retired-" }

    /// Where this process retires the previous site after the swap (`.Output.retired-PID`).
    var retiredURL: URL {
        output.deletingLastPathComponent().appendingPathComponent(retiredPrefix + "\(getpid())")
    }

    /// Starts removing every retired site beside the output (``retiredURL`` of any build, finished or killed), on a
    /// thread of its own; ``RetiredSitesRemoval/wait()`` waits for it. Only folders are removed (`lstat`: a link
    /// of that name is left alone), without following links inside them.
    ///
    /// One of them is emptied rather than removed: renamed to ``spareURL`` (this build's own name, so no other build
    /// touches it), its files and links unlinked and its folders kept (``SpareTree``), for ``begin(reusing:)`` to take
    /// as the new site's staging folder, so that a rebuild makes no folders (`mkdir` after many freed inodes scans past
    /// each of them on ext4 without a journal: docs/performance.md). When anything in it is not as a build leaves it
    /// (a folder of another owner, a folder replaced meanwhile), it is removed whole as the others.
    public func removeRetiredSites() -> RetiredSitesRemoval {
        let parent = output.deletingLastPathComponent().path
        let prefix = retiredPrefix
        let spare = spareURL.path
        let removal = RetiredSitesRemoval()
        Thread.detachNewThread {
            var tree: SpareTree?
            defer { removal.finish(tree) }
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return }
            for name in names where name.hasPrefix(prefix) && name.dropFirst(prefix.count).allSatisfy(\.isNumber) {
                let path = parent + "/" + name
                var info = stat()
                guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { continue }
                // Renamed to this build's own name first, so that two builds never work in one folder: the other's
                // rename fails, and it goes on to the next.
                let mine = tree == nil ? spare : spare + "-" + name
                guard rename(path, mine) == 0 else { continue }
                if tree == nil, let modes = SpareTree.Modes.current(under: parent) {
                    tree = SpareTree.emptying(mine, modes: modes)
                    if tree != nil { continue }
                }
                try? FileManager.default.removeItem(atPath: mine)
            }
        }
        return removal
    }

    /// Where ``removeRetiredSites()`` empties a retired site for this build's staging (`.Output.building-PID.spare`:
    /// a killed build's is removed by the next one with its staging folder, ``removeLeftovers(in:)``).
    var spareURL: URL {
        output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).building-\(getpid()).spare")
    }

    /// Links the trail at ``trailURL`` into the site this build retired (``retiredURL``, when it is a folder), as
    /// `.previous-trail`: the new trail's `rename` over it then frees nothing (600 MB at L, each extent discarded
    /// before `rename` returns on a file system mounted with `discard`); its blocks go with the retired folder.
    public func retireTrail() {
        var info = stat()
        guard lstat(retiredURL.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return }
        _ = link(trailURL.path, retiredURL.path + "/.previous-trail")
    }

    /// Puts the previous site, at `path` after the swap, out of the way: renamed to ``retiredURL`` for the next build
    /// to remove, or removed here when that name is taken (a retired site this build did not remove).
    func retire(_ path: String) {
        if rename(path, retiredURL.path) != 0 { try? FileManager.default.removeItem(atPath: path) }
    }
}

/// The removal of the retired sites ``SiteWriter/removeRetiredSites()`` started.
public final class RetiredSitesRemoval: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let state = Mutex<State>(.running)

    private enum State {
        case running
        /// ``take()`` was called before the removal ended: the thread removes its spare tree itself.
        case declined
        case finished(SpareTree?)
    }

    init() {}

    func finish(_ tree: SpareTree?) {
        let keep = state.withLock { state -> Bool in
            if case .declined = state { return false }
            state = .finished(tree)
            return true
        }
        if !keep, let tree { try? FileManager.default.removeItem(atPath: tree.path) }
        done.signal()
    }

    /// The emptied retired site, when the removal has ended and left one (once: a second call returns nil); nil at
    /// once while it is still running, and then the removal thread removes what it empties.
    func take() -> SpareTree? {
        state.withLock { state in
            switch state {
            case .running:
                state = .declined
                return nil
            case .declined: return nil
            case .finished(let tree):
                state = .finished(nil)
                return tree
            }
        }
    }

    /// Returns once the removal is over (at once when it already is).
    public func wait() {
        done.wait()
        done.signal()
    }
}

/// A retired site emptied for the next staging folder: its files and links unlinked, its folders kept, each with the
/// mode `mkdir` gives a new one.
struct SpareTree: Sendable {
    /// The emptied folder (``SiteWriter/spareURL``).
    let path: String
    /// Its folders, relative to it (`clients`, `clients/acme`), each before those inside it.
    let folders: [String]

    /// The modes a build's folders are made with: the staging folder's (`FileManager`, 0o777) and the others'
    /// (``SiteStaging``, 0o755), less the process's umask, with the set-group-ID bit they inherit.
    struct Modes: Sendable {
        let root: mode_t
        let folder: mode_t

        /// From the umask in `/proc/self/status` (setting the umask to read it would race with the build's
        /// threads) and the folder the site is made in, `parent`: where it has the set-group-ID bit, `mkdir` gives
        /// every folder made under it that bit too. Nil where either cannot be read, and then nothing is reused.
        static func current(under parent: String) -> Modes? {
            var info = stat()
            guard let status = try? RegularFile.text("/proc/self/status", budget: .processStatus),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
                let mask = mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8),
                stat(parent, &info) == 0
            else { return nil }
            let inherited = info.st_mode & S_ISGID
            return Modes(root: 0o777 & ~mask | inherited, folder: 0o755 & ~mask | inherited)
        }
    }

    /// Empties the folder at `path`, keeping its folders: every other entry (a file, a link, anything else) is
    /// unlinked where it is, never followed; each folder is opened with `O_NOFOLLOW` under the one holding it, so a
    /// folder replaced by a link meanwhile is not entered. Nil when a folder is not this user's or cannot be opened,
    /// changed or emptied: then it is removed whole, as before.
    static func emptying(_ path: String, modes: Modes) -> SpareTree? {
        let root = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard root >= 0 else { return nil }
        var folders: [String] = []
        guard empty(root, relative: "", mode: modes.root, modes: modes, folders: &folders) else { return nil }
        return SpareTree(path: path, folders: folders)
    }

    /// Empties the open folder `descriptor` (closed here) as ``emptying(_:modes:)`` says, its folders appended to
    /// `folders` with `relative` before their names.
    private static func empty(_ descriptor: Int32, relative: String, mode: mode_t, modes: Modes, folders: inout [String]) -> Bool {
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_uid == geteuid(),
            info.st_mode & 0o7777 == mode || fchmod(descriptor, mode) == 0,
            let directory = fdopendir(descriptor)
        else {
            close(descriptor)
            return false
        }
        defer { closedir(directory) }
        let handle = dirfd(directory)
        // The names first, then the unlinks: entries removed while reading may be returned or not.
        var names: [(name: String, kind: UInt8)] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            names.append((name, entry.pointee.d_type))
        }
        var inside: [String] = []
        for (name, kind) in names {
            var isFolder = kind == UInt8(DT_DIR)
            if kind == UInt8(DT_UNKNOWN) {
                var entry = stat()
                guard fstatat(handle, name, &entry, AT_SYMLINK_NOFOLLOW) == 0 else { return false }
                isFolder = entry.st_mode & S_IFMT == S_IFDIR
            }
            if isFolder {
                inside.append(name)
            } else if unlinkat(handle, name, 0) != 0 {
                return false
            }
        }
        for name in inside {
            let child = openat(handle, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard child >= 0 else { return false }
            let path = relative.isEmpty ? name : relative + "/" + name
            folders.append(path)
            guard empty(child, relative: path, mode: modes.folder, modes: modes, folders: &folders) else { return false }
        }
        return true
    }
}
