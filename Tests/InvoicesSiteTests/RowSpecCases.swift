/// Row templates from the rules of the Mustache spec (<https://github.com/mustache/spec>, `specs/interpolation.yml`,
/// `sections.yml`, `inverted.yml`, `comments.yml`; the whitespace rules live in each), written for rows: every
/// value is a string, an empty string is false. The expected text follows the spec, with values HTML-escaped.
struct RowSpecCase: CustomStringConvertible, Sendable {
    var name: String
    var template: String
    var row: [String: String]
    var expected: String

    var description: String { name }

    /// The columns the cases use.
    static let columns = ["a", "b", "c", "yes", "no", "html"]

    static func row(_ values: [String: String]) -> [String: String] {
        var row = ["a": "A", "b": "B", "c": "C", "yes": "y", "no": "", "html": "& \" < >"]
        for (key, value) in values { row[key] = value }
        return row
    }

    static let all: [RowSpecCase] = interpolation + sections + inverted + comments + whitespace

    static let interpolation: [RowSpecCase] = [
        .init(name: "no interpolation", template: "Hello from {Mustache}!\n", row: row([:]), expected: "Hello from {Mustache}!\n"),
        .init(name: "basic", template: "Hello, {{a}}!\n", row: row(["a": "world"]), expected: "Hello, world!\n"),
        .init(name: "HTML escaping", template: "These: {{html}}\n", row: row([:]), expected: "These: &amp; &quot; &lt; &gt;\n"),
        .init(name: "quote escaping", template: "<td title=\"{{a}}\">{{a}}</td>\n", row: row(["a": "it's \"x\""]),
              expected: "<td title=\"it&#39;s &quot;x&quot;\">it&#39;s &quot;x&quot;</td>\n"),
        .init(name: "empty value", template: "[{{no}}]\n", row: row([:]), expected: "[]\n"),
        .init(name: "surrounding whitespace", template: "| {{a}} |", row: row([:]), expected: "| A |"),
        .init(name: "standalone interpolation keeps its line", template: "  {{a}}\n", row: row([:]), expected: "  A\n"),
        .init(name: "standalone empty interpolation keeps its line", template: "  {{no}}\n", row: row([:]), expected: "  \n"),
        .init(name: "padding inside the tag", template: "|{{ a }}|", row: row([:]), expected: "|A|"),
        .init(name: "multiple on a line", template: "{{a}}{{b}} {{c}}\n", row: row([:]), expected: "AB C\n"),
    ]

    static let sections: [RowSpecCase] = [
        .init(name: "truthy", template: "\"{{#yes}}This should be rendered.{{/yes}}\"", row: row([:]), expected: "\"This should be rendered.\""),
        .init(name: "falsey", template: "\"{{#no}}This should not be rendered.{{/no}}\"", row: row([:]), expected: "\"\""),
        .init(name: "variable inside", template: "{{#yes}}[{{a}}]{{/yes}}", row: row([:]), expected: "[A]"),
        .init(name: "nested truthy", template: "| A {{#yes}}B {{#yes}}C{{/yes}} D{{/yes}} E |", row: row([:]), expected: "| A B C D E |"),
        .init(name: "nested falsey", template: "| A {{#no}}B {{#no}}C{{/no}} D{{/no}} E |", row: row([:]), expected: "| A  E |"),
        .init(name: "surrounding whitespace", template: " | {{#yes}}\t|\t{{/yes}} | \n", row: row([:]), expected: " | \t|\t | \n"),
        .init(name: "internal whitespace", template: " | {{#yes}} {{! Important Whitespace }}\n {{/yes}} | \n", row: row([:]), expected: " |  \n  | \n"),
        .init(name: "indented inline sections", template: " {{#yes}}YES{{/yes}}\n {{#yes}}GOOD{{/yes}}\n", row: row([:]), expected: " YES\n GOOD\n"),
        .init(name: "standalone lines", template: "| This Is\n{{#yes}}\n|\n{{/yes}}\n| A Line\n", row: row([:]), expected: "| This Is\n|\n| A Line\n"),
        .init(name: "indented standalone lines", template: "| This Is\n  {{#yes}}\n|\n  {{/yes}}\n| A Line\n", row: row([:]), expected: "| This Is\n|\n| A Line\n"),
        .init(name: "standalone line endings", template: "|\r\n{{#yes}}\r\n{{/yes}}\r\n|", row: row([:]), expected: "|\r\n|"),
        .init(name: "standalone without previous line", template: "  {{#yes}}\n#{{/yes}}\n/", row: row([:]), expected: "#\n/"),
        .init(name: "standalone without newline", template: "#{{#yes}}\n/\n  {{/yes}}", row: row([:]), expected: "#\n/\n"),
        .init(name: "padding", template: "|{{# yes }}={{/ yes }}|", row: row([:]), expected: "|=|"),
        .init(name: "value as context", template: "{{#a}}<{{.}}>{{/a}}", row: row(["a": "x"]), expected: "<x>"),
        .init(name: "section over an empty value in a standalone line", template: "<tr>\n{{#no}}\n<td>x</td>\n{{/no}}\n</tr>\n", row: row([:]), expected: "<tr>\n</tr>\n"),
    ]

    static let inverted: [RowSpecCase] = [
        .init(name: "falsey", template: "\"{{^no}}This should be rendered.{{/no}}\"", row: row([:]), expected: "\"This should be rendered.\""),
        .init(name: "truthy", template: "\"{{^yes}}This should not be rendered.{{/yes}}\"", row: row([:]), expected: "\"\""),
        .init(name: "nested falsey", template: "| A {{^no}}B {{^no}}C{{/no}} D{{/no}} E |", row: row([:]), expected: "| A B C D E |"),
        .init(name: "nested truthy", template: "| A {{^yes}}B {{^yes}}C{{/yes}} D{{/yes}} E |", row: row([:]), expected: "| A  E |"),
        .init(name: "surrounding whitespace", template: " | {{^no}}\t|\t{{/no}} | \n", row: row([:]), expected: " | \t|\t | \n"),
        .init(name: "standalone lines", template: "| This Is\n{{^no}}\n|\n{{/no}}\n| A Line\n", row: row([:]), expected: "| This Is\n|\n| A Line\n"),
        .init(name: "standalone indented lines", template: "| This Is\n  {{^no}}\n|\n  {{/no}}\n| A Line\n", row: row([:]), expected: "| This Is\n|\n| A Line\n"),
        .init(name: "standalone line endings", template: "|\r\n{{^no}}\r\n{{/no}}\r\n|", row: row([:]), expected: "|\r\n|"),
        .init(name: "padding", template: "|{{^ no }}={{/ no }}|", row: row([:]), expected: "|=|"),
        .init(name: "section and inverse", template: "{{#yes}}paid {{a}}{{/yes}}{{^yes}}open{{/yes}}\n", row: row([:]), expected: "paid A\n"),
    ]

    static let comments: [RowSpecCase] = [
        .init(name: "inline", template: "12345{{! Comment Block! }}67890", row: row([:]), expected: "1234567890"),
        .init(name: "multiline", template: "12345{{!\n  This is a\n  multi-line comment...\n}}67890\n", row: row([:]), expected: "1234567890\n"),
        .init(name: "standalone", template: "Begin.\n{{! Comment Block! }}\nEnd.\n", row: row([:]), expected: "Begin.\nEnd.\n"),
        .init(name: "indented standalone", template: "Begin.\n  {{! Indented Comment Block! }}\nEnd.\n", row: row([:]), expected: "Begin.\nEnd.\n"),
        .init(name: "standalone line endings", template: "|\r\n{{! Standalone Comment }}\r\n|", row: row([:]), expected: "|\r\n|"),
        .init(name: "standalone without previous line", template: "  {{! I'm Still Standalone }}\n!", row: row([:]), expected: "!"),
        .init(name: "standalone without newline", template: "!\n  {{! I'm Still Standalone }}", row: row([:]), expected: "!\n"),
        .init(name: "multiline standalone", template: "Begin.\n{{!\nSomething's going on here...\n}}\nEnd.\n", row: row([:]), expected: "Begin.\nEnd.\n"),
        .init(name: "indented inline", template: "  12 {{! 34 }}\n", row: row([:]), expected: "  12 \n"),
        .init(name: "surrounding whitespace", template: "12345 {{! Comment Block! }} 67890", row: row([:]), expected: "12345  67890"),
    ]

    /// The spec's whitespace rules as rows meet them: standalone tags in HTML rows, trailing blanks after a tag.
    static let whitespace: [RowSpecCase] = [
        .init(name: "standalone section in a row", template: "<tr>\n{{#yes}}\n<td>{{a}}</td>\n{{/yes}}\n</tr>\n", row: row([:]), expected: "<tr>\n<td>A</td>\n</tr>\n"),
        .init(name: "standalone comment in a row", template: "<tr>\n  {{! a note }}\n<td>{{a}}</td>\n</tr>\n", row: row([:]), expected: "<tr>\n<td>A</td>\n</tr>\n"),
        .init(name: "standalone tag with trailing blanks", template: "<tr>\n{{#yes}}  \t\n<td>{{a}}</td>\n{{/yes}} \n</tr>\n", row: row([:]), expected: "<tr>\n<td>A</td>\n</tr>\n"),
        .init(name: "standalone comment with trailing blanks", template: "<tr>\n{{! x }}   \n</tr>\n", row: row([:]), expected: "<tr>\n</tr>\n"),
        .init(name: "two tags on a line are not standalone", template: "<tr>\n{{#yes}}{{/yes}}\n</tr>\n", row: row([:]), expected: "<tr>\n\n</tr>\n"),
        .init(name: "text after a tag is not standalone", template: "<tr>\n{{#yes}} x\n</tr>\n{{/yes}}\n", row: row([:]), expected: "<tr>\n x\n</tr>\n"),
        .init(name: "inverted standalone in a row", template: "<tr>\n{{^no}}\n<td>-</td>\n{{/no}}\n</tr>\n", row: row([:]), expected: "<tr>\n<td>-</td>\n</tr>\n"),
        .init(name: "CRLF rows", template: "<tr>\r\n{{#yes}}\r\n<td>{{a}}</td>\r\n{{/yes}}\r\n</tr>\r\n", row: row([:]), expected: "<tr>\r\n<td>A</td>\r\n</tr>\r\n"),
    ]
}
