public import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How much of a file the tool reads before it stops: one budget per kind of file, all of them here.
///
/// Past its budget a file is refused (exit 65) with its name and the limit, instead of filling memory or time.
/// The trail's line budget sits above the longest line the tool writes, so it never refuses its own trail
/// (``trailLine``). Imports have budgets of their own for what is inside a file (counts, depth, text lengths).
public struct FileBudget: Sendable, Equatable, CustomStringConvertible {
    /// The most bytes the file (or, for ``trailLine``, one line of it) may have.
    public let bytes: Int
    /// What the budget is for, in messages: "a project file".
    public let what: String

    public init(bytes: Int, what: String) {
        self.bytes = bytes
        self.what = what
    }

    /// `invoices.yaml`: 1 MB (the documented keys take a few kilobytes).
    public static let projectFile = FileBudget(bytes: 1 << 20, what: "a project file")
    /// Each file of a templates folder (a template, a stylesheet, a script): 4 MB.
    public static let templateFile = FileBudget(bytes: 4 << 20, what: "a file of the templates folder")
    /// The users file `publish` makes the htpasswd file from: 1 MB.
    public static let usersFile = FileBudget(bytes: 1 << 20, what: "a users file")
    /// A client-link key file (`client_links`): 64 KB; a key is 32 bytes or more.
    public static let linkKey = FileBudget(bytes: 64 << 10, what: "a client-link key file")
    /// The exchange-rates CSV (`--rates`): 64 MB.
    public static let rates = FileBudget(bytes: 64 << 20, what: "a rates file")
    /// The build manifest beside the output: 512 MB (about 90 bytes a file of the site).
    public static let manifest = FileBudget(bytes: 512 << 20, what: "a build manifest")
    /// The first line of the trail beside the output: 4 KB (it holds two fingerprints).
    public static let trailHeader = FileBudget(bytes: 4 << 10, what: "a trail's first line")
    /// One line of the trail beside the output: 8 MB. An import keeps notes to 64 KB and names and identifiers to
    /// 1 KB, and a build refuses books with a longer line, so the trail the tool writes always fits. 8 MB, not 1 MB:
    /// a store written by other tools may hold a note of a megabyte (`PathologicalSizeTests.aNoteOfOneMegabyte`),
    /// and its pages build; the comparison is linear in a line's length, so the budget bounds memory, not time.
    public static let trailLine = FileBudget(bytes: 8 << 20, what: "a trail line")
    /// The kernel's status of the running process, `/proc/self/status`, read for the umask: 64 KB (it has about
    /// 1.5 KB).
    public static let processStatus = FileBudget(bytes: 64 << 10, what: "the process status file")
    /// A CSV or JSON file given to `import`: 1 GB.
    public static let importFile = FileBudget(bytes: 1 << 30, what: "an import file")

    /// `1 MB`, `64 KB`, `1048577 bytes`: the budget as the docs write it.
    public var description: String { Self.size(bytes) }

    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 30, bytes % (1 << 30) == 0 { return "\(bytes >> 30) GB" }
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KB" }
        return "\(bytes) bytes"
    }
}

/// A file opened for reading only when it is a regular file: every file the tool reads is opened here.
///
/// The file is opened with `O_NONBLOCK` (opening a FIFO never waits for a writer) and checked with `fstat` on the
/// open descriptor, so what is read is what was checked: a FIFO, socket, device or folder is refused at once. Files
/// the tool writes and owns (the trail, the manifest) are opened with ``Links/refuse`` (`O_NOFOLLOW`): a symbolic
/// link there is refused. Files the user names (a store, templates, rates, a users file, a key) may be links
/// (``Links/follow``), but what they lead to must be a regular file too.
///
/// ```swift
/// let text = try RegularFile.text("invoices.yaml", budget: .projectFile)
/// ```
public final class RegularFile {
    /// Whether a symbolic link at the path itself is followed or refused.
    public enum Links: Sendable { case follow, refuse }

    /// The path, as given (for messages).
    public let path: String
    /// The open descriptor (read-only, blocking again once checked); closed when the value goes away.
    public let descriptor: Int32
    /// The size `fstat` gave when the file was opened.
    public let size: Int

    /// Opens the file at `path` if it is a regular file.
    /// - Throws: ``Failure``: missing, not a regular file, a symbolic link (with ``Links/refuse``), unreadable.
    public init(_ path: String, links: Links = .follow) throws(Failure) {
        self.path = path
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | (links == .refuse ? O_NOFOLLOW : 0)
        let descriptor = open(path, flags)
        guard descriptor >= 0 else {
            let error = errno
            switch error {
            case ENOENT, ENOTDIR: throw Failure(path: path, kind: .missing)
            case ELOOP where links == .refuse: throw Failure(path: path, kind: .symbolicLink)
            case ENXIO: throw Failure(path: path, kind: .notRegular(FileType(atPath: path)))  // a socket
            default: throw Failure(path: path, kind: .unreadable(error))
            }
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let error = errno
            close(descriptor)
            throw Failure(path: path, kind: .unreadable(error))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw Failure(path: path, kind: .notRegular(Self.type(info.st_mode)))
        }
        // A regular file never blocks; reads then behave as on any descriptor.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        self.descriptor = descriptor
        self.size = Int(info.st_size)
    }

    deinit { close(descriptor) }

    /// The regular file at `path`, or nil when there is none.
    /// - Throws: ``Failure`` for anything else ``init(_:links:)`` refuses.
    public static func ifPresent(_ path: String, links: Links = .follow) throws(Failure) -> RegularFile? {
        do {
            return try RegularFile(path, links: links)
        } catch {
            if error.kind == .missing { return nil }
            throw error
        }
    }

    /// Reads up to `count` bytes from the current position into `buffer`; 0 at the end of the file.
    /// - Throws: ``Failure`` when the read fails.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Failure) -> Int {
        var total = 0
        while total < buffer.count {
            let count = Foundation.read(descriptor, buffer.baseAddress! + total, buffer.count - total)
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(path: path, kind: .unreadable(errno))
            }
            if count == 0 { break }
            total += count
        }
        return total
    }

    /// Reads at most `count` bytes from the current position (fewer only at the end of the file).
    public func read(upTo count: Int) throws(Failure) -> Data {
        var bytes = [UInt8](repeating: 0, count: count)
        var result: Result<Int, Failure> = .success(0)
        bytes.withUnsafeMutableBytes { buffer in
            do throws(Failure) { result = .success(try self.read(into: buffer)) } catch { result = .failure(error) }
        }
        let read = try result.get()
        return Data(bytes[..<read])
    }

    /// The whole rest of the file, refused when it has more than `budget` bytes (also when it grew after it was
    /// opened).
    public func readAll(budget: FileBudget) throws(Failure) -> Data {
        guard size <= budget.bytes else { throw Failure(path: path, kind: .tooLarge(budget, size)) }
        // Memory follows the file, not the budget (an import file's budget is 1 GB): read the size fstat gave and one
        // byte more; only a file that grew since is read on, in steps, and never past its budget.
        var data = try read(upTo: size + 1)
        if data.count > size {
            while data.count <= budget.bytes {
                let more = try read(upTo: 1 << 16)
                if more.isEmpty { break }
                data.append(more)
            }
        }
        guard data.count <= budget.bytes else { throw Failure(path: path, kind: .tooLarge(budget, data.count)) }
        return data
    }

    /// The bytes of the regular file at `path`, within `budget`.
    public static func data(_ path: String, links: Links = .follow, budget: FileBudget) throws(Failure) -> Data {
        try RegularFile(path, links: links).readAll(budget: budget)
    }

    /// The text of the regular file at `path`, within `budget`.
    /// - Throws: ``Failure``, also of kind ``Failure/Kind/notUTF8`` when the bytes are not UTF-8.
    public static func text(_ path: String, links: Links = .follow, budget: FileBudget) throws(Failure) -> String {
        let data = try data(path, links: links, budget: budget)
        guard let text = String(data: data, encoding: .utf8) else { throw Failure(path: path, kind: .notUTF8) }
        return text
    }

    static func type(_ mode: mode_t) -> FileType {
        switch mode & S_IFMT {
        case S_IFDIR: .directory
        case S_IFIFO: .fifo
        case S_IFSOCK: .socket
        case S_IFCHR: .characterDevice
        case S_IFBLK: .blockDevice
        case S_IFREG: .regular
        default: .missing
        }
    }

    /// Why a file was not read.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public enum Kind: Sendable, Equatable {
            case missing
            /// A FIFO, socket, device or folder.
            case notRegular(FileType)
            /// A symbolic link where the tool reads only its own file.
            case symbolicLink
            /// More than the budget: the budget, and the bytes found (at least).
            case tooLarge(FileBudget, Int)
            /// A line past ``FileBudget/trailLine``-like budgets: the budget, and the line's number.
            case lineTooLong(FileBudget, line: Int)
            case notUTF8
            case unreadable(Int32)
        }

        public var path: String
        public var kind: Kind

        public init(path: String, kind: Kind) {
            self.path = path
            self.kind = kind
        }

        /// 66 for a missing or unreadable file, 65 for one that is not a regular file, too large or not text.
        public var exitStatus: ExitStatus {
            switch kind {
            case .missing, .unreadable: .noInput
            default: .dataError
            }
        }

        /// What is wrong, without the path.
        public var message: String {
            switch kind {
            case .missing: "no such file"
            case .notRegular(let type): "is \(type.description), not a regular file"
            case .symbolicLink: "is a symbolic link; the tool reads this file only as it wrote it and never follows a link here: remove it"
            case .tooLarge(let budget, let bytes):
                "is \(bytes) bytes or more, past the \(budget) that \(budget.what) may have"
            case .lineTooLong(let budget, let line):
                "line \(line) is longer than the \(budget) that \(budget.what) may have"
            case .notUTF8: "cannot be read as UTF-8 text"
            case .unreadable(let error): "cannot be read: \(String(cString: strerror(error)))"
            }
        }

        public var description: String { "\(path): \(message)" }
    }
}
