import Foundation
internal import CLibPQ
public import InvoicesStore

/// Where a PostgreSQL store is: the address exactly as the user wrote it, handed to libpq, and the one way it is
/// ever shown, without its password.
///
/// Any address libpq takes works: a URL (`postgres://report@db.example/books?sslmode=verify-full`) or a connection
/// string (`host=db.example dbname=books service=reports`). libpq completes it as every PostgreSQL tool does, from
/// the `PG*` variables, the service file and the password file (`~/.pgpass`); this type parses nothing itself.
///
/// ```swift
/// let address = try PostgresAddress("postgres://report:secret@db.example/books")
/// print(address)   // postgres://report@db.example/books (never the password)
/// ```
public struct PostgresAddress: Sendable, Equatable, CustomStringConvertible {
    /// The address as given, for libpq. Never printed.
    let conninfo: String
    /// The address without its password: how every message names the store.
    public let description: String
    /// The options the address sets itself (libpq's keywords), defaults and the environment left out.
    private let options: [String: String]

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

    /// Checks `text` with libpq's own parser (`PQconninfoParse`), without connecting.
    /// - Throws: ``InvoicesStore/StoreIssues`` of kind `badAddress` (exit 64) naming what libpq found wrong.
    public init(_ text: String) throws(StoreIssues) {
        var error: UnsafeMutablePointer<CChar>?
        guard let parsed = PQconninfoParse(text, &error) else {
            let reason = error.map { PostgresConnection.firstLine(String(cString: $0)) } ?? "libpq cannot read it"
            PQfreemem(error)
            // libpq's message may quote the part it could not read, which could be a password: it is shown only when
            // the address has no password in it anywhere.
            let shown = Self.redacted(text)
            let detail = shown == text ? " (\(reason))" : ""
            throw StoreIssues([
                StoreIssue(
                    kind: .badAddress, path: shown,
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
        conninfo = text
        self.options = options
        description = Self.describe(text, options)
    }

    /// The value the address itself gives `keyword` (libpq's name: `sslmode`, `host`, `dbname`); nil when it is left
    /// to the environment or libpq's defaults. Never a password.
    func option(_ keyword: String) -> String? { Self.secret.contains(keyword) ? nil : options[keyword] }

    /// A URL as a URL without its password; a connection string as its keywords and values without the password.
    private static func describe(_ text: String, _ options: [String: String]) -> String {
        let lower = text.lowercased()
        if lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://") { return redacted(text) }
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
        let lower = store.lowercased()
        guard lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://") else {
            // A connection string: drop the value of every password keyword, quoted or not.
            return store.replacing(#/(?i)(ssl)?password\s*=\s*('(\\.|[^'])*'?|\S*)/#, with: { "\($0.output.1 ?? "")password=…" })
        }
        guard var components = URLComponents(string: store) else {
            // Not parseable: drop anything between '//' and '@' that could hold a password, and every
            // `password=` parameter.
            var text = store
            if let scheme = text.range(of: "://"), let at = text.range(of: "@", range: scheme.upperBound..<text.endIndex) {
                let user = text[scheme.upperBound..<at.lowerBound].split(separator: ":", maxSplits: 1).first ?? ""
                text = String(text[..<scheme.upperBound]) + user + String(text[at.lowerBound...])
            }
            return text.replacing(#/(?i)([?&]|%3f|%26)(ssl)?password(=|%3d)[^&#]*/#, with: { $0.output.1 + ($0.output.2 ?? "") + "password=…" })
        }
        components.password = nil
        // libpq takes the password as a parameter too (`?password=`): it is never shown either.
        if let items = components.percentEncodedQueryItems {
            let kept = items.filter { item in
                let name = (item.name.removingPercentEncoding ?? item.name).lowercased()
                return !name.hasPrefix("password") && !name.hasPrefix("sslpassword")
            }
            components.percentEncodedQueryItems = kept.isEmpty ? nil : kept
        }
        return components.string ?? store
    }
}
