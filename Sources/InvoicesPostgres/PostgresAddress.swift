public import Foundation
public import InvoicesStore

/// Where a PostgreSQL store is, and how to log in: a `postgres://` (or `postgresql://`) URL completed the way
/// libpq completes one, from the `PG*` environment variables and the password file `~/.pgpass`.
///
/// ```swift
/// let address = try PostgresAddress("postgres://report@db.example:5432/books?sslmode=verify-full")
/// print(address)   // postgres://report@db.example:5432/books?sslmode=verify-full (never the password)
/// ```
///
/// What the URL leaves out comes from `PGHOST`, `PGPORT`, `PGUSER`, `PGDATABASE`, `PGSSLMODE`, then the defaults
/// (`localhost`, `5432`, the login name, a database named like the user, `prefer`). The password comes from the
/// URL, else `PGPASSWORD`, else the first matching line of `PGPASSFILE` or `~/.pgpass` (ignored, as libpq does,
/// when others may read the file). The password never appears in ``description`` or in any message.
public struct PostgresAddress: Sendable, Equatable, CustomStringConvertible {
    /// TLS as libpq's `sslmode` means it.
    public enum SSLMode: String, Sendable, CaseIterable {
        /// No TLS.
        case disable
        /// TLS when the server offers it, without checking its certificate (libpq's default).
        case prefer
        /// TLS or no connection; the certificate is not checked.
        case require
        /// TLS; the certificate must be signed by a trusted authority (`sslrootcert`, else the system's).
        case verifyCA = "verify-ca"
        /// As `verify-ca`, and the certificate must name the host.
        case verifyFull = "verify-full"
    }

    public var host: String
    public var port: Int
    public var user: String
    public var database: String
    public var sslMode: SSLMode
    /// A file of trusted certificates (PEM) for `verify-ca` and `verify-full`.
    public var sslRootCert: String?
    /// Seconds to wait for the connection (libpq's `connect_timeout`; default 10).
    public var connectTimeout: Int
    /// The password, if one was found; never printed.
    public var password: String?

    /// Whether `store` names a PostgreSQL server rather than a file.
    public static func isAddress(_ store: String) -> Bool {
        let lower = store.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    /// The URL without the password: how messages name the store.
    public var description: String {
        let hostPart = host.contains(":") ? "[\(host)]" : host
        return "postgres://\(user)@\(hostPart):\(port)/\(database)?sslmode=\(sslMode.rawValue)"
    }

    /// The URL, with the password removed, for messages about an address that could not be parsed.
    public static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url) else {
            // Not parseable: drop anything between '//' and '@' that could hold a password, and every
            // `password=` parameter.
            var text = url
            if let scheme = text.range(of: "://"), let at = text.range(of: "@", range: scheme.upperBound..<text.endIndex) {
                let user = text[scheme.upperBound..<at.lowerBound].split(separator: ":", maxSplits: 1).first ?? ""
                text = String(text[..<scheme.upperBound]) + user + String(text[at.lowerBound...])
            }
            return text.replacing(#/(?i)([?&]|%3f|%26)password(=|%3d)[^&#]*/#, with: { $0.output.1 + "password=…" })
        }
        components.password = nil
        // libpq takes the password as a parameter too (`?password=`): it is never shown either.
        if let items = components.percentEncodedQueryItems {
            let kept = items.filter { !($0.name.removingPercentEncoding ?? $0.name).lowercased().hasPrefix("password") }
            components.percentEncodedQueryItems = kept.isEmpty ? nil : kept
        }
        return components.string ?? url
    }

    /// Parses `url` and completes it from `environment` and the password file.
    /// - Parameters:
    ///   - environment: The `PG*` variables (and `HOME`, `USER`) to complete the URL with.
    ///   - userName: The login name, the default user.
    /// - Throws: ``InvoicesStore/StoreIssues`` of kind `badAddress` (exit 64) naming what is wrong.
    public init(
        _ url: String, environment: [String: String] = ProcessInfo.processInfo.environment,
        userName: String = ProcessInfo.processInfo.userName
    ) throws(StoreIssues) {
        let shown = Self.redacted(url)
        func bad(_ message: String) -> StoreIssues { StoreIssues([StoreIssue(kind: .badAddress, path: shown, message: message)]) }
        guard Self.isAddress(url), let components = URLComponents(string: url) else {
            throw bad("not a PostgreSQL address; expected postgres://USER@HOST:PORT/DATABASE?sslmode=MODE")
        }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }
        let known = ["sslmode", "sslrootcert", "connect_timeout", "host", "port", "user", "dbname", "password"]
        if let unknown = query.keys.sorted().first(where: { !known.contains($0) }) {
            // The name is shown up to any '=' it holds (`password%3D…` decodes to a name with the password in it).
            let name = unknown.prefix { $0 != "=" }
            throw bad("unknown parameter '\(name)'; known parameters: \(known.joined(separator: ", "))")
        }
        func nonEmpty(_ value: String?) -> String? { value.flatMap { $0.isEmpty ? nil : $0 } }
        host = nonEmpty(components.host) ?? nonEmpty(query["host"]) ?? nonEmpty(environment["PGHOST"]) ?? "localhost"
        if host.hasPrefix("/") { throw bad("Unix-domain sockets are not supported; name a host, e.g. localhost") }
        let portText = components.port.map(String.init) ?? nonEmpty(query["port"]) ?? nonEmpty(environment["PGPORT"]) ?? "5432"
        guard let port = Int(portText), (1...65535).contains(port) else { throw bad("port '\(portText)' is not a number from 1 to 65535") }
        self.port = port
        user = nonEmpty(components.user) ?? nonEmpty(query["user"]) ?? nonEmpty(environment["PGUSER"]) ?? userName
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = nonEmpty(path) ?? nonEmpty(query["dbname"]) ?? nonEmpty(environment["PGDATABASE"]) ?? user
        let modeText = nonEmpty(query["sslmode"]) ?? nonEmpty(environment["PGSSLMODE"]) ?? "prefer"
        guard let mode = SSLMode(rawValue: modeText) else {
            throw bad("sslmode '\(modeText)' is not supported; use one of \(SSLMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        sslMode = mode
        sslRootCert = nonEmpty(query["sslrootcert"]) ?? nonEmpty(environment["PGSSLROOTCERT"])
        let timeoutText = nonEmpty(query["connect_timeout"]) ?? nonEmpty(environment["PGCONNECT_TIMEOUT"]) ?? "10"
        guard let timeout = Int(timeoutText), timeout >= 0 else { throw bad("connect_timeout '\(timeoutText)' is not a number of seconds") }
        connectTimeout = timeout == 0 ? 10 : timeout
        password = nonEmpty(components.password) ?? nonEmpty(query["password"]) ?? nonEmpty(environment["PGPASSWORD"])
        if password == nil {
            let file = nonEmpty(environment["PGPASSFILE"]) ?? nonEmpty(environment["HOME"]).map { $0 + "/.pgpass" }
            if let file { password = Self.passwordFromFile(file, host: host, port: port, database: database, user: user) }
        }
    }

    /// The password of the first line of a libpq password file (`host:port:database:user:password`, `*` matching
    /// anything, `\:` and `\\` escaped) that matches; nil when none does or others may read the file.
    static func passwordFromFile(_ path: String, host: String, port: Int, database: String, user: String) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let permissions = attributes[.posixPermissions] as? Int, permissions & 0o077 == 0,
            let text = try? String(contentsOfFile: path, encoding: .utf8)
        else { return nil }
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            var fields: [String] = [""]
            var escaped = false
            for character in line {
                if escaped {
                    fields[fields.count - 1].append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == ":", fields.count < 5 {
                    fields.append("")
                } else {
                    fields[fields.count - 1].append(character)
                }
            }
            guard fields.count == 5 else { continue }
            let wanted = [host, String(port), database, user]
            if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }
}
