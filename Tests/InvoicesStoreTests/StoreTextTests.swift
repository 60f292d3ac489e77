import Foundation
@testable import InvoicesStore
import Testing

/// A column's text read by ``StoreText``: ASCII by the fast path, anything else validated, with the same answer as
/// `String(validating:as:)` for every byte string, at every length around the eight-byte steps.
struct StoreTextTests {
    static func read(_ bytes: [UInt8]) -> String? { bytes.withUnsafeBufferPointer { StoreText.string($0) } }

    @Test func givesWhatValidatingGivesAtEveryLengthAndPosition() {
        for length in 0...19 {
            let ascii = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
            #expect(Self.read(ascii) == String(decoding: ascii, as: UTF8.self))
            #expect(StoreText.isASCII(ascii, length))
            for position in 0..<length {
                // A byte past ASCII at each position: a lone continuation byte is not UTF-8, and is refused.
                var invalid = ascii
                invalid[position] = 0x80
                #expect(Self.read(invalid) == nil, "length \(length), byte \(position)")
                #expect(!StoreText.isASCII(invalid, length))
                // A two-byte letter (é) at each position is valid and kept as it is.
                var letter = ascii
                letter.replaceSubrange(position..<(position + 1), with: [0xC3, 0xA9])
                #expect(Self.read(letter) == String(validating: letter, as: UTF8.self))
                #expect(Self.read(letter)?.utf8.elementsEqual(letter) == true)
            }
        }
        #expect(Self.read([0xF0, 0x90, 0x80, 0x41]) == nil, "a truncated four-byte sequence")
        #expect(Self.read([0xED, 0xA0, 0x80]) == nil, "a surrogate")
    }
}
