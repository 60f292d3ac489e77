import Foundation
import Hummingbird
import InvoicesServe
import InvoicesSite
import InvoicesTesting
import Logging
import Testing

/// `serve`'s routes in process: a site written by ``SiteWriter`` (as a build writes it), served through
/// ``SiteServer/router(serving:generation:logger:)`` with an in-process client of the router's responder (``RouterClient``).
struct SiteServerTests {
    static let page =
        "<!doctype html>\n<html><head><title>Overview</title></head>\n<body><h1>Overview v1</h1></body></html>\n"
    static let css = "body { color: #222; }\n"
    static let notFound = "<!doctype html>\n<html><body><p>No such page here</p></body></html>\n"
    static let secret = "beside the site, never served\n"

    /// The test's `.temporaryFolder` holding `site/` (written like a build: staged, then swapped into place) and `secret.txt` beside it.
    struct Fixture {
        let folder: TemporaryFolder
        let generation = BuildGeneration()
        var site: String { folder.path("site") }
        var router: Router<RouterClient.Context> {
            var logger = Logger(label: "invoices.serve.tests")
            logger.logLevel = .error
            return SiteServer.router(serving: site, generation: generation, logger: logger, context: RouterClient.Context.self)
        }

        init(notFoundPage: Bool = true) async throws {
            folder = try TemporaryFolder.current
            try Data(SiteServerTests.secret.utf8).write(to: folder.url.appendingPathComponent("secret.txt"))
            var files = [
                "index.html": SiteServerTests.page, "style.css": SiteServerTests.css,
                "months/index.html": "<html><body>every month</body></html>\n", "months/2025-06.html": "<p>June</p>\n",
                "report.json": "{}\n", "totals.csv": "client,currency\n", "feed.xml": "<feed/>\n",
            ]
            if notFoundPage { files["404.html"] = SiteServerTests.notFound }
            try await rebuild(files)
        }

        /// Writes `files` as the whole new site through ``generation``, as `serve` does after a change.
        func rebuild(_ files: [String: String]) async throws {
            let writer = SiteWriter(output: site)
            try await generation.rebuild { () throws(SiteWriteError) in
                let staging = try writer.begin()
                for (path, text) in files { try staging.write(path, Data(text.utf8)) }
                _ = try staging.commit()
            }
        }
    }

    static func count(of needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test(.temporaryFolder("invoices-serve")) func anHTMLPageGetsTheScriptOnceBeforeItsBodyEnds() async throws {
        let fixture = try await Fixture()
        try await RouterClient.test(fixture.router) { client in
            try await client.execute(uri: "/index.html", method: .get) { response in
                let body = String(buffer: response.body)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(response.headers[.cacheControl] == "no-store")
                #expect(Self.count(of: "<script src=\"/__livereload.js\" data-invoices-livereload></script>", in: body) == 1)
                #expect(Self.count(of: "/__livereload", in: body) == 1)
                #expect(!body.contains("<script>") && !body.contains("setInterval"), "no inline script: the policy allows none")
                let script = LiveReloadMiddleware<BasicRequestContext>.script
                #expect(body == Self.page.replacingOccurrences(of: "</body>", with: script + "</body>"))
                #expect(response.headers[.contentLength] == String(response.body.readableBytes))
                let getLength = response.headers[.contentLength]
                try await client.execute(uri: "/index.html", method: .head) { head in
                    #expect(head.status == .ok)
                    #expect(head.headers[.contentLength] == getLength)
                }
            }
        }
        let onDisk = try String(contentsOfFile: fixture.site + "/index.html", encoding: .utf8)
        #expect(onDisk == Self.page)
    }

    @Test(.temporaryFolder("invoices-serve")) func cssAndOtherFilesAreServedAsWritten() async throws {
        let fixture = try await Fixture()
        try await RouterClient.test(fixture.router) { client in
            try await client.execute(uri: "/style.css", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == Self.css)
                #expect(response.headers[.contentType] == "text/css; charset=utf-8")
                #expect(response.headers[.cacheControl] == "no-store")
            }
        }
    }

    @Test(.temporaryFolder("invoices-serve"), arguments: [
        ("/report.json", "application/json"), ("/totals.csv", "text/csv; charset=utf-8"),
        ("/feed.xml", "application/xml"),
        ("/months/2025-06.html", "text/html; charset=utf-8"),
    ])
    func contentTypesFollowTheExtension(path: String, type: String) async throws {
        let fixture = try await Fixture()
        try await RouterClient.test(fixture.router) { client in
            try await client.execute(uri: path, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == type)
            }
        }
    }

    @Test(.temporaryFolder("invoices-serve")) func anHTMLPageIsAlwaysWholeAndFreshEvenWhenTheBrowserAsksForPartOrAValidation() async throws {
        let fixture = try await Fixture()
        try await RouterClient.test(fixture.router) { client in
            let eTag = try await client.execute(uri: "/index.html", method: .get) { $0.headers[.eTag] }
            let conditional: HTTPFields = [.ifNoneMatch: try #require(eTag), .range: "bytes=0-9"]
            try await client.execute(uri: "/index.html", method: .get, headers: conditional) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("Overview v1"))
                #expect(String(buffer: response.body).contains("data-invoices-livereload"))
            }
        }
    }

    @Test(.temporaryFolder("invoices-serve")) func liveReloadAnswersTheGenerationWhichMovesOnWithEachSuccessfulRebuild() async throws {
        let fixture = try await Fixture()
        try await RouterClient.test(fixture.router) { client in
            try await client.execute(uri: "/__livereload.js", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                #expect(String(buffer: response.body).contains("fetch(\"/__livereload\""))
            }
            try await client.execute(uri: "/__livereload", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "1")
                #expect(response.headers[.cacheControl] == "no-store")
            }
            // The build swaps a new folder into place under the same name: the server serves the new one.
            try await fixture.rebuild(["index.html": "<html><body><h1>Overview v2</h1></body></html>\n"])
            try await client.execute(uri: "/__livereload", method: .get) { response in
                #expect(String(buffer: response.body) == "2")
            }
            try await client.execute(uri: "/", method: .get) { response in
                #expect(String(buffer: response.body).contains("Overview v2"))
            }
            // A failed rebuild keeps the generation, and the previous site stays served.
            struct Failed: Error {}
            await #expect(throws: Failed.self) {
                try await fixture.generation.rebuild { () throws(Failed) in throw Failed() }
            }
            try await client.execute(uri: "/__livereload", method: .get) { response in
                #expect(String(buffer: response.body) == "2")
            }
            try await client.execute(uri: "/", method: .get) { response in
                #expect(String(buffer: response.body).contains("Overview v2"))
            }
        }
    }

    @Test(.temporaryFolder("invoices-serve"), arguments: ["/nope.html", "/clients/nobody.html", "/months/2099-01.html"])
    func aMissingPageIsTheSitesNotFoundPageWithStatus404(path: String) async throws {
        let fixture = try await Fixture()
        try await RouterClient.test(fixture.router) { client in
            try await client.execute(uri: path, method: .get) { response in
                let body = String(buffer: response.body)
                #expect(response.status == .notFound)
                #expect(body.contains("No such page here"))
                #expect(Self.count(of: "data-invoices-livereload", in: body) == 1)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            }
        }
    }

    @Test(.temporaryFolder("invoices-serve")) func withoutA404PageAMissingPageIsStillA404() async throws {
        let fixture = try await Fixture(notFoundPage: false)
        try await RouterClient.test(fixture.router) { client in
            try await client.execute(uri: "/nope.html", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(String(buffer: response.body).contains("Not found"))
            }
        }
    }

    @Test(.temporaryFolder("invoices-serve"), arguments: ["/..%2fsecret.txt", "/%2e%2e%2fsecret.txt", "/months/..%2f..%2fsecret.txt", "/../secret.txt"])
    func pathsOutOfTheSiteAreRefused(path: String) async throws {
        let fixture = try await Fixture()
        try await RouterClient.test(fixture.router) { client in
            try await client.execute(uri: path, method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(!String(buffer: response.body).contains("never served"))
            }
        }
    }

    @Test(.temporaryFolder("invoices-serve")) func aFolderServesItsIndexPage() async throws {
        let fixture = try await Fixture()
        try await RouterClient.test(fixture.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("Overview v1"))
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            }
            try await client.execute(uri: "/months/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("every month"))
            }
            // Without the slash, relative links would resolve against the parent: redirect to the folder.
            try await client.execute(uri: "/months", method: .get) { response in
                #expect(response.status == .movedPermanently)
                #expect(response.headers[.location] == "/months/")
            }
        }
    }
}
