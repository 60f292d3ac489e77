internal import Foundation

/// A file of the previous site, opened under the output folder without following any symbolic link.
///
/// The paths come from the build manifest, a file beside the output that anything may have edited, and the
/// output folder itself may hold links planted in it. So a path is used only when it is confined: relative, with
/// no empty, `.` or `..` component. It is then opened one folder at a time with `openat(O_NOFOLLOW)`, and only a
/// regular file is accepted: nothing outside the output folder is ever read, compared or hard-linked into a new
/// site, however the folder or the manifest were changed.
struct PreviousFile {
    /// The open file (read-only).
    let descriptor: Int32
    /// The folder holding it, for ``link(to:)``.
    private let folder: Int32
    private let name: String

    /// Whether `path` is relative and stays under its root: no empty, `.` or `..` component, no NUL.
    static func isConfined(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.utf8.contains(0) else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { $0 != "" && $0 != "." && $0 != ".." }
    }

    /// Opens `path` under `root`; nil when the path is not confined, a folder on the way is missing, not a folder
    /// or a symbolic link, or the file is not a regular file.
    init?(_ path: String, under root: String) {
        guard Self.isConfined(path) else { return nil }
        var components = path.split(separator: "/").map(String.init)
        let name = components.removeLast()
        var folder = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return nil }
        for component in components {
            let next = openat(folder, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            Foundation.close(folder)
            guard next >= 0 else { return nil }
            folder = next
        }
        let descriptor = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        var info = stat()
        guard descriptor >= 0, fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            if descriptor >= 0 { Foundation.close(descriptor) }
            Foundation.close(folder)
            return nil
        }
        self.descriptor = descriptor
        self.folder = folder
        self.name = name
    }

    /// The file's size in bytes.
    var size: Int {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? Int(info.st_size) : -1
    }

    /// Hard-links the file that was opened to `target`; false when that is impossible or the name no longer
    /// names the same file (it was replaced after it was opened), in which case nothing is left at `target`.
    func link(to target: String) -> Bool {
        guard linkat(folder, name, AT_FDCWD, target, 0) == 0 else { return false }
        var opened = stat()
        var linked = stat()
        if fstat(descriptor, &opened) == 0, lstat(target, &linked) == 0, opened.st_dev == linked.st_dev, opened.st_ino == linked.st_ino {
            return true
        }
        unlink(target)
        return false
    }

    func close() {
        Foundation.close(descriptor)
        Foundation.close(folder)
    }
}
