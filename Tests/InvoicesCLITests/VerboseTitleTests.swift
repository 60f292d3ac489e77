import Foundation
import InvoicesTesting
import Testing

/// Issue 43: `build --verbose` names the title the pages carry: with no `title` set, the report language's
/// `layout.defaultTitle` (a templates folder's `i18n/` may override it), not the English default.
struct VerboseTitleTests {
    @Test(.temporaryFolder) func verboseNamesTheTitleThePagesCarry() throws {
        let folder = try TemporaryFolder.current
        let sample = try CLI.run(["sample", "--clients", "3", "--invoices", "12", "--seed", "2", "--output", folder.path("books.sqlite")])
        #expect(sample.status == 0, "\(sample.stderr)")
        try FileManager.default.createDirectory(atPath: folder.path("mine/i18n"), withIntermediateDirectories: true)
        try "layout.defaultTitle: 'Unser Bericht'\n".write(toFile: folder.path("mine/i18n/de.yaml"), atomically: true, encoding: .utf8)
        for (settings, title) in [
            ("language: de\n", "Rechnungsbericht"), ("language: fr\n", "Rapport de facturation"),
            ("language: de\ntemplates: mine\n", "Unser Bericht"), ("language: de\ntitle: Acme Report\n", "Acme Report"),
            ("", "Invoices report"),
        ] {
            try ("store: books.sqlite\noutput: site\n" + settings).write(toFile: folder.path("invoices.yaml"), atomically: true, encoding: .utf8)
            let build = try CLI.run(["build", "--verbose"], in: folder.url)
            #expect(build.status == 0, "\(build.stderr)")
            let lines = build.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("title: ") }
            #expect(lines == ["title: \(title)"], "\(settings): \(build.stderr)")
            let overview = try String(contentsOfFile: folder.path("site/index.html"), encoding: .utf8)
            #expect(overview.contains("<title>") && overview.contains(title), "\(settings)")
        }
    }
}
