import Foundation

extension SiteBuilder.Inputs {
    /// Values worked out once per build for a known number of units that each take them once (a quarter's tax
    /// sources: its page, its CSV, its tax lists and its print pack, ``PeriodPage/prepared(with:)``), by key. A value is held
    /// from its first taker to its last and then let go, so the build does not keep every quarter's for its whole
    /// length; a value whose takers do not all come (a site without one of the kinds) is held until the build ends.
    /// Shared by the copies of the ``SiteBuilder/Inputs`` it was made with, like ``Memo``.
    final class SharedValues<Value: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String: (value: Value, left: Int)] = [:]
        private var makes = 0
        private var most = 0

        /// The value for `key`, taken by one of its `takers`: the one worked out before, or `make()`'s (outside the
        /// lock: two takers asking at once both work it out, and the first one kept is given to both).
        func take(_ key: String, takers: Int, _ make: () -> Value) -> Value {
            if let known = lock.withLock({ takeKnown(key) }) { return known }
            let value = make()
            return lock.withLock {
                makes += 1
                if let known = takeKnown(key) { return known }
                if takers > 1 {
                    entries[key] = (value, takers - 1)
                    most = max(most, entries.count)
                }
                return value
            }
        }

        /// The value kept for `key`, counted as taken (let go by its last taker); nil when none is kept. Under the lock.
        private func takeKnown(_ key: String) -> Value? {
            guard let entry = entries[key] else { return nil }
            entries[key] = entry.left > 1 ? (entry.value, entry.left - 1) : nil
            return entry.value
        }

        /// How many values are held.
        var count: Int { lock.withLock { entries.count } }
        /// The most values held at once so far.
        var mostHeld: Int { lock.withLock { most } }
        /// How many values were worked out (`make()` called) so far.
        var made: Int { lock.withLock { makes } }
    }
}
