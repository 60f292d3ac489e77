#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a path names, symbolic links followed, found with `stat(2)` without opening it.
///
/// Opening a FIFO for reading blocks until a writer comes, and reading a device need never end: inputs that must
/// be files (a store, a template) are checked with this first, so a wrong path is refused at once instead of
/// hanging the build.
public enum FileType: Sendable, Equatable {
    case regular, directory, fifo, socket, characterDevice, blockDevice, missing

    public init(atPath path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            self = .missing
            return
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        default: self = .missing
        }
    }

    /// The kind in words, for messages: "a FIFO (named pipe)".
    public var description: String {
        switch self {
        case .regular: "a file"
        case .directory: "a folder"
        case .fifo: "a FIFO (named pipe)"
        case .socket: "a socket"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .missing: "missing"
        }
    }
}
