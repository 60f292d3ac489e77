internal import Foundation

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
    public func removeRetiredSites() -> RetiredSitesRemoval {
        let parent = output.deletingLastPathComponent().path
        let prefix = retiredPrefix
        let removal = RetiredSitesRemoval()
        Thread.detachNewThread {
            defer { removal.finish() }
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return }
            for name in names where name.hasPrefix(prefix) && name.dropFirst(prefix.count).allSatisfy(\.isNumber) {
                let path = parent + "/" + name
                var info = stat()
                guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { continue }
                try? FileManager.default.removeItem(atPath: path)
            }
        }
        return removal
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

    init() {}

    func finish() { done.signal() }

    /// Returns once the removal is over (at once when it already is).
    public func wait() {
        done.wait()
        done.signal()
    }
}
