import Foundation

/// Where a site is published: a local folder, or a folder on a server reached with `ssh` and `rsync`.
///
/// ```
/// /srv/www/reports                        a local folder (absolute or relative)
/// ssh://deploy@www.example.com/srv/reports     a folder on a server (absolute path)
/// ssh://deploy@www.example.com:2222/srv/reports
/// ```
public struct PublishTarget: Sendable, Equatable, CustomStringConvertible {
    /// The SSH login, or nil for a local folder.
    public struct Server: Sendable, Equatable {
        public var user: String?
        public var host: String
        public var port: Int?

        /// `user@host` as ssh and rsync take it.
        public var login: String { user.map { "\($0)@\(host)" } ?? host }
    }

    public var server: Server?
    /// The destination folder: absolute on a server; made absolute for a local folder.
    public var path: String

    public var description: String {
        guard let server else { return path }
        return "ssh://\(server.login)\(server.port.map { ":\($0)" } ?? "")\(path)"
    }

    /// Parses a destination.
    /// - Throws: ``PublishError`` with ``PublishError/Code/usage`` for anything else (another scheme, no path).
    public init(_ text: String) throws(PublishError) {
        guard !text.isEmpty else { throw PublishError(.usage, "the destination is empty; expected a folder or ssh://user@host/path") }
        if text.contains("://") {
            guard text.hasPrefix("ssh://"), let components = URLComponents(string: text), let host = components.host, !host.isEmpty else {
                throw PublishError(.usage, "destination '\(text)' is neither a folder nor ssh://user@host[:port]/path")
            }
            guard components.path.hasPrefix("/"), components.path.count > 1 else {
                throw PublishError(.usage, "destination '\(text)' has no folder; expected e.g. ssh://\(components.user.map { $0 + "@" } ?? "")\(host)/srv/reports")
            }
            guard components.password == nil else {
                throw PublishError(.usage, "destination '\(text.replacingOccurrences(of: components.password ?? "", with: "***"))' contains a password; use an SSH key (-i or the agent)")
            }
            guard components.query == nil, components.fragment == nil, !host.hasPrefix("-"), !(components.user ?? "").hasPrefix("-") else {
                throw PublishError(.usage, "destination '\(text)' is not a plain ssh://user@host[:port]/path")
            }
            server = Server(user: components.user, host: host, port: components.port)
            path = components.path
        } else {
            server = nil
            path = URL(fileURLWithPath: text).standardizedFileURL.path
        }
        if path.count > 1, path.hasSuffix("/") { path.removeLast() }
    }
}
