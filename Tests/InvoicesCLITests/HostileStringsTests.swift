import Foundation
import InvoicesTesting
import Testing

/// Nothing from the store leaks into the pages as markup, links or files (issue 10); complements the site's own
/// hostile-strings test by going through the built binary and parsing every page with a real HTML parser.
@Suite(.serialized)
struct HostileStringsTests {
    /// Values that try to become markup, links, headings, entities, paths or layout. Each is used for every text
    /// field of one client and of its invoice. None is blank: a blank name is a store error (tested elsewhere).
    static let corpus: [String] = [
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        "\" onmouseover=\"alert(1)",
        "' onfocus='alert(1)' autofocus='",
        "</td></tr></table><script>alert(1)</script>",
        "<style>body{display:none}</style>",
        "<!-- comment --> <![CDATA[x]]>",
        "javascript:alert(1)",
        "[click](javascript:alert(1))",
        "[x]: javascript:alert(1)",
        "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
        "![img](http://evil.example/x.png)",
        "<http://evil.example/autolink>",
        "# Heading",
        "Acme ##",
        "Acme #",
        "***bold*** _em_ `code` ~~del~~",
        "> quote",
        "- item",
        "1. item",
        "+ plus",
        "| a | b |",
        "===",
        "&amp;lt;",
        "&lt;script&gt; &#60;b&#62; &#x3C;i&#x3E;",
        "nul\u{0}byte",
        "\u{0}",
        "bidi \u{202E}gnp.exe\u{202C} and \u{2066}isolate\u{2069}",
        "\u{202E}override left open \u{2067}and an isolate",
        "stray closers \u{202C}\u{2069} \u{2066}x\u{202C}\u{2069}",
        "c0 \u{1}\u{8}\u{B}\u{C}\u{1F} c1 \u{80}\u{9B}31m\u{9F}",
        "line1\r\nline2\rline3\nline4",
        "tab\there\t",
        "  leading and trailing  ",
        "\\",
        "back\\slash\\",
        "{{mustache}} {{{raw}}} {{#section}}x{{/section}}",
        "../../etc/passwd",
        "..",
        "/",
        "CON",
        "日本語",
        "Ünïcödé ẞ ﬁ Ｗｉｄｅ",
        "x\u{2028}y\u{85}z\u{7F}\u{1B}[31mred",
        "mailto:a@b.example?subject=<x>&body=\"y\"",
        String(repeating: "<b>x</b>*[y](z)&amp; ", count: 100_000 / 22),
    ]

    /// The text fields of a client and its invoice, all holding `value`.
    static let fields = ["number", "name", "email", "street", "city", "zip", "country", "identifier", "notes"]

    /// A store with one client and one invoice per entry of `values`, every text field holding the entry.
    func makeStore(at path: String, values: [String]) throws {
        var sql = ""
        for (index, value) in values.enumerated() {
            // Store the exact bytes (NUL included) as UTF-8 text.
            let hex = value.utf8.map { String(format: "%02x", $0) }.joined()
            let text = "CAST(x'\(hex)' AS TEXT)"
            sql += """
                INSERT INTO client (id, number, name, email, street, city, zip, country)
                  VALUES (\(index + 1), \(text), \(text), \(text), \(text), \(text), \(text), \(text));
                INSERT INTO invoice (id, identifier, clientId, amount, currency, notes, issuedOn, dueOn)
                  VALUES (\(index + 1), \(text), \(index + 1), \(100 + index), 'EUR', \(text), '2025-01-10', '2025-02-10');

                """
        }
        try StoreFixture.make(at: path, sql: sql)
    }

    /// Every path under `folder`, relative, with whether it is a symbolic link.
    func walk(_ folder: String) throws -> [(path: String, isLink: Bool)] {
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder))
        var paths: [(String, Bool)] = []
        for case let path as String in enumerator {
            let type = enumerator.fileAttributes?[.type] as? FileAttributeType
            paths.append((path, type == .typeSymbolicLink))
        }
        return paths
    }

    /// Whether html5lib can be imported, installing it from PyPI when it is missing (quietly; may fail offline).
    func ensureHTML5Lib() -> Bool {
        if shell("python3 -c 'import html5lib' 2>/dev/null") == 0 { return true }
        _ = shell("python3 -m pip install --quiet html5lib >/dev/null 2>&1")
        return shell("python3 -c 'import html5lib' 2>/dev/null") == 0
    }

    @Test(.temporaryFolder) func hostileStringsInEveryFieldStayText() throws {
        let folder = try TemporaryFolder.current
        let plainValues = Self.corpus.indices.map { "plain\($0)" }
        try makeStore(at: folder.path("plain.sqlite"), values: plainValues)
        try makeStore(at: folder.path("hostile.sqlite"), values: Self.corpus)
        for name in ["plain", "hostile"] {
            let result = try CLI.run(["build", "--store", folder.path("\(name).sqlite"), "--output", folder.path(name), "--quiet"])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let expected = Self.corpus.map { value in Dictionary(uniqueKeysWithValues: Self.fields.map { ($0, value) }) }
        try JSONSerialization.data(withJSONObject: expected).write(to: folder.url.appendingPathComponent("expected.json"))
        try Data(hostileStringsChecker.utf8).write(to: folder.url.appendingPathComponent("check.py"))
        let hasHTML5Lib = ensureHTML5Lib()
        let check = try runShell("python3 '\(folder.path("check.py"))' '\(folder.path("plain"))' '\(folder.path("hostile"))' '\(folder.path("expected.json"))'")
        #expect(check.status == 0, "\(check.stderr)")
        var lines = check.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "parser: \(hasHTML5Lib ? "html5lib" : "html.parser")")
        if !lines.isEmpty { lines.removeFirst() }
        #expect(lines.isEmpty, "\(lines.count) problems:\n\(lines.prefix(30).joined(separator: "\n"))")
    }

    @Test(.temporaryFolder) func slugsFromHostileNamesStayInsideTheOutputFolder() throws {
        let folder = try TemporaryFolder.current
        let names = [
            "../../etc/passwd", "..", "/", ".", "CON", "con", "NUL", "aux.txt", "日本語", "", "\u{0}", "~/x", "%2e%2e%2f",
            "..\\..\\windows", String(repeating: "a/", count: 300), "a\u{0}/../../b", ".hidden", "-", "index", "clients",
        ]
        var sql = ""
        for (index, name) in names.enumerated() {
            let hex = name.utf8.map { String(format: "%02x", $0) }.joined()
            // Numbers and the "!" after each name fold to nothing, so the slug comes from the name alone or is empty.
            let number = String(repeating: "/", count: index + 1)
            sql += """
                INSERT INTO client (id, number, name) VALUES (\(index + 1), '\(number)', CAST(x'\(hex)21' AS TEXT));
                INSERT INTO invoice (identifier, clientId, amount, currency, issuedOn, dueOn)
                  VALUES ('I-\(index)', \(index + 1), 100, 'EUR', '2025-01-10', '2025-02-10');

                """
        }
        let store = folder.path("books.sqlite")
        try StoreFixture.make(at: store, sql: sql)
        let output = folder.path("out/site")
        try FileManager.default.createDirectory(atPath: folder.path("out"), withIntermediateDirectories: true)
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        let result = try CLI.run(["build", "--store", store, "--output", output, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        // Nothing was written beside the output folder or its parent but the build manifest, trail and exports' and
        // trail's pieces (docs/cli.md).
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("out")).sorted() == [".site.inputs", ".site.manifest", ".site.pieces", ".site.trail", ".site.trail-pieces", "site"])
        let root = URL(fileURLWithPath: output).resolvingSymlinksInPath().path
        var clientPages: [String] = []
        for entry in try walk(output) {
            #expect(!entry.isLink, "\(entry.path) is a symbolic link")
            let full = URL(fileURLWithPath: output + "/" + entry.path).resolvingSymlinksInPath().path
            #expect(full.hasPrefix(root + "/"), "\(entry.path) is outside the output folder")
            #expect(!entry.path.split(separator: "/").contains { $0 == ".." || $0 == "." || $0.isEmpty })
            if entry.path.hasPrefix("clients/") { clientPages.append(String(entry.path.dropFirst("clients/".count))) }
        }
        #expect(clientPages.count == names.count, "\(clientPages.sorted())")
        let pattern = try Regex("^[a-z0-9]+(-[a-z0-9]+)*\\.html$")
        for page in clientPages {
            #expect(page.wholeMatch(of: pattern) != nil, "client page '\(page)' is not a plain slug")
            #expect(page.count <= 70)
        }
    }
}
