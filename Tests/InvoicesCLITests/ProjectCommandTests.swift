import Foundation
import InvoicesCore
import InvoicesTesting
import Testing

/// `init`, `build` from invoices.yaml and `check`, run through the built binary.
@Suite(.serialized)
struct ProjectCommandTests {
    /// A project made by `invoices init` in the test's `.temporaryFolder`, with a small sample store.
    static func project() throws -> TemporaryFolder {
        let folder = try TemporaryFolder.current
        let result = try CLI.run(["init", folder.path("report"), "--clients", "6", "--invoices", "120"])
        #expect(result.status == 0, "\(result.stderr)")
        return folder
    }

    /// The project file's locale comment shows what the formatter gives for each example locale.
    @Test(.temporaryFolder) func theLocaleCommentShowsTheFormatsTheToolWrites() throws {
        let folder = try Self.project()
        let yaml = try String(contentsOfFile: folder.path("report/invoices.yaml"), encoding: .utf8)
        let euro = try CurrencyCode("EUR")
        for (locale, pattern) in [("de_DE", "de_DE (%@)"), ("en_GB", "en_GB (%@)"), ("en_US_POSIX", "every machine: %@.")] {
            let formatted = MoneyFormatter(localeIdentifier: locale, currencies: [euro])
                .string(for: Money(minorUnits: 123_450, currency: euro)).replacingOccurrences(of: "\u{A0}", with: " ")
            let expected = pattern.replacingOccurrences(of: "%@", with: formatted)
            #expect(yaml.contains(expected), "invoices.yaml should say \(expected)")
        }
    }

    @Test(.temporaryFolder) func initCreatesAProjectAndPrintsTheNextCommand() throws {
        let folder = try Self.project()
        for name in ["invoices.yaml", "books.sqlite", "templates/overview.md", "templates/layout.html", "templates/style.css"] {
            #expect(FileManager.default.fileExists(atPath: folder.path("report/\(name)")), "\(name)")
        }
        let config = try String(contentsOfFile: folder.path("report/invoices.yaml"), encoding: .utf8)
        for key in ["title:", "store: books.sqlite", "templates: templates", "output: Output", "base_url:", "locale:", "month:", "as_of:"] {
            #expect(config.contains(key), "\(key)")
        }
        let again = try CLI.run(["init", folder.path("report")])
        #expect(again.status == 73)
        #expect(again.stderr.contains("invoices.yaml: already exists"))
        #expect(again.stderr.contains("pass --force"))
        let forced = try CLI.run(["init", folder.path("report"), "--force", "--clients", "2", "--invoices", "5"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(forced.stdout.contains("Next: cd \(folder.path("report")) && invoices build"))
    }

    @Test(.temporaryFolder) func buildReadsTheProjectFileAndFlagsWin() throws {
        let folder = try Self.project()
        let report = folder.url.appendingPathComponent("report")
        let build = try CLI.run(["build"], in: report)
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stdout.hasPrefix("Wrote "))
        #expect(FileManager.default.fileExists(atPath: folder.path("report/Output/index.html")))
        // A flag overrides the file's key; --config finds the file from elsewhere.
        let other = try CLI.run(["build", "--config", folder.path("report/invoices.yaml"), "--output", folder.path("elsewhere"), "--title", "Flag title"])
        #expect(other.status == 0, "\(other.stderr)")
        let index = try String(contentsOfFile: folder.path("elsewhere/index.html"), encoding: .utf8)
        #expect(index.contains("Flag title"))
        // The file's title is used when no flag is given.
        var config = try String(contentsOfFile: folder.path("report/invoices.yaml"), encoding: .utf8)
        config = config.replacingOccurrences(of: "title: Invoices report", with: "title: From the file")
        try Data(config.utf8).write(to: report.appendingPathComponent("invoices.yaml"))
        #expect(try CLI.run(["build", "--quiet"], in: report).stdout == "")
        #expect(try String(contentsOfFile: folder.path("report/Output/index.html"), encoding: .utf8).contains("From the file"))
    }

    @Test(.temporaryFolder) func buildWithoutAProjectFileOrStoreIsAUsageError() throws {
        let folder = try TemporaryFolder.current
        let result = try CLI.run(["build"], in: folder.url)
        #expect(result.status == 64)
        #expect(result.stderr.contains("no store to read: pass --store PATH, or run 'invoices init'"))
    }

    @Test(.temporaryFolder) func aBadProjectFileNamesEveryLineAndExits65() throws {
        let folder = try TemporaryFolder.current
        try Data("store: books.sqlite\nmonht: 2025-06\nas_of: yesterday\n".utf8).write(to: folder.url.appendingPathComponent("invoices.yaml"))
        let result = try CLI.run(["build"], in: folder.url)
        #expect(result.status == 65)
        #expect(result.stderr.contains("invoices.yaml:2:1: unknown key 'monht'"))
        #expect(result.stderr.contains("invoices.yaml:3:8: as_of 'yesterday' is not a date"))
    }

    @Test(.temporaryFolder) func checkIsCleanOnAFreshProject() throws {
        let folder = try Self.project()
        let result = try CLI.run(["check"], in: folder.url.appendingPathComponent("report"))
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("OK: "))
        #expect(!FileManager.default.fileExists(atPath: folder.path("report/Output")))
        let json = try CLI.run(["check", "--format", "json"], in: folder.url.appendingPathComponent("report"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["ok"] as? Bool == true)
        #expect(object["exitCode"] as? Int == 0)
        #expect(object["clients"] as? Int == 6)
        #expect((object["problems"] as? [Any])?.isEmpty == true)
    }

    @Test(.temporaryFolder) func checkReportsEveryProblemInABrokenStoreAndTemplates() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("broken.sqlite")
        try StoreFixture.make(at: store, sql: """
            INSERT INTO client (id, number, name) VALUES (1, 'C-1', 'Acme');
            INSERT INTO invoice (id, identifier, clientId, amount, currency, notes, issuedOn, dueOn, paidOn) VALUES
              (1, 'INV-1', 1, 100, 'XYZ', '', '2025-01-31', '2025-02-14', NULL),
              (2, 'INV-2', 1, 100, 'EUR', '', '2025-02-30', '2025-03-01', NULL);
            """)
        let templates = folder.url.appendingPathComponent("templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try Data("# Overview\n\n{{#clients}}\nno end\n".utf8).write(to: templates.appendingPathComponent("overview.md"))
        try Data("# Month\n\n{{#a}}x{{/b}}\n".utf8).write(to: templates.appendingPathComponent("month.md"))

        let text = try CLI.run(["check", "--store", store, "--templates", templates.path])
        #expect(text.status == 65)
        #expect(text.stdout.contains("broken.sqlite: invoice 'INV-1' column currency: 'XYZ' is not an ISO 4217 currency code"), "\(text.stdout)")
        #expect(text.stdout.contains("broken.sqlite: invoice 'INV-2' column issuedOn: '2025-02-30' is not a date"))
        // An unclosed section is reported where it was opened, by name.
        #expect(text.stdout.contains("templates/overview.md:3:4: unclosed section 'clients'"), "\(text.stdout)")
        #expect(text.stdout.contains("templates/month.md:3:"), "\(text.stdout)")
        #expect(text.stdout.contains("4 problems found."))

        let json = try CLI.run(["check", "--store", store, "--templates", templates.path, "--format", "json"])
        #expect(json.status == 65)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["ok"] as? Bool == false)
        #expect(object["exitCode"] as? Int == 65)
        let problems = try #require(object["problems"] as? [[String: Any]])
        #expect(problems.count == 4)
        let currency = try #require(problems.first { $0["field"] as? String == "currency" })
        #expect(currency["source"] as? String == "store")
        #expect(currency["kind"] as? String == "invalidValue")
        #expect(currency["severity"] as? String == "error")
        #expect(currency["table"] as? String == "invoice")
        #expect(currency["row"] as? String == "'INV-1'")
        let overview = try #require(problems.first { ($0["path"] as? String)?.hasSuffix("overview.md") == true })
        #expect(overview["source"] as? String == "templates")
        #expect(overview["line"] as? Int == 3)
        #expect(overview["column"] as? Int == 4)
    }

    @Test(.temporaryFolder) func checkOnAMissingStoreExits66() throws {
        let folder = try TemporaryFolder.current
        let result = try CLI.run(["check", "--store", folder.path("nope.sqlite")])
        #expect(result.status == 66)
        #expect(result.stdout.contains("nope.sqlite: no such file"))
    }

    @Test(.temporaryFolder) func aTemplateErrorExits65WithItsLocationAndKeepsThePreviousSite() throws {
        let folder = try Self.project()
        let report = folder.url.appendingPathComponent("report")
        #expect(try CLI.run(["build"], in: report).status == 0)
        let before = try Data(contentsOf: report.appendingPathComponent("Output/index.html"))
        try Data("# {{title}}\n\n{{#months}}\nno end\n".utf8).write(to: report.appendingPathComponent("templates/overview.md"))
        let result = try CLI.run(["build"], in: report)
        #expect(result.status == 65)
        #expect(result.stderr.contains("templates/overview.md:3:4: unclosed section 'months'"), "\(result.stderr)")
        #expect(try Data(contentsOf: report.appendingPathComponent("Output/index.html")) == before)
    }
}
