/// A deterministic 64-bit hash of values fed in order: the same values give the same fingerprint in every process
/// and on every run (unlike Swift's `Hasher`, which is seeded per process).
///
/// It fingerprints a page's inputs (``SiteBuilder``'s incremental builds) and the bytes of written files
/// (``SiteManifest``). Words are mixed with a full-width multiply (as wyhash does); strings and byte runs are fed
/// with their length, so `("ab", "c")` and `("a", "bc")` differ.
struct Fingerprint {
    private(set) var state: UInt64

    private static let prime0: UInt64 = 0xa076_1d64_78bd_642f
    private static let prime1: UInt64 = 0xe703_7ed1_a0b4_28db
    private static let prime2: UInt64 = 0x8ebc_6af0_9c88_c6e3

    init(seed: UInt64 = 0) { state = seed ^ Self.prime0 }

    @inline(__always)
    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }

    @inline(__always)
    mutating func add(_ value: UInt64) {
        state = Self.mix(state ^ Self.prime1, value ^ Self.prime2)
    }

    mutating func add(_ value: Int64) { add(UInt64(bitPattern: value)) }
    mutating func add(_ value: Int) { add(UInt64(bitPattern: Int64(value))) }
    mutating func add(_ value: Int32) { add(UInt64(UInt32(bitPattern: value))) }
    mutating func add(_ value: Bool) { add(value ? UInt64(1) : 2) }

    /// An optional value: a marker for nil, otherwise the value after another marker.
    mutating func add<T>(_ value: T?, _ feed: (inout Fingerprint, T) -> Void) {
        guard let value else { return add(UInt64(0x6e69_6c)) }
        add(UInt64(0x736f_6d65))
        feed(&self, value)
    }

    mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { add(UnsafeRawBufferPointer($0)) }
    }

    /// A run of bytes, with its length.
    mutating func add(_ bytes: UnsafeRawBufferPointer) { add(Self.of(bytes)) }

    /// The fingerprint of everything fed so far.
    var value: UInt64 { Self.mix(state ^ Self.prime0, Self.prime1 ^ 0x5bd1_e995) }

    /// The fingerprint of `bytes` alone: a file's, as the build manifest records it.
    ///
    /// The same as feeding the bytes in pieces to a ``Fingerprint/Bytes``, so a file written or read in chunks
    /// gets the fingerprint of its whole content.
    static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var fingerprint = Bytes()
        fingerprint.add(bytes)
        return fingerprint.value
    }

    /// The fingerprint of a run of bytes fed in pieces of any size: the pieces' boundaries do not change it.
    struct Bytes {
        private var state = Fingerprint.prime0
        private var count = 0
        /// Up to 15 bytes waiting for a 16-byte block, little-endian in two words.
        private var pending: (UInt64, UInt64) = (0, 0)
        private var pendingCount = 0

        init() {}

        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            count += bytes.count
            var index = 0
            while pendingCount > 0, index < bytes.count {
                take(bytes[index])
                index += 1
            }
            var state = self.state
            while index + 16 <= bytes.count {
                let a = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let b = bytes.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self)
                state = Fingerprint.mix(a ^ Fingerprint.prime1, b ^ state)
                index += 16
            }
            self.state = state
            // The last bytes (fewer than 16; nothing is pending here) are packed as ``take(_:)`` packs them, byte
            // `k` at bits `8k`, but in a few loads instead of a loop: most strings fingerprinted are that short.
            let rest = bytes.count - index
            guard rest > 0 else { return }
            if rest >= 8 {
                pending.0 = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                pending.1 = Self.packed(bytes, from: index + 8, count: rest - 8)
            } else {
                pending.0 = Self.packed(bytes, from: index, count: rest)
            }
            pendingCount = rest
        }

        /// `count` (below 8) bytes of `bytes` from `start`, byte `k` at bits `8k`, without reading past them.
        @inline(__always)
        private static func packed(_ bytes: UnsafeRawBufferPointer, from start: Int, count: Int) -> UInt64 {
            if count >= 4 {
                // Two 4-byte loads that overlap when `count` < 8: the overlapping bytes are equal in both.
                let low = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: start, as: UInt32.self)))
                let high = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: start + count - 4, as: UInt32.self)))
                return low | high << (8 * UInt64(count - 4))
            }
            guard count > 0 else { return 0 }
            let middle = count / 2
            return UInt64(bytes[start]) | UInt64(bytes[start + middle]) << (8 * UInt64(middle))
                | UInt64(bytes[start + count - 1]) << (8 * UInt64(count - 1))
        }

        @inline(__always)
        private mutating func take(_ byte: UInt8) {
            if pendingCount < 8 {
                pending.0 |= UInt64(byte) << (8 * UInt64(pendingCount))
            } else {
                pending.1 |= UInt64(byte) << (8 * UInt64(pendingCount - 8))
            }
            pendingCount += 1
            if pendingCount == 16 {
                state = Fingerprint.mix(pending.0 ^ Fingerprint.prime1, pending.1 ^ state)
                pending = (0, 0)
                pendingCount = 0
            }
        }

        /// The fingerprint of every byte fed so far, with their count.
        var value: UInt64 {
            let tail = Fingerprint.mix(pending.0 ^ Fingerprint.prime2, pending.1 ^ state ^ UInt64(count))
            return Fingerprint.mix(tail ^ Fingerprint.prime0, Fingerprint.prime1 ^ 0x5bd1_e995)
        }
    }
}
