import Foundation
import Hummingbird

/// Serves the files of a built site, adding the live-reload script to HTML responses only.
///
/// `/__livereload` answers the current build generation. Paths never leave the site's folder.
struct SiteResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    let root: URL
    let state: LiveReloadState

    /// Polls `/__livereload` and reloads the page when the build generation changes.
    static let script = """
        <script data-invoices-livereload>
        (function () {
          var seen = null;
          setInterval(function () {
            fetch("/__livereload", { cache: "no-store" }).then(function (r) { return r.text(); }).then(function (g) {
              if (seen === null) { seen = g; } else if (g !== seen) { location.reload(); }
            }).catch(function () {});
          }, 500);
        })();
        </script>
        """

    func respond(to request: Request, context: Context) async throws -> Response {
        let path = request.uri.path.removingPercentEncoding ?? request.uri.path
        if path == "/__livereload" {
            return Self.response(.ok, type: "text/plain; charset=utf-8", Data("\(await state.generation)".utf8))
        }
        guard request.method == .get || request.method == .head else {
            return Self.response(.methodNotAllowed, type: "text/plain; charset=utf-8", Data("method not allowed\n".utf8))
        }
        let parts = path.split(separator: "/").map(String.init)
        guard !parts.contains("..") else { return notFound() }
        var file = parts.reduce(root) { $0.appendingPathComponent($1) }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), isDirectory.boolValue {
            file = file.appendingPathComponent("index.html")
        }
        guard let data = FileManager.default.contents(atPath: file.path) else { return notFound() }
        let type = Self.contentType(file.pathExtension)
        return Self.response(.ok, type: type, type.hasPrefix("text/html") ? Self.inject(data) : data)
    }

    func notFound() -> Response {
        let page = FileManager.default.contents(atPath: root.appendingPathComponent("404.html").path)
        return Self.response(.notFound, type: "text/html; charset=utf-8", Self.inject(page ?? Data("<h1>Not found</h1>".utf8)))
    }

    /// `html` with the live-reload script before `</body>`, or at the end when there is none.
    static func inject(_ html: Data) -> Data {
        var text = String(decoding: html, as: UTF8.self)
        if let body = text.range(of: "</body>", options: [.backwards, .caseInsensitive]) {
            text.insert(contentsOf: script + "\n", at: body.lowerBound)
        } else {
            text += script
        }
        return Data(text.utf8)
    }

    static func response(_ status: HTTPResponse.Status, type: String, _ data: Data) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func contentType(_ ext: String) -> String {
        switch ext.lowercased() {
        case "html", "htm": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "json": "application/json"
        case "csv": "text/csv; charset=utf-8"
        case "xml": "application/xml"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "txt": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
    }
}
