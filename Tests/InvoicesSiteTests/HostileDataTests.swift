import Foundation
import InvoicesCore
import InvoicesReport
import InvoicesSite
import InvoicesStore
import InvoicesTesting
import Testing

/// A store whose every text field holds hostile text, rendered and parsed back with a real HTML parser
/// (html5lib, through `scripts/check_hostile_html.py`; `make test` installs it).
struct HostileDataTests {
    static let hostile: [String] = [
        "<script>alert(\"x\")</script>",
        "<img src=x onerror=alert(1)>",
        "\" onmouseover=\"alert(1)\" x=\"",
        "' onfocus='alert(1)' autofocus '",
        "[click me](javascript:alert(1))",
        "<a href=\"javascript:alert(1)\">link</a>",
        "![pixel](http://evil.example/p.png)",
        "# Heading",
        "Trailing hashes ##",
        "| a | b |\n|---|---|\n| c | d |",
        "`code` and ``more``",
        "*Acme* _under_ **bold** ~~strike~~",
        "<!-- comment --> <![CDATA[x]]>",
        "&amp; &lt; &#x3C; &nbsp;",
        "</td></tr></table><h1>broken</h1>",
        "<svg onload=alert(1)><circle r=1></circle></svg>",
        "javascript:alert(1)",
        "1. numbered",
        "- bullet",
        "> quote",
        "    indented code",
        "  padded  ",
        "{{name}} {{{content}}}",
        "مرحبا بالعالم שלום",
        "👩‍👩‍👧‍👦 🇺🇳 ✓ café",
        "\u{202E}evil\u{202C} and \u{2066}isolated\u{2069}",
        "nul\u{0}byte",
        "back\\slash \\* \\<",
        String(repeating: "LongWord<*_>", count: 800),
    ]

    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''").replacingOccurrences(of: "\u{0}", with: "' || char(0) || '") + "'"
    }

    /// A store with one client per hostile value (the value in every client field but the number), and
    /// invoices whose identifier and notes hold the values, each with a payment, a write-off and a tax that hold it too.
    static func store(at path: String, values: [String]) throws {
        var sql = "INSERT INTO client (id, number, name, email, street, city, zip, country) VALUES\n"
        sql += values.enumerated().map { index, value in
            let fields = [value + " #\(index)", value, value, value, value, value, value].map(literal).joined(separator: ", ")
            return "(\(index + 1), \(fields))"
        }.joined(separator: ",\n") + ";\n"
        sql += "INSERT INTO invoice (id, identifier, clientId, amount, currency, notes, issuedOn, dueOn, paidOn) VALUES\n"
        sql += values.enumerated().map { index, value in
            "(\(index + 1), \(literal("inv " + value)), \(index + 1), \(1000 + index), 'EUR', \(literal(value)), '2025-0\(index % 3 + 1)-10', '2025-04-01', NULL)"
        }.joined(separator: ",\n") + ";\n"
        try StoreFixture.make(at: path, sql: sql)
        // Schema 2: a payment, a write-off and a tax line per invoice, their method, reference, reason and tax name
        // the value too (statements, and the tax summaries of the overview and the year and quarter pages show them).
        try StoreFixture.migrateToV2(path)
        var settlements = "INSERT INTO payment (invoiceId, paidOn, amount, method, reference) VALUES\n"
        settlements += values.enumerated().map { index, value in
            "(\(index + 1), '2025-03-15', 100, \(literal(value)), \(literal(value)))"
        }.joined(separator: ",\n") + ";\n"
        settlements += "INSERT INTO writeOff (invoiceId, writtenOffOn, amount, reason) VALUES\n"
        settlements += values.enumerated().map { index, value in "(\(index + 1), '2025-03-20', 50, \(literal(value)))" }
            .joined(separator: ",\n") + ";\n"
        settlements += "UPDATE invoice SET net = amount - 10;\n"
        settlements += "INSERT INTO taxLine (invoiceId, name, rate, net, amount) VALUES\n"
        settlements += values.enumerated().map { index, value in "(\(index + 1), \(literal(value)), '20', NULL, 10)" }
            .joined(separator: ",\n") + ";\n"
        try StoreFixture.execute(path, settlements)
    }

    @discardableResult
    static func build(store: String, output: String, title: String) throws -> [String: String] {
        let books = try BooksStore(path: store).books
        let report = try Report(books: books)
        let options = SiteOptions(title: title, baseURL: "https://example.com/reports/")
        let site = SiteBuilder(books: books, report: report, templates: try TemplateSet(), options: options)
        try SiteWriter(output: output).write(site.files())
        return Dictionary(
            uniqueKeysWithValues: books.clients.indices.flatMap {
                [(site.paths.client($0), books.clients[$0].name), (site.paths.statement($0), "Statement for " + books.clients[$0].name)]
            })
    }

    @Test(.temporaryFolder) func hostileTextStaysTextInEveryPage() throws {
        let folder = try TemporaryFolder.current
        let benign = Self.hostile.indices.map { "Plain value \($0)" }
        try Self.store(at: folder.path("hostile.sqlite"), values: Self.hostile)
        try Self.store(at: folder.path("benign.sqlite"), values: benign)
        let title = "<b>Report</b> *title* & [x](javascript:y)"
        let headings = try Self.build(store: folder.path("hostile.sqlite"), output: folder.path("hostile"), title: title)
        #expect(headings.count == 2 * Self.hostile.count)
        try JSONEncoder().encode(headings).write(to: folder.url.appendingPathComponent("headings.json"))
        try Self.build(store: folder.path("benign.sqlite"), output: folder.path("benign"), title: "Plain title")
        let values = Self.hostile + Self.hostile.map { "inv " + $0 } + Self.hostile.indices.map { Self.hostile[$0] + " #\($0)" } + [title]
        try JSONEncoder().encode(values).write(to: folder.url.appendingPathComponent("values.json"))

        let result = try Python.run(
            "scripts/check_hostile_html.py", folder.path("hostile"), folder.path("benign"), folder.path("values.json"),
            folder.path("headings.json"))
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("0 problems"), "\(result.output)")
    }
}

/// Runs the repository's Python scripts.
enum Python {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct Result {
        var status: Int32
        var output: String
    }

    static func run(_ script: String, _ arguments: String...) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repository.appendingPathComponent(script).path] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }
}
