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
            // Never written through, with --force or not: a link would send the file wherever it points.
            let links = ([folder.appendingPathComponent("templates")] + planned).filter(Self.isSymbolicLink)
            if !links.isEmpty {
                printError(
                    (links.map { "\($0.path): is a symbolic link; init never writes through a link" }
                        + ["nothing was written; remove the links or create the project in another folder"])
                        .joined(separator: "\n"))
                throw ExitCode(ExitStatus.cannotCreate)
            }
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
                try Self.write(ProjectConfig.template, to: config.path)
                for (name, text) in templates {
                    // The translation tables are in a folder of their own (templates/i18n/de.yaml).
                    let file = folder.appendingPathComponent("templates/\(name)")
                    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try Self.write(text, to: file.path)
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

        /// Whether `url` names a symbolic link itself (not followed).
        static func isSymbolicLink(_ url: URL) -> Bool {
            var info = stat()
            return lstat(url.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
        }

        /// Writes `text` to `path`, replacing a file there but never following a symbolic link (`O_NOFOLLOW`: one
        /// made after the check above makes the write fail instead).
        static func write(_ text: String, to path: String) throws {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            defer { close(descriptor) }
            var bytes = Array(text.utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeMutableBytes { Foundation.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                offset += written
            }
        }

        static func quoted(_ path: String) -> String {
            path.allSatisfy { $0.isLetter || $0.isNumber || "/._-".contains($0) } ? path : "'\(path.replacingOccurrences(of: "'", with: "'\\''"))'"
        }
    }
}
