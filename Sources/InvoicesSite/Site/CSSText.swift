/// Text from a translation table written into a style sheet: CSS strings that a table's value cannot leave.
enum CSSText {
    /// `text` as a CSS string, quotes included. Letters, digits and spaces are written as they are; every other
    /// character (quotes, backslashes, line ends, `<` of a `</style>`, controls, bidirectional overrides) as a
    /// hexadecimal escape followed by a space, which the escape takes as its end: no value ends the string, the
    /// declaration or the style element.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            let plain =
                scalar == " " || scalar.properties.isAlphabetic
                || ("0"..."9").contains(scalar)
            if plain {
                result.unicodeScalars.append(scalar)
            } else {
                result += "\\" + String(scalar.value, radix: 16) + " "
            }
        }
        return result + "\""
    }

    /// A `content` value of `text` with each placeholder of `counters` (`{page}`) written as its counter
    /// (`counter(page)`) and the rest as CSS strings: `Page {page} of {pages}` is
    /// `"Page " counter(page) " of " counter(pages)`. Other braces are text.
    static func content(_ text: String, counters: [String: String]) -> String {
        var parts: [String] = []
        Translation.pieces(text, names: counters.keys.contains) { piece, isName in
            parts.append(isName ? "counter(\(counters[piece] ?? piece))" : string(piece))
        }
        return parts.isEmpty ? "\"\"" : parts.joined(separator: " ")
    }
}
