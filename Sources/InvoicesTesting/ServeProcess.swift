public import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Output collected from a running process's pipe.
public final class Collected: @unchecked Sendable {
    // @unchecked Sendable: `data` is only touched while holding `lock`.
    private let lock = NSLock()
    private var data = Data()
    public init() {}
    public func append(_ chunk: Data) { lock.withLock { data.append(chunk) } }
    public var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}

/// Polls `condition` every 100 ms until it holds or `seconds` pass.
public func eventually(_ seconds: Double, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(100))
    }
    return try await condition()
}

/// `invoices serve --port 0 …` running in the background, its output collected; ``start(_:in:environment:)`` returns
/// once it prints the address it serves.
public struct ServeProcess: Sendable {
    public struct Failure: Error, CustomStringConvertible { public var description: String }

    public let process: Process
    public let stdout: Collected, stderr: Collected
    /// `http://127.0.0.1:PORT/`.
    public let base: URL

    /// Starts `invoices serve --port 0` with `arguments` in `directory`, and waits up to `seconds` for its address.
    public static func start(
        _ arguments: [String] = [], in directory: URL? = nil, environment: [String: String]? = nil, seconds: Double = 30
    ) async throws -> ServeProcess {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["serve", "--port", "0"] + arguments
        process.currentDirectoryURL = directory
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let stdout = Collected(), stderr = Collected()
        out.fileHandleForReading.readabilityHandler = { stdout.append($0.availableData) }
        err.fileHandleForReading.readabilityHandler = { stderr.append($0.availableData) }
        try process.run()
        func address() -> URL? {
            guard let line = stdout.text.split(separator: "\n").first(where: { $0.contains("http://127.0.0.1:") }),
                let word = line.split(separator: " ").first(where: { $0.hasPrefix("http://") })
            else { return nil }
            return URL(string: String(word))
        }
        _ = await eventually(seconds) { address() != nil || !process.isRunning }
        guard let base = address() else {
            if process.isRunning { process.terminate() }
            throw Failure(description: "serve printed no address: \(stdout.text)\(stderr.text)")
        }
        return ServeProcess(process: process, stdout: stdout, stderr: stderr, base: base)
    }

    /// Everything it printed so far, for messages.
    public var output: String { stdout.text + stderr.text }

    /// GETs ``base`` followed by `path` (taken as written, percent escapes and all): the status and the body.
    public func fetch(_ path: String = "") async throws -> (Int, String) {
        let url = URL(string: base.absoluteString + path)!
        let (data, response) = try await URLSession.shared.data(from: url)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    /// Stops it if it still runs (SIGTERM).
    public func terminate() {
        if process.isRunning { process.terminate() }
    }
}
