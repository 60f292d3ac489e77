import Foundation

/// Checks a locale identifier against the locales Foundation knows, so a typo is refused instead of formatting
/// amounts in a fallback locale without a word.
public enum LocaleName {
    /// Every identifier Foundation formats for, plus `en_US_POSIX` (the stable default).
    static let known: Set<String> = Set(Locale.availableIdentifiers).union(["en_US_POSIX"])

    /// `nil` when `identifier` names a known locale (`de-DE` is read as `de_DE`); otherwise what is wrong, naming the
    /// closest known identifiers.
    public static func problem(with identifier: String) -> String? {
        let normalized = identifier.replacingOccurrences(of: "-", with: "_")
        if known.contains(normalized) { return nil }
        let language = normalized.split(separator: "_").first.map { String($0).lowercased() } ?? ""
        let region = normalized.split(separator: "_").dropFirst().first.map { String($0).uppercased() }
        var close = known.filter { candidate in
            let parts = candidate.split(separator: "_")
            return parts.first.map(String.init) == language || (region != nil && parts.count == 2 && String(parts[1]) == region)
        }
        if close.isEmpty { close = known.filter { distance($0.lowercased(), normalized.lowercased()) <= 2 } }
        let names = close.sorted { (distance($0, normalized), $0) < (distance($1, normalized), $1) }.prefix(5)
        let hint = names.isEmpty ? "e.g. en_US, de_DE, fr_FR, or en_US_POSIX" : "did you mean " + names.map { "'\($0)'" }.joined(separator: ", ") + "?"
        return "'\(identifier)' is not a locale this system knows; \(hint)"
    }

    /// The edit distance between two identifiers (they are short).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
