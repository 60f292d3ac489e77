public import Foundation
internal import InvoicesCore

/// What a build rendered from what: for each unit of the site (a page, a client's pages, the exports...), the
/// fingerprint of its inputs and the files it produced, each with its size and the fingerprint of its bytes.
///
/// It is kept beside the output folder (`.Output.manifest` for `Output`) and written after the site is swapped
/// into place. A later build reuses a unit's files (hard links: same bytes, inode and modification time) only when
/// its inputs have the same fingerprint and every one of its files in the output still has the recorded size and
/// bytes; anything else (a missing, edited or damaged file, a manifest that does not parse) is rendered again.
/// Each entry states a fact that holds whichever build wrote it ("these inputs render to these bytes"), so a
/// manifest older than the site can only cause more rendering, never a stale page.
///
/// A file's entry may also hold its ``Stamp`` as the build left it (modification time in nanoseconds, inode,
/// device). A later build trusts a file whose size and stamp are still the recorded ones, and whose recorded
/// modification time is older than the manifest's own (``written``), without reading its bytes, as git trusts its
/// index; any difference, or a stamp as new as the manifest (it could have changed again within the same clock
/// tick), means reading the bytes (docs/reliability.md, "Trusting a reused file's stamp").
public struct SiteManifest: Sendable, Equatable {
    /// One file of a unit.
    public struct File: Sendable, Equatable {
        public var path: String
        public var size: Int
        public var hash: UInt64
        /// The file as the build left it, when the build can vouch that it then held the bytes of ``hash``.
        public var stamp: Stamp? = nil
    }

    /// What `stat` says of a file that changes when it is written or replaced: modification time (nanoseconds since
    /// 1970), inode and device.
    public struct Stamp: Sendable, Equatable {
        public var modified: Int64
        public var inode: UInt64
        public var device: UInt64

        public init(modified: Int64, inode: UInt64, device: UInt64) {
            self.modified = modified
            self.inode = inode
            self.device = device
        }

        init(_ info: stat) {
            modified = Self.nanoseconds(info.st_mtim)
            inode = UInt64(info.st_ino)
            device = UInt64(info.st_dev)
        }

        /// The stamp of a file whose bytes were read after `info` was taken, when it vouches for them: the file was
        /// last modified before `started` (when the build began), so any later change gives it another stamp.
        init?(vouching info: stat, before started: Int64?) {
            guard let started, Self.nanoseconds(info.st_mtim) < started else { return nil }
            self.init(info)
        }

        static func nanoseconds(_ time: timespec) -> Int64 {
            Int64(time.tv_sec).multipliedReportingOverflow(by: 1_000_000_000).partialValue &+ Int64(time.tv_nsec)
        }
    }

    /// One unit: its inputs' fingerprint and its files.
    public struct Unit: Sendable, Equatable {
        public var inputs: UInt64
        public var files: [File]
    }

    /// The units by key (`client:C-0042`, `month:2025-06`, `exports`...).
    public var units: [String: Unit] = [:]
    /// The fingerprint of everything the build read (``SourceFingerprint``), when the site is what those inputs
    /// render: a build with the same fingerprint, whose site is still as listed, has nothing to do.
    public var source: UInt64?
    /// The manifest file's own modification time (nanoseconds), when it was read from a file (``read(_:)``): a
    /// recorded stamp as new as this may have changed again in the same clock tick, and is not trusted.
    public var written: Int64?

    public init(units: [String: Unit] = [:], source: UInt64? = nil) {
        self.units = units
        self.source = source
    }

    /// Version 2: files are fingerprinted in pieces (``Fingerprint/Bytes``); a version-1 manifest is not read, so
    /// the first build after the change renders everything. Version 3 adds the files' stamps (`T` lines); a
    /// version-2 manifest is still read, without stamps: its files' bytes are read, as before.
    static let header = "invoices-site-manifest 3"
    static let headerWithoutStamps = "invoices-site-manifest 2"

    /// The manifest as text: a header line, an `S source` line when there is a ``source``, then per unit a
    /// `U inputs key` line followed by its `F size hash path` lines, each followed by a `T modified inode device` line
    /// (decimal) when the file has a ``File/stamp``, units sorted by key (so the same site gives the same manifest).
    /// Keys and paths are escaped (`%`, line breaks) so each stays on its line.
    public var text: String {
        var text = Self.header + "\n"
        if let source { text += "S \(Self.hex(source))\n" }
        for (key, unit) in units.sorted(by: { $0.key < $1.key }) {
            text += "U \(Self.hex(unit.inputs)) \(Self.escape(key))\n"
            for file in unit.files {
                text += "F \(file.size) \(Self.hex(file.hash)) \(Self.escape(file.path))\n"
                if let stamp = file.stamp { text += "T \(stamp.modified) \(stamp.inode) \(stamp.device)\n" }
            }
        }
        return text
    }

    /// Parses ``text``; nil when it is not a manifest of this version (the build then renders everything).
    ///
    /// Lines and fields are split on their bytes (`\n` and space), not as characters: grapheme breaking made the
    /// split most of the parse (0.14 s of the 4.9 MB manifest at L, before the load can start). Line breaks in keys
    /// and paths are escaped; their spaces stay, in the last field (`maxSplits`). A space followed by a combining
    /// mark now separates too (it was one character, and such a manifest was refused: every page rendered).
    public init?(text: String) {
        var lines = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { Substring($0) }
        guard let first = lines.first, first == Self.header || first == Self.headerWithoutStamps, lines.last == "" else { return nil }
        let stamped = first == Self.header
        lines.removeFirst()
        lines.removeLast()
        var units: [String: Unit] = [:]
        var current: (key: String, unit: Unit)?
        var unconfined: Set<String> = []
        if let line = lines.first, line.hasPrefix("S ") {
            guard let source = UInt64(line.dropFirst(2), radix: 16) else { return nil }
            self.source = source
            lines.removeFirst()
        }
        for line in lines {
            let fields = line.utf8.split(separator: 0x20, maxSplits: line.utf8.starts(with: "U ".utf8) ? 2 : 3, omittingEmptySubsequences: false)
                .map { Substring($0) }
            if fields.count == 3, fields[0] == "U", let inputs = UInt64(fields[1], radix: 16) {
                if let current { units[current.key] = current.unit }
                current = (Self.unescape(fields[2]), Unit(inputs: inputs, files: []))
            } else if fields.count == 4, fields[0] == "F", let size = Int(fields[1]), let hash = UInt64(fields[2], radix: 16),
                current != nil
            {
                // A path that would leave the output folder is no file of the site: its unit is rendered again.
                let path = Self.unescape(fields[3])
                if !PreviousFile.isConfined(path), let key = current?.key { unconfined.insert(key) }
                current?.unit.files.append(File(path: path, size: size, hash: hash))
            } else if stamped, fields.count == 4, fields[0] == "T", let modified = Int64(fields[1]), let inode = UInt64(fields[2]),
                let device = UInt64(fields[3]), let last = current?.unit.files.indices.last, current?.unit.files[last].stamp == nil
            {
                current?.unit.files[last].stamp = Stamp(modified: modified, inode: inode, device: device)
            } else {
                return nil
            }
        }
        if let current { units[current.key] = current.unit }
        for key in unconfined { units[key] = nil }
        self.units = units
    }

    /// The manifest at `url`, or nil when there is none or it does not parse.
    ///
    /// It is the tool's own file, and only a record of what can be rendered again: it is read as a regular file
    /// (``InvoicesCore/RegularFile``, no symbolic link followed) within ``InvoicesCore/FileBudget/manifest``, and
    /// one that is not (a link, a FIFO, a device, too large) counts as none: every page is rendered, and the next
    /// manifest replaces it.
    ///
    /// Its modification time, from the descriptor it was read through, becomes ``written``.
    public static func read(_ url: URL) -> SiteManifest? {
        guard let file = try? RegularFile(url.path, links: .refuse), let data = try? file.readAll(budget: .manifest),
            var manifest = SiteManifest(text: String(decoding: data, as: UTF8.self))
        else { return nil }
        var info = stat()
        if fstat(file.descriptor, &info) == 0 { manifest.written = Stamp.nanoseconds(info.st_mtim) }
        return manifest
    }

    /// Whether the open previous file `info` describes is `file` as the manifest recorded it, to be trusted without
    /// reading its bytes: a regular file of the recorded size and ``Stamp``, and that stamp older than the manifest
    /// (one as new as ``written`` may have been changed again within the same clock tick: git's "racy" case).
    func trusts(_ file: File, _ info: stat) -> Bool {
        guard let stamp = file.stamp, let written, stamp.modified < written, (info.st_mode & S_IFMT) == S_IFREG,
            Int(info.st_size) == file.size
        else { return false }
        return Stamp(info) == stamp
    }

    /// Writes the manifest to `url` atomically (a temporary file renamed over it).
    public func write(to url: URL) throws(SiteWriteError) {
        try Self.replace(url, with: Data(text.utf8), what: "the build manifest")
    }

    /// Writes `data` to `url` atomically: into a temporary file beside it (`url.<pid>.tmp`, which an interrupted
    /// build's successor removes), renamed over it. `what` names the file in the error.
    static func replace(_ url: URL, with data: Data, what: String) throws(SiteWriteError) {
        let temporary = url.path + ".\(getpid()).tmp"
        do {
            try SiteStaging.writeFile(temporary, data)
        } catch {
            unlink(temporary)
            throw SiteWriteError(path: url.path, message: "cannot write \(what): \(error.message)")
        }
        guard rename(temporary, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw SiteWriteError(path: url.path, message: "cannot write \(what): \(reason)")
        }
    }

    /// Whether the open regular file `descriptor` has `size` bytes whose fingerprint is `hash`.
    static func verify(_ descriptor: Int32, size: Int, hash: UInt64) -> Bool {
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == size else { return false }
        return fingerprint(ofFile: descriptor) == hash
    }

    /// The fingerprint of the bytes of the open file `descriptor` (``Fingerprint/Bytes``), read a megabyte at a time
    /// from its start (a file of the site can be hundreds of megabytes, a store gigabytes); nil when a read fails.
    static func fingerprint(ofFile descriptor: Int32) -> UInt64? {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var fingerprint = Fingerprint.Bytes()
        var offset = 0
        while true {
            let count = readFully(descriptor, into: buffer, at: offset)
            guard count >= 0 else { return nil }
            fingerprint.add(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            offset += count
            if count < buffer.count { return fingerprint.value }
        }
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    static func escape(_ text: String) -> String {
        guard text.contains(where: { $0 == "%" || $0.isNewline }) else { return text }
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%", "\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}":
                output += "%" + String(scalar.value, radix: 16) + ";"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    static func unescape(_ text: Substring) -> String {
        guard text.contains("%") else { return String(text) }
        var output = ""
        var rest = text[...]
        while let percent = rest.firstIndex(of: "%") {
            output += rest[..<percent]
            let after = rest[rest.index(after: percent)...]
            guard let end = after.firstIndex(of: ";"), let value = UInt32(after[..<end], radix: 16),
                let scalar = Unicode.Scalar(value)
            else { return output + after }
            output.unicodeScalars.append(scalar)
            rest = after[after.index(after: end)...]
        }
        return output + rest
    }
}
