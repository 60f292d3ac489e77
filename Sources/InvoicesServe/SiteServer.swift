public import HummingbirdCore
internal import NIOCore
public import Hummingbird
public import Logging

/// The routes of `invoices serve`: the files of a built site, its 404 page, and live reload.
///
/// Files come from Hummingbird's ``FileMiddleware``, which resolves every request against the site folder's path
/// (so a site swapped into place by a rebuild is served at once) and refuses paths containing `..`. The middleware
/// around it add what a preview needs:
///
/// ```
/// RequestTargetMiddleware 400 for NUL or a backslash in the path, or a second Host header; 301 from a path with
///                         `//` to the path with single slashes
/// LoopbackHostMiddleware  403 unless Host is localhost, 127.0.0.1 or [::1] (no DNS rebinding)
/// LiveReloadMiddleware    /__livereload; the script into HTML responses; complete, uncached responses
///   NotFoundPageMiddleware    the site's 404.html, with status 404, for a missing GET or HEAD
///     FileMiddleware          files (``ConfinedFileSystem``: nothing a symlink leads outside); index.html for a
///                             folder; content types; Cache-Control: no-store
/// ```
public enum SiteServer {
    /// A router serving the site in `folder`, reporting `generation` at `/__livereload`.
    /// - Parameters:
    ///   - folder: The site's folder (the build's output). Requests are resolved against this path each time.
    ///   - generation: The build generation open pages poll.
    ///   - logger: Where the file middleware logs.
    ///   - context: The request context: `BasicRequestContext` for the server; tests ask the router's responder
    ///     directly with a context of their own (no socket, no HTTP client).
    public static func router<Context: RequestContext>(
        serving folder: String, generation: BuildGeneration, logger: Logger = Logger(label: "invoices.serve"),
        context: Context.Type = BasicRequestContext.self
    ) -> Router<Context> {
        let router = Router(context: Context.self)
        router.middlewares.add(RequestTargetMiddleware())
        router.middlewares.add(LoopbackHostMiddleware())
        router.middlewares.add(LiveReloadMiddleware(generation: generation))
        router.middlewares.add(NotFoundPageMiddleware(page: "/404.html"))
        let noStore = CacheControl([(MediaType(type: .any), [.noStore])])
        router.middlewares.add(
            FileMiddleware(
                fileProvider: ConfinedFileSystem(rootFolder: folder, logger: logger), cacheControl: noStore, searchForIndexHtml: true
            )
            .withAdditionalMediaTypes(forFileExtensions: textTypes)
        )
        return router
    }

    /// The HTTP/1 server `serve` runs: a request whose target is not a path is refused on the connection
    /// (``RequestTargetHandler``), and a connection is closed when a request's header has not arrived in full
    /// `headerTimeout` after the connection opened or the previous response ended (Hummingbird's idle timeout, which
    /// counts whole request parts, not bytes: a header sent a byte at a time does not keep it open).
    public static func server(headerTimeout: Duration = .seconds(10)) -> HTTPServerBuilder {
        let (seconds, attoseconds) = headerTimeout.components
        let timeout = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        return .http1(configuration: .init(additionalChannelHandlers: [RequestTargetHandler.Installer()], idleTimeout: timeout))
    }

    /// Text types with their character set, which FileMiddleware's table leaves out: every file the site writes
    /// is UTF-8.
    static let textTypes: [String: MediaType] = {
        let types: [String: MediaType] = [
            "html": .textHtml, "htm": .textHtml, "css": .textCss, "js": .textJavascript, "csv": .textCsv,
            "txt": .textPlain,
        ]
        return types.mapValues { $0.withParameter(name: "charset", value: "utf-8") }
    }()
}
