/// The number of successful builds of the site being served, which open pages poll to know when to reload.
///
/// Run every build through ``rebuild(_:)``: the generation moves on only when the build succeeds, so a failed
/// rebuild leaves open pages on the previous site.
///
/// ```swift
/// let generation = BuildGeneration()
/// let line = try await generation.rebuild { try await pipeline.run() }
/// ```
public actor BuildGeneration {
    /// 0 before the first successful build.
    public private(set) var value = 0

    public init() {}

    /// Runs `build`; when it returns, the generation moves on and open pages reload.
    /// - Returns: What `build` returns.
    /// - Throws: What `build` throws; the generation then stays as it was.
    public func rebuild<Result: Sendable, Failure: Error>(
        _ build: @Sendable () async throws(Failure) -> Result
    ) async throws(Failure) -> Result {
        let result = try await build()
        value += 1
        return result
    }
}
