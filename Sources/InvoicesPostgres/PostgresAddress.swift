import Foundation
internal import CLibPQ
public import InvoicesStore

/// Where a PostgreSQL store is: the options an address sets, handed to libpq one keyword at a time, and the one way
/// the address is ever shown, without its password.
///
/// Any address libpq takes works: a URL (`postgres://report@db.example/books?sslmode=verify-full`) or a connection
/// string (`host=db.example dbname=books service=reports`). libpq completes it as every PostgreSQL tool does, from
/// the `PG*` variables, the service file and the password file (`~/.pgpass`).
///
/// A URL's `USER:PASSWORD@` is read here, not by libpq: it ends at the address's last `@`, so a password holding
/// `@` stays whole (libpq itself stops at the first `@`, and would take the rest of the password for the host, then
/// print it). A `/`, `?` or `#` before that `@` is refused (exit 64) without showing the password: libpq would end
/// the server's part there; they are written `%2F`, `%3F`, `%23`. libpq is given the password as its own keyword
/// (`PQconnectdbParams`), never inside a connection string, and every text libpq returns passes
/// ``scrubbed(_:also:)`` before it is shown.
///
/// ```swift
/// let address = try PostgresAddress("postgres://report:secret@db.example/books")
/// print(address)   // postgres://report@db.example/books (never the password)
/// ```
public struct PostgresAddress: Sendable, Equatable, CustomStringConvertible {
    /// The address without its password: how every message names the store.
    public let description: String
    /// The options the address sets itself (libpq's keywords, the password among them), defaults and the environment
    /// left out: what libpq is given. Never printed.
    let options: [String: String]

    /// Whether `store` names a PostgreSQL server rather than a file: a `postgres://` or `postgresql://` URL, or a
    /// libpq connection string (`KEYWORD=value …`, its first keyword one libpq knows).
    public static func isAddress(_ store: String) -> Bool {
        let lower = store.lowercased()
        if lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://") { return true }
        let trimmed = store.drop { $0 == " " }
        guard let equals = trimmed.firstIndex(of: "=") else { return false }
        let keyword = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
        return Self.keywords.contains(keyword)
    }

    /// libpq's connection keywords (`PQconndefaults`).
    static let keywords: Set<String> = {
        var names: Set<String> = []
        guard let defaults = PQconndefaults() else { return names }
        defer { PQconninfoFree(defaults) }
        var option = defaults
        while let keyword = option.pointee.keyword {
            names.insert(String(cString: keyword))
            option += 1
        }
        return names
    }()

    /// Keywords whose values are never shown.
    static let secret: Set<String> = ["password", "sslpassword"]

    /// Checks `text` with libpq's own parser (`PQconninfoParse`), without connecting; a URL's user and password are
    /// read first, by ``credentials(_:)``.
    /// - Throws: ``InvoicesStore/StoreIssues`` of kind `badAddress` (exit 64) naming what libpq found wrong.
    public init(_ text: String) throws(StoreIssues) {
        let (rest, user, password) = try Self.credentials(text)
        var error: UnsafeMutablePointer<CChar>?
        guard let parsed = PQconninfoParse(rest, &error) else {
            let reason = error.map { PostgresConnection.firstLine(String(cString: $0)) } ?? "libpq cannot read it"
            PQfreemem(error)
            // libpq's message may quote the part it could not read, which could be a password: it is shown only when
            // the address has no password in it anywhere.
            let detail = Self.redacted(text) == text ? " (\(reason))" : ""
            throw StoreIssues([
                StoreIssue(
                    kind: .badAddress, path: Self.redacted(text),
                    message: "not an address libpq accepts\(detail); expected postgres://USER@HOST:PORT/DATABASE?sslmode=MODE "
                        + "or host=HOST dbname=DATABASE")
            ])
        }
        defer { PQconninfoFree(parsed) }
        var options: [String: String] = [:]
        var option = parsed
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { options[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        // A `?user=` or `?password=` parameter comes after the user part, and wins, as in libpq.
        if let user, !user.isEmpty, options["user"] == nil { options["user"] = user }
        if let password, !password.isEmpty, options["password"] == nil { options["password"] = password }
        self.options = options
        description = Self.describe(text, options)
    }

    /// Whether `text` is a URL (`postgres://`, `postgresql://`) rather than a connection string.
    static func isURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    /// A URL's parts around its `USER:PASSWORD@`: the scheme with `://`, the user part as written (nil without an
    /// `@`), and the rest. The user part ends at the address's last `@`.
    private static func userPart(_ text: String) -> (scheme: Substring, userinfo: Substring?, rest: Substring)? {
        guard isURL(text), let scheme = text.range(of: "://") else { return nil }
        let afterScheme = text[scheme.upperBound...]
        guard let at = afterScheme.lastIndex(of: "@") else { return (text[..<scheme.upperBound], nil, afterScheme) }
        return (text[..<scheme.upperBound], afterScheme[..<at], afterScheme[afterScheme.index(after: at)...])
    }

    /// A URL without its `USER:PASSWORD@`, and the user and password it held, percent-decoded; any other text as it is.
    /// - Throws: `badAddress` (exit 64) when the user part holds a `/`, `?`, `#`, or a `%` that starts no escape; the message
    ///   shows the address without its password.
    static func credentials(_ text: String) throws(StoreIssues) -> (rest: String, user: String?, password: String?) {
        guard let (scheme, userinfo, rest) = userPart(text), let userinfo else { return (text, nil, nil) }
        let colon = userinfo.firstIndex(of: ":")
        let user = colon.map { userinfo[..<$0] } ?? userinfo
        let password = colon.map { userinfo[userinfo.index(after: $0)...] }
        func refuse(_ message: String) -> StoreIssues {
            StoreIssues([StoreIssue(kind: .badAddress, path: redacted(text), message: message)])
        }
        if userinfo.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
            throw refuse(
                "the part before the last '@' holds a '/', '?' or '#', which end the server's part of an address; "
                    + "write them in the user or password as %2F, %3F, %23 (and an '@' after the server as %40)")
        }
        guard let decodedUser = String(user).removingPercentEncoding,
            let decodedPassword = password.map({ String($0).removingPercentEncoding }) ?? ""
        else {
            throw refuse("the user or password holds a '%' that starts no %XX escape; write a '%' in them as %25")
        }
        return (String(scheme + rest), decodedUser, password == nil ? nil : decodedPassword)
    }

    /// `text`, a message from libpq or the server about this address, without the address's secrets: each password
    /// (`password`, `sslpassword`, and `extra`, such as the one libpq found in `PGPASSWORD` or `~/.pgpass`) as given
    /// and percent-encoded, so also any `USER:PASSWORD` form of it. The one redaction every libpq text passes.
    func scrubbed(_ text: String, also extra: [String] = []) -> String {
        let secrets = (Self.secret.compactMap { options[$0] } + extra).filter { !$0.isEmpty }
        guard !secrets.isEmpty else { return text }
        var result = text
        for secret in secrets.sorted(by: { $0.count > $1.count }) {
            for form in Set([secret, secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? secret]) {
                result = result.replacingOccurrences(of: form, with: "…")
            }
        }
        return result
    }

    /// The value the address itself gives `keyword` (libpq's name: `sslmode`, `host`, `dbname`); nil when it is left
    /// to the environment or libpq's defaults. Never a password.
    func option(_ keyword: String) -> String? { Self.secret.contains(keyword) ? nil : options[keyword] }

    /// A URL as a URL without its password; a connection string as its keywords and values without the password.
    private static func describe(_ text: String, _ options: [String: String]) -> String {
        if isURL(text) { return redacted(text) }
        return options.keys.sorted().filter { !secret.contains($0) }.map { key in
            let value = options[key] ?? ""
            let plain = !value.isEmpty && !value.contains { $0 == " " || $0 == "'" || $0 == "\\" }
            return plain ? "\(key)=\(value)" : "\(key)='\(value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'"))'"
        }.joined(separator: " ")
    }

    /// `store` without any password it holds, for messages about an address (also one that cannot be parsed): the
    /// `USER:PASSWORD@` of a URL, every `password` parameter (also percent-encoded), and a connection string's
    /// `password=` value.
    public static func redacted(_ store: String) -> String {
        guard isURL(store) else {
            // A connection string: drop the value of every password keyword, quoted or not.
            return store.replacing(#/(?i)(ssl)?password\s*=\s*('(\\.|[^'])*'?|\S*)/#, with: { "\($0.output.1 ?? "")password=…" })
        }
        // A URL: its user without the password, and its query without any `password` parameter (libpq takes the
        // password as one too; also percent-encoded).
        guard let (scheme, userinfo, rest) = userPart(store) else { return store }
        let user = userinfo.map { $0.prefix { $0 != ":" } + "@" } ?? ""
        let fragment = rest.firstIndex(of: "#") ?? rest.endIndex
        guard let question = rest[..<fragment].firstIndex(of: "?") else { return String(scheme + user + rest) }
        let items = rest[rest.index(after: question)..<fragment].split(separator: "&", omittingEmptySubsequences: false)
        let kept = items.filter { item in
            let name = (String(item).removingPercentEncoding ?? String(item)).lowercased()
            return !name.hasPrefix("password") && !name.hasPrefix("sslpassword")
        }
        let query = kept.isEmpty ? "" : "?" + kept.joined(separator: "&")
        return String(scheme + user + rest[..<question]) + query + rest[fragment...]
    }
}
