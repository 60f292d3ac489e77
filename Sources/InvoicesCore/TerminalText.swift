/// Text from the books made safe for one field of a line on a terminal or in tab-separated output.
///
/// Control characters (C0, DEL, C1), the Unicode line and paragraph separators and the bidirectional embeddings,
/// overrides and isolates could split a row, forge another one or rewrite what the terminal shows. Each is written
/// as a visible escape instead: `\t`, `\n`, `\r`, or `\u{…}` with its hexadecimal code; a backslash is doubled so
/// an escape in the output always means one character of the value.
///
/// ```swift
/// TerminalText.escaped("Acme\t\u{1B}[2K")  // "Acme\\t\\u{1b}[2K"
/// ```
public enum TerminalText {
    public static func escaped(_ text: String) -> String { escape(text, backslash: true, keepingLines: false) }

    /// A message for a terminal: every control (C0, DEL, C1), line or paragraph separator and bidi control written
    /// as in ``escaped(_:)``, except the message's own line breaks when `keepingLines`. A backslash is left as it is,
    /// so a value a message escaped already shows the same.
    ///
    /// ```swift
    /// TerminalText.message("a.pdf has \u{1B}]0;x\u{7}\nImported into", keepingLines: false)
    /// // "a.pdf has \\u{1b}]0;x\\u{7}\\nImported into"
    /// ```
    public static func message(_ text: String, keepingLines: Bool) -> String {
        escape(text, backslash: false, keepingLines: keepingLines)
    }

    private static func escape(_ text: String, backslash: Bool, keepingLines: Bool) -> String {
        func kept(_ scalar: Unicode.Scalar) -> Bool { (!backslash && scalar == "\\") || (keepingLines && scalar == "\n") }
        guard text.unicodeScalars.contains(where: { needsEscape($0) && !kept($0) }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case _ where kept(scalar): result.unicodeScalars.append(scalar)
            case "\\": result += "\\\\"
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case _ where needsEscape(scalar): result += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true  // C0, DEL, C1
        case 0x2028, 0x2029: true  // line and paragraph separators
        case 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069: true  // bidi marks, embeddings, overrides, isolates
        case 0x5C: true  // the escape character itself
        default: false
        }
    }
}
