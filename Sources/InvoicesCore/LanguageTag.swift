import Foundation

/// A BCP 47 language tag (RFC 5646), as `language` in invoices.yaml, `--language` and a client's language give it:
/// `de`, `de-CH`, `fr-CA`, `zh-Hant-TW`, `sr-Latn`.
///
/// Only well-formedness is checked (the RFC's `langtag` production, plus the `x-` private use and the grandfathered
/// `i-` tags are refused: a page's language must be a language). Case is kept as written for `lang`; comparisons
/// and fallbacks use the lowercase form.
public struct LanguageTag: Sendable, Hashable, CustomStringConvertible {
    /// The tag as written (e.g. `de-CH`).
    public let text: String

    /// `text` as a tag, or nil when it is not a well-formed BCP 47 language tag (``problem(with:)`` says why).
    public init?(_ text: String) {
        guard Self.problem(with: text) == nil else { return nil }
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

    /// Nil when `text` is a well-formed BCP 47 language tag; otherwise what is wrong, with examples.
    public static func problem(with text: String) -> String? {
        let hint = "expected a BCP 47 language tag, e.g. en, de, de-CH, fr, pt-BR"
        guard !text.isEmpty else { return "cannot be empty; \(hint)" }
        if text.contains("_"), problem(with: text.replacingOccurrences(of: "_", with: "-")) == nil {
            return "'\(text)' is a locale name, not a language tag; did you mean '\(text.replacingOccurrences(of: "_", with: "-"))'?"
        }
        guard text.count <= 64, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
            return "'\(text.prefix(64))' is not a language tag (letters, digits and '-' only); \(hint)"
        }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { $0.lowercased() }
        func isAlpha(_ s: String, _ range: ClosedRange<Int>) -> Bool { range.contains(s.count) && s.allSatisfy(\.isLetter) }
        func isDigits(_ s: String, _ count: Int) -> Bool { s.count == count && s.allSatisfy(\.isNumber) }
        var index = 0
        guard isAlpha(parts[0], 2...3) || isAlpha(parts[0], 5...8) else {
            return "'\(text)' does not start with a language (2 or 3 letters); \(hint)"
        }
        index = 1
        // Up to three extended language subtags after a 2- or 3-letter language.
        var extlangs = 0
        while index < parts.count, parts[0].count <= 3, extlangs < 3, isAlpha(parts[index], 3...3) {
            index += 1
            extlangs += 1
        }
        if index < parts.count, isAlpha(parts[index], 4...4) { index += 1 }  // script
        if index < parts.count, isAlpha(parts[index], 2...2) || isDigits(parts[index], 3) { index += 1 }  // region
        var variants: Set<String> = []
        while index < parts.count {
            let part = parts[index]
            let variant = (5...8).contains(part.count) && part.allSatisfy { $0.isLetter || $0.isNumber }
                || (part.count == 4 && part.first!.isNumber && part.allSatisfy { $0.isLetter || $0.isNumber })
            guard variant else { break }
            guard variants.insert(part).inserted else { return "'\(text)' repeats the variant '\(part)'; \(hint)" }
            index += 1
        }
        var singletons: Set<String> = []
        while index < parts.count {
            let singleton = parts[index]
            guard singleton.count == 1, singleton != "x" else { break }
            guard singletons.insert(singleton).inserted else { return "'\(text)' repeats the extension '\(singleton)'; \(hint)" }
            index += 1
            var count = 0
            while index < parts.count, (2...8).contains(parts[index].count) {
                index += 1
                count += 1
            }
            guard count > 0 else { return "'\(text)' has an empty extension '\(singleton)'; \(hint)" }
        }
        if index < parts.count, parts[index] == "x" {
            index += 1
            var count = 0
            while index < parts.count, (1...8).contains(parts[index].count) {
                index += 1
                count += 1
            }
            guard count > 0 else { return "'\(text)' has an empty private use part; \(hint)" }
        }
        guard index == parts.count else {
            return "'\(text)' is not a well-formed language tag (at '\(parts[index])'); \(hint)"
        }
        return nil
    }
}
