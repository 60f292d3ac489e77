import Foundation
import InvoicesCore
import InvoicesReport
@testable import InvoicesSite
import InvoicesStore
import InvoicesTesting
import Testing

/// Issue 43: a build in another language writes no English word, in its pages (text and the attributes a reader
/// sees or hears), its script and its feed. The English words are derived from the tables, not listed by hand:
/// every word of an English text that no text of the language's table has.
struct EnglishLeftoverTests {
    /// The sample books with no English of their own: notes, payment details and write-off reasons emptied (the
    /// sample's are English sentences), four clients in Switzerland (the QR-bill), 12 clients (more than a page of
    /// 10: clients.html searches through clients-index.js).
    static let books: Result<Books, any Error> = Result {
        let folder = try TemporaryFolder("english-leftovers")
        defer { folder.remove() }
        let path = folder.path("generated.sqlite")
        try SampleGenerator(clients: 12, invoices: 120, seed: 5).write(to: path)
        var books = try BooksStore(path: path).books
        for index in books.invoices.indices { books.invoices[index].notes = "" }
        for index in books.paymentDetails.indices { books.paymentDetails[index] = PaymentDetails(method: "", reference: "") }
        for index in books.writeOffs.indices { books.writeOffs[index].reason = "" }
        for index in 0..<4 { books.clients[index].country = "CH" }
        return books
    }

    /// Every string of `value` and what it holds (Mirror): the books' names, addresses, numbers.
    static func strings(_ value: Any, into result: inout Set<String>) {
        if let text = value as? String {
            result.insert(text)
            return
        }
        for child in Mirror(reflecting: value).children { strings(child.value, into: &result) }
    }

    /// The words of `text` (runs of letters, at least two), lowercased, `{name}` placeholders left out.
    static func words(_ text: String) -> [String] {
        text.replacingOccurrences(of: "\\{[A-Za-z0-9]+\\}", with: " ", options: .regularExpression).split { !$0.isLetter }.filter { $0.count >= 2 }.map { $0.lowercased() }
    }

    /// The English words that `language`'s table never uses, less the words of the books' own strings.
    static func englishOnly(_ language: String, data: Set<String>) throws -> Set<String> {
        let tables = TranslationTables.defaults.tables
        let english = try #require(tables["en"]), table = try #require(tables[language])
        let theirs = Set(table.values.flatMap(words))
        return Set(english.values.flatMap(words)).subtracting(theirs).subtracting(data)
    }

    /// `text` with its character references read (`&amp;`, `&#123;`, `&#x7B;`).
    static func decoded(_ text: String) -> String {
        let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}"]
        var result = ""
        var rest = text[...]
        while let ampersand = rest.utf8.firstIndex(of: UInt8(ascii: "&")) {
            result += rest[..<ampersand]
            let after = rest[rest.utf8.index(after: ampersand)...]
            guard let semicolon = after.utf8.prefix(10).firstIndex(of: UInt8(ascii: ";")) else {
                result += "&"
                rest = after
                continue
            }
            let name = String(after[..<semicolon])
            let character: String? =
                name.hasPrefix("#x") ? UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
                : name.hasPrefix("#") ? UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) } : named[name]
            result += character ?? "&" + name + ";"
            rest = after[after.utf8.index(after: semicolon)...]
        }
        return result + rest
    }

    /// The attributes a reader sees or hears, and the script's words: `title`, `aria-label`, `alt`, `placeholder`,
    /// `label` and `data-*`.
    static func isReadAttribute(_ name: Substring) -> Bool {
        ["title", "aria-label", "alt", "placeholder", "label"].contains(name) || name.hasPrefix("data-")
    }

    /// What a reader of an HTML page sees or hears: the text outside `<script>` and `<style>` and the values of the
    /// attributes of ``isReadAttribute(_:)``.
    static func readable(html: String) -> String {
        var text = "", attributes = ""
        var rest = html[...]
        while let open = rest.utf8.firstIndex(of: UInt8(ascii: "<")) {
            text += rest[..<open]
            text += " "
            let after = rest[rest.utf8.index(after: open)...]
            guard let close = after.utf8.firstIndex(of: UInt8(ascii: ">")) else { return decoded(text + " " + attributes) }
            let tag = after[..<close]
            rest = after[after.utf8.index(after: close)...]
            for element in ["script", "style"] where tag.hasPrefix(element) {
                if let end = rest.range(of: "</\(element)>") { rest = rest[end.upperBound...] }
            }
            // Each name="value" of the tag.
            var inside = tag
            while let equals = inside.range(of: "=\"") {
                let name = inside[..<equals.lowerBound].split(separator: " ").last ?? ""
                let value = inside[equals.upperBound...]
                guard let quote = value.utf8.firstIndex(of: UInt8(ascii: "\"")) else { break }
                if isReadAttribute(name) { attributes += " " + value[..<quote] }
                inside = value[value.utf8.index(after: quote)...]
            }
        }
        return decoded(text + rest + " " + attributes)
    }

    /// The string literals of a script that could be words on the page: those with a space in them (a one-word
    /// literal is an element's id or name, an attribute, an address or a value of the books), `"use strict"` aside;
    /// comments left out.
    static func literals(script: String) -> String {
        var result = ""
        for line in script.split(separator: "\n") {
            let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line
            for (index, piece) in code.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
            where index % 2 == 1 && piece.contains(" ") && piece != "use strict" {
                result += " " + piece
            }
        }
        return result
    }

    /// The words of an Atom feed a reader sees: its titles, names and summaries (not its addresses).
    static func readable(feed: String) -> String {
        var result = ""
        for element in ["title", "name", "summary"] {
            for piece in feed.components(separatedBy: "<\(element)>").dropFirst() {
                result += " " + (piece.components(separatedBy: "</\(element)>").first ?? "")
            }
        }
        return decoded(result)
    }

    static let shipped = ["de", "fr", "nl", "it", "es", "he"]

    /// A build in each shipped language (no title set, so the report's language names it; a payee with a Swiss
    /// account, client links and a base URL for the pay parts, private copies and the feed; lists in pages of 10):
    /// no page, script or feed has a word of the English table that the language's table does not use.
    @Test(arguments: shipped) func aBuildInTheLanguageWritesNoEnglishWordOfTheTables(language: String) throws {
        let books = try Self.books.get()
        var options = SiteOptions()
        options.titleFollowsLanguage = true
        options.language = language
        options.pageSize = 10
        options.baseURL = "https://example.com/b/"
        options.payee = Payee(
            name: "Ω GmbH", iban: "DE89 3704 0044 0532 0130 00", bic: "COBADEFFXXX", paymentURL: "https://pay.example.com/{invoice}",
            address: Payee.Address(street: "Rue du Lac", number: "1268", zip: "2501", city: "Biel", country: "CH"),
            qrBillIBAN: "CH44 3199 9123 0008 8901 2")
        options.clientLinkToken = { "token-" + $0 }
        let site = SiteBuilder(books: books, report: try Report(books: books), templates: try TemplateSet(), options: options)
        var data: Set<String> = []
        Self.strings(books.clients, into: &data)
        Self.strings(books.invoices.map(\.identifier), into: &data)
        Self.strings(books.taxes, into: &data)
        data.formUnion(["Ω GmbH", "Rue du Lac", "Biel", "CH"])
        let dataWords = Set(data.flatMap(Self.words))
        let english = try Self.englishOnly(language, data: dataWords)
        #expect(english.isSuperset(of: ["invoiced", "shown"]), "the words looked for include the feed's and the counter's")
        // The QR-bill's own headings are the guidelines' (Annex D): German, French, Italian, else English.
        let billHeadings = ["de", "fr", "it"].contains(language) ? [] : Mirror(reflecting: SwissQRBill.Labels(language: "en")).children.compactMap { $0.value as? String }

        var texts: [String: String] = [:]
        var sawBill = false, sawFeed = false, sawScript = false
        for file in site.files() {
            let text = String(decoding: file.data, as: UTF8.self)
            if file.path.hasSuffix(".html") {
                sawBill = sawBill || text.contains("class=\"qr-bill\"")
                var readable = Self.readable(html: text)
                for heading in billHeadings { readable = readable.replacingOccurrences(of: heading, with: " ") }
                texts[file.path] = readable
            } else if file.path == SitePaths.feed {
                sawFeed = true
                texts[file.path] = Self.readable(feed: text)
            } else if file.path.hasSuffix(".js") {
                sawScript = sawScript || file.path == "clients.js"
                texts[file.path] = Self.literals(script: text)
            }
        }
        #expect(sawBill && sawFeed && sawScript && texts.keys.contains("clients-index.js"))
        var found: [String: Set<String>] = [:]
        for (path, text) in texts {
            for word in Self.words(text) where english.contains(word) { found[word, default: []].insert(path) }
        }
        for (word, paths) in found.sorted(by: { $0.key < $1.key }) {
            Issue.record("\(language): the English '\(word)' on \(paths.count) file(s), e.g. \(paths.sorted().prefix(3).joined(separator: ", "))")
        }
        // The words the script fills in are on the page, in the language, their placeholders for the script.
        let clients = try #require(site.files().first { $0.path == "clients.html" }.map { String(decoding: $0.data, as: UTF8.self) })
        let count = try #require(TranslationTables.defaults.tables[language]?["script.clientCount"])
        #expect(clients.contains("data-count=\"\(count.replacingOccurrences(of: "{", with: "&#123;").replacingOccurrences(of: "}", with: "&#125;"))\""))
    }

    /// The words of the feed, the counter and the pay codes' labels are the table's, in English as before.
    @Test func englishKeepsItsWords() throws {
        let books = try Self.books.get()
        var options = SiteOptions()
        options.baseURL = "https://example.com/b/"
        let site = SiteBuilder(books: books, report: try Report(books: books), templates: try TemplateSet(), options: options)
        let feed = try #require(site.files().first { $0.path == SitePaths.feed }.map { String(decoding: $0.data, as: UTF8.self) })
        #expect(feed.contains("<feed xmlns=\"http://www.w3.org/2005/Atom\">\n<title>Invoices report</title>"))
        #expect(feed.contains(": invoiced ") && feed.contains(", paid "))
        let german = SiteBuilder(
            books: books, report: try Report(books: books), templates: try TemplateSet(),
            options: { var german = options; german.language = "de"; german.titleFollowsLanguage = true; return german }())
        let deutsch = try #require(german.files().first { $0.path == SitePaths.feed }.map { String(decoding: $0.data, as: UTF8.self) })
        #expect(deutsch.contains("<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"de\">\n<title>Rechnungsbericht</title>"))
        #expect(deutsch.contains(": fakturiert ") && deutsch.contains(", bezahlt "))
        // A title that is set stays as set, in every language.
        var titled = options
        titled.title = "Ω"
        titled.language = "de"
        let named = SiteBuilder(books: books, report: try Report(books: books), templates: try TemplateSet(), options: titled)
        #expect(named.options.title == "Ω")
    }
}
