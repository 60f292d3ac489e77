import Foundation

/// The files of a site folder and the release id derived from their content.
///
/// The id is the first 16 hexadecimal digits of the SHA-256 of the manifest: one `path NUL sha256(content) LF` line
/// per file, sorted by path. The same files give the same id wherever and whenever they were built; any change to
/// a file's bytes, name or presence gives another.
public struct ReleaseManifest: Sendable {
    /// Each file's path relative to the site's root, with the SHA-256 of its bytes, sorted by path.
    public var files: [(path: String, digest: String)]
    public var id: String

    /// Reads every regular file under `folders` (later folders add to the first; a path found twice is an error).
    /// - Throws: ``PublishError``: a missing folder (66), an unreadable file or a symbolic link (65).
    public init(folders: [String]) throws(PublishError) {
        var files: [String: String] = [:]
        for folder in folders {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw PublishError(.missingInput, "\(folder): no such folder; build the site first ('invoices build')")
            }
            guard let enumerator = FileManager.default.enumerator(atPath: folder) else {
                throw PublishError(.missingInput, "\(folder): cannot be read")
            }
            while let relative = enumerator.nextObject() as? String {
                let full = folder + "/" + relative
                var info = stat()
                guard lstat(full, &info) == 0 else { throw PublishError(.badInput, "\(full): cannot be read: \(String(cString: strerror(errno)))") }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: continue
                case S_IFREG: break
                default: throw PublishError(.badInput, "\(full): only regular files and folders can be published, not links or devices")
                }
                guard let data = FileManager.default.contents(atPath: full) else {
                    throw PublishError(.badInput, "\(full): cannot be read")
                }
                guard files[relative] == nil else { throw PublishError(.internalError, "\(relative): generated twice") }
                files[relative] = Digest.hex(Digest.sha256(data))
            }
        }
        self.files = files.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }.map { ($0.key, $0.value) }
        var manifest = Data()
        for file in self.files { manifest.append(Data("\(file.path)\u{0}\(file.digest)\n".utf8)) }
        id = String(Digest.hex(Digest.sha256(manifest)).prefix(16))
    }
}
