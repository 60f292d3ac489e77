import Foundation
public import InvoicesCore

/// The clients whose pages are in another language than the report's (their `language`, schema 3): their client
/// page, statement, print view and private copies are in it; every other page is in the report's language.
///
/// A client's tag falls back along BCP 47 for its table (`fr-CH` uses `fr`'s) and keeps its own tag for `lang` and
/// formats. A tag with no table at all (nor English) gives the report's language, with a warning naming the client.
struct ClientLanguages: Sendable {
    /// The templates, words and formatter of one client language.
    struct Speech: Sendable {
        var templates: TemplateSet
        var language: PageLanguage
        var formatter: MoneyFormatter
    }

    /// By lowercase tag.
    private(set) var speeches: [String: Speech] = [:]
    /// By client index: the lowercase tag of its language, for the clients whose pages have one of their own.
    private(set) var clients: [Int: String] = [:]
    /// One line per client whose language cannot be used, and per language whose table lacks keys.
    private(set) var warnings: [String] = []

    init(books: Books, templates: TemplateSet, options: SiteOptions) {
        let report = templates.translation.tag
        for (index, client) in books.clients.enumerated() where !client.language.isEmpty {
            let name = "client \(client.number) (\(client.name))"
            guard let tag = LanguageTag(client.language) else {
                warnings.append("\(name): language '\(client.language)' is not a BCP 47 tag; its pages are in the report's language (\(report))")
                continue
            }
            let key = tag.text.lowercased()
            guard key != report.text.lowercased() else { continue }
            guard tag.isEnglish || tag.fallbacks.contains(where: { templates.tables.hasTable($0) }) else {
                warnings.append(
                    "\(name): no translation table for language '\(tag)' (nor for \(tag.fallbacks.dropFirst().map { "'\($0)'" }.joined(separator: ", ").nonEmpty ?? "a shorter tag")); "
                        + "its pages are in the report's language (\(report))")
                continue
            }
            if speeches[key] == nil, let localized = try? templates.localized(to: tag) {
                let language = PageLanguage(localized.translation, options: options)
                speeches[key] = Speech(
                    templates: localized, language: language,
                    formatter: MoneyFormatter(localeIdentifier: language.formatLocale, currencies: books.currencies))
                warnings += Self.missingKeys(localized.translation)
            }
            if speeches[key] != nil { clients[index] = key }
        }
    }

    /// A warning per language whose table lacks keys (English is used for them), naming the language and keys.
    static func missingKeys(_ translation: Translation) -> [String] {
        guard !translation.missing.isEmpty else { return [] }
        guard let table = translation.table else {
            return ["language '\(translation.tag)': no translation table (i18n/\(translation.tag.primary).yaml); the pages' words are English"]
        }
        return [
            "language '\(translation.tag)': the '\(table)' translation table lacks \(translation.missing.count) key(s), English used: "
                + translation.missing.joined(separator: ", ")
        ]
    }
}

extension String {
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}

extension SiteView {
    /// What a client's own pages see: the site in the client's language when it has one (``ClientLanguages``).
    func speaking(for clientIndex: Int) -> SiteView {
        guard let key = clientLanguages.clients[clientIndex], let speech = clientLanguages.speeches[key] else { return self }
        var site = self
        site.templates = speech.templates
        site.language = speech.language
        site.formatter = speech.formatter
        return site
    }

    /// The text of `key` in the pages' language, its `{name}` placeholders filled from `values`.
    func word(_ key: String, _ values: [String: String] = [:]) -> String { language.text(key, values) }

    /// A date as the pages' language writes it (ISO 8601 in English).
    func date(_ date: CalendarDate) -> String { language.date(date) }

    /// A month's name and year in the pages' language: `March 2025`, `März 2025`.
    func monthLabel(_ month: YearMonth) -> String { language.monthLabel(month) }

    /// What the build and `check` warn about the languages: the report language's missing keys (English is used for
    /// them), and each client language that has no table or lacks keys.
    public var languageWarnings: [String] {
        ClientLanguages.missingKeys(templates.translation) + clientLanguages.warnings
    }

}

extension SiteBuilder {
    /// ``languageWarnings`` without building a site: what `invoices check` lists for the report's language
    /// (`templates` loaded in it) and the clients' languages.
    public static func languageWarnings(books: Books, templates: TemplateSet, options: SiteOptions) -> [String] {
        let tag = LanguageTag(options.language) ?? .english
        let templates = (try? templates.localized(to: tag)) ?? templates
        return ClientLanguages.missingKeys(templates.translation) + ClientLanguages(books: books, templates: templates, options: options).warnings
    }
}
