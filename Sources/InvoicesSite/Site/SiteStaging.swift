public import Foundation

/// A site being written: files go into a staging folder beside the output, from any number of threads, and
/// ``commit()`` swaps the complete folder into place.
///
/// A file whose bytes equal the previous site's file is hard-linked from it instead of written, so unchanged
/// files keep their bytes, inode and modification time (`rsync` then skips them) and cost no disk writes.
public final class SiteStaging: @unchecked Sendable {
    // @unchecked Sendable: the mutable counters and folder set are only touched under `lock`; the rest is immutable.
    let writer: SiteWriter
    let folder: URL
    private let lock = NSLock()
    private var madeFolders: Set<String> = []
    private var files = 0
    private var pages = 0
    private var changed = 0
    private var failure: SiteWriteError?

    init(writer: SiteWriter, folder: URL) {
        self.writer = writer
        self.folder = folder
        madeFolders.insert(folder.path)
    }

    /// Writes one file of the site at `path` (relative to the site's root).
    /// - Returns: The file's entry for the build manifest (its size and the fingerprint of its bytes).
    /// - Throws: ``SiteWriteError`` naming the reason (e.g. no space left on device).
    @discardableResult
    public func write(_ path: String, _ data: Data) throws(SiteWriteError) -> SiteManifest.File {
        let target = folder.appendingPathComponent(path)
        let directory = target.deletingLastPathComponent().path
        let previous = writer.output.appendingPathComponent(path).path
        do {
            try makeFolder(directory)
            let unchanged = Self.sameBytes(previous, data)
            if !(unchanged && link(previous, target.path) == 0) {
                try Self.writeFile(target.path, data)
            }
            lock.withLock {
                files += 1
                if path.hasSuffix(".html") { pages += 1 }
                if !unchanged { changed += 1 }
            }
            let hash = data.withUnsafeBytes { Fingerprint.of($0) }
            return SiteManifest.File(path: path, size: data.count, hash: hash)
        } catch {
            let failure = SiteWriteError(
                path: writer.output.path, message: "cannot write the site: \(error.message); the previous site is untouched")
            lock.withLock { if self.failure == nil { self.failure = failure } }
            throw failure
        }
    }

    /// Puts the previous site's files of a unit into the new site unchanged (hard links: same bytes, inode and
    /// modification time), when each of them is still in the output with the size and bytes the manifest recorded.
    /// - Returns: Whether it did; when false, nothing of the unit is in the new site and it must be rendered.
    public func reuse(_ files: [SiteManifest.File]) -> Bool {
        var linked: [String] = []
        for file in files {
            let previous = writer.output.appendingPathComponent(file.path).path
            let target = folder.appendingPathComponent(file.path)
            guard (try? makeFolder(target.deletingLastPathComponent().path)) != nil,
                SiteManifest.verify(previous, size: file.size, hash: file.hash), link(previous, target.path) == 0
            else {
                for path in linked { unlink(path) }
                return false
            }
            linked.append(target.path)
        }
        lock.withLock {
            self.files += files.count
            pages += files.count { $0.path.hasSuffix(".html") }
        }
        return true
    }

    /// Swaps the staging folder into the place of the output folder.
    /// - Throws: ``SiteWriteError`` when a write failed or the swap is impossible; the previous site is untouched.
    public func commit() throws(SiteWriteError) -> BuildSummary {
        if let failure = lock.withLock({ self.failure }) {
            discard()
            throw failure
        }
        do {
            try writer.swap(folder)
        } catch {
            discard()
            throw error
        }
        return lock.withLock { BuildSummary(files: files, pages: pages, changed: changed) }
    }

    /// Removes the staging folder; the previous site stays as it was.
    public func discard() {
        try? FileManager.default.removeItem(at: folder)
    }

    private func makeFolder(_ path: String) throws(POSIXFailure) {
        let known = lock.withLock { madeFolders.contains(path) }
        guard !known else { return }
        if mkdir(path, 0o755) != 0, errno != EEXIST {
            if errno == ENOENT {
                try makeFolder((path as NSString).deletingLastPathComponent)
                if mkdir(path, 0o755) != 0, errno != EEXIST { throw POSIXFailure(errno: errno) }
            } else {
                throw POSIXFailure(errno: errno)
            }
        }
        lock.withLock { _ = madeFolders.insert(path) }
    }

    /// Whether the file at `path` exists and holds exactly `data`.
    static func sameBytes(_ path: String, _ data: Data) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == data.count else { return false }
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.readToEnd()) ?? Data() == data
    }

    /// Writes `data` to a new file at `path` with POSIX calls, so errors carry their errno.
    static func writeFile(_ path: String, _ data: Data) throws(POSIXFailure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXFailure(errno: errno) }
        var failure: Int32 = 0
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure != 0 { throw POSIXFailure(errno: failure) }
    }
}

/// A failed system call, described by `strerror`.
struct POSIXFailure: Error {
    let errno: Int32
    var message: String { String(cString: strerror(errno)) }
}
