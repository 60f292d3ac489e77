public import Foundation
internal import InvoicesCore

/// The secret that client-link addresses are derived from, read from a file or an environment variable.
///
/// A client's token is the HMAC-SHA256 of `invoices-client-link:` followed by the client number under the key,
/// truncated to its first 20 bytes (160 bits) and written in lowercase base32: 32 characters of `a-z2-7`. The same
/// key gives the same tokens in every build; a new key gives new ones, and the old addresses stop working with the
/// next published release.
///
/// ```swift
/// let key = try ClientLinkKey(source: "secrets/client-links.key")   // or "env:INVOICES_CLIENT_LINK_KEY"
/// key.token(forClient: "C-0042")   // "k3v...": the page is c/k3v.../
/// ```
public struct ClientLinkKey: Sendable {
    /// The fewest bytes a key may have (256 bits, e.g. `openssl rand -hex 32`).
    public static let minimumLength = 32
    /// The prefix of `source` naming an environment variable instead of a file.
    public static let environmentPrefix = "env:"

    let key: Data
    /// Where the key came from, for messages (never the key itself).
    public let origin: String

    /// Reads the key from `source`: a file path, or `env:NAME` for the environment variable NAME.
    ///
    /// Surrounding whitespace (a trailing newline) is not part of the key.
    /// - Throws: ``PublishError`` with ``PublishError/Code/missingInput`` when the file or variable is absent,
    ///   ``PublishError/Code/badInput`` when the key is shorter than ``minimumLength`` bytes.
    public init(source: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(PublishError) {
        let text: String
        if source.hasPrefix(Self.environmentPrefix) {
            let name = String(source.dropFirst(Self.environmentPrefix.count))
            origin = "environment variable \(name)"
            guard let value = environment[name] else {
                throw PublishError(.missingInput, "the \(origin) is not set; put the client-link key there, e.g. from 'openssl rand -hex 32'")
            }
            text = value
        } else {
            origin = source
            let data: Data
            do throws(RegularFile.Failure) {
                data = try RegularFile.data(source, budget: .linkKey)
            } catch {
                let code: PublishError.Code = error.exitStatus == .noInput ? .missingInput : .badInput
                throw PublishError(code, "\(error); the client-link key file holds one key, e.g. from 'openssl rand -hex 32 > \(source)'")
            }
            text = String(decoding: data, as: UTF8.self)
        }
        key = Data(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        guard key.count >= Self.minimumLength else {
            throw PublishError(.badInput, "the client-link key in \(origin) has \(key.count) bytes; it needs at least \(Self.minimumLength), e.g. from 'openssl rand -hex 32'")
        }
    }

    /// The token of the client with number `number`: the last component of its private address `c/<token>/`.
    public func token(forClient number: String) -> String {
        let mac = Digest.hmacSHA256(key: key, message: Data(("invoices-client-link:" + number).utf8))
        return Digest.base32(mac.prefix(20))
    }

    /// The path of the client's private page, relative to the site's root.
    public func path(forClient number: String) -> String { "c/\(token(forClient: number))/" }
}
