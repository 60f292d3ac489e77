/// Carries values from the store through cmark as opaque tokens, and puts them back, escaped, into the HTML.
///
/// A value in a Markdown template can land in Markdown text, a heading, a code span, a fenced or indented code
/// block, a raw HTML block or inline tag, an attribute, a link's address or title. No single escaped form reads
/// as the value's text in all of these: character references are decoded in text and HTML but shown as typed in
/// code. So a value goes into the Markdown as a token: a run of private-use characters (U+E000, one character
/// U+E100 + byte per UTF-8 byte of the value, U+E001) that cmark treats as ordinary letters in every context and
/// copies through unchanged (percent-encoded in link addresses). After cmark, ``decode(_:)`` replaces each token
/// by the value escaped for HTML, or for a URL where cmark percent-encoded it. So a value is exactly its text
/// wherever a template puts it, and never becomes markup. Related documentation:
/// <https://spec.commonmark.org/0.30/#code-spans>, <https://spec.commonmark.org/0.30/#links>
///
/// HTML the tool draws itself (a QR code, a chart) travels the same way, as an HTML token (``html(_:)``: the opener
/// U+E002), and ``decode(_:)`` writes it back as it is. So raw HTML joins a page only after cmark: no value inside
/// it (a payee's name, an invoice number in a label) can end the HTML block it sits in, and nothing in it is read
/// as Markdown. Related documentation: <https://spec.commonmark.org/0.30/#html-blocks>
enum MarkdownValues {
    static let open: Unicode.Scalar = "\u{E000}"
    static let close: Unicode.Scalar = "\u{E001}"
    /// Opens an HTML token: HTML the tool made, written back unescaped.
    static let openHTML: Unicode.Scalar = "\u{E002}"
    /// The first of the 256 byte characters.
    static let byteBase: UInt32 = 0xE100

    /// Whether `scalar` is one of the characters tokens are made of (templates and rows must not contain them).
    static func isReserved(_ scalar: Unicode.Scalar) -> Bool {
        scalar == open || scalar == close || scalar == openHTML || (scalar.value >= byteBase && scalar.value < byteBase + 256)
    }

    /// The token for `value`; empty for an empty value, so that an empty value leaves no trace in the Markdown.
    static func token(for value: String) -> String { token(value, opener: open) }

    /// The token for `html`, markup the tool made (never text from the books but escaped within it): a template
    /// inserts it unescaped (`{{{qr}}}`), cmark sees letters only, and ``decode(_:)`` writes `html` as it is.
    static func html(_ html: String) -> String { token(html, opener: openHTML) }

    /// The bytes of `value` as byte characters between `opener` and the closing character, as UTF-8: U+E100 + b is
    /// EE, 84 + the top two bits of b, 80 + its low six bits.
    private static func token(_ value: String, opener: Unicode.Scalar) -> String {
        guard !value.isEmpty else { return "" }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count * 3 + 6)
        bytes.append(contentsOf: [0xEE, 0x80, 0x80 | UInt8(opener.value & 0x3F)])
        for byte in value.utf8 {
            bytes.append(0xEE)
            bytes.append(0x84 | byte >> 6)
            bytes.append(0x80 | byte & 0x3F)
        }
        bytes.append(contentsOf: [0xEE, 0x80, 0x81])
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `html` with every token replaced by its value, escaped for HTML; inside a percent-encoded token (a link's
    /// address), by the value percent-encoded as cmark encodes addresses, or nothing when the value is a
    /// `javascript:`, `vbscript:`, `file:` or `data:` address (as cmark's safe mode drops them). An HTML token is
    /// replaced by its markup as it is, or by nothing inside a link's address.
    static func decode(_ html: String) -> String {
        replacingTokens(in: html) { value in
            var text = ""
            HTMLEscaping.append(String(decoding: value, as: UTF8.self), to: &text)
            return Array(text.utf8)
        } address: { escapeAddress($0) } markup: { $0 } markupAddress: { _ in [] }
    }

    /// `markdown` with every token replaced by its value as ``MarkdownEscaper`` writes it, and every HTML token by
    /// its markup: readable Markdown for `--debug-markdown`.
    static func readable(_ markdown: String) -> String {
        replacingTokens(in: markdown) { Array(MarkdownEscaper.escape(String(decoding: $0, as: UTF8.self)).utf8) } address: { $0 }
            markup: { $0 } markupAddress: { $0 }
    }

    /// `html` with each token replaced by what the closure for its kind makes of its value's bytes: `text` and
    /// `markup` for value and HTML tokens, `address` and `markupAddress` for percent-encoded ones. The bytes between
    /// tokens are copied in runs; `html` itself comes back when it holds no token.
    static func replacingTokens(
        in html: String, text: ([UInt8]) -> [UInt8], address: ([UInt8]) -> [UInt8],
        markup: ([UInt8]) -> [UInt8], markupAddress: ([UInt8]) -> [UInt8]
    ) -> String {
        var html = html
        let replaced: String? = html.withUTF8 { bytes in
            var output: [UInt8] = []
            var index = 0, copied = 0
            while index < bytes.count {
                let byte = bytes[index]
                // U+E000 is EE 80 80 in UTF-8; percent-encoded, "%EE%80%80" (U+E002, "%EE%80%82").
                guard byte == 0xEE || byte == UInt8(ascii: "%"),
                    let (value, isMarkup, end) = decodeToken(bytes, at: index, percentEncoded: byte != 0xEE)
                else {
                    index += 1
                    continue
                }
                if output.isEmpty { output.reserveCapacity(bytes.count) }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<index]))
                if byte == 0xEE {
                    output.append(contentsOf: isMarkup ? markup(value) : text(value))
                } else {
                    output.append(contentsOf: isMarkup ? markupAddress(value) : address(value))
                }
                index = end
                copied = end
            }
            guard copied > 0 else { return nil }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
            return String(decoding: output, as: UTF8.self)
        }
        return replaced ?? html
    }

    /// The value bytes of the token starting at `start`, whether it is an HTML token, and the index after it; nil when
    /// none starts there.
    private static func decodeToken(
        _ bytes: UnsafeBufferPointer<UInt8>, at start: Int, percentEncoded: Bool
    ) -> ([UInt8], Bool, Int)? {
        if !percentEncoded {
            // As UTF-8, the common case: three bytes a character, the byte characters EE 84–87 80–BF.
            guard start + 2 < bytes.count, bytes[start + 1] == 0x80, bytes[start + 2] == 0x80 || bytes[start + 2] == 0x82 else { return nil }
            let isMarkup = bytes[start + 2] == 0x82
            var value: [UInt8] = []
            var index = start + 3
            while index + 2 < bytes.count, bytes[index] == 0xEE {
                let high = bytes[index + 1], low = bytes[index + 2]
                if high == 0x80, low == 0x81 { return (value, isMarkup, index + 3) }
                guard high & 0xFC == 0x84, low & 0xC0 == 0x80 else { return nil }
                value.append((high & 0x03) << 6 | low & 0x3F)
                index += 3
            }
            return nil
        }
        var index = start
        func scalar() -> UInt32? {
            var utf8: [UInt8] = []
            for _ in 0..<3 {
                guard index + 2 < bytes.count, bytes[index] == UInt8(ascii: "%"),
                    let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2])
                else { return nil }
                utf8.append(high << 4 | low)
                index += 3
            }
            guard utf8[0] == 0xEE, utf8[1] & 0xC0 == 0x80, utf8[2] & 0xC0 == 0x80 else { return nil }
            return UInt32(utf8[0] & 0x0F) << 12 | UInt32(utf8[1] & 0x3F) << 6 | UInt32(utf8[2] & 0x3F)
        }
        let opener = scalar()
        guard opener == open.value || opener == openHTML.value else { return nil }
        var value: [UInt8] = []
        while true {
            guard let next = scalar() else { return nil }
            if next == close.value { return (value, opener == openHTML.value, index) }
            guard next >= byteBase, next < byteBase + 256 else { return nil }
            value.append(UInt8(next - byteBase))
        }
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// Bytes cmark leaves as they are in a link's address (houdini's `HREF_SAFE`); `&` and `'` are then written as
    /// references, everything else is percent-encoded.
    private static let addressSafe: [Bool] = {
        var table = Array(repeating: false, count: 256)
        for byte in Array("-_.+!*(),%#@?=;:/$~&'".utf8) { table[Int(byte)] = true }
        for range in [UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9")] {
            for byte in range { table[Int(byte)] = true }
        }
        return table
    }()

    /// A value placed in a link's address, escaped as cmark escapes addresses.
    static func escapeAddress(_ value: [UInt8]) -> [UInt8] {
        let lower = String(decoding: value.prefix(16), as: UTF8.self).lowercased().filter { !$0.isWhitespace }
        if ["javascript:", "vbscript:", "file:", "data:"].contains(where: { lower.hasPrefix($0) }) { return [] }
        var output: [UInt8] = []
        let digits = Array("0123456789ABCDEF".utf8)
        for byte in value {
            if byte == UInt8(ascii: "&") {
                output.append(contentsOf: Array("&amp;".utf8))
            } else if byte == UInt8(ascii: "'") {
                output.append(contentsOf: Array("&#x27;".utf8))
            } else if addressSafe[Int(byte)] {
                output.append(byte)
            } else {
                output.append(contentsOf: [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
            }
        }
        return output
    }
}
