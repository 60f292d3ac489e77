internal import Dispatch

/// `first()` and `second()` worked out at once, on two cores when there are, each result read after both ended: for
/// two independent parts of one step (the figures' journal beside the rest, a build's settlements beside its months'
/// fingerprints), where each would otherwise wait for the other on one core.
public func sideBySide<First: Sendable, Second: Sendable>(
    _ first: @Sendable () -> First, _ second: @Sendable () -> Second
) -> (First, Second) {
    let results = SideBySideResults<First, Second>()
    DispatchQueue.concurrentPerform(iterations: 2) { part in
        if part == 0 { results.first = first() } else { results.second = second() }
    }
    guard let made = results.first, let other = results.second else { preconditionFailure("concurrentPerform ran both parts") }
    return (made, other)
}

/// What the two parts of ``sideBySide(_:_:)`` made.
private final class SideBySideResults<First, Second>: @unchecked Sendable {
    // @unchecked Sendable: each field is written by one part only, and read after `concurrentPerform` returned.
    var first: First?
    var second: Second?
}
