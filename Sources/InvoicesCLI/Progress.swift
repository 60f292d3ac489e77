import Foundation
import InvoicesApp
import InvoicesCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Shows a build's progress on standard error.
///
/// On a terminal it redraws one status line per phase, with a bar while pages render; anywhere else (a pipe, a CI
/// log) it prints one plain line per finished phase and never a control character.
final class ProgressReporter: @unchecked Sendable {
    // @unchecked Sendable: every mutable property is read and written only while holding `lock`.
    enum Mode: Sendable {
        case terminal, plain, silent
    }

    let mode: Mode
    private let lock = NSLock()
    private var phaseStart: [BuildPipeline.Phase: ContinuousClock.Instant] = [:]
    private var lastFilled = -1
    private let clock = ContinuousClock()
    private let write: @Sendable (String) -> Void
    static let barWidth = 30

    init(mode: Mode, write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }) {
        self.mode = mode
        self.write = write
    }

    /// `.silent` when quiet, `.terminal` when standard error is a terminal, `.plain` otherwise.
    static func mode(quiet: Bool) -> Mode {
        if quiet { return .silent }
        return isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb" ? .terminal : .plain
    }

    /// The observer to hand to ``BuildPipeline/run(observer:)``.
    var observer: BuildPipeline.Observer {
        { [self] phase, done, total, summary in self.event(phase, done, total, summary) }
    }

    func event(_ phase: BuildPipeline.Phase, _ done: Int, _ total: Int, _ summary: String?) {
        lock.lock()
        defer { lock.unlock() }
        let now = clock.now
        if phaseStart[phase] == nil {
            phaseStart[phase] = now
            lastFilled = -1
        }
        let name = phase.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
        // A summary names paths and the store: escaped as every message is (``Terminal``), one line.
        let summary = summary.map { TerminalText.message($0, keepingLines: false) }
        switch (mode, summary) {
        case (.silent, _):
            return
        case (.plain, nil):
            return
        case (.plain, let summary?):
            write("\(name) \(summary) (\(Self.format(now - phaseStart[phase]!)))\n")
        case (.terminal, let summary?):
            write("\r\u{1B}[2K\u{1B}[32m✓\u{1B}[0m \(name) \(summary) \u{1B}[2m(\(Self.format(now - phaseStart[phase]!)))\u{1B}[0m\n")
        case (.terminal, nil):
            guard total > 0 else {
                write("\r\u{1B}[2K… \(name)")
                return
            }
            let filled = min(Self.barWidth, done * Self.barWidth / total)
            guard filled != lastFilled || done == total else { return }  // Redraw only when the bar moves: cheap.
            lastFilled = filled
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: Self.barWidth - filled)
            write("\r\u{1B}[2K… \(name) \(bar) \(done)/\(total)")
        }
    }

    /// Seconds with two decimals, e.g. `0.42 s`.
    static func format(_ duration: Duration) -> String {
        String(format: "%.2f s", seconds(duration))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
