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
    /// The folders of an emptied retired site taken as the staging folder (``SiteWriter/begin(reusing:)``), as
    /// paths; those the new site uses are in ``madeFolders`` too, the others are removed before the swap.
    private var takenFolders: Set<String> = []
    private let tookFolders: Bool
    private var files = 0
    private var pages = 0
    private var changed = 0
    private var reused = 0
    private var failure: SiteWriteError?
    private var previousFilesRead = 0
    private var previousFilesOpened = 0
    private var previousBytesRead = 0
    private var piecesReused = 0
    private var piecesMade = 0
    /// The staging folder's modification time when it was made and its ``SiteWriter/marker`` put in (nanoseconds, the
    /// file system's own clock): a previous file whose bytes were read and whose modification time is older than
    /// this had not changed since the build began, so its stamp vouches for the bytes read.
    let started: Int64?

    /// ``folder``'s and the output folder's paths, worked out once.
    private let folderPath: String
    private let outputPath: String

    init(writer: SiteWriter, folder: URL, taken: [String] = []) {
        self.writer = writer
        self.folder = folder
        folderPath = folder.path
        outputPath = writer.output.path
        madeFolders.insert(folder.path)
        takenFolders = Set(taken.lazy.map { folder.path + "/" + $0 })
        tookFolders = !taken.isEmpty
        var info = stat()
        started = lstat(folder.path, &info) == 0 ? SiteManifest.Stamp.nanoseconds(info.st_mtim) : nil
    }

    /// How many previous files ``reuse(_:from:)`` read the bytes of, so far, because their stamps could not be trusted.
    public var reusedFilesRead: Int { lock.withLock { previousFilesRead } }

    /// How many previous files ``reuse(_:from:)`` opened, so far: those it could not link by their trusted stamp alone.
    public var reusedFilesOpened: Int { lock.withLock { previousFilesOpened } }

    /// How many bytes of previous files the writer read back, so far, to compare new files with them or to copy
    /// their equal start into a file that then differed (a copy the kernel made is not counted): reused export
    /// pieces, known as the previous file's bytes, are not among them.
    var previousBytesCompared: Int { lock.withLock { previousBytesRead } }

    /// How many pieces of the exports were taken from the previous build's files, and how many were made
    /// (``ExportPieces``), so far.
    public var exportPieces: (reused: Int, made: Int) { lock.withLock { (piecesReused, piecesMade) } }

    func recordPieces(reused: Int, made: Int) {
        lock.withLock {
            piecesReused += reused
            piecesMade += made
        }
    }

    /// Writes one file of the site at `path` (relative to the site's root).
    /// - Returns: The file's entry for the build manifest (its size and the fingerprint of its bytes).
    /// - Throws: ``SiteWriteError`` naming the reason (e.g. no space left on device).
    @discardableResult
    public func write(_ path: String, _ data: Data) throws(SiteWriteError) -> SiteManifest.File {
        try write(path) { emit in data.withUnsafeBytes(emit) }
    }

    /// Writes one rendered file of the site, piece by piece.
    @discardableResult
    public func write(_ file: SiteBuilder.File) throws(SiteWriteError) -> SiteManifest.File {
        try write(file.path) { emit in
            for piece in file.pieces { piece.withUnsafeBytes(emit) }
        }
    }

    /// Writes one file of the site at `path` from the pieces `produce` hands to `emit`, in order, so a file
    /// never has to be in memory whole (`report.json` is 385 MB at 2,000,000 invoices).
    ///
    /// While the pieces equal the previous site's file, nothing is written; if the whole file equals it, the
    /// previous file is hard-linked instead. At the first difference the equal start is copied from the previous
    /// file and the rest written.
    /// - Returns: The file's entry for the build manifest (its size and the fingerprint of its bytes).
    /// - Throws: ``SiteWriteError`` naming the reason (e.g. no space left on device).
    @discardableResult
    public func write(
        _ path: String, streaming produce: (_ emit: (UnsafeRawBufferPointer) -> Void) -> Void
    ) throws(SiteWriteError) -> SiteManifest.File {
        try write(path, reading: nil) { emit in
            withoutActuallyEscaping(emit) { emit in produce { emit($0, nil) } }
        }
    }

    /// Writes one file of the site as ``write(_:streaming:)`` does, some of its pieces bytes just read from the
    /// previous site's file at `path` through `source` (another descriptor of that file: a reused export piece,
    /// ``ExportPieces/Source``). `emit(bytes, offset)` hands made bytes with a nil offset, and read bytes with the
    /// offset they were read at. While the new file equals the previous one so far and read bytes are at their old
    /// place, they are the previous file's bytes there: they are not read again to be compared, so each reused
    /// byte is read once.
    func write(
        _ path: String, reading source: Int32?, streaming produce: (_ emit: (UnsafeRawBufferPointer, Int?) -> Void) -> Void
    ) throws(SiteWriteError) -> SiteManifest.File {
        let target = folder.appendingPathComponent(path)
        do {
            try makeFolder(target.deletingLastPathComponent().path)
            if tookFolders { clearTakenFolder(target.path) }
            var file = FileStream(target: target.path, previous: PreviousFile(path, under: writer.output.path), started: started)
            defer { file.close() }
            let sameFile = source.map { file.isPrevious($0) } ?? false
            produce { bytes, offset in
                if sameFile, let offset { file.add(bytes, readFromPreviousAt: offset) } else { file.add(bytes) }
            }
            let unchanged = try file.finish()
            lock.withLock {
                previousBytesRead += file.read
                files += 1
                if path.hasSuffix(".html") { pages += 1 }
                if !unchanged { changed += 1 }
            }
            return SiteManifest.File(path: path, size: file.size, hash: file.fingerprint.value, stamp: file.stamp)
        } catch {
            let failure = SiteWriteError(
                path: writer.output.path, message: "cannot write the site: \(error.message); the previous site is untouched")
            lock.withLock { if self.failure == nil { self.failure = failure } }
            throw failure
        }
    }

    /// Puts the previous site's files of a unit into the new site unchanged (hard links: same bytes, inode and
    /// modification time), when each of them is still in the output with the size and bytes the manifest recorded.
    ///
    /// A file whose size and stamp are still those `manifest` recorded is trusted without reading it
    /// (``SiteManifest/trusts(_:_:)``); any other is read and fingerprinted, and then gets a stamp only when it was
    /// last modified before this build began (``started``).
    /// - Returns: The unit's files with their stamps for the new manifest; nil when any file is missing or differs,
    ///   and then nothing of the unit is in the new site and it must be rendered.
    public func reuse(_ files: [SiteManifest.File], from manifest: SiteManifest? = nil) -> [SiteManifest.File]? {
        var linked: [String] = []
        var kept = files
        var read = 0
        var opened = 0
        var folders = PreviousFolders(root: outputPath)
        defer {
            folders.close()
            if read > 0 || opened > 0 { lock.withLock { previousFilesRead += read; previousFilesOpened += opened } }
        }
        for index in kept.indices {
            let file = kept[index]
            // Paths joined as text: `file.path` is confined (checked by `locate` and PreviousFile before use), and
            // URL's joins cost more than the link itself on a rebuild that reuses thousands of files.
            let target = folderPath + "/" + file.path
            let parent = String(target[..<(target.lastIndex(of: "/") ?? target.endIndex)])
            if tookFolders { clearTakenFolder(target) }
            // A stamp the manifest may trust: the file is linked from its folder (opened once for the unit) without
            // being opened, and the linked file is the one trusted only if its own stamp is the recorded one; else the
            // link is undone and the file opened and read below. Two calls a file instead of a dozen.
            if let manifest, file.stamp != nil, let (folder, name) = folders.locate(file.path), (try? makeFolder(parent)) != nil {
                var info = stat()
                if linkat(folder, name, AT_FDCWD, target, 0) == 0 {
                    if lstat(target, &info) == 0, manifest.trusts(file, info) {
                        linked.append(target)
                        continue
                    }
                    unlink(target)
                }
            }
            opened += 1
            let previous = PreviousFile(file.path, under: outputPath)
            defer { previous?.close() }
            var info = stat()
            guard let previous, fstat(previous.descriptor, &info) == 0, (try? makeFolder(parent)) != nil
            else {
                for path in linked { unlink(path) }
                return nil
            }
            if manifest?.trusts(file, info) != true {
                read += 1
                var after = stat()
                guard SiteManifest.verify(previous.descriptor, size: file.size, hash: file.hash), fstat(previous.descriptor, &after) == 0
                else {
                    for path in linked { unlink(path) }
                    return nil
                }
                kept[index].stamp = SiteManifest.Stamp(vouching: after, before: started)
            }
            guard previous.link(to: target) else {
                for path in linked { unlink(path) }
                return nil
            }
            linked.append(target)
        }
        lock.withLock {
            self.files += files.count
            pages += files.count { $0.path.hasSuffix(".html") }
            reused += files.count
        }
        return kept
    }

    /// Swaps the staging folder into the place of the output folder. The previous site is removed, or with
    /// `retiring` put aside for the next build to remove while it reads the store (``SiteWriter/removeRetiredSites()``).
    /// - Throws: ``SiteWriteError`` when a write failed or the swap is impossible; the previous site is untouched.
    public func commit(retiring: Bool = false) throws(SiteWriteError) -> BuildSummary {
        if let failure = lock.withLock({ self.failure }) {
            discard()
            throw failure
        }
        if tookFolders { removeUnusedFolders() }
        do {
            try writer.swap(folder, retiring: retiring)
        } catch {
            discard()
            throw error
        }
        return lock.withLock { BuildSummary(files: files, pages: pages, changed: changed, reused: reused) }
    }

    /// Removes the staging folder; the previous site stays as it was.
    public func discard() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Removes the taken folders the new site did not use, those inside first, so that the site holds the folders a
    /// full build makes and no other. `rmdir` removes only empty folders: one that holds a file is kept, whatever it
    /// holds.
    private func removeUnusedFolders() {
        let unused = lock.withLock { takenFolders.subtracting(madeFolders) }
        // Descending order puts `a/b` before `a`.
        for path in unused.sorted(by: >) { rmdir(path) }
    }

    /// Removes the taken folder at `path`, and the taken folders inside it, when the new site has a file there (a
    /// folder of the retired site that became a file). They hold no file: only ``removeUnusedFolders()``'s `rmdir`.
    private func clearTakenFolder(_ path: String) {
        let inside = lock.withLock { () -> [String] in
            guard takenFolders.contains(path), !madeFolders.contains(path) else { return [] }
            let prefix = path + "/"
            let found = takenFolders.filter { $0 == path || $0.hasPrefix(prefix) }
            takenFolders.subtract(found)
            return Array(found)
        }
        for folder in inside.sorted(by: >) { rmdir(folder) }
    }

    private func makeFolder(_ path: String) throws(POSIXFailure) {
        let known = lock.withLock {
            if madeFolders.contains(path) { return true }
            guard takenFolders.contains(path) else { return false }
            madeFolders.insert(path)
            return true
        }
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

/// One file of a new site being written piece by piece (``SiteStaging/write(_:streaming:)``), compared on the way
/// with the previous site's file at the same path.
private struct FileStream {
    let target: String
    /// The previous site's file at the same path, opened under the output folder (``PreviousFile``).
    private var previousFile: PreviousFile?
    /// The previous site's file, while every piece so far equals its start; -1 once they differ or without one.
    private var previous: Int32
    /// The new file, once it has to be written; -1 before.
    private var output: Int32 = -1
    private(set) var size = 0
    private(set) var fingerprint = Fingerprint.Bytes()
    /// The bytes read back from the previous file (to compare, or to copy its equal start).
    private(set) var read = 0
    private var failure: Int32 = 0
    private var scratch: UnsafeMutableRawBufferPointer?
    private var pending: UnsafeMutableRawPointer?
    private var pendingCount = 0
    /// When the build began (``SiteStaging/started``).
    private let started: Int64?
    /// The file as ``finish()`` left it, for the manifest (``SiteManifest/File/stamp``).
    private(set) var stamp: SiteManifest.Stamp?

    init(target: String, previous: PreviousFile?, started: Int64?) {
        self.target = target
        previousFile = previous
        self.previous = previous?.descriptor ?? -1
        self.started = started
    }

    mutating func add(_ piece: UnsafeRawBufferPointer) {
        fingerprint.add(piece)
        defer { size += piece.count }
        guard failure == 0, !piece.isEmpty else { return }
        if previous >= 0 {
            if matches(piece, at: size) { return }
            diverge(copying: size)
        }
        if output < 0, !openOutput() { return }
        put(piece)
    }

    /// Whether `descriptor` is open on the previous file (the same device and inode).
    func isPrevious(_ descriptor: Int32) -> Bool {
        guard previous >= 0 else { return false }
        var mine = stat()
        var other = stat()
        return fstat(previous, &mine) == 0 && fstat(descriptor, &other) == 0 && mine.st_dev == other.st_dev && mine.st_ino == other.st_ino
    }

    /// Adds `piece`, bytes just read from the previous file at `offset`: when the new file has equalled the
    /// previous one so far and `offset` is where the piece goes, they are the previous file's own bytes there
    /// and are not read again to be compared; otherwise as ``add(_:)``.
    mutating func add(_ piece: UnsafeRawBufferPointer, readFromPreviousAt offset: Int) {
        guard failure == 0, previous >= 0, offset == size else { return add(piece) }
        fingerprint.add(piece)
        size += piece.count
    }

    /// Ends the file. Returns whether it is the previous file, hard-linked.
    mutating func finish() throws(POSIXFailure) -> Bool {
        if failure == 0, previous >= 0 {
            var info = stat()
            if fstat(previous, &info) == 0, Int(info.st_size) == size, previousFile?.link(to: target) == true {
                // Its bytes were just read and compared: they are the new file's if it was not modified meanwhile.
                stamp = SiteManifest.Stamp(vouching: info, before: started)
                return true
            }
            diverge(copying: size)
        }
        if failure == 0, output < 0 { _ = openOutput() }
        if output >= 0 { flush() }
        // The file as this build wrote it, into its own staging folder.
        var info = stat()
        if failure == 0, output >= 0, fstat(output, &info) == 0, Int(info.st_size) == size { stamp = SiteManifest.Stamp(info) }
        if output >= 0, Foundation.close(output) != 0, failure == 0 { failure = errno }
        output = -1
        if failure != 0 { throw POSIXFailure(errno: failure) }
        return false
    }

    mutating func close() {
        previousFile?.close()
        previousFile = nil
        if output >= 0 { Foundation.close(output) }
        previous = -1
        output = -1
        scratch?.deallocate()
        scratch = nil
        pending?.deallocate()
        pending = nil
    }

    /// Whether the previous file holds `piece` at `offset`.
    private mutating func matches(_ piece: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        let buffer = scratchBuffer(piece.count)
        read += piece.count
        guard readFully(previous, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<piece.count]), at: offset) == piece.count
        else { return false }
        return memcmp(buffer.baseAddress!, piece.baseAddress!, piece.count) == 0
    }

    /// Stops comparing: the new file starts with the previous file's first `count` bytes, copied over.
    private mutating func diverge(copying count: Int) {
        defer { previous = -1 }  // closed with ``previousFile``
        guard openOutput() else { return }
        var offset = 0
        // Copied in the kernel first (page cache to page cache; the new file is empty, nothing is pending): the
        // equal start, already read once to compare or as reused pieces, is not read into the process again.
        while offset < count {
            var position = off_t(offset)
            let sent = sendfile(output, previous, &position, count - offset)
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { break }  // not possible here: read and written below
            offset += sent
        }
        while offset < count, failure == 0 {
            let buffer = scratchBuffer(min(count - offset, 1 << 20))
            let length = min(count - offset, buffer.count)
            let done = readFully(previous, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<length]), at: offset)
            read += length
            guard done == length else {
                failure = done < 0 ? errno : EIO
                return
            }
            put(UnsafeRawBufferPointer(rebasing: buffer[0..<length]))
            offset += length
        }
    }

    private mutating func openOutput() -> Bool {
        if output >= 0 { return true }
        output = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if output < 0 { failure = errno }
        return output >= 0
    }

    /// Writes `bytes` after what was put before. Small pieces (a page's layout around its body) are gathered in
    /// ``pending`` first, so a page is one `write` call, not three.
    private mutating func put(_ bytes: UnsafeRawBufferPointer) {
        if pendingCount + bytes.count <= Self.pendingSize {
            if pending == nil { pending = .allocate(byteCount: Self.pendingSize, alignment: 16) }
            (pending! + pendingCount).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            pendingCount += bytes.count
            return
        }
        flush()
        writeOut(bytes)
    }

    private static let pendingSize = 1 << 16

    private mutating func flush() {
        guard pendingCount > 0, let pending else { return }
        writeOut(UnsafeRawBufferPointer(start: pending, count: pendingCount))
        pendingCount = 0
    }

    private mutating func writeOut(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count, failure == 0 {
            let written = Foundation.write(output, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno != EINTR { failure = errno }
                continue
            }
            offset += written
        }
    }

    private mutating func scratchBuffer(_ count: Int) -> UnsafeMutableRawBufferPointer {
        if let scratch, scratch.count >= count { return scratch }
        scratch?.deallocate()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1 << 16), alignment: 16)
        scratch = buffer
        return buffer
    }
}

/// Reads `buffer.count` bytes of `descriptor` from `offset` (fewer at the end of the file). Returns how many, or -1.
func readFully(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
    var done = 0
    while done < buffer.count {
        let count = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
        if count < 0, errno == EINTR { continue }
        if count < 0 { return -1 }
        if count == 0 { break }
        done += count
    }
    return done
}
