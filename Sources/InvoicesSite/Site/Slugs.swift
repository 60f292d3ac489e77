import Foundation

/// Page names for clients: lowercase ASCII letters, digits and dashes, unique, and never a path.
///
/// A slug comes from the client's number and name (`C-00042 Müller & Söhne` gives `c-00042-muller-sohne`); two
/// clients that would get the same slug get `-2`, `-3`... in client order, so pages are distinct and stable.
struct Slugger {
    private var used: Set<String> = []
    /// For each base, the suffix to try next: every `base-k` below it is taken already (the set only grows), so
    /// many clients with one name cost one step each, not one per client before them.
    private var nextSuffix: [String: Int] = [:]

    mutating func slug(for parts: String...) -> String {
        var base = Slugger.ascii(parts.joined(separator: " "))
        if base.count > 60 { base = String(base.prefix(60)).trimmingCharacters(in: CharacterSet(charactersIn: "-")) }
        if base.isEmpty { base = "client" }
        if used.insert(base).inserted { return base }
        var counter = nextSuffix[base, default: 2]
        var candidate = "\(base)-\(counter)"
        while !used.insert(candidate).inserted {
            counter += 1
            candidate = "\(base)-\(counter)"
        }
        nextSuffix[base] = counter + 1
        return candidate
    }

    static func ascii(_ text: String) -> String {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        var result = ""
        var dash = false
        for scalar in folded.unicodeScalars {
            if (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9") {
                if dash, !result.isEmpty { result.append("-") }
                result.unicodeScalars.append(scalar)
                dash = false
            } else if scalar >= "A" && scalar <= "Z" {
                if dash, !result.isEmpty { result.append("-") }
                result.unicodeScalars.append(Unicode.Scalar(scalar.value + 32)!)
                dash = false
            } else {
                dash = true
            }
        }
        return result
    }
}
