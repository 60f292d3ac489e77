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

    @Test(.temporaryFolder) func onlyLoopbackHostsAreAnsweredAndNoLinkLeadsOutOfTheSite() async throws {
        let folder = try TemporaryFolder.current
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

    /// A TCP socket connected to 127.0.0.1:`port`.
    static func connectLoopback(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EBADF) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
        return fd
    }

    /// Sends `bytes` to 127.0.0.1:`port` over a plain TCP socket and returns what comes back until the server closes
    /// the connection, or `seconds` pass (then with `closed` false).
    static func exchange(port: Int, _ bytes: String, seconds: Double) throws -> (answer: String, closed: Bool) {
        let fd = try connectLoopback(port: port)
        defer { close(fd) }
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = Array(bytes.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var answer = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 { return (String(decoding: answer, as: UTF8.self), true) }
            if count < 0 { return (String(decoding: answer, as: UTF8.self), false) }
            answer.append(contentsOf: buffer[0..<count])
        }
    }

    /// Sends `bytes` to 127.0.0.1:`port` one byte every `gap` seconds; returns the seconds until the server closed
    /// the connection, or nil when it was still open after the last byte.
    static func trickle(port: Int, _ bytes: String, gap: Double) throws -> Double? {
        let fd = try connectLoopback(port: port)
        defer { close(fd) }
        let start = Date()
        for byte in Array(bytes.utf8) {
            var one = byte
            // MSG_NOSIGNAL: a send on a connection the server closed fails instead of raising SIGPIPE.
            if send(fd, &one, 1, Int32(MSG_NOSIGNAL)) < 0 { return Date().timeIntervalSince(start) }
            var probe: UInt8 = 0
            if recv(fd, &probe, 1, Int32(MSG_DONTWAIT)) == 0 { return Date().timeIntervalSince(start) }
            Thread.sleep(forTimeInterval: gap)
        }
        return nil
    }

    /// What curl cannot send: an absolute-form target, two Host headers, a header that never ends (issue 41).
    @Test(.temporaryFolder) func absoluteFormTargetsDuplicateHostsAndSlowHeadersAreRefused() async throws {
        let folder = try TemporaryFolder.current
        #expect(try CLI.run(["init", folder.path("report"), "--clients", "2", "--invoices", "4"]).status == 0)
        let report = folder.url.appendingPathComponent("report")
        let serve = try await ServeProcess.start(["--header-timeout", "1000"], in: report)
        defer { serve.terminate() }
        let port = serve.base.port!

        let plain = try Self.exchange(port: port, "GET /index.html HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", seconds: 10)
        #expect(plain.answer.hasPrefix("HTTP/1.1 200"), "\(plain.answer)")
        for target in ["http://localhost/index.html", "http://evil.example/index.html", "*"] {
            let absolute = try Self.exchange(port: port, "GET \(target) HTTP/1.1\r\nHost: localhost\r\n\r\n", seconds: 10)
            #expect(absolute.answer.hasPrefix("HTTP/1.1 400") && !absolute.answer.contains("<html"), "\(target): \(absolute.answer)")
            #expect(absolute.closed, "\(target)")
        }
        let twoHosts = try Self.exchange(
            port: port, "GET /index.html HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\nConnection: close\r\n\r\n", seconds: 10)
        #expect(twoHosts.answer.hasPrefix("HTTP/1.1 400") && !twoHosts.answer.contains("<html"), "\(twoHosts.answer)")
        // A header that never ends: the server closes the connection after the header timeout (1 s here).
        let start = Date()
        let slow = try Self.exchange(port: port, "GET /index.html HTTP/1.1\r\nHost: localhost\r\nX-Slow: a", seconds: 8)
        #expect(slow.closed && slow.answer.isEmpty, "\(slow.answer)")
        #expect(Date().timeIntervalSince(start) < 6)
        // Nor does a header sent a byte every 200 ms: the timeout counts whole request parts, not bytes.
        let trickled = try Self.trickle(port: port, "GET /index.html HTTP/1.1\r\nHost: localhost\r\nX-Slow: " + String(repeating: "a", count: 40), gap: 0.2)
        #expect(trickled != nil && trickled! < 4, "\(String(describing: trickled))")
    }
}
