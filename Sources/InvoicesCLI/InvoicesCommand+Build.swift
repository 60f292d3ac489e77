import ArgumentParser
import Foundation
import InvoicesApp
import InvoicesCore
import InvoicesReport
import InvoicesSite

extension InvoicesCommand {
    struct Build: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Builds the report site from a store.",
            discussion: """
                Reads invoices.yaml in the current folder (or --config PATH) when there is one; every flag overrides \
                the key of the same name. Without a project file, --store is required.

                A build renders only the pages whose inputs changed since the previous build (a manifest beside the \
                output, .Output.manifest, records them); the other pages keep their bytes, inode and modification time. \
                --full renders every page.

                On a terminal, progress is shown with a bar; otherwise each phase (load, totals, render, write) prints \
                one plain line on standard error. The last line, on standard output, says how many pages were written \
                and changed, and how long it took.

                Examples:
                  invoices build
                  invoices build --month previous --as-of today --output public
                  invoices build --store books.sqlite --month 2025-06 --as-of 2025-07-15
                """
        )

        @OptionGroup var project: ProjectOptions

        @Flag(help: "Also print where each setting came from and which templates replace the defaults.")
        var verbose = false

        @Flag(help: "Print nothing but errors.")
        var quiet = false

        @Flag(help: "Render every page. By default only the pages whose inputs (rows, figures, templates, options) changed since the previous build are rendered; the others are kept as they are.")
        var full = false

        @Option(help: ArgumentHelp("Write the seconds spent in each phase to this JSON file (for benchmarks).", visibility: .hidden))
        var timings: String?

        @Option(help: ArgumentHelp("Also write each page's intermediate Markdown into this folder (for benchmarks and debugging).", visibility: .hidden))
        var debugMarkdown: String?

        func validate() throws {
            if verbose && quiet { throw ValidationError("--verbose and --quiet cannot be used together") }
        }

        func run() async throws {
            // A file size limit (ulimit -f) should fail a write with EFBIG and a clear message, not kill the build.
            signal(SIGXFSZ, SIG_IGN)
            do {
                var resolved = try project.resolve(with: try project.loadConfig())
                resolved.configuration.site.debugMarkdownFolder = debugMarkdown
                resolved.configuration.full = full
                if verbose { printNote(resolved.settingsDescription) }
                let reporter = ProgressReporter(mode: ProgressReporter.mode(quiet: quiet))
                let line = try await Self.build(resolved, reporter: reporter, timings: timings)
                if !quiet { printLine(line) }
            } catch {
                printError(error.message)
                throw ExitCode(error.code)
            }
        }

        /// Runs one build and returns its summary line.
        static func build(
            _ resolved: ResolvedProject, reporter: ProgressReporter, timings: String? = nil
        ) async throws(CommandError) -> String {
            let clock = ContinuousClock()
            let start = clock.now
            do {
                let result = try await BuildPipeline(configuration: resolved.configuration).run(observer: reporter.observer)
                for warning in result.warnings { printWarning(warning) }
                if let timings {
                    let phases = BuildPipeline.Phase.allCases.map { "\"\($0.rawValue)\": \(result.timings[$0] ?? 0)" }
                    do {
                        try Data(("{" + phases.joined(separator: ", ") + "}\n").utf8).write(to: URL(fileURLWithPath: timings))
                    } catch {
                        throw CommandError(code: .cannotCreate, message: "\(timings): cannot write the timings: \(error)")
                    }
                }
                let summary = result.summary
                let elapsed = ProgressReporter.format(clock.now - start)
                if result.upToDate {
                    return "Up to date: \(summary.pages) pages (\(summary.files) files, 0 changed, \(summary.reused) reused) in \(resolved.configuration.output), "
                        + "as the previous build wrote them from the same store, templates and options; checked in \(elapsed)"
                }
                return "Wrote \(summary.pages) pages (\(summary.files) files, \(summary.changed) changed, \(summary.reused) reused) to \(resolved.configuration.output) in \(elapsed)"
            } catch let error as BuildError {
                throw CommandError(code: error.code, message: error.message)
            } catch let error as CommandError {
                throw error
            } catch {
                throw CommandError(code: .software, message: "\(error)")
            }
        }
    }
}
