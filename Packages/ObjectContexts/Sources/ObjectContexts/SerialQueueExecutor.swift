import Dispatch

/// A serial executor backed by a private `DispatchQueue`, so an actor can also
/// be entered synchronously (`queue.sync`) by `performAndWait`.
final class SerialQueueExecutor: SerialExecutor {
    let queue: DispatchQueue
    private let key = DispatchSpecificKey<UInt8>()

    init(label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: key, value: 1)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async {
            job.runSynchronously(on: self.asUnownedSerialExecutor())
        }
    }

    func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }

    /// Whether the current code runs on this executor's queue.
    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) != nil }

    /// Runs `body` on the queue and waits; runs it directly when already on the queue (reentrancy).
    func runSynchronously<T>(_ body: () throws -> T) rethrows -> T {
        if isCurrent { return try body() }
        return try queue.sync(execute: body)
    }
}
