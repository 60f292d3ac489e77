public import Foundation
public import InvoicesReport
public import InvoicesCore

/// Writes a site into a folder so that the folder always holds either the complete previous site or the complete
/// new one.
///
/// Files go into a new folder beside the output (same file system); when every file is written, the new folder
/// is swapped into place with one atomic `renameat2(RENAME_EXCHANGE)` where the system has it, and the old site
/// is removed. A failure before the swap removes the new folder and leaves the previous site untouched.
///
/// The output folder is the tool's own: an existing folder is replaced only when it is empty or is a site this tool
/// wrote (``marker`` inside, or, for sites written before the marker, a manifest beside it that names every entry),
/// and never when it is or holds one of the `keeping` paths (the store, the project file, the templates).
public struct SiteWriter: Sendable {
    /// The output folder.
    public let output: URL
    /// Paths a build must never replace or remove: the store, the project file, the templates folder.
    public let keeping: [String]

    /// The file every site this tool writes holds at its root, so that a later build knows the folder is its own.
    public static let marker = ".invoices-site"

    public init(output: String, keeping: [String] = []) {
        self.output = URL(fileURLWithPath: output).standardizedFileURL
        self.keeping = keeping
    }

    /// Writes `files` as the whole new content of the output folder.
    /// - Throws: ``SiteWriteError`` when the folder cannot be created or a file cannot be written.
    @discardableResult
    public func write(_ files: [SiteBuilder.File]) throws(SiteWriteError) -> BuildSummary {
        let staging = try begin()
        do {
            for file in files { try staging.write(file) }
        } catch {
            staging.discard()
            throw error
        }
        return try staging.commit()
    }

    /// The build manifest of the site in ``output``, beside it (`.Output.manifest` for `Output`): see ``SiteManifest``.
    public var manifestURL: URL {
        output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).manifest")
    }

    /// Where the pieces of the site's exports are (``ExportPieces``), beside it (`.Output.pieces` for `Output`).
    var piecesURL: URL {
        output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).pieces")
    }

    /// The inputs of the site's units, carried to the next build, beside it (`.Output.inputs` for `Output`):
    /// ``CarriedInputs``.
    public var inputsURL: URL {
        output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).inputs")
    }

    /// The trail of the books the site in ``output`` was built from, beside it (`.Output.trail` for `Output`): what
    /// the next build compares with to list what changed and to guard closed periods (``InvoicesReport/Trail``).
    public var trailURL: URL {
        output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).trail")
    }

    /// Writes `trail` into a temporary file beside ``trailURL``, a megabyte at a time (at 2,000,000 invoices it is
    /// 600 MB, never held whole), comparing it line by line with the trail at `previous` in the same pass;
    /// ``commitTrail(_:)`` renames it into place once the site is, ``discardTrail(_:)`` removes it when the build
    /// fails. A build killed meanwhile leaves the previous trail, and its temporary file is removed by the next build.
    ///
    /// The first line's hash of the lines after it (``InvoicesReport/Trail/Header/body``) is computed as they are
    /// written and put in its place at the end.
    /// - Returns: The temporary file's path, and what changed since `previous` (nil when it is nil or not a trail).
    /// - Throws: ``SiteWriteError`` when the file cannot be written; ``InvoicesCore/RegularFile/Failure`` when the
    ///   previous trail is not a regular file or has a line past its budget; ``InvoicesReport/Trail/LineTooLong``.
    public func stageTrail(
        _ trail: Trail, books: UInt64, comparingWith previous: URL?, closedThrough: CalendarDate?
    ) throws -> (path: String, changes: [Trail.Change]?) {
        let (temporary, changes, _) = try writeTrail { emit in
            try trail.write(books: books, comparingWith: previous, closedThrough: closedThrough, into: emit)
        }
        return (temporary, changes)
    }

    /// Writes the trail file whose bytes `write` hands to the function it is given into a temporary file beside
    /// ``trailURL``, and puts the hash of the lines after its first (``InvoicesReport/Trail/Header/body``),
    /// computed as they are written, in its place in the first line.
    /// - Returns: The temporary file's path, what `write` returned, and the hash of the lines after the first.
    func writeTrail<Value>(
        _ write: ((UnsafeRawBufferPointer) throws -> Void) throws -> Value
    ) throws -> (path: String, result: Value, body: UInt64) {
        let temporary = trailURL.path + ".\(getpid()).tmp"
        // Before the site's staging folder is made: the output's parent may not exist yet.
        try? FileManager.default.createDirectory(at: trailURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        var failure = descriptor >= 0 ? 0 : errno
        var result: Value?
        var body = Fingerprint.Bytes()
        if descriptor >= 0 {
            var headerEnd: Int?
            var position = 0
            do {
                result = try write { piece in
                    if headerEnd != nil {
                        body.add(piece)
                    } else if let newline = piece.firstIndex(of: 0x0A) {
                        headerEnd = position + newline
                        body.add(UnsafeRawBufferPointer(rebasing: piece[(newline + 1)...]))
                    }
                    position += piece.count
                    var offset = 0
                    while failure == 0, offset < piece.count {
                        let written = Foundation.write(descriptor, piece.baseAddress! + offset, piece.count - offset)
                        if written >= 0 { offset += written } else if errno != EINTR { failure = errno }
                    }
                }
            } catch {
                close(descriptor)
                unlink(temporary)
                throw error
            }
            if failure == 0, let headerEnd {
                var digits = Array(SiteManifest.hex(body.value).utf8)
                let at = headerEnd - Trail.Header.bodyDigits
                if pwrite(descriptor, &digits, digits.count, off_t(at)) != digits.count { failure = errno == 0 ? EIO : errno }
            }
            if close(descriptor) != 0, failure == 0 { failure = errno }
        }
        guard failure == 0, let result else {
            unlink(temporary)
            throw SiteWriteError(path: trailURL.path, message: "cannot write the trail: \(String(cString: strerror(failure)))")
        }
        return (temporary, result, body.value)
    }

    /// Whether the lines of the trail at ``trailURL`` after its first hash to what its first line says
    /// (``InvoicesReport/Trail/Header/body``): false for a first line copied from another trail, or one without the
    /// hash. One sequential read of the file.
    /// - Throws: ``InvoicesCore/RegularFile/Failure`` when the trail is not a regular file or cannot be read.
    public func trailMatchesItsHeader() throws(RegularFile.Failure) -> Bool {
        let file = try RegularFile(trailURL.path, links: .refuse)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var body = Fingerprint.Bytes()
        var first: [UInt8] = []
        var header: Trail.Header??
        while true {
            let count = try file.read(into: buffer)
            var piece = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            if header == nil {
                if let end = piece.firstIndex(of: 0x0A) {
                    first.append(contentsOf: piece[..<end])
                    header = .some(Trail.Header(line: Substring(String(decoding: first, as: UTF8.self))))
                    piece = UnsafeRawBufferPointer(rebasing: piece[(end + 1)...])
                } else {
                    first.append(contentsOf: piece)
                    guard first.count <= FileBudget.trailHeader.bytes, count > 0 else { return false }
                    continue
                }
            }
            body.add(piece)
            if count < buffer.count { break }
        }
        guard let expected = header??.body else { return false }
        return body.value == expected
    }

    /// Renames the trail ``stageTrail(_:books:comparingWith:closedThrough:)`` wrote into place: the next build compares with it.
    public func commitTrail(_ temporary: String) throws(SiteWriteError) {
        guard rename(temporary, trailURL.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw SiteWriteError(path: trailURL.path, message: "cannot write the trail: \(reason)")
        }
    }

    /// Removes a trail ``stageTrail(_:books:comparingWith:closedThrough:)`` wrote, for a build that failed: the next one compares with the
    /// previous trail, as this one did.
    public func discardTrail(_ temporary: String?) {
        if let temporary { unlink(temporary) }
    }

    /// Starts a new site: a staging folder beside the output that files are written into.
    ///
    /// With `removal`, when it has ended and emptied a retired site (``removeRetiredSites()``), that tree is taken as
    /// the staging folder: its folders are used as they are (no `mkdir`), and those the new site does not use are
    /// removed before the swap (``SiteStaging/commit(retiring:)``). Otherwise (still running, nothing emptied) the
    /// folder is made as without it.
    /// - Throws: ``SiteWriteError`` when the folder cannot be created.
    public func begin(reusing removal: RetiredSitesRemoval? = nil) throws(SiteWriteError) -> SiteStaging {
        let manager = FileManager.default
        let parent = output.deletingLastPathComponent()
        let staging = parent.appendingPathComponent(".\(output.lastPathComponent).building-\(ProcessInfo.processInfo.processIdentifier)")
        try checkReplaceable()
        removeLeftovers(in: parent)
        try? manager.removeItem(at: staging)
        var taken: [String]?
        if let tree = removal?.take() {
            if rename(tree.path, staging.path) == 0 {
                taken = tree.folders
            } else {
                try? manager.removeItem(atPath: tree.path)
            }
        }
        do {
            if taken == nil {
                try manager.createDirectory(at: parent, withIntermediateDirectories: true)
                try manager.createDirectory(at: staging, withIntermediateDirectories: false)
            }
            try writeMarker(into: staging)
        } catch {
            throw SiteWriteError(path: staging.path, message: "cannot create the output folder: \(Self.reason(error))")
        }
        return SiteStaging(writer: self, folder: staging, taken: taken ?? [])
    }

    /// Puts `staging` in the place of the output folder; the previous site is removed, or with `retiring` renamed
    /// aside for the next build to remove (``retire(_:)``).
    func swap(_ staging: URL, retiring: Bool = false) throws(SiteWriteError) {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        let exists = manager.fileExists(atPath: output.path, isDirectory: &isDirectory)
        if exists, !isDirectory.boolValue {
            throw SiteWriteError(path: output.path, message: "is a file, not a folder; choose another --output")
        }
        if !exists {
            guard rename(staging.path, output.path) == 0 else {
                throw SiteWriteError(path: output.path, message: "cannot move the new site into place: \(String(cString: strerror(errno)))")
            }
            return
        }
        if Self.exchange(staging.path, output.path) {
            // Now the previous site.
            if retiring { retire(staging.path) } else { try? manager.removeItem(at: staging) }
            return
        }
        // No atomic exchange on this system: move the old site aside, then the new one in.
        let aside = staging.path + ".previous"
        guard rename(output.path, aside) == 0 else {
            throw SiteWriteError(path: output.path, message: "cannot replace the previous site: \(String(cString: strerror(errno)))")
        }
        guard rename(staging.path, output.path) == 0 else {
            _ = rename(aside, output.path)
            throw SiteWriteError(path: output.path, message: "cannot move the new site into place: \(String(cString: strerror(errno)))")
        }
        if retiring { retire(aside) } else { try? manager.removeItem(atPath: aside) }
    }

    /// Removes the staging folders and temporary manifests that an interrupted build left beside the output.
    func removeLeftovers(in parent: URL) {
        let prefixes = [
            ".\(output.lastPathComponent).building-", manifestURL.lastPathComponent + ".", trailURL.lastPathComponent + ".",
            piecesURL.lastPathComponent + ".", trailPiecesURL.lastPathComponent + ".", inputsURL.lastPathComponent + ".",
        ]
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return }
        for name in names {
            guard let prefix = prefixes.first(where: { name.hasPrefix($0) }) else { continue }
            let pidText = name.dropFirst(prefix.count).prefix { $0.isNumber }
            // Another build's, still running; or this build's own (its trail, staged before the site begins).
            if let pid = Int32(pidText), pid == getpid() || kill(pid, 0) == 0 { continue }
            try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
        }
    }

    typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    /// Atomically exchanges two paths with renameat2(RENAME_EXCHANGE); false where unsupported.
    static func exchange(_ a: String, _ b: String) -> Bool {
        #if os(Linux)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return false }
        let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
        let AT_FDCWD: Int32 = -100
        let RENAME_EXCHANGE: UInt32 = 1 << 1
        return renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) == 0
        #else
        return false
        #endif
    }

    static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        if let cocoa = error as? CocoaError, cocoa.code == .fileWriteOutOfSpace { return String(cString: strerror(ENOSPC)) }
        return nsError.localizedDescription
    }
}

/// The site could not be written; the previous site is left as it was.
public struct SiteWriteError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "\(path): \(message)" }
}
