import ArgumentParser
import Foundation
import InvoicesCore
import InvoicesImport

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

    /// Runs the command as ArgumentParser's own `main()` does, except that an error thrown out of `run()` or found
    /// while parsing is printed through the one printer (``printError(_:)``): its control characters escaped, as for
    /// every other message. The exit code is ArgumentParser's (64 for usage errors, the code an `ExitCode` carries).
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            let text = fullMessage(for: error)
            if code == .success {
                // --help, --version and the like: ArgumentParser's own text, on standard output.
                if !text.isEmpty { print(text) }
            } else if !text.isEmpty {
                // ArgumentParser's "Error: " label and usage lines are kept; its message (which may quote an argument)
                // is one line, every character of it escaped.
                let message = self.message(for: error)
                let shown =
                    message.isEmpty
                    ? text : text.replacingOccurrences(of: message, with: TerminalText.message(message, keepingLines: false))
                Terminal.write(TerminalText.message(shown, keepingLines: true) + "\n", to: .standardError)
            }
            Foundation.exit(code.rawValue)
        }
    }
}

/// The one printer every message of the command goes through: errors, warnings, notes, progress and summary lines.
///
/// Each message's characters pass ``InvoicesCore/TerminalText/message(_:keepingLines:)``: a control character (C0,
/// DEL, C1), a line separator or a bidi control from a value (an attachment name, a row of the books, a path) is
/// written as a visible escape, so it cannot set the terminal's title, clear the screen, reorder the text or add a
/// line of its own. A message's own line breaks are kept where it has several lines (an error listing problems,
/// a note); each line of an error or warning starts with its label, so no value can start a line unlabelled. An
/// import's problems and a warning are one line each: a line break inside them is escaped too.
enum Terminal {
    enum Stream { case standardOutput, standardError }

    static func write(_ text: String, to stream: Stream) {
        let handle = stream == .standardOutput ? FileHandle.standardOutput : FileHandle.standardError
        handle.write(Data(text.utf8))
    }

    /// `label` before each line of `message`, escaped.
    static func labelled(_ label: String, _ message: String) -> String {
        TerminalText.message(message, keepingLines: true).split(separator: "\n", omittingEmptySubsequences: false)
            .map { label + $0 + "\n" }.joined()
    }
}

/// Prints `Error: message` lines to standard error, one per line of `lines`, escaped (``Terminal``).
func printError(_ lines: String) {
    Terminal.write(Terminal.labelled("Error: ", lines), to: .standardError)
}

/// Prints an import's error: `Error: ` and each problem on a line of its own, a line break inside one escaped.
func printError(_ error: ImportError) {
    let more = error.total > error.problems.count ? ["... and \(error.total - error.problems.count) more problems"] : []
    for line in error.problems.map(\.description) + more {
        Terminal.write("Error: " + TerminalText.message(line, keepingLines: false) + "\n", to: .standardError)
    }
}

/// Prints `Warning: message` on one line of standard error, escaped: a warning never reads as an error (issue 44).
func printWarning(_ message: String) {
    Terminal.write("Warning: " + TerminalText.message(message, keepingLines: false) + "\n", to: .standardError)
}

/// Prints lines to standard error as they are written, escaped, for `--verbose`.
func printNote(_ lines: String) {
    Terminal.write(TerminalText.message(lines, keepingLines: true) + "\n", to: .standardError)
}

/// Prints one line to standard output, escaped: a summary ("Imported into …", "Wrote … pages"); a line break inside
/// it is escaped too, so no value can add a line that looks like another summary.
func printLine(_ line: String) {
    Terminal.write(TerminalText.message(line, keepingLines: false) + "\n", to: .standardOutput)
}

extension ExitCode {
    /// Exits with one of the codes of the one table, ``InvoicesCore/ExitStatus``.
    init(_ status: ExitStatus) { self.init(status.rawValue) }
}
