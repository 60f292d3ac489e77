internal import Foundation
internal import InvoicesCore

/// Runs a system program (`ssh`, `rsync`, `sh`) found on the `PATH`, feeding its standard input and reading its
/// output and errors concurrently, so that no pipe fills up and blocks it.
struct CommandRunner: Sendable {
    struct Output: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
        /// The program was not found on the PATH (`env` exits 127).
        var notFound: Bool { status == 127 }
        /// The last lines of standard error, for messages.
        var errorTail: String {
            let lines = stderr.split(separator: "\n").suffix(4)
            return lines.isEmpty ? "(no message)" : lines.joined(separator: "\n")
        }
    }

    /// Runs `program` with `arguments` and waits for it.
    func run(_ program: String, _ arguments: [String], input: String = "") throws(PublishError) -> Output {
        do {
            let output = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), [program] + arguments, input: input)
            return Output(status: output.status, stdout: output.stdout, stderr: output.stderr)
        } catch {
            throw PublishError(.unavailable, "cannot start \(program): \(error)")
        }
    }
}

/// `text` quoted for a POSIX shell (and for rsync's `-e` parsing): in single quotes, with `'` as `'\''`.
func shellQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

