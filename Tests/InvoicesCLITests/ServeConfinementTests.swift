import Foundation
import InvoicesTesting
import Testing

/// `serve` answers only to loopback names and serves nothing outside the site (issue 28): through the real binary
/// on a loopback port, asked by curl.
@Suite(.serialized)
struct ServeConfinementTests {
    /// curl's status code for `path` with `Host: host`.
    func status(_ serve: ServeProcess, _ path: String, host: String? = nil) throws -> String {
        let header = host.map { "-H 'Host: \($0)' " } ?? ""
        let result = try CLI.shell("curl -s -o /dev/null -w '%{http_code}' \(header)'\(serve.base.absoluteString)\(path)'")
        return result.stdout
    }

    @Test func onlyLoopbackHostsAreAnsweredAndNoLinkLeadsOutOfTheSite() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(try CLI.run(["init", folder.path("report"), "--clients", "3", "--invoices", "20"]).status == 0)
        let report = folder.url.appendingPathComponent("report")
        try Data("secret\n".utf8).write(to: URL(fileURLWithPath: folder.path("secret.txt")))
        let serve = try await ServeProcess.start(in: report)
        defer { serve.terminate() }
        let port = serve.base.port!

        #expect(try status(serve, "index.html") == "200")
        for host in ["localhost:\(port)", "127.0.0.1:\(port)", "[::1]:\(port)", "localhost"] {
            #expect(try status(serve, "index.html", host: host) == "200", "\(host)")
        }
        // A DNS-rebinding page: its own name, resolved to 127.0.0.1.
        for host in ["evil.example:\(port)", "evil.example", "127.0.0.1.evil.example", "localhost.evil.example:\(port)", "[::2]:\(port)"] {
            #expect(try status(serve, "index.html", host: host) == "403", "\(host)")
        }
        let body = try CLI.shell("curl -s -H 'Host: evil.example' '\(serve.base.absoluteString)index.html'").stdout
        #expect(!body.contains("<html") && body.contains("only to localhost"))

        // Links planted in the output: to a file and to a folder outside it.
        let output = report.appendingPathComponent("Output").path
        try FileManager.default.createSymbolicLink(atPath: output + "/leak.txt", withDestinationPath: folder.path("secret.txt"))
        try FileManager.default.createSymbolicLink(atPath: output + "/up", withDestinationPath: folder.url.path)
        #expect(try status(serve, "leak.txt") == "404")
        #expect(try status(serve, "up/secret.txt") == "404")
        let leaked = try CLI.shell("curl -s '\(serve.base.absoluteString)leak.txt' '\(serve.base.absoluteString)up/secret.txt'").stdout
        #expect(!leaked.contains("secret"))
    }
}
