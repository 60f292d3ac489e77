@testable import InvoicesSite
import Testing

/// A value reads as exactly its text wherever a template puts it (issue 16): in Markdown text, a heading, emphasis,
/// a code span, a fenced or indented code block, a table cell, an HTML element, an attribute, a link's address,
/// an image's alternative text.
struct ValueContextTests {
    static let hostile = [
        "*Acme* <script>alert(1)</script>", "a*b*c", "`code` and ``more``", "a\\*b", "&#42; &amp; &lt;", "</code></pre>",
        "```", "    indented", "- item", "1. first", "# Heading ##", "[l](javascript:alert(1))", "a | b | c", "\"q\" 'q'",
        "line\nbreak", " padded ", "\u{E000}forged\u{E001}", "%EE%80%80x", "<!-- c -->", "{{home}}", "trailing \\",
        "é 👩‍👩‍👧", "_under_ __bold__",
    ]

    static func html(_ value: String) -> String {
        var output = ""
        HTMLEscaping.append(value, to: &output)
        return output
    }

    /// Contexts: the template line, and the HTML cmark makes of it with the value's text in it.
    static let contexts: [(name: String, template: String, expected: @Sendable (String) -> String)] = [
        ("text", "Text {{home}} end.\n", { "<p>Text \(html($0)) end.</p>\n" }),
        ("heading", "# {{home}}\n", { "<h1>\(html($0))</h1>\n" }),
        ("emphasis", "*{{home}}*\n", { "<p><em>\(html($0))</em></p>\n" }),
        ("code span", "Code `{{home}}`.\n", { "<p>Code <code>\(html($0))</code>.</p>\n" }),
        ("fenced code block", "```\n{{home}}\n```\n", { "<pre><code>\(html($0))\n</code></pre>\n" }),
        ("fenced code block with info", "```{{home}}\nx\n```\n", { "<pre><code class=\"language-\(html($0))\">x\n</code></pre>\n" }),
        ("indented code block", "    {{home}}\n", { "<pre><code>\(html($0))\n</code></pre>\n" }),
        ("table cell", "<table><tr><td>{{home}}</td></tr></table>\n", { "<table><tr><td>\(html($0))</td></tr></table>\n" }),
        ("HTML element", "<p class=\"x\"><span>{{home}}</span></p>\n", { "<p class=\"x\"><span>\(html($0))</span></p>\n" }),
        ("attribute", "<div title=\"{{home}}\" data-x='{{home}}'>x</div>\n", {
            "<div title=\"\(html($0))\" data-x='\(html($0))'>x</div>\n"
        }),
        ("image text", "![{{home}}](p.png)\n", { "<p><img src=\"p.png\" alt=\"\(html($0))\" /></p>\n" }),
        ("link text", "[{{home}}](p.html)\n", { "<p><a href=\"p.html\">\(html($0))</a></p>\n" }),
    ]

    static let renderer = MarkdownRenderer(options: [.allowsRawHTML])

    @Test(arguments: contexts.indices)
    func aValueReadsAsItsTextIn(_ index: Int) throws {
        let context = Self.contexts[index]
        let templates = try TemplateSet(texts: ["404.md": (context.template, "404.md")])
        for value in Self.hostile {
            let html = templates.html("404", ["home": value], rows: nil, renderer: Self.renderer)
            #expect(html == context.expected(value), "\(context.name): \(value.debugDescription)")
        }
    }

    @Test func aValueInALinksAddressIsPercentEncodedAndNeverAScript() throws {
        let templates = try TemplateSet(texts: ["404.md": ("[x]({{home}}) <a href=\"{{home}}\">y</a>\n", "404.md")])
        let cases = [
            ("https://example.com/a b?q=1&r=é", "https://example.com/a%20b?q=1&amp;r=%C3%A9", "https://example.com/a b?q=1&amp;r=é"),
            ("javascript:alert(1)", "", "javascript:alert(1)"),
            ("it's", "it&#x27;s", "it&#39;s"),
        ]
        for (value, markdownAddress, htmlAddress) in cases {
            let html = templates.html("404", ["home": value], rows: nil, renderer: Self.renderer)
            #expect(html == "<p><a href=\"\(markdownAddress)\">x</a> <a href=\"\(htmlAddress)\">y</a></p>\n", "\(value)")
        }
    }

    @Test func tokensRoundTripAnyBytes() {
        for value in Self.hostile + ["", "\u{0}", "\u{E100}\u{E1FF}", String(repeating: "x", count: 10_000)] {
            let token = MarkdownValues.token(for: value)
            #expect(value.isEmpty == token.isEmpty)
            #expect(MarkdownValues.decode("<p>" + token + "</p>") == "<p>" + Self.html(value) + "</p>")
        }
        // A stray marker without a whole token is left as it is.
        #expect(MarkdownValues.decode("a\u{E000}b") == "a\u{E000}b")
    }
}
