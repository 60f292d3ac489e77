import ArgumentParser
import Foundation
import InvoicesApp
import InvoicesCore
import InvoicesReport
import InvoicesSite
import InvoicesStore

extension InvoicesCommand {
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Checks the project file, the store and the templates without writing anything.",
            discussion: """
                Reports every problem, not only the first, each with its location: file:line:column for the \
                project file and templates, file: table row column for the store. It runs the build's own \
                pipeline as a dry run: the same options, the same checks, and the warnings build prints \
                (listed, not failing). Exit 0 when everything is valid, 65 for bad data, 66 when an input is \
                missing, 64 for a usage error.

                --format json prints one JSON object (see docs/cli.md):
                  {"ok": false, "exitCode": 65, "problems": [{"source": "store", "severity": "error", "kind": "invalidValue", \
                "table": "invoice", "row": "INV-2", "column": "currency", "message": "...", "text": "..."}], ...}

                Examples:
                  invoices check
                  invoices check --store books.sqlite --templates templates --format json
                """
        )

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case text, json
        }

        @OptionGroup var project: ProjectOptions

        @Option(help: "How to print the result: text (one line per problem) or json.")
        var format: Format = .text

        func run() async throws {
            var report = CheckReport()
            var config: ProjectConfig?
            if let path = project.configPath {
                report.config = path
                do {
                    config = try ProjectConfig.load(path: path)
                } catch {
                    report.problems += error.errors.map(CheckReport.Problem.init)
                }
            }
            let resolved: ResolvedProject
            do {
                resolved = try project.resolve(with: config)
            } catch {
                // No store named: a usage error, unless the project file that should name it is broken.
                if report.problems.isEmpty {
                    printError(error.message)
                    throw ExitCode(error.code)
                }
                return try finish(report)
            }
            let settings = resolved.configuration
            report.store = settings.displayStore
            report.templates = settings.templates
            // The build's own first phases, as a dry run: the same options, the same checks, nothing rendered.
            let pipeline = BuildPipeline(configuration: settings)
            do {
                let prepared = try await pipeline.prepare()
                report.record(prepared.books)
                report.recordDATEVRefusal(prepared.books, path: settings.displayStore)
                // The translation tables: the keys each language used lacks (English is used), and the clients
                // whose language has no table.
                let languages = SiteBuilder.languageWarnings(books: prepared.books.books, templates: prepared.templates, options: settings.site)
                for line in languages {
                    var problem = CheckReport.Problem(source: "templates", kind: "translation", path: settings.templates ?? "(built-in)", message: line)
                    problem.severity = "warning"
                    report.problems.append(problem)
                }
                report.recordQRBillWarning(prepared.books, payee: settings.site.payee, path: report.config ?? settings.displayStore)
            } catch {
                if let issues = error.storeIssues {
                    report.problems += issues.issues.map(CheckReport.Problem.init)
                    report.omitted += issues.total - issues.issues.count
                } else if error.templateError == nil {
                    report.problems.append(.init(source: "store", kind: "totals", path: settings.displayStore, message: error.message))
                }
                if error.templateError != nil {
                    // The templates failed before the store was read: read it too, so one run lists everything.
                    var storeOnly = settings
                    storeOnly.templates = nil
                    do {
                        let books = try await BuildPipeline(configuration: storeOnly).prepare().books
                        report.record(books)
                        report.recordDATEVRefusal(books, path: settings.displayStore)
                    } catch {
                        if let issues = error.storeIssues {
                            report.problems += issues.issues.map(CheckReport.Problem.init)
                            report.omitted += issues.total - issues.issues.count
                        } else {
                            report.problems.append(.init(source: "store", kind: "totals", path: settings.displayStore, message: error.message))
                        }
                    }
                }
            }
            report.problems += Self.templateProblems(in: settings.templates)
            try finish(report)
        }

        func finish(_ report: CheckReport) throws {
            switch format {
            case .json: print(report.json)
            case .text: Terminal.write(TerminalText.message(report.text, keepingLines: true), to: .standardOutput)
            }
            if report.exitCode != .success { throw ExitCode(report.exitCode) }
        }

        /// Every problem of the templates in `directory`: the same check `build` runs before rendering.
        static func templateProblems(in directory: String?) -> [CheckReport.Problem] {
            TemplateSet.problems(directory: directory).map(CheckReport.Problem.init)
        }
    }
}
