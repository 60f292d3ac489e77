import ArgumentParser
import Foundation

/// The `invoices` command: turns a client/invoice store into a static HTML report site.
@main
struct InvoicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invoices",
        abstract: "Turns a client/invoice store into a static HTML report site.",
        discussion: """
            Exit codes (sysexits): 0 success, 64 usage error, 65 bad data (store rows, templates), \
            66 missing input, 70 internal error, 73 cannot create output.
            """,
        subcommands: [Build.self, Sample.self, Import.self],
        defaultSubcommand: Build.self
    )
}

/// Exit codes, after sysexits.h.
enum Exit {
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let noInput: Int32 = 66
    static let software: Int32 = 70
    static let cannotCreate: Int32 = 73
}

/// Prints `Error: message` lines to standard error.
func printError(_ lines: String) {
    for line in lines.split(separator: "\n", omittingEmptySubsequences: false) {
        FileHandle.standardError.write(Data("Error: \(line)\n".utf8))
    }
}
