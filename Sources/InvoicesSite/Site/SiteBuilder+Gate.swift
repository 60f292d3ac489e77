import Foundation

extension SiteBuilder {
    /// A flag opened once, read by ``write(to:previous:changes:exportsAfter:progress:)`` as it starts its jobs: until
    /// it is open, the render starts pages' jobs rather than the exports'. The build opens it when the trail's task
    /// has made the trail's order (``InvoicesReport/Trail/Order``), so that order's sort keys and the exports' first
    /// allocations are not held at once (docs/performance.md, "The trail's order in one reserved run, the exports
    /// after it").
    public final class Gate: @unchecked Sendable {
        // @unchecked Sendable: `isOpen` is read and written under `lock` only.
        private let lock = NSLock()
        private var isOpen = false

        public init() {}

        /// Opens the gate (again is nothing).
        public func open() { lock.withLock { isOpen = true } }

        /// Whether it is open.
        public var opened: Bool { lock.withLock { isOpen } }
    }

    /// Which of `jobs` to start next, of those not `started` (the first not started is at `first` or after):
    /// the first, unless `gate` is shut and it is the exports'; then the first that is not the exports', or the
    /// first when only the exports' are left (so a gate never opened costs order, never a job).
    static func nextJob(_ jobs: [[any PageKind]], started: [Bool], from first: Int, gate: Gate?) -> Int? {
        guard let next = started[first...].firstIndex(of: false) else { return nil }
        guard let gate, jobs[next].first is ExportFiles, !gate.opened else { return next }
        return started[next...].indices.first { !started[$0] && !(jobs[$0].first is ExportFiles) } ?? next
    }
}
