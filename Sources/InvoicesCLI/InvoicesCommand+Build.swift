import ArgumentParser
import Foundation
import InvoicesCore
import InvoicesReport
import InvoicesSite
import InvoicesApp
import InvoicesStore

extension InvoicesCommand {
    struct Build: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Builds the report site from a store.",
            discussion: """
                Example:
                  invoices build --store books.sqlite --output Output
                  invoices build --store books.sqlite --month 2025-06 --as-of 2025-07-15
                """
        )

        @Option(help: "The store (SQLite file) to read. It is opened read-only.")
        var store: String

        @Option(help: "A folder of templates replacing the default ones of the same name.")
        var templates: String?

        @Option(help: "The folder to write the site into; it is replaced only when the new site is complete.")
        var output: String = "Output"

        @Option(help: "Build the report for one month only (YYYY-MM).")
        var month: String?

        @Option(help: "The date outstanding and overdue amounts are measured at (YYYY-MM-DD). Default: the last day of the latest month reported.")
        var asOf: String?

        @Option(help: "The report's title.")
        var title: String = "Invoices report"

        @Option(help: "The locale amounts are formatted for, e.g. de_DE. Default en_US_POSIX: stable output.")
        var locale: String = "en_US_POSIX"

        @Option(help: "For a Core Data store: the Invoice attribute holding the issue date. Default: issuedAt, issueDate or date.")
        var issueDateAttribute: String?

        @Option(help: "For a Core Data store: the Invoice attribute holding the due date. Default: dueAt or dueDate.")
        var dueDateAttribute: String?

        @Option(help: "For a Core Data store: the Invoice attribute holding the paid date. Default: paidAt or paidDate.")
        var paidDateAttribute: String?

        @Option(help: ArgumentHelp("Write the seconds spent in each phase to this JSON file (for benchmarks).", visibility: .hidden))
        var timings: String?

        @Option(help: "A CSV file of exchange rates (date,from,to,rate) to also show totals converted into --base-currency.")
        var rates: String?

        @Option(help: "The ISO 4217 currency converted totals are shown in; needs --rates.")
        var baseCurrency: String?

        @Option(help: "The absolute address the site is published at, e.g. https://example.com/reports/. Adds feed.xml, sitemap.xml and canonical links.")
        var baseURL: String?

        @Flag(help: "Print nothing but errors.")
        var quiet = false

        func validate() throws {
            if let month, YearMonth(iso: month) == nil {
                throw ValidationError("--month '\(month)' is not a month; expected YYYY-MM, e.g. 2025-06")
            }
            if let baseURL, SiteOptions.normalizedBaseURL(baseURL) == nil {
                throw ValidationError("--base-url '\(baseURL)' is not an absolute http or https address, e.g. https://example.com/reports/")
            }
            if let asOf, CalendarDate(iso: asOf) == nil {
                throw ValidationError("--as-of '\(asOf)' is not a date; expected YYYY-MM-DD, e.g. 2025-06-30")
            }
            try validateConversion()
        }

        func run() async throws {
            // A file size limit (ulimit -f) should fail a write with EFBIG and a clear message, not kill the build.
            signal(SIGXFSZ, SIG_IGN)
            let period = ReportPeriod(month: month.flatMap(YearMonth.init(iso:)), asOf: asOf.flatMap(CalendarDate.init(iso:)))
            var site = SiteOptions(title: title, locale: locale, period: period, baseURL: baseURL.flatMap(SiteOptions.normalizedBaseURL))
            site.conversion = try loadConversion()
            var configuration = BuildPipeline.Configuration(store: store, templates: templates, output: output, site: site)
            configuration.coreDataMapping = CoreDataMapping(
                issueDateAttribute: issueDateAttribute, dueDateAttribute: dueDateAttribute, paidDateAttribute: paidDateAttribute)
            let clock = ContinuousClock()
            let start = clock.now
            let result: BuildPipeline.Result
            do {
                result = try await BuildPipeline(configuration: configuration).run()
            } catch {
                printError(error.message)
                throw ExitCode(error.code.rawValue)
            }
            for warning in result.warnings { FileHandle.standardError.write(Data("Warning: \(warning)\n".utf8)) }
            do {
                if let timings {
                    let phases = BuildPipeline.Phase.allCases.map { "\"\($0.rawValue)\": \(result.timings[$0] ?? 0)" }
                    try Data(("{" + phases.joined(separator: ", ") + "}\n").utf8).write(to: URL(fileURLWithPath: timings))
                }
                if !quiet {
                    let elapsed = clock.now - start
                    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                    let summary = result.summary
                    print("Wrote \(summary.pages) pages (\(summary.files) files, \(summary.changed) changed) to \(output) in \(String(format: "%.2f", seconds)) s")
                }
            } catch {
                printError("\(timings ?? ""): cannot write the timings: \(error)")
                throw ExitCode(Exit.cannotCreate)
            }
        }
    }
}
