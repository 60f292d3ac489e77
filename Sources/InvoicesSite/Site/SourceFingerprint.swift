internal import Foundation
internal import InvoicesCore

/// The fingerprint of everything a build reads, taken before it reads the books: the bytes of the store's files,
/// the templates, the site's options, the build's own settings, the executable, and the first line of the previous
/// build's trail.
///
/// A build records it in its manifest (``SiteManifest/source``). The next build with the same fingerprint would
/// render the same bytes: the same store, templates and options give the same site, and the previous trail's first
/// line is the only thing the changes page reads of that trail when the books are the same (it then says nothing
/// changed). So when the fingerprints are equal and the site is still as the manifest lists it
/// (``SiteWriter/unchangedSite(source:)``), the build has nothing to do and reads neither the store's rows nor the
/// figures: at 2,000,000 invoices, a 0.5 GB store is hashed in a fraction of a second where reading it takes seconds.
///
/// A build whose previous trail had other books (it listed changes) records a fingerprint with that trail's first
/// line; after it, the trail holds the new books' line, so the next build's fingerprint differs and it renders,
/// saying nothing changed.
public enum SourceFingerprint {
    /// The fingerprint, or nil when the store is not files this process can read whole (a PostgreSQL server, a
    /// missing file, an SQLite rollback journal left behind by an interrupted write).
    /// - Parameters:
    ///   - store: The store file; its write-ahead log (`-wal`) is read with it when there is one.
    ///   - templates: What the templates folder holds, unparsed (``TemplateSet/sourceFingerprint(directory:kinds:)``).
    ///   - settings: The build's settings beyond the site's options, as text (the Core Data mapping, the closed date).
    ///   - trailFirstLine: The first line of the previous build's trail, nil when there is none.
    public static func of(
        store: String, templates: UInt64, options: SiteOptions, settings: [String], trailFirstLine: String?
    ) -> UInt64? {
        parts(store: store, templates: templates, options: options, settings: settings, trailFirstLine: trailFirstLine)?.source
    }

    /// The fingerprint, with the fingerprint of what the books are read from alone (`books`: the store's bytes and
    /// `settings`), which the site's inputs are carried under (``CarriedInputs``); the store is read once for both.
    public static func parts(
        store: String, templates: UInt64, options: SiteOptions, settings: [String], trailFirstLine: String?
    ) -> (source: UInt64, books: UInt64)? {
        var info = stat()
        if stat(store + "-journal", &info) == 0, info.st_size > 0 { return nil }
        var fingerprint = Fingerprint()
        fingerprint.add(SiteBuilder.executableIdentity)
        guard let storeBytes = bytesFingerprint(store) else { return nil }
        fingerprint.add(storeBytes)
        let walBytes = stat(store + "-wal", &info) == 0 ? bytesFingerprint(store + "-wal") : nil
        fingerprint.add(walBytes) { $0.add($1) }
        var books = Fingerprint()
        books.add(storeBytes)
        books.add(walBytes) { $0.add($1) }
        books.add(settings.count)
        for setting in settings { books.add(setting) }
        fingerprint.add(templates)
        SiteBuilder.addOptions(options, to: &fingerprint)
        // The client link key is a function; the token it gives for a name no client can have stands for the key.
        fingerprint.add(options.clientLinkToken) { $0.add($1("\u{0}invoices-source-fingerprint")) }
        fingerprint.add(settings.count)
        for setting in settings { fingerprint.add(setting) }
        fingerprint.add(trailFirstLine) { $0.add($1) }
        return (fingerprint.value, books.value)
    }

    /// The fingerprint of a regular file's bytes, read a megabyte at a time; nil when it is not one or cannot be
    /// read. Opened by ``InvoicesCore/RegularFile``, without waiting: a FIFO named as the store must not block the
    /// build (the store reader refuses it).
    static func bytesFingerprint(_ path: String) -> UInt64? {
        guard let file = try? RegularFile(path) else { return nil }
        return SiteManifest.fingerprint(ofFile: file.descriptor)
    }
}
