internal import Foundation

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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        do {
            try process.run()
        } catch {
            throw PublishError(.unavailable, "cannot start \(program): \(error)")
        }
        let errors = Collected()
        let reader = Thread { errors.set(stderr.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let writer = Thread {
            try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: errors.wait(), as: UTF8.self))
    }
}

/// Bytes handed from a reading thread to the waiting one.
private final class Collected: @unchecked Sendable {
    // @unchecked Sendable: `data` is written once under `condition` and read under it after the signal.
    private let condition = NSCondition()
    private var data: Data?

    func set(_ value: Data) {
        condition.lock()
        data = value
        condition.signal()
        condition.unlock()
    }

    func wait() -> Data {
        condition.lock()
        defer { condition.unlock() }
        while data == nil { condition.wait() }
        return data ?? Data()
    }
}

/// `text` quoted for a POSIX shell (and for rsync's `-e` parsing): in single quotes, with `'` as `'\''`.
func shellQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// The bytes of the file at `path`, also when it is a pipe (`--users <(...)`); nil when it cannot be read.
func readFile(_ path: String) -> Data? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    return try? handle.readToEnd() ?? Data()
}
