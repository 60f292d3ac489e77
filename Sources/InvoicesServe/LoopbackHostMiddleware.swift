public import Hummingbird

/// Answers only requests addressed to a loopback name, so that a web page on another site cannot read the report
/// through DNS rebinding (its name made to point at 127.0.0.1: the browser then sends that name as `Host`).
///
/// Accepted `Host` values: `localhost`, `127.0.0.1` (any 127.x.y.z) and `[::1]`, with or without a port. Any other
/// gets 403 and a one-line page; nothing of the site is read.
public struct LoopbackHostMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let authority = request.head.authority, !Self.isLoopback(authority: authority) else {
            return try await next(request, context)
        }
        return .plainText(.forbidden, "invoices serve answers only to localhost, 127.0.0.1 and [::1]\n")
    }

    /// Whether `authority` (a `Host` header: name, optional `:port`) names this machine's loopback interface.
    public static func isLoopback(authority: String) -> Bool {
        var host = Substring(authority.lowercased())
        if host.hasPrefix("[") {
            guard let end = host.firstIndex(of: "]") else { return false }
            let rest = host[host.index(after: end)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isNumber)) else { return false }
            return host[host.index(after: host.startIndex)..<end] == "::1"
        }
        if let colon = host.lastIndex(of: ":") {
            guard host[host.index(after: colon)...].allSatisfy(\.isNumber) else { return false }
            host = host[..<colon]
        }
        if host == "localhost" || host == "localhost." { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil && !$0.isEmpty }
    }
}
