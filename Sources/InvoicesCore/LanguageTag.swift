import Foundation

/// A BCP 47 language tag (RFC 5646), as a client's language, `language` in invoices.yaml and `--language` give it:
/// `de`, `de-CH`, `fr-CA`, `zh-Hant-TW`.
///
/// One rule of syntax for the store, the imports and the site: ``isWellFormed(_:)`` checks that a tag is **well-formed** BCP 47: that it follows the syntax of RFC 5646 section 2.1 (the
/// `Language-Tag` ABNF, case-insensitive), without looking the subtags up in the IANA registry. Foundation's `Locale`
/// accepts any string, so it cannot tell `fr-CH` from `fr_CH`, `french` or `de-`.
///
/// ```
/// langtag   = language ["-" script] ["-" region] *("-" variant) *("-" extension) ["-" privateuse]
/// language  = 2*3ALPHA ["-" extlang] / 4ALPHA / 5*8ALPHA      extlang = 3ALPHA *2("-" 3ALPHA)
/// script    = 4ALPHA            region = 2ALPHA / 3DIGIT      variant = 5*8alphanum / (DIGIT 3alphanum)
/// extension = singleton 1*("-" (2*8alphanum))                 singleton = any alphanum but "x"
/// privateuse = "x" 1*("-" (1*8alphanum))                      grandfathered = the 26 tags of section 2.2.8
/// ```
public struct LanguageTag: Sendable, Hashable, CustomStringConvertible {
    /// The tag as written (e.g. `de-CH`): case is kept for `lang`; comparisons and fallbacks use the lowercase form.
    public let text: String

    /// `text` as the language of pages, or nil when it is not one (``pageLanguageProblem(with:)`` says why): a
    /// well-formed tag that names a language, not private use (`x-...`) nor a grandfathered `i-` tag, without a
    /// variant twice.
    public init?(_ text: String) {
        guard Self.pageLanguageProblem(with: text) == nil else { return nil }
        self.text = text
    }

    public var description: String { text }

    /// English, the default language of the report.
    public static let english = LanguageTag(uncheckedText: "en")

    private init(uncheckedText: String) { text = uncheckedText }

    /// The primary language subtag, lowercase: `de` for `de-CH`.
    public var primary: String { String(text.lowercased().split(separator: "-").first ?? "") }

    /// Whether the tag is English (`en`, `en-GB`...).
    public var isEnglish: Bool { primary == "en" }

    /// The tags to look up, most specific first, each with its last subtag dropped (RFC 4647 lookup, lowercase):
    /// `de-ch-1996`, `de-ch`, `de`. Extensions and private use (from the first single-letter subtag on) are not
    /// part of any table's name.
    public var fallbacks: [String] {
        var parts = Array(text.lowercased().split(separator: "-").map(String.init).prefix { $0.count != 1 })
        var result: [String] = []
        while !parts.isEmpty {
            result.append(parts.joined(separator: "-"))
            parts.removeLast()
        }
        return result
    }

    /// The Foundation locale identifier of the tag: `de_CH` for `de-CH`, `zh_Hant_TW` for `zh-Hant-TW`.
    public var localeIdentifier: String { Locale.identifier(.icu, from: text) }

    /// Whether the language is written right to left (Arabic, Hebrew, Persian, Urdu...): from the script Foundation
    /// knows for it.
    public var isRightToLeft: Bool {
        Locale.Language(identifier: text).characterDirection == .rightToLeft
    }

    /// Nil when `text` can be the language of pages (``init(_:)``); otherwise what is wrong, with examples: it is
    /// not well-formed (``problem(with:)``), or it is private use or a grandfathered tag, or repeats a variant.
    public static func pageLanguageProblem(with text: String) -> String? {
        if text.contains("_"), isWellFormed(text.replacingOccurrences(of: "_", with: "-")) {
            let tag = text.replacingOccurrences(of: "_", with: "-")
            return "'\(TerminalText.escaped(text))' is a locale name, not a language tag; did you mean '\(TerminalText.escaped(tag))'?"
        }
        if let problem = problem(with: text) { return problem }
        let parts = text.lowercased().split(separator: "-").map(String.init)
        if parts[0] == "x" || parts[0] == "i" || grandfathered.contains(text.lowercased()) {
            return "'\(TerminalText.escaped(text))' is private use or a grandfathered tag, not a language; e.g. en, de, de-CH, fr, pt-BR"
        }
        let variants = parts.dropFirst().prefix { $0.count != 1 }.filter { $0.count >= 5 || ($0.count == 4 && $0.first!.isNumber) }
        if Set(variants).count != variants.count {
            return "'\(TerminalText.escaped(text))' repeats a variant; e.g. de-CH-1996"
        }
        return nil
    }

    /// The tags RFC 5646 keeps from RFC 3066 that the `langtag` rule does not match (`irregular`, and the `regular`
    /// ones whose subtags it cannot parse), lowercased.
    static let grandfathered: Set<String> = [
        "en-gb-oed", "i-ami", "i-bnn", "i-default", "i-enochian", "i-hak", "i-klingon", "i-lux", "i-mingo", "i-navajo",
        "i-pwn", "i-tao", "i-tay", "i-tsu", "sgn-be-fr", "sgn-be-nl", "sgn-ch-de",
        "art-lojban", "cel-gaulish", "no-bok", "no-nyn", "zh-guoyu", "zh-hakka", "zh-min", "zh-min-nan", "zh-xiang",
    ]

    /// Whether `tag` is a well-formed BCP 47 language tag (`fr`, `de-CH`, `zh-Hant-TW`, `sr-Latn-RS`, `es-419`).
    public static func isWellFormed(_ tag: String) -> Bool {
        let lower = tag.lowercased()
        if grandfathered.contains(lower) { return true }
        let subtags = lower.split(separator: "-", omittingEmptySubsequences: false).map { Array($0.utf8) }
        guard !subtags.isEmpty, subtags.allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy(isAlphanumeric) }) else {
            return false
        }
        var index = 0
        func next(_ accepts: ([UInt8]) -> Bool) -> Bool {
            guard index < subtags.count, accepts(subtags[index]) else { return false }
            index += 1
            return true
        }
        // A private-use tag alone: x-whatever.
        if subtags[0] == [UInt8(ascii: "x")] { return privateUse(subtags, from: 0) }
        // language: 2-3 letters with up to three extlangs, or 4, or 5-8 letters.
        guard next({ $0.count >= 2 && $0.allSatisfy(isLetter) }) else { return false }
        if subtags[0].count <= 3 {
            var extlangs = 0
            while extlangs < 3, next({ $0.count == 3 && $0.allSatisfy(isLetter) }) { extlangs += 1 }
        }
        _ = next { $0.count == 4 && $0.allSatisfy(isLetter) }  // script
        _ = next { ($0.count == 2 && $0.allSatisfy(isLetter)) || ($0.count == 3 && $0.allSatisfy(isDigit)) }  // region
        while next({ $0.count >= 5 || ($0.count == 4 && isDigit($0[0])) }) {}  // variants
        // extensions: a singleton (not x) and one or more subtags of 2-8 characters.
        while index < subtags.count, subtags[index].count == 1, subtags[index] != [UInt8(ascii: "x")] {
            index += 1
            guard next({ $0.count >= 2 }) else { return false }
            while next({ $0.count >= 2 }) {}
        }
        if index < subtags.count { return privateUse(subtags, from: index) }
        return true
    }

    /// `nil` when `tag` is well-formed, else what is wrong with it (for a message naming the file, row and column).
    public static func problem(with tag: String) -> String? {
        isWellFormed(tag)
            ? nil
            : "'\(TerminalText.escaped(tag))' is not a well-formed BCP 47 language tag (RFC 5646), e.g. fr, de-CH, pt-BR, zh-Hant-TW"
    }

    /// Whether the subtags from `start` are `x` and one or more subtags (already known to be 1-8 alphanumerics).
    private static func privateUse(_ subtags: [[UInt8]], from start: Int) -> Bool {
        subtags[start] == [UInt8(ascii: "x")] && subtags.count > start + 1
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) }
    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    private static func isAlphanumeric(_ byte: UInt8) -> Bool { isLetter(byte) || isDigit(byte) }
}
