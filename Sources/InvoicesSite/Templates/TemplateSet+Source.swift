internal import Foundation
internal import InvoicesCore

extension TemplateSet {
    /// The fingerprint of what ``init(directory:kinds:language:)`` reads, taken before anything is parsed: every
    /// template, stylesheet and script, the folder's or the default (``readFolder(_:kinds:)``), and the bytes of the
    /// folder's translation tables (`i18n/`). The default templates and tables are the executable's, whose identity a
    /// build's source fingerprint holds (``SourceFingerprint``); the language is an option.
    ///
    /// Equal fingerprints are equal templates: the build that finds its source fingerprint in the previous manifest
    /// has nothing to do, and parses no template (the templates are loaded, and checked, only when it renders).
    /// - Returns: Nil when the folder has a problem the load reports, or a table cannot be read: no shortcut then.
    public static func sourceFingerprint(directory: String?, kinds: PageKinds = .builtIn) -> UInt64? {
        let (texts, problems) = readFolder(directory, kinds: kinds)
        guard problems.isEmpty else { return nil }
        var fingerprint = Fingerprint()
        fingerprint.add(texts.count)
        for (name, entry) in texts.sorted(by: { $0.key < $1.key }) {
            fingerprint.add(name)
            fingerprint.add(entry.text)
        }
        guard let directory else { return fingerprint.value }
        let folder = URL(fileURLWithPath: directory).appendingPathComponent(translationsFolder).path
        guard FileType(atPath: folder) == .directory else { return fingerprint.value }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        for name in names.sorted() where !name.hasPrefix(".") {
            guard let text = try? RegularFile.text(folder + "/" + name, budget: .templateFile) else { return nil }
            fingerprint.add(name)
            fingerprint.add(text)
        }
        return fingerprint.value
    }
}
