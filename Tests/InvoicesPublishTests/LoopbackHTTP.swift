import Foundation
import InvoicesTesting

/// A minimal HTTP/1.0 client for servers on 127.0.0.1: one request per connection, read to the end.
enum LoopbackHTTP {
    struct Response: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// GETs `path` from 127.0.0.1:`port`, with basic-auth credentials when given.
    static func get(port: Int, _ path: String, user: String? = nil, password: String? = nil) throws -> Response {
        let descriptor = try connect(port: port)
        defer { close(descriptor) }
        var request = "GET \(path) HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\n"
        if let user, let password {
            request += "Authorization: Basic \(Data("\(user):\(password)".utf8).base64EncodedString())\r\n"
        }
        request += "\r\n"
        let bytes = Array(request.utf8)
        guard bytes.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count else {
            throw Failure(description: "cannot send the request: \(String(cString: strerror(errno)))")
        }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count < 0 { throw Failure(description: "cannot read the response: \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            received.append(contentsOf: buffer[0..<count])
        }
        guard let split = received.firstRange(of: Data("\r\n\r\n".utf8)) else {
            throw Failure(description: "no complete response header in \(received.count) bytes")
        }
        let head = String(decoding: received[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw Failure(description: "bad status line \(head.first ?? "")") }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Response(status: status, headers: headers, body: Data(received[split.upperBound...]))
    }

    static func connect(port: Int) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let message = String(cString: strerror(errno))
            close(descriptor)
            throw Failure(description: "cannot connect to 127.0.0.1:\(port): \(message)")
        }
        return descriptor
    }

    /// A port on 127.0.0.1 that was free a moment ago.
    static func freePort() throws -> Int { try LoopbackPort.free() }

    /// Waits until something accepts connections on `port` (at most `seconds`).
    static func waitUntilListening(port: Int, seconds: Double = 10) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let descriptor = try? connect(port: port) {
                close(descriptor)
                return
            }
            usleep(50_000)
        }
        throw Failure(description: "nothing listens on 127.0.0.1:\(port) after \(seconds) s")
    }
}
