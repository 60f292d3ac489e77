import Foundation

/// The texts a column repeats row after row (an invoice's notes, a payment's method, a write-off's reason), each
/// kept as one string that every equal row shares.
///
/// A text of more than 15 UTF-8 bytes is a string of its own on the heap: at 2,000,000 invoices whose notes are a
/// dozen phrases, every invoice kept its own copy, about 100 MB of a build's peak (docs/performance.md, "The peak
/// at L under 1 GB"). A text of at most 15 bytes is held inside the string, so there is nothing to share.
///
/// A text is looked up by its bytes before any string is made of them (``keep(_:make:)``): a repeated note costs a
/// hash of its bytes and one comparison, not a string made, hashed and let go (docs/performance.md, "Load and figures
/// on both cores").
///
/// At most ``limit`` distinct texts are kept; past it a new text stays a string of its own, so a column of unique
/// texts costs a lookup per row and no more memory than before.
struct RepeatedTexts {
    /// How many distinct texts are kept at most.
    static let limit = 4096
    /// The kept texts by the hash of their UTF-8 bytes (two texts Swift calls equal, canonically equivalent, but
    /// written with other bytes are not the same text here, so a kept text never changes a row's bytes).
    private var kept: [Int: [String]] = [:]
    private var count = 0

    private static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: bytes)
        return hasher.finalize()
    }

    /// `text`, or the string kept for a text of the same bytes.
    mutating func keep(_ text: String) -> String {
        guard text.utf8.count > 15 else { return text }
        var bytes = text
        return bytes.withUTF8 { keep(UnsafeRawBufferPointer($0)) { text } } ?? text
    }

    /// The string kept for a text of exactly `bytes`, or else `make()`'s string (kept while there is room); nil when
    /// `make` gives nil (bytes that are not valid UTF-8 are never those of a kept text, so they reach `make`).
    mutating func keep(_ bytes: UnsafeRawBufferPointer, make: () -> String?) -> String? {
        guard bytes.count > 15 else { return make() }
        let hash = Self.hash(bytes)
        if let bucket = kept[hash] {
            for text in bucket where Self.equal(text, bytes) { return text }
        }
        guard let text = make() else { return nil }
        if count < Self.limit, Self.equal(text, bytes) {
            kept[hash, default: []].append(text)
            count += 1
        }
        return text
    }

    private static func equal(_ text: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { stored in
            guard stored.count == bytes.count else { return false }
            guard let a = stored.baseAddress, let b = bytes.baseAddress else { return true }
            return memcmp(a, b, bytes.count) == 0
        } ?? text.utf8.elementsEqual(bytes)
    }
}
