public import Hummingbird

/// Live reload for a site being previewed: answers `/__livereload` with the build generation and
/// `/__livereload.js` with a script that polls it, and adds that script, by address, to every HTML response (never
/// to the files themselves). The script is a file of the server's own origin, not inline, so the pages' policy
/// (`script-src 'self'`, no `'unsafe-inline'`) allows it and would refuse any script a value managed to inject.
///
/// Responses are always complete and fresh: the middleware drops the request's `Range` and conditional headers
/// (`If-None-Match`, `If-Modified-Since`, `If-Range`) before passing it on, so a page is never answered with
/// part of its bytes or a 304 from before a rebuild, and the script always lands in a whole page.
public struct LiveReloadMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The address open pages poll.
    public static var path: String { "/__livereload" }

    /// The address of the polling script.
    public static var scriptPath: String { "/__livereload.js" }

    /// The element added to HTML responses.
    public static var script: String {
        "<script src=\"\(scriptPath)\" data-invoices-livereload></script>\n"
    }

    /// Polls ``path`` and reloads the page when the build generation changes.
    public static var scriptSource: String {
        """
        (function () {
          var seen = null;
          setInterval(function () {
            fetch("\(path)", { cache: "no-store" }).then(function (r) { return r.text(); }).then(function (g) {
              if (seen === null) { seen = g; } else if (g !== seen) { location.reload(); }
            }).catch(function () {});
          }, 500);
        })();

        """
    }

    public let generation: BuildGeneration

    public init(generation: BuildGeneration) {
        self.generation = generation
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if request.uri.path == Self.scriptPath {
            var headers = HTTPFields()
            headers[.contentType] = "text/javascript; charset=utf-8"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: Self.scriptSource)))
        }
        if request.uri.path == Self.path {
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; charset=utf-8"
            headers[.cacheControl] = "no-store"
            let value = await generation.value
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: "\(value)")))
        }
        var head = request.head
        head.headerFields[.range] = nil
        head.headerFields[.ifRange] = nil
        head.headerFields[.ifNoneMatch] = nil
        head.headerFields[.ifModifiedSince] = nil
        var response = try await next(Request(head: head, body: request.body), context)
        guard let type = response.headers[.contentType].flatMap(MediaType.init(from:)), type.isType(.textHtml) else {
            return response
        }
        response.headers[.acceptRanges] = nil
        if request.method == .head {
            // No body to change: announce the length the GET answer has (the script is always added whole).
            if let length = response.headers[.contentLength].flatMap(Int.init) {
                response.headers[.contentLength] = String(length + Self.script.utf8.count)
            }
            return response
        }
        let collector = BodyCollector()
        try await response.body.write(collector)
        let page = Self.inject(into: collector.bytes)
        response.headers[.contentLength] = String(page.count)
        response.body = ResponseBody(byteBuffer: ByteBuffer(bytes: page))
        return response
    }

    /// `html` with ``script`` before its last `</body>`, or at its end when it has none.
    public static func inject(into html: [UInt8]) -> [UInt8] {
        var page = html
        page.insert(contentsOf: Array(script.utf8), at: closingBody(in: html) ?? html.endIndex)
        return page
    }

    /// The offset of the last `</body` (in any case) in `html`.
    static func closingBody(in html: [UInt8]) -> Int? {
        let tag = Array("</body".utf8)
        guard html.count >= tag.count else { return nil }
        for start in stride(from: html.count - tag.count, through: 0, by: -1) {
            if tag.indices.allSatisfy({ html[start + $0] | 0x20 == tag[$0] | 0x20 }) { return start }
        }
        return nil
    }
}

/// Gathers a response body's bytes as it is written.
final class BodyCollector: ResponseBodyWriter {
    private(set) var bytes: [UInt8] = []

    func write(_ buffer: ByteBuffer) async throws {
        bytes += buffer.readableBytesView
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
