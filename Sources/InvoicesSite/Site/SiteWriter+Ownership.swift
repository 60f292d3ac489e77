internal import Foundation
internal import InvoicesCore

extension SiteWriter {
    /// What ``marker`` says to a person who finds it.
    static let markerText = "This folder is a report site written by 'invoices build'. The next build replaces it whole.\n"

    /// Checks that the output folder may be replaced by a new site: it does not exist, is empty, or is a site this
    /// tool wrote; and it neither is nor holds any of ``keeping``.
    /// - Throws: ``SiteWriteError`` saying what was found and what to do (the CLI exits 73); nothing is touched.
    public func checkReplaceable() throws(SiteWriteError) {
        var info = stat()
        guard lstat(output.path, &info) == 0 else { return }  // nothing there yet
        let outputPath = Self.realPath(output.path) ?? output.path
        for path in keeping {
            guard let kept = Self.realPath(path) else { continue }
            if kept == outputPath || kept.hasPrefix(outputPath == "/" ? "/" : outputPath + "/") {
                throw SiteWriteError(
                    path: output.path,
                    message: "holds \(path), which a build never replaces; choose another output folder (e.g. 'Output')")
            }
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw SiteWriteError(path: output.path, message: "is a file, not a folder; choose another output folder")
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        } catch {
            throw SiteWriteError(path: output.path, message: "cannot be read: \(Self.reason(error))")
        }
        if names.isEmpty || isOwnSite(names: names) { return }
        let shown = names.prefix(3).map { "'\($0)'" }.joined(separator: ", ")
        let more = names.count > 3 ? " and \(names.count - 3) more" : ""
        throw SiteWriteError(
            path: output.path,
            message: "is a folder this tool did not write (it holds \(shown)\(more)); a build replaces only a site it wrote. "
                + "Choose a new or empty output folder, or move those files away")
    }

    /// Whether the folder holding `names` is a site this tool wrote: its marker is there, or (a site written before
    /// the marker) the manifest beside it names every entry of its top level.
    private func isOwnSite(names: [String]) -> Bool {
        var info = stat()
        let marker = output.appendingPathComponent(Self.marker).path
        if lstat(marker, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { return true }
        guard let manifest = SiteManifest.read(manifestURL) else { return false }
        var written: Set<Substring> = []
        for unit in manifest.units.values {
            for file in unit.files { written.insert(file.path.split(separator: "/", maxSplits: 1).first ?? "") }
        }
        return names.allSatisfy { written.contains(Substring($0)) }
    }

    /// Puts ``marker`` into a new site: hard-linked from the previous site when it is there as written (so a build
    /// that changes nothing changes no file), written otherwise.
    func writeMarker(into staging: URL) throws {
        let previous = output.appendingPathComponent(Self.marker).path
        let target = staging.appendingPathComponent(Self.marker).path
        if Self.isMarker(previous), link(previous, target) == 0 { return }
        try Data(Self.markerText.utf8).write(to: URL(fileURLWithPath: target))
    }

    /// Whether the file at `path` is a regular file (not a link) holding ``markerText``.
    static func isMarker(_ path: String) -> Bool {
        let budget = FileBudget(bytes: 4 << 10, what: "a site's marker file")
        return (try? RegularFile.data(path, links: .refuse, budget: budget)) == Data(markerText.utf8)
    }

    /// The path with every symlink resolved, or nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
