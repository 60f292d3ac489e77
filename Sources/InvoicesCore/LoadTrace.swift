#if canImport(Glibc)
internal import Glibc
#endif

/// A timeline of the load and the figures for profiling (docs/performance.md, "Why the two-part load did not
/// shorten the wall"): with `INVOICES_TRACE_LOAD=1` in the environment, each mark prints the monotonic clock in
/// milliseconds, the thread's id and what just ended to standard error; without it a mark costs one load.
public enum LoadTrace {
    public static let enabled: Bool = getenv("INVOICES_TRACE_LOAD") != nil

    /// Prints `what` with the monotonic time and the calling thread when tracing is on.
    @inline(__always)
    public static func mark(_ what: @autoclosure () -> String) {
        guard enabled else { return }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let milliseconds = Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1_000_000
        let thread = pthread_self() % 100_000
        var used = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &used)
        let cpu = Double(used.tv_sec) * 1000 + Double(used.tv_nsec) / 1_000_000
        let line = "trace \(String(format3(milliseconds))) ms tid \(thread) cpu \(String(format3(cpu))) ms \(what())\n"
        let bytes = Array(line.utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    private static func format3(_ value: Double) -> String {
        let whole = Int(value)
        let fraction = Int((value - Double(whole)) * 1000)
        let padded = String(fraction)
        return "\(whole)." + String(repeating: "0", count: max(0, 3 - padded.count)) + padded
    }
}
