internal import Cxcrypt
internal import Foundation

/// bcrypt password hashes (`$2y$`), made and checked by the system's libxcrypt, the library nginx's `auth_basic`
/// checks them with; Apache's `htpasswd -B` writes the same format.
public enum Bcrypt {
    /// The cost used when none is given: 2^10 rounds. The server pays it on every request that carries a password
    /// (docs/publishing.md has measurements).
    public static let defaultCost = 10

    /// A new hash of `password` with a random salt at `cost` (4...31).
    /// - Throws: ``PublishError`` with ``PublishError/Code/internalError`` when the system cannot make one.
    public static func hash(_ password: String, cost: Int = defaultCost) throws(PublishError) -> String {
        var setting = [CChar](repeating: 0, count: Int(CRYPT_GENSALT_OUTPUT_SIZE))
        // A null rbytes asks libxcrypt for the system's own random bytes.
        guard crypt_gensalt_rn("$2y$", UInt(cost), nil, 0, &setting, Int32(setting.count)) != nil else {
            throw PublishError(.internalError, "cannot make a bcrypt salt (cost \(cost)): \(String(cString: strerror(errno)))")
        }
        let salt = String(decoding: setting.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let hash = crypt(password, salt) else {
            throw PublishError(.internalError, "the system's crypt() cannot make bcrypt hashes; install libxcrypt (libcrypt1)")
        }
        return hash
    }

    /// Whether `hash` (any `$2a$`, `$2b$` or `$2y$` bcrypt hash) is the hash of `password`.
    public static func verify(_ password: String, hash: String) -> Bool {
        guard hash.hasPrefix("$2"), let computed = crypt(password, hash) else { return false }
        return computed == hash
    }

    /// `crypt_rn` with a buffer of its own: thread-safe, unlike `crypt`.
    static func crypt(_ phrase: String, _ setting: String) -> String? {
        let size = MemoryLayout<crypt_data>.size
        let data = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<crypt_data>.alignment)
        defer {
            memset(data, 0, size)  // it held the password
            data.deallocate()
        }
        memset(data, 0, size)
        guard let result = crypt_rn(phrase, setting, data, Int32(size)) else { return nil }
        let text = String(cString: result)
        return text.hasPrefix("*") ? nil : text
    }
}
