import Foundation
import InvoicesCore
import InvoicesReport
@testable import InvoicesSite
import InvoicesStore
import InvoicesTesting
import Testing

/// Issue 43: the report's language, the translation tables, and a language per client.
struct TranslationTests {
    static let books: Result<Books, any Error> = Result {
        let folder = try TemporaryFolder("translations")
        let path = folder.path("generated.sqlite")
        try SampleGenerator(clients: 8, invoices: 160, seed: 11).write(to: path)
        return try BooksStore(path: path).books
    }

    /// A site of the sample books in `language`, with fiscal years from April (the period labels), a payee (the pay
    /// parts), client links (the private copies) and `pageSize` rows a page (the navigation of long lists).
    static func site(
        _ language: String, books: Books? = nil, templates: TemplateSet? = nil, pageSize: Int = Pagination.defaultPageSize
    ) throws -> SiteBuilder {
        let books = try books ?? Self.books.get()
        var options = SiteOptions(title: "Ω")
        options.language = language
        options.fiscalYearStart = 4
        options.pageSize = pageSize
        options.payee = Payee(name: "Ω GmbH", iban: "DE89 3704 0044 0532 0130 00", bic: nil, paymentURL: "https://pay.example.com/{invoice}")
        options.clientLinkToken = { "token-" + $0 }
        return SiteBuilder(books: books, report: try Report(books: books), templates: try templates ?? TemplateSet(), options: options)
    }

    static func pages(_ site: SiteBuilder) -> [String: String] {
        var pages: [String: String] = [:]
        for file in site.files() where file.path.hasSuffix(".html") {
            pages[file.path] = String(decoding: file.data, as: UTF8.self)
        }
        return pages
    }

    static func escaped(_ text: String) -> String {
        var output = ""
        HTMLEscaping.append(text, to: &output)
        return output
    }

    /// Whether `text` (NUL-terminated UTF-8, no other NUL) holds `piece`, byte for byte, with C's `strstr`.
    /// Foundation's `contains` compares through UTF-16 by canonical equivalence, and was 90 % of this suite's time
    /// over the joined pages (docs/performance.md). An English word left on a page is written with the English
    /// table's own bytes, so the byte search finds it; it also finds a piece that starts inside a character (a
    /// combining mark after it), where `contains` did not.
    static func holds(_ text: ContiguousArray<CChar>, _ piece: String) -> Bool {
        text.withUnsafeBufferPointer { haystack in
            piece.withCString { needle in haystack.baseAddress.map { strstr($0, needle) != nil } ?? false }
        }
    }

    static let shipped = ["de", "fr", "nl", "it", "es", "he"]
    /// March in each shipped language, written down here (not read from Foundation) so the test checks the data.
    static let march = ["de": "März 2024", "fr": "mars 2024", "nl": "maart 2024", "it": "marzo 2024", "es": "marzo de 2024", "he": "מרץ 2024"]

    /// Every page of a `--language xx` build has `lang="xx"` (and `dir="rtl"` in Hebrew); no key shows its English
    /// text where the language's table has another; a month page's title names the month in the language.
    @Test(arguments: shipped) func everyPageIsInTheLanguage(language: String) throws {
        let site = try Self.site(language, pageSize: 10)
        let pages = Self.pages(site)
        #expect(pages.count > 60)
        let head = "<!DOCTYPE html>\n<html lang=\"\(language)\"" + (language == "he" ? " dir=\"rtl\">" : ">")
        for (path, html) in pages {
            #expect(html.hasPrefix(head), "\(path)")
        }
        let tables = TranslationTables.defaults.tables
        let english = try #require(tables["en"]), table = try #require(tables[language])
        #expect(Set(table.keys) == Set(english.keys), "the \(language) table is complete")
        let all = pages.values.joined(separator: "\n").utf8CString
        #expect(!all.dropLast().contains(0), "no page holds a NUL")
        for (key, text) in english where table[key] != text {
            // Each literal piece of the English text, between placeholders: a long one anywhere in a page, a short
            // one as an element's whole text, would be an English word left on the page.
            let pieces = text.split(omittingEmptySubsequences: true) { $0 == "{" || $0 == "}" }.enumerated()
                .filter { $0.offset % 2 == (text.hasPrefix("{") ? 1 : 0) }.map { String($0.element) }
            for piece in pieces where piece.count >= 3 && !(table[key] ?? "").contains(piece) {
                let trimmed = piece.trimmingCharacters(in: .whitespaces)
                if piece.count >= 14 {
                    #expect(!Self.holds(all, piece) && !Self.holds(all, Self.escaped(piece)), "\(language): '\(key)' shows its English '\(piece)'")
                } else {
                    #expect(!Self.holds(all, ">\(Self.escaped(trimmed))<"), "\(language): '\(key)' shows its English '\(trimmed)'")
                }
            }
        }
        let month = try #require(pages["months/2024-03.html"])
        let name = try #require(Self.march[language])
        #expect(month.contains("<title>\(name) · Ω</title>"))
        #expect(month.contains("<h1>\(name)</h1>"))
    }

    /// The shipped tables are parsed when a language is first asked for (a build in German parses German and
    /// English, not the seven), and hold what parsing them all at once holds; every one parses without a problem.
    @Test func theShippedTablesAreParsedWhenTheirLanguageIsAskedFor() throws {
        let (eager, problems) = TranslationTables.load(defaults: DefaultTemplates.files, directory: nil)
        #expect(problems.isEmpty, "\(problems.map(\.message))")
        #expect(eager.languages == ["de", "en", "es", "fr", "he", "it", "nl"])
        let lazy = TranslationTables.parsedWhenAsked(DefaultTemplates.files)
        #expect(lazy.languages == eager.languages)
        #expect(lazy.parsedLanguages.isEmpty)
        let german = lazy.translation(for: try #require(LanguageTag("de-CH")))
        #expect(lazy.parsedLanguages == ["de", "en"])
        #expect(german.table == "de")
        #expect(german.words == eager.translation(for: try #require(LanguageTag("de-CH"))).words)
        #expect(german["layout.defaultTitle"] == "Rechnungsbericht")
        #expect(lazy.hasTable("fr") && !lazy.hasTable("pt"))
        #expect(lazy.parsedLanguages == ["de", "en"], "asking whether a table exists parses none")
        #expect(lazy.tables == eager.tables)
        #expect(lazy.parsedLanguages == eager.languages)
    }

    /// English stays as it was: ISO dates, English months, `en_US_POSIX` amounts, `lang="en"`, no `dir`.
    @Test func englishKeepsItsFormats() throws {
        let pages = Self.pages(try Self.site("en"))
        let month = try #require(pages["months/2024-03.html"])
        #expect(month.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(month.contains("<h1>March 2024</h1>"))
        #expect(try #require(pages["index.html"]).contains("EUR\u{A0}"))
    }

    /// A German report formats dates and amounts for German; a `locale` set in the project wins over the language.
    @Test func datesAndAmountsFollowTheLanguageUnlessLocaleIsSet() throws {
        let books = try Self.books.get()
        let german = try Self.site("de-CH")
        #expect(german.view.language.formatLocale == "de_CH")
        #expect(german.view.date(CalendarDate(year: 2025, month: 3, day: 7)!) == "07.03.2025")
        #expect(german.view.money(123_456, try CurrencyCode("EUR")).contains("1’234.56"))
        var options = SiteOptions(locale: "en_GB")
        options.localeFollowsLanguage = false
        options.language = "de"
        let pinned = SiteBuilder(books: books, report: try Report(books: books), templates: try TemplateSet(), options: options)
        #expect(pinned.view.language.formatLocale == "en_GB")
        #expect(pinned.view.money(123_456, try CurrencyCode("EUR")).contains("1,234.56"))
        // de-CH keeps its own tag for lang, and takes de's table.
        let html = try #require(german.files().first { $0.path == "index.html" }).data
        #expect(String(decoding: html, as: UTF8.self).hasPrefix("<!DOCTYPE html>\n<html lang=\"de-CH\">"))
        #expect(german.templates.translation.table == "de")
        #expect(german.languageWarnings.isEmpty)
    }

    /// A client with `language: fr` in a German report: its client page, statement, statement pages and private
    /// copies are French; every other page is German.
    @Test func aFrenchClientInAGermanReport() throws {
        var books = try Self.books.get()
        books.clients[0].language = "fr-CH"
        let site = try Self.site("de", books: books, pageSize: 10)
        let pages = Self.pages(site)
        let slug = String(site.paths.client(0).dropFirst("clients/".count).dropLast(".html".count))
        let token = "c/token-\(books.clients[0].number)/"
        let french = pages.keys.filter {
            $0 == site.paths.client(0) || $0 == site.paths.statement(0) || $0.hasPrefix("clients/\(slug)/") || $0.hasPrefix("statements/\(slug)/")
                || $0.hasPrefix(token)
        }
        #expect(french.count >= 5)
        #expect(french.contains(token + "index.html") && french.contains(token + "client.html"))
        for (path, html) in pages {
            let lang = french.contains(path) ? "fr-CH" : "de"
            #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"\(lang)\">"), "\(path)")
        }
        let statement = try #require(pages[site.paths.statement(0)])
        #expect(statement.contains("<h1>Relevé de compte de "))
        #expect(statement.contains("Solde d’ouverture") || statement.contains("Solde d'ouverture"))
        let privateCopy = try #require(pages[token + "index.html"])
        #expect(privateCopy.contains("<h1>Relevé de compte de "))
        #expect(try #require(pages[site.paths.client(0)]).contains("<dt>Numéro de client<dd>"))
        // French formats (fr-CH: the Swiss French locale) on the French pages, German on the others.
        #expect(site.view.speaking(for: 0).language.formatLocale == "fr_CH")
        #expect(try #require(pages[site.paths.statement(1)]).contains("<h1>Kontoauszug für "))
        #expect(site.languageWarnings.isEmpty)
    }

    /// A client language without a table (nor a shorter tag's) falls back to the report's language, with a warning
    /// naming the client; so does a tag that is not well-formed.
    @Test func aClientLanguageWithoutATableFallsBackToTheReportsWithAWarning() throws {
        var books = try Self.books.get()
        books.clients[0].language = "pt-BR"
        books.clients[1].language = "not a tag"
        let site = try Self.site("de", books: books)
        let pages = Self.pages(site)
        #expect(try #require(pages[site.paths.client(0)]).hasPrefix("<!DOCTYPE html>\n<html lang=\"de\">"))
        #expect(try #require(pages[site.paths.client(1)]).hasPrefix("<!DOCTYPE html>\n<html lang=\"de\">"))
        let warnings = site.languageWarnings
        #expect(warnings.count == 2)
        #expect(warnings.contains { $0.contains("client \(books.clients[0].number)") && $0.contains("'pt-BR'") && $0.contains("report's language (de)") })
        #expect(warnings.contains { $0.contains("client \(books.clients[1].number)") && $0.contains("not a BCP 47 tag") })
    }

    /// A user's `i18n/de.yaml` overrides one key; a table that lacks keys gets English for them, with a warning
    /// naming the language and the keys.
    @Test(.temporaryFolder("i18n-user")) func aUserTableOverridesAKeyAndAMissingKeyFallsBackToEnglish() throws {
        let folder = try TemporaryFolder.current
        try FileManager.default.createDirectory(atPath: folder.path("i18n"), withIntermediateDirectories: true)
        try Data("heading.totals: Gesamtbeträge\n".utf8).write(to: URL(fileURLWithPath: folder.path("i18n/de.yaml")))
        try Data("heading.totals: Sumoj\ncol.currency: Valuto\n".utf8).write(to: URL(fileURLWithPath: folder.path("i18n/eo.yaml")))
        let templates = try TemplateSet(directory: folder.url.path)
        let german = Self.pages(try Self.site("de", templates: templates))
        let overview = try #require(german["index.html"])
        #expect(overview.contains("<h2>Gesamtbeträge</h2>"))
        #expect(overview.contains("<h2>Steuern</h2>"))  // the shipped table for the rest
        let site = try Self.site("eo", templates: templates)
        let esperanto = try #require(Self.pages(site)["index.html"])
        #expect(esperanto.hasPrefix("<!DOCTYPE html>\n<html lang=\"eo\">"))
        #expect(esperanto.contains("<h2>Sumoj</h2>"))
        #expect(esperanto.contains("<th>Valuto"))
        #expect(esperanto.contains("<h2>Taxes</h2>"))  // missing: English
        let warning = try #require(site.languageWarnings.first)
        #expect(warning.contains("language 'eo'") && warning.contains("heading.taxes") && !warning.contains("heading.totals"))
    }

    /// A table is data: HTML, Mustache and Markdown in its text show as written, in text and in attributes.
    @Test(.temporaryFolder("i18n-hostile")) func hostileTableTextStaysText() throws {
        let folder = try TemporaryFolder.current
        try FileManager.default.createDirectory(atPath: folder.path("i18n"), withIntermediateDirectories: true)
        let table = """
            heading.totals: '<script>alert(1)</script> {{siteTitle}} {{{content}}} *x* [a](javascript:b) {asOf} &amp;'
            nav.pagesOfList: '" onmouseover="alert(2)'
            heading.taxes: '# 1. <!-- x'
            layout.builtBy: '</footer><img src=x onerror=alert(3)>'
            col.currency: '{{#clients}}x{{/clients}}'
            status.paid: '<b>bezahlt</b>'
            title.overview: '<i>Übersicht</i> {name}'

            """
        try Data(table.utf8).write(to: URL(fileURLWithPath: folder.path("i18n/de.yaml")))
        let pages = Self.pages(try Self.site("de", templates: try TemplateSet(directory: folder.url.path), pageSize: 10))
        let all = pages.values.joined(separator: "\n")
        for forbidden in ["<script>", "<img", "onmouseover=\"alert", "<b>bezahlt", "<i>Übersicht", "<em>x</em>", "href=\"javascript", "<!-- x"] {
            #expect(!all.contains(forbidden), "\(forbidden)")
        }
        let overview = try #require(pages["index.html"])
        #expect(overview.contains("<h2>&lt;script&gt;alert(1)&lt;/script&gt; {{siteTitle}} {{{content}}} *x* [a](javascript:b) {asOf} &amp;amp;</h2>"))
        #expect(overview.contains("<h2># 1. &lt;!-- x</h2>"))
        // Inside an HTML block the text keeps its character references, which the browser shows as the braces.
        #expect(overview.contains("<th>&#123;&#123;#clients&#125;&#125;x&#123;&#123;/clients&#125;&#125;"))
        #expect(overview.contains("<title>&lt;i&gt;Übersicht&lt;/i&gt; {name} · Ω</title>"))
        #expect(overview.contains("&lt;/footer&gt;&lt;img src=x onerror=alert(3)&gt;</footer>"))
        let paged = try #require(pages.first { $0.value.contains("aria-label=\"&quot; onmouseover=&quot;alert(2)\"") })
        #expect(!paged.value.contains("aria-label=\"\" onmouseover"))
        #expect(all.contains("<td>&lt;b&gt;bezahlt&lt;/b&gt;"))
    }

    /// A table that is not a flat mapping of text, or a file of the i18n folder that is not a table, is refused with
    /// its path; a key no table has, used in a template, is refused at its line and column.
    @Test func badTablesAndUnknownKeysAreRefused() throws {
        let folder = try TemporaryFolder("i18n-bad")
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path("i18n"), withIntermediateDirectories: true)
        try Data("heading:\n  totals: x\n".utf8).write(to: URL(fileURLWithPath: folder.path("i18n/de.yaml")))
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder.path("i18n/notes.txt")))
        try Data("a: b\n".utf8).write(to: URL(fileURLWithPath: folder.path("i18n/not_a_tag.yaml")))
        let problems = TemplateSet.problems(directory: folder.url.path)
        #expect(problems.contains { $0.path.hasSuffix("i18n/de.yaml") && $0.message.contains("not a list or mapping") })
        #expect(problems.contains { $0.path.hasSuffix("i18n/notes.txt") })
        #expect(problems.contains { $0.path.hasSuffix("i18n/not_a_tag.yaml") && $0.message.contains("language") })
        let other = try TemporaryFolder("i18n-key")
        defer { other.remove() }
        try Data("# x\n\nline {{t.no.such.key}}\n".utf8).write(to: URL(fileURLWithPath: other.path("404.md")))
        let error = try #require(TemplateSet.problems(directory: other.url.path).first)
        #expect(error.code == .unknownVariable && error.line == 3 && error.column == 8)
        #expect(error.message.contains("t.no.such.key"))
    }

    @Test func languageTags() {
        for good in ["en", "de-CH", "fr", "zh-Hant-TW", "sr-Latn", "es-419", "de-CH-1996", "en-US-u-ca-gregory", "he"] {
            #expect(LanguageTag.pageLanguageProblem(with: good) == nil, "\(good)")
        }
        for bad in ["", "de_DE", "x-private", "d", "de-CH-CH", "de--CH", "de-Latn-Latn", "en-US-u", "de-1996-1996", "<b>"] {
            #expect(LanguageTag.pageLanguageProblem(with: bad) != nil, "\(bad)")
        }
        #expect(LanguageTag("de-CH-1996")?.fallbacks == ["de-ch-1996", "de-ch", "de"])
        #expect(LanguageTag("en-US-u-ca-gregory")?.fallbacks == ["en-us", "en"])
        #expect(LanguageTag("he")?.isRightToLeft == true && LanguageTag("ar-EG")?.isRightToLeft == true)
        #expect(LanguageTag("de")?.isRightToLeft == false)
    }

    @Test func datePatterns() {
        let months = PageLanguage.englishMonths
        #expect(DatePattern("dd.MM.y").format(year: 2025, month: 3, day: 7, months: months) == "07.03.2025")
        #expect(DatePattern("MMMM 'de' y").format(year: 2025, month: 3, day: 7, months: months) == "March de 2025")
        #expect(DatePattern("d/M/yy").format(year: 2025, month: 3, day: 7, months: months) == "7/3/25")
        #expect(DatePattern("y''MM").format(year: 2025, month: 3, day: 7, months: months) == "2025'03")
    }
}
