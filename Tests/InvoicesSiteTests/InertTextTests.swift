@testable import InvoicesSite
import Testing

/// Values reach HTML inert: no control character HTML forbids, and no bidirectional control that reaches past the
/// value (issue 28, finding 11).
struct InertTextTests {
    func escaped(_ text: String) -> String {
        var output = ""
        HTMLEscaping.append(text, to: &output)
        return output
    }

    @Test func controlsOtherThanTabLineFeedAndReturnBecomeTheReplacementCharacter() {
        #expect(escaped("a\u{0}b\u{1}c\u{1B}[31md\u{7F}e") == "a\u{FFFD}b\u{FFFD}c\u{FFFD}[31md\u{FFFD}e")
        #expect(escaped("c1 \u{80}\u{85}\u{9B}\u{9F} end") == "c1 \u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD} end")
        #expect(escaped("tab\tline\nreturn\r") == "tab\tline\nreturn\r")
        // Characters whose UTF-8 shares the lead bytes C2 and E2 are left alone.
        #expect(escaped("\u{A0}©€…–\u{200E}\u{200F}") == "\u{A0}©€…–\u{200E}\u{200F}")
        #expect(escaped("<a href=\"x\">&'") == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;")
    }

    @Test func bidirectionalControlsAreClosedWithinTheValue() {
        // An override left open is closed at the end of the value, so it cannot reverse what follows on the page.
        #expect(escaped("\u{202E}evil") == "\u{202E}evil\u{202C}")
        #expect(escaped("\u{2067}rtl \u{202B}emb") == "\u{2067}rtl \u{202B}emb\u{202C}\u{2069}")
        // Closers without an opener would close the page's own embeddings: dropped.
        #expect(escaped("x\u{202C}y\u{2069}z") == "xyz")
        // A PDI closes its isolate and the embeddings opened inside it; a PDF cannot close an isolate.
        #expect(escaped("\u{2066}a\u{202D}b\u{2069}c") == "\u{2066}a\u{202D}b\u{2069}c")
        #expect(escaped("\u{2066}a\u{202C}b") == "\u{2066}ab\u{2069}")
        // Balanced values are unchanged.
        #expect(escaped("bidi \u{202E}gnp.exe\u{202C} and \u{2066}isolate\u{2069}") == "bidi \u{202E}gnp.exe\u{202C} and \u{2066}isolate\u{2069}")
    }

    @Test func inertTextIsNotEscaped() {
        #expect(HTMLEscaping.inert("<b>\u{202E}x\u{1}") == "<b>\u{202E}x\u{FFFD}\u{202C}")
    }
}
