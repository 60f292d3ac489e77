import InvoicesSite
import Testing

struct MarkdownTests {
    @Test func rendersCommonMark() {
        #expect(MarkdownRenderer().html(from: "# Title\n\nSome *text*.") == "<h1>Title</h1>\n<p>Some <em>text</em>.</p>\n")
    }

    @Test func rawHTMLDoesNotPassThroughByDefault() {
        let html = MarkdownRenderer().html(from: "<script>alert(1)</script>\n\nHi <b>there</b> [x](javascript:alert(1))")
        #expect(!html.contains("<script>"))
        #expect(!html.contains("<b>"))
        #expect(!html.contains("javascript:"))
        #expect(html.contains("raw HTML omitted"))
    }

    @Test func trustedTemplatesMayUseRawHTML() {
        let html = MarkdownRenderer(options: [.allowsRawHTML]).html(from: "<table><tr><td>1</td></tr></table>\n")
        #expect(html == "<table><tr><td>1</td></tr></table>\n")
    }

    @Test(arguments: [
        "*Acme* <script>alert(1)</script>", "[click](javascript:alert(1))", "# Heading", "a | b | c", "`code`",
        "Tom & Jerry", "1. first", "- item", "> quote", "---", "===", "snake_case_name", "  padded  ", "line\nbreak",
        "back\\slash", "<!-- comment -->", "&amp; literal", "![img](x.png)", "\"quoted\" 'single'", "~~~", "+ plus",
    ])
    func escapedTextRendersBackToItself(_ text: String) {
        let html = MarkdownRenderer(options: [.allowsRawHTML]).html(from: "Before " + MarkdownEscaper.escape(text) + " after\n")
        let expected = "<p>Before " + htmlEscaped(text) + " after</p>\n"
        #expect(html == expected)
        let atLineStart = MarkdownRenderer(options: [.allowsRawHTML]).html(from: MarkdownEscaper.escape(text) + "\n")
        #expect(atLineStart == "<p>" + htmlEscaped(text) + "</p>\n")
    }

    /// How cmark writes text: &, <, >, " escaped; everything else literal.
    func htmlEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
