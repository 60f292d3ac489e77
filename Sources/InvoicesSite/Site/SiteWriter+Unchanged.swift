internal import Foundation
internal import InvoicesCore
internal import Synchronization

extension SiteWriter {
    /// Whether the site in ``output`` is exactly what a build with the source fingerprint `source` would write
    /// (``SourceFingerprint``): the manifest beside it records that fingerprint, and the folder holds the manifest's
    /// files, each with its recorded size and bytes, the ``marker``, and nothing else.
    ///
    /// The files are checked as a reused unit's are (opened without following links; their bytes fingerprinted unless
    /// their recorded size and stamp can be trusted, ``SiteManifest/trusts(_:_:)``), on every core.
    ///
    /// `manifest` is the one beside the output (``manifestURL``), read by the caller (``SiteManifest/read(_:)``): a
    /// build that goes on to render takes its reusable units from the same parse.
    /// - Returns: The site's summary (nothing changed, every file reused), or nil when the build must run.
    public func unchangedSite(source: UInt64, manifest: SiteManifest?) -> BuildSummary? {
        guard let manifest, manifest.source == source else { return nil }
        let files = manifest.units.values.flatMap(\.files)
        var expected = Set(files.map(\.path))
        guard expected.count == files.count else { return nil }
        expected.insert(Self.marker)
        var folders: Set<Substring> = [""]
        for path in expected {
            var index = path.startIndex
            while let slash = path[index...].firstIndex(of: "/") {
                folders.insert(path[..<slash])
                index = path.index(after: slash)
            }
        }
        guard let found = regularFiles(folders: folders), found.count == expected.count,
            expected.allSatisfy({ found[$0] != nil }), Self.isMarker(output.appendingPathComponent(Self.marker).path)
        else { return nil }

        // Verify the files' bytes in as many slices as there are cores.
        let slices = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let differs = Atomic(false)
        let root = output.path
        DispatchQueue.concurrentPerform(iterations: slices) { slice in
            for index in stride(from: slice, to: files.count, by: slices) where !differs.load(ordering: .relaxed) {
                let file = files[index]
                // The walk's lstat already says what git's index would: a file it trusts is not opened.
                if let info = found[file.path], manifest.trusts(file, info) { continue }
                guard let previous = PreviousFile(file.path, under: root) else { return differs.store(true, ordering: .relaxed) }
                defer { previous.close() }
                var info = stat()
                if fstat(previous.descriptor, &info) == 0, manifest.trusts(file, info) { continue }
                if !SiteManifest.verify(previous.descriptor, size: file.size, hash: file.hash) { differs.store(true, ordering: .relaxed) }
            }
        }
        guard !differs.load(ordering: .relaxed) else { return nil }
        return BuildSummary(
            files: files.count, pages: files.count { $0.path.hasSuffix(".html") }, changed: 0, reused: files.count)
    }

    /// The paths of every regular file under ``output``, relative to it, with what `lstat` says of each; nil when it
    /// holds anything else (a link, a folder no file of the site is in) or cannot be read.
    private func regularFiles(folders: Set<Substring>) -> [String: stat]? {
        var found: [String: stat] = [:]
        var pending = [""]
        while let folder = pending.popLast() {
            guard folders.contains(Substring(folder)) else { return nil }
            let path = folder.isEmpty ? output.path : output.path + "/" + folder
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return nil }
            for name in names {
                let relative = folder.isEmpty ? name : folder + "/" + name
                var info = stat()
                guard lstat(output.path + "/" + relative, &info) == 0 else { return nil }
                switch info.st_mode & S_IFMT {
                case S_IFREG: found[relative] = info
                case S_IFDIR: pending.append(relative)
                default: return nil
                }
            }
        }
        return found
    }
}
