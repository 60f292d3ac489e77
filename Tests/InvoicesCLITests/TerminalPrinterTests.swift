import Foundation
import InvoicesTesting
import Testing

/// Every message, warning and summary reaches the terminal through one printer that escapes control, C1 and bidi
/// characters (issue 41): a value cannot set the terminal's title, clear the screen, reorder the text or forge a line.
struct TerminalPrinterTests {
    /// An attachment name (or a file name) that would set the title, clear the screen, add an "Imported into" line,
    /// send a C1 CSI and reverse the text after it.
    static let hostile =
        "\u{1B}]0;owned\u{07}\u{1B}[2J\nImported into books.sqlite: 9 invoices added\u{9B}6n\u{202E}lmx.x"

    /// No raw control, C1 or bidi character in `text`, and no line of it that starts with the forged summary.
    static func expectEscaped(_ result: CLI.Result, sourceLocation: SourceLocation = #_sourceLocation) {
        for (name, text) in [("stdout", result.stdout), ("stderr", result.stderr)] {
            let raw = text.unicodeScalars.filter { scalar in
                (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{202E}"
            }
            #expect(
                raw.isEmpty, "\(name) holds \(raw.map { String($0.value, radix: 16) }): \(text)",
                sourceLocation: sourceLocation)
            #expect(
                !text.split(separator: "\n").contains { $0.hasPrefix("Imported into") }, "\(name): \(text)",
                sourceLocation: sourceLocation)
        }
    }

    @Test(.temporaryFolder) func anAttachmentNameInAPDFIsPrintedEscaped() throws {
        let folder = try TemporaryFolder.current
        let xml = folder.path("data.xml")
        let pdf = folder.path("invoice.pdf")
        let key = folder.path("key")
        try Data("<x/>".utf8).write(to: URL(fileURLWithPath: xml))
        try Data(Self.hostile.utf8).write(to: URL(fileURLWithPath: key))
        let qpdf = try CLI.shell(
            "qpdf --empty --add-attachment '\(xml)' --key=\"$(cat '\(key)')\" --filename=\"$(cat '\(key)')\" --mimetype=text/xml -- '\(pdf)'"
        )
        #expect(qpdf.status == 0, "qpdf (make test installs it): \(qpdf.stderr)")
        let result = try CLI.run(["import", "--store", folder.path("books.sqlite"), pdf])
        #expect(result.status == 65, "\(result.stderr)")
        // The name is there, escaped, on the one error line that lists the attachments.
        #expect(
            result.stderr.contains("\\u{1b}]0;owned\\u{7}\\u{1b}[2J\\nImported into")
                && result.stderr.contains("\\u{9b}6n\\u{202e}"), "\(result.stderr)")
        Self.expectEscaped(result)
    }

    @Test(.temporaryFolder) func aFileNameInAnErrorIsPrintedEscaped() throws {
        let folder = try TemporaryFolder.current
        let result = try CLI.run(["import", "--store", folder.path("books.sqlite"), folder.path(Self.hostile + ".csv")])
        #expect(result.status == 66, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: ") && result.stderr.contains("\\u{1b}]0;owned"), "\(result.stderr)")
        Self.expectEscaped(result)
    }

    /// ArgumentParser's own errors (an unknown option, a failed validation) go through the printer too, with its
    /// exit code.
    @Test func anArgumentErrorIsPrintedEscaped() throws {
        let unknown = try CLI.run(["build", "--" + Self.hostile])
        #expect(
            unknown.status == 64 && unknown.stderr.hasPrefix("Error: ") && unknown.stderr.contains("\\u{1b}[2J"),
            "\(unknown.stderr)")
        Self.expectEscaped(unknown)
        let validation = try CLI.run([
            "publish", "--keep", "1", "--url-path", Self.hostile, "--dry-run", "/nonexistent-target",
        ])
        #expect(
            validation.status == 64 && validation.stderr.contains("--url-path '\\u{1b}]0;owned"), "\(validation.stderr)"
        )
        Self.expectEscaped(validation)
    }
}
