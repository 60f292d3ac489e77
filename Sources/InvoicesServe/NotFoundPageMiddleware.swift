public import Hummingbird

/// Answers a GET or HEAD for a missing file with the site's 404 page (through the rest of the chain, so it is
/// served like any page) and status 404.
///
/// When the site has no such page, the answer is a one-line HTML page, still with status 404.
public struct NotFoundPageMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The page's address in the site, such as `/404.html`.
    public let page: String

    public init(page: String) {
        self.page = page
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError where error.status == .notFound {
            guard request.method == .get || request.method == .head else { throw error }
            var head = request.head
            head.path = page
            var response: Response
            do {
                response = try await next(Request(head: head, body: request.body), context)
            } catch {
                var headers = HTTPFields()
                headers[.contentType] = "text/html; charset=utf-8"
                headers[.cacheControl] = "no-store"
                let body = ResponseBody(byteBuffer: ByteBuffer(string: "<h1>Not found</h1>\n"))
                response = Response(status: .notFound, headers: headers, body: body)
            }
            response.status = .notFound
            return response
        }
    }
}
