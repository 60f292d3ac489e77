import Foundation
import Hummingbird
import InvoicesServe
import Testing

/// The request targets `serve` refuses or makes canonical before serving a file (issue 41), in process.
struct RequestTargetTests {
    /// `//months` redirected to `//months/` is an address on the host `months`: the path is made canonical first.
    @Test(.temporaryFolder("invoices-serve"), arguments: [
        ("//months", "/months"), ("/%2F%2Fmonths", "/months"), ("//months//2025-06.html", "/months/2025-06.html"),
        ("///?x=1", "/?x=1"),
    ])
    func aPathWithDoubledSlashesRedirectsToTheSamePathOnThisHost(target: String, location: String) async throws {
        let fixture = try await SiteServerTests.Fixture()
        try await RouterClient.test(fixture.router) { client in
            try await client.execute(uri: target, method: .get) { response in
                #expect(response.status == .movedPermanently, "\(target)")
                #expect(response.headers[.location] == location, "\(target)")
            }
            // Followed once, it reaches a page or a folder's one-slash redirect, never a host.
            try await client.execute(uri: location, method: .get) { response in
                let next = response.headers[.location] ?? ""
                #expect(!next.hasPrefix("//") && !next.hasPrefix("/\\"), "\(location) -> \(next)")
            }
        }
    }

    /// A file system name ends at NUL: `/index.html%00.css` would be the page served as CSS.
    @Test(.temporaryFolder("invoices-serve"), arguments: ["/index.html%00.css", "/index.html%00", "/%00", "/months%5C..%5Cindex.html", "/months%5c"])
    func nulAndBackslashInAPathAreRefused(target: String) async throws {
        let fixture = try await SiteServerTests.Fixture()
        try await RouterClient.test(fixture.router) { client in
            try await client.execute(uri: target, method: .get) { response in
                #expect(response.status == .badRequest, "\(target)")
                #expect(response.headers[.contentType] != "text/css; charset=utf-8")
                #expect(!String(buffer: response.body).contains("<html"), "\(target)")
            }
        }
    }

    /// With two `Host` headers, which one names the server depends on who reads it: refused.
    @Test(.temporaryFolder("invoices-serve")) func aSecondHostHeaderIsRefused() async throws {
        let fixture = try await SiteServerTests.Fixture()
        try await RouterClient.test(fixture.router) { client in
            try await client.execute(uri: "/index.html", method: .get, headers: [.init("Host")!: "evil.example"]) {
                response in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/index.html", method: .get) { response in
                #expect(response.status == .ok)
            }
        }
    }
}
