/// A column's bytes as a `String`, or nil when they are not valid UTF-8: what ``StoreRowColumns/text(_:)`` gives.
///
/// `String(validating:as:)` is generic over the encoding and was not specialized in the release build: every call
/// looked up its generic metadata, 6 % of an S load's samples (docs/performance.md, "Load and figures against the
/// scan"). A store's texts are nearly all ASCII, which is valid UTF-8 as it is: those bytes are checked eight at a
/// time and copied with `String(decoding:as:)`; any other text is validated as before.
enum StoreText {
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let base = bytes.baseAddress else { return "" }
        if isASCII(UnsafeRawPointer(base), bytes.count) { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Whether the `count` bytes at `base` are all below 0x80.
    static func isASCII(_ base: UnsafeRawPointer, _ count: Int) -> Bool {
        var offset = 0
        var high: UInt64 = 0
        while offset + 8 <= count {
            high |= base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        while offset < count {
            high |= UInt64(base.load(fromByteOffset: offset, as: UInt8.self))
            offset += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }
}
