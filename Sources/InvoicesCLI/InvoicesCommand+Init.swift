import ArgumentParser
import Foundation
import InvoicesCore
import InvoicesSite
import InvoicesStore

extension InvoicesCommand {
    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Creates a report project: invoices.yaml, a copy of the default templates and a sample store.",
            discussion: """
                Writes DIR/invoices.yaml (every key documented), DIR/templates/ (the built-in templates, to edit) and \
                DIR/books.sqlite (a sample store; point 'store' in invoices.yaml at your own). Existing files are \
                never overwritten without --force: init then writes nothing, lists them and exits 73.

                Example:
                  invoices init reports && cd reports && invoices build
                """
        )

        @Argument(help: "The folder to create the project in; created if needed.")
        var directory: String = "."

        @Flag(help: "Overwrite files that already exist.")
        var force = false

        @Option(help: "How many clients in the sample store.")
        var clients: Int = 40

        @Option(help: "How many invoices in the sample store.")
        var invoices: Int = 1200

        func validate() throws {
            guard clients > 0 else { throw ValidationError("--clients must be at least 1") }
            guard invoices >= 0 else { throw ValidationError("--invoices cannot be negative") }
        }

        func run() throws {
            let folder = URL(fileURLWithPath: directory)
            let templates = TemplateSet.defaultFiles.sorted { $0.key < $1.key }
            let config = folder.appendingPathComponent(ProjectConfig.fileName)
            let store = folder.appendingPathComponent("books.sqlite")
            let planned = [config, store] + templates.map { folder.appendingPathComponent("templates/\($0.key)") }
            let existing = planned.filter { FileManager.default.fileExists(atPath: $0.path) }
            if !existing.isEmpty && !force {
                printError(
                    (existing.map { "\($0.path): already exists" } + ["nothing was written; pass --force to overwrite these files"])
                        .joined(separator: "\n"))
                throw ExitCode(ExitStatus.cannotCreate)
            }
            do {
                try FileManager.default.createDirectory(
                    at: folder.appendingPathComponent("templates"), withIntermediateDirectories: true)
                try Data(ProjectConfig.template.utf8).write(to: config)
                for (name, text) in templates {
                    try Data(text.utf8).write(to: folder.appendingPathComponent("templates/\(name)"))
                }
                try SampleGenerator(clients: clients, invoices: invoices, seed: 1).write(to: store.path)
            } catch {
                printError("\(folder.path): cannot create the project: \(error.localizedDescription)")
                throw ExitCode(ExitStatus.cannotCreate)
            }
            let cd = directory == "." ? "" : "cd \(Self.quoted(directory)) && "
            print("""
                Created \(ProjectConfig.fileName), templates/ (\(templates.count) files) and books.sqlite \
                (\(clients) clients, \(invoices) invoices) in \(folder.standardizedFileURL.path).
                Next: \(cd)invoices build
                Then: invoices serve (preview with live reload), invoices check (validate before publishing)
                """)
        }

        static func quoted(_ path: String) -> String {
            path.allSatisfy { $0.isLetter || $0.isNumber || "/._-".contains($0) } ? path : "'\(path.replacingOccurrences(of: "'", with: "'\\''"))'"
        }
    }
}
