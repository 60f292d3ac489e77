/// Escapes text from the store so it lands as literal text in Markdown, in raw HTML blocks and in HTML attributes.
///
/// Characters that could start markup become numeric character references (`*` becomes `&#42;`): everywhere,
/// `` \ ` * _ [ ] < > & " ' # `` and line breaks, NUL and other control characters (`#` everywhere because a value
/// ending in ` #` at the end of a heading line would otherwise be dropped as the heading's closing sequence); at the
/// start of the value (where a template may have put it at the start of a line), also the characters that open a
/// block (`-`, `+`, `=`, `~`, `>`, `|`, and the `.` or `)` after leading digits); blanks at either end. CommonMark decodes references
/// as literal characters that never start markup ("Entity and numeric character references cannot be used in
/// place of symbols indicating structure"), and browsers decode them in HTML blocks and attributes; so one
/// escaped form is safe everywhere a template may put a value, except inside code spans, where nothing is
/// decoded. Related documentation: <https://spec.commonmark.org/0.30/#entity-and-numeric-character-references>
public enum MarkdownEscaper {
    /// `text`, escaped. Text with nothing to escape is returned as is.
    public static func escape(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            let count = bytes.count
            guard count > 0 else { return "" }
            let firstNonBlank = bytes.firstIndex(where: { !isBlank($0) }) ?? count
            let lastNonBlank = bytes.lastIndex(where: { !isBlank($0) }) ?? -1
            // The one position where a block marker could begin, and a digit-run's closing '.' or ')'.
            var markerIndex = -1
            if firstNonBlank < count {
                let first = bytes[firstNonBlank]
                if isBlockStart[Int(first)] {
                    markerIndex = firstNonBlank
                } else if isDigit(first) {
                    var index = firstNonBlank
                    while index < count, isDigit(bytes[index]) { index += 1 }
                    if index < count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ")") {
                        markerIndex = index
                    }
                }
            }
            var needsWork = firstNonBlank > 0 || lastNonBlank < count - 1 || markerIndex >= 0
            if !needsWork { needsWork = bytes.contains(where: { alwaysEscaped[Int($0)] }) }
            guard needsWork else { return String(decoding: bytes, as: UTF8.self) }
            var output: [UInt8] = []
            output.reserveCapacity(count + 16)
            for index in 0..<count {
                let byte = bytes[index]
                if alwaysEscaped[Int(byte)] || index == markerIndex || index < firstNonBlank || index > lastNonBlank {
                    let code = byte == 0 ? 0xFFFD : Int(byte)
                    output.append(contentsOf: [UInt8(ascii: "&"), UInt8(ascii: "#")])
                    output.append(contentsOf: Array(String(code).utf8))
                    output.append(UInt8(ascii: ";"))
                } else {
                    output.append(byte)
                }
            }
            return String(decoding: output, as: UTF8.self)
        }
    }

    @inline(__always) private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
    @inline(__always) private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static let alwaysEscaped: [Bool] = {
        var table = Array(repeating: false, count: 256)
        for character in "\\`*_[]<>&\"'#" { table[Int(character.asciiValue!)] = true }
        for control in 0..<0x20 where control != 0x09 { table[control] = true }
        table[0x7F] = true
        return table
    }()

    private static let isBlockStart: [Bool] = {
        var table = Array(repeating: false, count: 256)
        for character in "-+=#~>|" { table[Int(character.asciiValue!)] = true }
        return table
    }()
}
