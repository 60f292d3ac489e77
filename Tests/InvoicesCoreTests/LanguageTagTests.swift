import InvoicesCore
import Testing

/// RFC 5646 section 2.1's well-formed syntax (issue 43): what the store and the imports accept as a client's language.
struct LanguageTagTests {
    @Test(arguments: [
        "fr", "de-CH", "DE-ch", "pt-BR", "es-419", "zh-Hant-TW", "sr-Latn-RS", "zh-yue-HK", "sl-rozaj-biske", "de-DE-1901",
        "en-US-x-twain", "en-a-myext-b-another", "x-whatever", "i-klingon", "en-GB-oed", "qq-ZZ", "abcdefgh", "ar",
        "he", "de-CH-u-co-phonebk",
    ])
    func wellFormed(tag: String) {
        #expect(LanguageTag.isWellFormed(tag))
        #expect(LanguageTag.problem(with: tag) == nil)
    }

    @Test(arguments: [
        "", "fr_FR", "fr-FR-", "de-", "-de", "en--US", "e", "123", "en-US-", "x", "en-x", "en-a", "en-a-b", "de-CH-1",
        "abcdefghi", "fr FR", "fr-FR;", "fé", "zh-Hant-TW-abcdefghi", "en-US-a-x", "de-1901-", "en-GB-oed-x",
    ])
    func malformed(tag: String) {
        #expect(!LanguageTag.isWellFormed(tag))
        #expect(LanguageTag.problem(with: tag)?.contains("is not a well-formed BCP 47 language tag") == true)
    }
}
