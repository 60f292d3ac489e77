/// Escapes text from the store so it lands as literal text in Markdown, in raw HTML blocks and in HTML attributes.
///
/// Every ASCII punctuation character that has a meaning in Markdown or HTML, line breaks, NUL, and leading or
/// trailing blanks, and a leading digit (which could start an ordered list) become numeric character references (`*` becomes `&#42;`). CommonMark decodes references as
/// literal characters that never start markup ("Entity and numeric character references cannot be used in place
/// of symbols indicating structure"), and browsers decode them in HTML blocks and attributes; so one escaped form
/// is safe everywhere a template may put a value, except inside code spans, where nothing is decoded.
public enum MarkdownEscaper {
    /// `text`, escaped. Text with nothing to escape is returned as is.
    public static func escape(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            let leadingDigit = bytes.first.map { $0 >= 0x30 && $0 <= 0x39 } ?? false
            guard let firstSpecial = leadingDigit ? 0 : (bytes.firstIndex(where: { needsEscape[Int($0)] }) ?? edgeBlank(bytes)) else {
                return String(decoding: bytes, as: UTF8.self)
            }
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + 16)
            output.append(contentsOf: bytes[..<firstSpecial])
            let lastNonBlank = bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 }) ?? -1
            let firstNonBlank = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) ?? bytes.count
            for index in firstSpecial..<bytes.count {
                let byte = bytes[index]
                let blankAtEdge = (byte == 0x20 || byte == 0x09) && (index < firstNonBlank || index > lastNonBlank)
                if needsEscape[Int(byte)] || blankAtEdge || (index == 0 && leadingDigit) {
                    let code = byte == 0 ? 0xFFFD : Int(byte)
                    output.append(contentsOf: Array("&#\(code);".utf8))
                } else {
                    output.append(byte)
                }
            }
            return String(decoding: output, as: UTF8.self)
        }
    }

    private static func edgeBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = bytes.first, let last = bytes.last else { return nil }
        if first == 0x20 || first == 0x09 { return 0 }
        if last == 0x20 || last == 0x09 { return bytes.count - 1 }
        return nil
    }

    private static let needsEscape: [Bool] = {
        var table = Array(repeating: false, count: 256)
        for character in "\\`*_[]<>#+-!|~&\"'=" { table[Int(character.asciiValue!)] = true }
        for control in [0x00, 0x0A, 0x0D, 0x0C, 0x0B] { table[control] = true }
        return table
    }()
}
