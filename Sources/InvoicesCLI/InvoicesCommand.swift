import ArgumentParser
import Foundation
import InvoicesCore

/// The `invoices` command: turns a client/invoice store into a static HTML report site.
@main
struct InvoicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invoices",
        abstract: "Turns a client/invoice store into a static HTML report site.",
        discussion: """
            A month's report, from nothing:
              invoices init reports && cd reports && invoices build

            Exit codes (sysexits): 0 success, 64 usage error (bad flag, no store named), 65 bad data (store rows, \
            templates, project file), 66 missing input (store, templates folder, project file), 70 internal error, \
            73 cannot create output (including 'init' refusing to overwrite files without --force), 69 a server unavailable \
            ('publish': the server, ssh, rsync; a PostgreSQL store's server), 74 upload or server step failed ('publish'), \
            77 permission denied (a PostgreSQL server refused the login or the role's rights).
            """,
        subcommands: [Init.self, Build.self, Check.self, Serve.self, Sample.self, Import.self, Publish.self, Links.self, SchemaCommand.self],
        defaultSubcommand: Build.self
    )
}

/// Exit codes, after sysexits.h.

/// Prints `Error: message` lines to standard error.
func printError(_ lines: String) {
    for line in lines.split(separator: "\n", omittingEmptySubsequences: false) {
        FileHandle.standardError.write(Data("Error: \(line)\n".utf8))
    }
}

extension ExitCode {
    /// Exits with one of the codes of the one table, ``InvoicesCore/ExitStatus``.
    init(_ status: ExitStatus) { self.init(status.rawValue) }
}
