internal import Foundation
public import Hummingbird

/// Refuses request targets no browser sends for a page of the site, before any other middleware reads them, and
/// makes a path with doubled slashes canonical before ``FileMiddleware`` would redirect it.
///
/// - A path holding NUL, raw or as `%00`, or a backslash (raw or `%5C`, which browsers read as `/` in a redirect):
///   400. A file system name ends at NUL, so `/index.html%00.css` would otherwise be served as the page with the
///   `.css` type.
/// - A second `Host` header: 400 (which one names the server would depend on who reads it: the loopback check reads
///   the first).
/// - A path with `//` (also `%2F%2F`): 301 to the same path with each run of slashes made one. FileMiddleware
///   redirects a folder to its path plus `/`, and `//months/` is an address on the host `months`.
///
/// Absolute-form targets (`GET http://host/ HTTP/1.1`) are refused before the request reaches the router, by
/// ``RequestTargetHandler``: the router sees only their path.
public struct RequestTargetMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let raw = request.uri.path
        guard let path = raw.removingPercentEncoding else {
            return Self.refuse("the path is not percent-encoded UTF-8")
        }
        if path.contains("\u{0}") { return Self.refuse("the path holds NUL") }
        if path.contains("\\") { return Self.refuse("the path holds a backslash") }
        // The first Host header became the request's authority; any other is still among the fields.
        if request.headers.contains(where: { $0.name.canonicalName == "host" }) {
            return Self.refuse("the request has more than one Host header")
        }
        if path.contains("//") {
            let parts = path.split(separator: "/")
            let canonical = parts.isEmpty ? "/" : "/" + parts.joined(separator: "/") + (path.hasSuffix("/") ? "/" : "")
            let encoded = canonical.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "/"
            let query = request.uri.query.map { "?" + $0 } ?? ""
            return .redirect(to: encoded + query, type: .permanent)
        }
        return try await next(request, context)
    }

    /// 400 with a one-line reason; the connection is closed after it.
    static func refuse(_ reason: String) -> Response {
        var response = Response.plainText(.badRequest, "invoices serve refuses this request: \(reason)\n")
        response.headers[.connection] = "close"
        return response
    }
}

extension Response {
    /// A short plain-text answer the server makes itself (a refusal), never cached.
    static func plainText(_ status: HTTPResponse.Status, _ text: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
