import Foundation
import InvoicesCore
import Testing

struct ProcessRunnerTests {
    /// A program that exits without reading its input (as ssh does when the server refuses it) closes the pipe under
    /// the writer: the run returns the program's status. It once ended this process with SIGPIPE instead
    /// (`invoices publish` to a port nothing listens on exited 13 in CI).
    @Test func aProgramThatIgnoresItsInputDoesNotEndTheRunner() throws {
        let input = String(repeating: "x", count: 4 << 20)  // far more than a pipe's buffer
        for _ in 0..<3 {
            let output = try ProcessRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "echo gone >&2; exit 3"], input: input)
            #expect(output.status == 3)
            #expect(output.stderr == "gone\n")
        }
        // And one that reads it all still gets every byte.
        let counted = try ProcessRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "wc -c"], input: input)
        #expect(counted.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == String(4 << 20))
    }
}
