import InvoicesCore
import Testing

/// The escapes of ``TerminalText``: for one field (`escaped`) and for a message (`message`, issue 41).
struct TerminalTextTests {
    static let hostile = "\u{1B}]0;owned\u{07}\u{1B}[2J\nImported into x\u{9B}6n\u{202E}lmx.x\u{2028}\\end"

    @Test func aMessageHasNoRawControlAndKeepsItsBackslashes() {
        let line = TerminalText.message(Self.hostile, keepingLines: false)
        #expect(line == "\\u{1b}]0;owned\\u{7}\\u{1b}[2J\\nImported into x\\u{9b}6n\\u{202e}lmx.x\\u{2028}\\end")
        // An already escaped value shows the same: printing it through the printer does not double its escapes.
        #expect(TerminalText.message(TerminalText.escaped("a\tb"), keepingLines: false) == "a\\tb")
    }

    @Test func aMessageKeepsItsOwnLinesOnlyWhenAsked() {
        #expect(TerminalText.message("one\ntwo\r\u{1B}[2K", keepingLines: true) == "one\ntwo\\r\\u{1b}[2K")
        #expect(TerminalText.message("one\ntwo", keepingLines: false) == "one\\ntwo")
        #expect(TerminalText.message("plain text, € and ü", keepingLines: false) == "plain text, € and ü")
    }

    @Test func aFieldDoublesItsBackslashes() {
        #expect(TerminalText.escaped("a\\b\n") == "a\\\\b\\n")
    }
}
