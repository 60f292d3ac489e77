public import Foundation

/// Runs a program and waits for it, feeding its standard input and reading its output and errors concurrently, so
/// that no pipe fills up and blocks it. `invoices publish` runs `ssh` and `rsync` through it; the tests run the
/// `invoices` binary through it.
public enum ProcessRunner {
    /// What a finished program printed, and how it exited.
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `program` with `arguments`, with `input` on its standard input.
    /// - Throws: the error of `Process.run()` when the program cannot be started.
    public static func run(
        _ program: URL, _ arguments: [String], input: String = "", in directory: URL? = nil,
        environment: [String: String]? = nil
    ) throws -> Output {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let errors = Collected()
        let reader = Thread { errors.set(stderr.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let writer = Thread {
            // A program that exits without reading its input (ssh refused by the server) closes the pipe: the write
            // then fails with EPIPE instead of raising SIGPIPE, which would end this process. The signal is blocked
            // in this thread alone, which ends after the write (a pending SIGPIPE goes with it).
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
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
