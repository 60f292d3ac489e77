import InvoicesSite
import Testing

/// A value at the end of a heading line keeps its trailing `#`s (found by HostileStringsTests, issue 10).
struct MarkdownHeadingEscapeTests {
    @Test(arguments: ["Acme #", "Acme ##", "#", "C# and F#", "Order #5", "# Heading #"])
    func trailingHashesInAHeadingAreText(_ text: String) {
        let html = MarkdownRenderer(options: [.allowsRawHTML]).html(from: "# " + MarkdownEscaper.escape(text) + "\n")
        #expect(html == "<h1>" + text + "</h1>\n")
        let later = MarkdownRenderer(options: [.allowsRawHTML]).html(from: "## Client " + MarkdownEscaper.escape(text) + "\n")
        #expect(later == "<h2>Client " + text + "</h2>\n")
    }
}
