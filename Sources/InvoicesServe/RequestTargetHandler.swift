internal import NIOCore
internal import NIOHTTP1

/// Refuses, on the connection itself, a request whose target is not a path: absolute-form (`GET http://host/ HTTP/1.1`),
/// authority-form (`CONNECT host:443`) and asterisk-form (`OPTIONS *`). No browser sends one to a server that is not a
/// proxy, and the conversion to Hummingbird's request keeps only the path, so the router cannot tell them apart.
///
/// It reads NIO's HTTP/1 parts, as the decoder makes them, so it sits right after the decoder:
/// ``SiteServer/server(headerTimeout:)`` adds an ``Installer`` where Hummingbird takes additional handlers (after
/// the conversion), and that one puts this handler in place. A refused request gets 400; the connection is closed.
final class RequestTargetHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// Set once a request was refused: whatever follows on the connection is dropped until it closes.
    private var refused = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        if case .head(let head) = unwrapInboundIn(data), !head.uri.hasPrefix("/") {
            refused = true
            let body = ByteBuffer(
                string:
                    "invoices serve refuses this request: its target is not a path (absolute-form or proxy request)\n")
            let headers = HTTPHeaders([
                ("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", "\(body.readableBytes)"),
                ("Connection", "close"),
            ])
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers))),
                promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
            return
        }
        context.fireChannelRead(data)
    }

    /// Passes everything through; when added to a pipeline, it adds a ``RequestTargetHandler`` right after the
    /// HTTP/1 decoder.
    final class Installer: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny

        init() {}

        func handlerAdded(context: ChannelHandlerContext) {
            let pipeline = context.pipeline.syncOperations
            guard let decoder = try? pipeline.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self) else {
                return
            }
            try? pipeline.addHandler(RequestTargetHandler(), position: .after(decoder.handler))
        }
    }
}
