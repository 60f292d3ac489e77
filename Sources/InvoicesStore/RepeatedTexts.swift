/// The texts a column repeats row after row (an invoice's notes, a payment's method, a write-off's reason), each
/// kept as one string that every equal row shares.
///
/// A text of more than 15 UTF-8 bytes is a string of its own on the heap: at 2,000,000 invoices whose notes are a
/// dozen phrases, every invoice kept its own copy, about 100 MB of a build's peak (docs/performance.md, "The peak
/// at L under 1 GB"). A text of at most 15 bytes is held inside the string, so there is nothing to share.
///
/// At most ``limit`` distinct texts are kept; past it a new text stays a string of its own, so a column of unique
/// texts costs a lookup per row and no more memory than before.
struct RepeatedTexts {
    /// How many distinct texts are kept at most.
    static let limit = 4096
    private var kept: Set<Bytes> = []

    /// A text compared and hashed by its UTF-8 bytes: two texts Swift calls equal (canonically equivalent) but
    /// written with other bytes are not the same text here, so a kept text never changes a row's bytes.
    struct Bytes: Hashable {
        let text: String

        static func == (lhs: Bytes, rhs: Bytes) -> Bool { lhs.text.utf8.elementsEqual(rhs.text.utf8) }

        func hash(into hasher: inout Hasher) {
            var text = text
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }

    /// `text`, or the string kept for a text of the same bytes.
    mutating func keep(_ text: String) -> String {
        guard text.utf8.count > 15 else { return text }
        let key = Bytes(text: text)
        if let index = kept.firstIndex(of: key) { return kept[index].text }
        if kept.count < Self.limit { kept.insert(key) }
        return text
    }
}
