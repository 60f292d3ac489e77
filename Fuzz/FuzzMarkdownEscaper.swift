// Compiled together with Sources/InvoicesSite/Markdown/*.swift by scripts/fuzz.sh.

/// Property: escaped store text, put in a paragraph, renders back to itself.
///
/// `MarkdownRenderer(options: [.allowsRawHTML]).html(from: "x " + MarkdownEscaper.escape(s) + "\n")` must equal
/// `"<p>x " + html(s) + "</p>\n"`, where `html` is how cmark writes text (`&`, `<`, `>`, `"` as entities) and NUL
/// is U+FFFD (CommonMark replaces it). Nothing is trimmed: the escaper keeps blanks at either end as references.
/// The one exception is the empty string: then the paragraph is `x ` and cmark drops its trailing blank
/// (`<p>x</p>`), as it does for any paragraph; an empty value adds nothing.
/// The input bytes are decoded as UTF-8 with invalid sequences replaced, since the store loader only ever passes
/// valid UTF-8 on.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let rendered = MarkdownRenderer(options: [.allowsRawHTML]).html(from: "x " + MarkdownEscaper.escape(text) + "\n")
    var expected = "<p>x "
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": expected += "&amp;"
        case "<": expected += "&lt;"
        case ">": expected += "&gt;"
        case "\"": expected += "&quot;"
        case "\0": expected += "\u{FFFD}"
        default: expected.unicodeScalars.append(scalar)
        }
    }
    expected += "</p>\n"
    if text.isEmpty { expected = "<p>x</p>\n" }
    if rendered != expected {
        print("input:    \(Array(text.utf8))\nescaped:  \(MarkdownEscaper.escape(text).debugDescription)\nrendered: \(rendered.debugDescription)\nexpected: \(expected.debugDescription)")
        fatalError("escaped text does not render back to itself")
    }
    return 0
}
