internal import Foundation
internal import InvoicesCore

/// The people allowed to read the published site, read from a users file, and the htpasswd file made from it.
///
/// A users file has one `name:password` line per person; blank lines and lines starting with `#` are ignored. A
/// password may also be given as a bcrypt hash already (`name:$2y$...`), e.g. from `htpasswd -nB name`, so the
/// file need not hold a password at all. Passwords are hashed here, in memory, and never written anywhere else.
///
/// ```
/// # users.txt (keep it out of the site folder and out of version control)
/// alice:correct horse battery staple
/// bob:$2y$10$...
/// ```
public struct Htpasswd: Sendable, Equatable {
    /// One line of the htpasswd file.
    public struct Entry: Sendable, Equatable {
        public var name: String
        public var hash: String
    }

    public var entries: [Entry]

    /// The file's text: `name:hash` lines in the users file's order.
    public var text: String { entries.map { "\($0.name):\($0.hash)\n" }.joined() }

    /// Makes the htpasswd entries for the users file at `path`.
    ///
    /// A user whose hash in `previous` (the htpasswd published before) still matches the password keeps it, so an
    /// unchanged users file gives an unchanged htpasswd file.
    /// - Throws: ``PublishError``: missing file (66), a malformed line (65, with its line number).
    public init(usersFile path: String, previous: String? = nil, cost: Int = Bcrypt.defaultCost) throws(PublishError) {
        let data: Data
        do throws(RegularFile.Failure) {
            data = try RegularFile.data(path, budget: .usersFile)
        } catch {
            let code: PublishError.Code = error.exitStatus == .noInput ? .missingInput : .badInput
            throw PublishError(code, "\(error); the users file has one 'name:password' line per reader")
        }
        var old: [String: String] = [:]
        for line in (previous ?? "").split(separator: "\n") {
            if let colon = line.firstIndex(of: ":") { old[String(line[..<colon])] = String(line[line.index(after: colon)...]) }
        }
        var entries: [Entry] = []
        var seen: Set<String> = []
        for (offset, rawLine) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if line.trimmingCharacters(in: .whitespaces).isEmpty || line.hasPrefix("#") { continue }
            let where_ = "\(path):\(offset + 1)"
            guard let colon = line.firstIndex(of: ":") else {
                throw PublishError(.badInput, "\(where_): expected 'name:password' (the line has no ':')")
            }
            let name = String(line[..<colon])
            let secret = String(line[line.index(after: colon)...])
            guard !name.isEmpty, !name.contains(where: { $0.isWhitespace }) else {
                throw PublishError(.badInput, "\(where_): the user name is empty or contains spaces")
            }
            guard !secret.isEmpty else { throw PublishError(.badInput, "\(where_): user '\(name)' has an empty password") }
            guard seen.insert(name).inserted else { throw PublishError(.badInput, "\(where_): user '\(name)' is listed twice") }
            let hash: String
            if secret.hasPrefix("$2"), secret.count == 60 {
                hash = secret
            } else if let kept = old[name], Bcrypt.verify(secret, hash: kept) {
                hash = kept
            } else {
                hash = try Bcrypt.hash(secret, cost: cost)
            }
            entries.append(Entry(name: name, hash: hash))
        }
        guard !entries.isEmpty else { throw PublishError(.badInput, "\(path): the users file lists nobody; add a 'name:password' line") }
        self.entries = entries
    }
}
