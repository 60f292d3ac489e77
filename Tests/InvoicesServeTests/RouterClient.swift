import Hummingbird
import Logging

/// Asks a router's responder directly, in process: no socket, no HTTP client (so the tests build no TLS library),
/// each request with a context of its own as the server makes one per request.
struct RouterClient {
    /// A request context for the tests: the logger is all a request needs here.
    struct Context: RequestContext {
        struct Source: RequestContextSource {
            var logger: Logger
        }

        var coreContext: CoreRequestContextStorage

        init(source: Source) {
            coreContext = .init(source: source)
        }
    }

    /// A whole response: status, headers and every byte of the body.
    struct Response {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var body: ByteBuffer
    }

    let responder: RouterResponder<Context>
    let logger: Logger

    /// Runs `body` with a client of `router`.
    static func test<Value>(_ router: Router<Context>, _ body: (RouterClient) async throws -> Value) async throws -> Value {
        var logger = Logger(label: "invoices.serve.tests")
        logger.logLevel = .error
        return try await body(RouterClient(responder: router.buildResponder(), logger: logger))
    }

    /// Sends one request (no body) and hands its response to `check`.
    func execute<Value>(
        uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], _ check: (Response) async throws -> Value
    ) async throws -> Value {
        let request = Request(
            head: HTTPRequest(method: method, scheme: "http", authority: "localhost", path: uri, headerFields: headers),
            body: RequestBody(buffer: ByteBuffer()))
        let response: Hummingbird.Response
        do {
            response = try await responder.respond(to: request, context: Context(source: .init(logger: logger)))
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: Context(source: .init(logger: logger)))
        }
        let collector = Collector()
        try await response.body.write(collector)
        return try await check(Response(status: response.status, headers: response.headers, body: collector.buffer))
    }

    /// Gathers a response body's bytes as it is written.
    final class Collector: ResponseBodyWriter {
        var buffer = ByteBuffer()

        func write(_ buffer: ByteBuffer) async throws {
            var buffer = buffer
            self.buffer.writeBuffer(&buffer)
        }

        func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
