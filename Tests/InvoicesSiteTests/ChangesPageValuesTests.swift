import Foundation
import InvoicesCore
@testable import InvoicesReport
@testable import InvoicesSite
import Testing

/// Issue 43: the changes page's values in the page's formats, seen from the page kind: tax rates and counts in the
/// page's number form, and the fingerprint that follows the invoices' currencies its amounts are written in
/// (worked out once per build, ``ChangesPage/prepared()``).
struct ChangesPageValuesTests {
    static let templates = Result { try TemplateSet() }

    /// A site of one client with one invoice of 110.00 in EUR (`currency` 0) or GBP (1), in `language`, its changes
    /// page listing `changes`.
    static func site(_ language: String, currency: Int16 = 0, changes: [Trail.Change] = []) throws -> SiteBuilder {
        let day = CalendarDate(dayNumber: 20_000)
        let books = Books(
            clients: [ClientSnapshot(id: 1, number: "C-1", name: "A")],
            invoices: [
                InvoiceSnapshot(id: 1, identifier: "I-1", clientIndex: 0, currencyIndex: currency, amount: 11_000, issued: day, due: day, paid: nil, notes: "")
            ],
            currencies: [try CurrencyCode("EUR"), try CurrencyCode("GBP")])
        var options = SiteOptions()
        options.language = language
        var site = SiteBuilder(books: books, report: try Report(books: books), templates: try templates.get(), options: options)
        site.changeLog = ChangeLog(hasPrevious: true, changes: changes)
        return site
    }

    static func change(_ kind: Trail.Kind, _ key: String, _ what: Trail.Change.What = .changed, field: String, before: String, after: String) -> Trail.Change {
        Trail.Change(kind: kind, key: key, name: key, what: what, field: field, before: before, after: after, closed: false)
    }

    /// A tax line's rate and the figures' count of invoices as the page's language writes numbers, with its amounts'
    /// separators; the trail's form on an English page, and for a value that is not a number.
    @Test(arguments: [
        ("de", "1.200", "12.345.678", "7,7 %", "8,125 %"), ("it", "1.200", "12.345.678", "7,7 %", "8,125 %"),
        ("nl", "1.200", "12.345.678", "7,7 %", "8,125 %"), ("es", "1.200", "12.345.678", "7,7 %", "8,125 %"),
        ("fr", "1\u{202F}200", "12\u{202F}345\u{202F}678", "7,7 %", "8,125 %"), ("he", "1,200", "12,345,678", "7.7 %", "8.125 %"),
        ("en", "1200", "12345678", "7.7%", "8.125%"),
    ])
    func ratesAndCountsAreInThePagesNumberForm(language: String, count: String, large: String, rate: String, fine: String) throws {
        let view = try Self.site(language).view
        let figures = Self.change(.figures, "C-1 EUR 2025-09", field: "invoices", before: "1200", after: "12345678")
        let taxLine = Self.change(.taxLine, "I-1 tax line 1", field: "rate", before: "7.7%", after: "8.125%")
        #expect(view.changeValue("1200", field: "invoices", of: figures, currencies: [:]) == count)
        #expect(view.changeValue("12345678", field: "invoices", of: figures, currencies: [:]) == large)
        #expect(view.changeValue("7.7%", field: "rate", of: taxLine, currencies: [:]) == rate)
        #expect(view.changeValue("8.125%", field: "rate", of: taxLine, currencies: [:]) == fine)
        #expect(view.changeValue("0%", field: "rate", of: taxLine, currencies: [:]) == (language == "en" ? "0%" : "0 %"))
        // Not numbers as the trail writes them: as they are.
        for odd in ["7.7", "7..7%", ".5%", "7.%", "1e3%", "-3%", "٣%", "7.12345%"] {
            #expect(view.changeValue(odd, field: "rate", of: taxLine, currencies: [:]) == odd, "\(odd)")
        }
        for odd in ["-3", "1,200", "12 345", "99999999999999999999"] {
            #expect(view.changeValue(odd, field: "invoices", of: figures, currencies: [:]) == odd, "\(odd)")
        }
        // A removed tax line's values, and the page itself.
        let removed = Self.change(.taxLine, "I-1 tax line 1", .removed, field: "", before: "tax VAT, rate 7.7%, net 100.00, amount 7.70", after: "")
        let summary = view.changeSummary(removed.before, kind: .taxLine) { view.changeValue(String($1), field: $0, of: removed, currencies: [:]) }
        #expect(summary.contains(" " + rate + ", "), "\(summary)")
        let page = try #require(ChangesPage(site: try Self.site(language, changes: [figures, taxLine]).view).files().first)
        let html = String(decoding: page.data, as: UTF8.self)
        #expect(html.contains("<td>\(count)<td>\(large)") && html.contains("<td>\(rate)<td>\(fine)"), "\(html)")
    }

    /// The other pages write tax rates and counts in the same form: the overview's and the quarter's taxes, the list of
    /// a quarter's invoices behind a tax (its title too); English pages as before.
    @Test(arguments: [("de", "7,7 %"), ("fr", "7,7 %"), ("en", "7.7 %")]) func theSitesRatesAreInThePagesNumberForm(language: String, rate: String) throws {
        let day = try #require(CalendarDate(iso: "2025-03-01"))
        let books = Books(
            clients: [ClientSnapshot(id: 1, number: "C-1", name: "A")],
            invoices: [
                InvoiceSnapshot(
                    id: 1, identifier: "I-1", clientIndex: 0, currencyIndex: 0, amount: 10_770, issued: day, due: day, paid: nil, notes: "", net: 10_000)
            ],
            currencies: [try CurrencyCode("EUR")], taxLines: [TaxLineSnapshot(invoiceIndex: 0, taxIndex: 0, net: 10_000, amount: 770)],
            taxes: [TaxRate(name: "MWST", milliPercent: 7_700)], schemaVersion: 2)
        var options = SiteOptions()
        options.language = language
        let site = SiteBuilder(books: books, report: try Report(books: books), templates: try Self.templates.get(), options: options)
        let pages = Dictionary(uniqueKeysWithValues: site.files().map { ($0.path, String(decoding: $0.data, as: UTF8.self)) })
        for path in ["index.html", "quarters/2025-Q1.html"] {
            let html = try #require(pages[path], "\(pages.keys.sorted())")
            #expect(html.contains("<td>MWST<td>\(rate)<td>"), "\(path): \(html)")
            #expect(language == "en" || !html.contains("7.7"), "\(path)")
        }
        #expect(site.view.count(1200) == ["de": "1.200", "fr": "1\u{202F}200", "en": "1200"][language])
    }

    /// An English page with `locale` set writes rates and counts in that locale's form, as it writes its amounts;
    /// without it, the tool's own forms.
    @Test func anEnglishPageWithALocaleWritesItsNumbersInIt() throws {
        let books = Books(clients: [], invoices: [], currencies: [try CurrencyCode("EUR")], taxLines: [], taxes: [], schemaVersion: 2)
        var options = SiteOptions(locale: "de_DE")
        options.language = "en"
        let german = SiteBuilder(books: books, report: try Report(books: books), templates: try Self.templates.get(), options: options)
        #expect(german.view.count(1200) == "1.200")
        #expect(german.view.rate(TaxRate(name: "MWST", milliPercent: 7_700)) == "7,7 %")
        let plain = SiteBuilder(books: books, report: try Report(books: books), templates: try Self.templates.get(), options: SiteOptions())
        #expect(plain.view.count(1200) == "1200")
        #expect(plain.view.rate(TaxRate(name: "MWST", milliPercent: 7_700)) == "7.7 %")
    }

    /// The page writes an invoice's amounts in its currency, so its fingerprint follows that currency (the same
    /// changes, the invoice in EUR or in GBP); an English page writes the trail's decimals, and does not. The
    /// currencies are worked out once, by ``ChangesPage/prepared()``, for both the fingerprint and the page.
    @Test(arguments: ["de", "en"]) func theFingerprintFollowsTheInvoicesCurrency(language: String) throws {
        let changes = [Self.change(.invoice, "I-1", field: "amount", before: "100.00", after: "110.00")]
        let inputs = SiteBuilder.Inputs(base: 0, all: 0, clients: [], months: [])
        var fingerprints: [UInt64] = []
        var pages: [String] = []
        for currency: Int16 in [0, 1] {
            let page = ChangesPage(site: try Self.site(language, currency: currency, changes: changes).view)
            let prepared = page.prepared()
            #expect(prepared.currencies == (language == "en" ? [:] : ["I-1": page.site.books.currencies[Int(currency)]]))
            // Prepared or not, the same fingerprint and the same page.
            #expect(prepared.inputs(inputs) == page.inputs(inputs))
            let html = try #require(prepared.files().first.map { String(decoding: $0.data, as: UTF8.self) })
            #expect(try #require(page.files().first.map { String(decoding: $0.data, as: UTF8.self) }) == html)
            fingerprints.append(prepared.inputs(inputs))
            pages.append(html)
        }
        if language == "en" {
            #expect(fingerprints[0] == fingerprints[1] && pages[0] == pages[1])
            #expect(pages[0].contains("<td>100.00<td>110.00"), "\(pages[0])")
        } else {
            #expect(fingerprints[0] != fingerprints[1])
            #expect(pages[0].contains("<td>100,00\u{A0}€<td>110,00\u{A0}€"), "\(pages[0])")
            #expect(pages[1].contains("<td>100,00\u{A0}£<td>110,00\u{A0}£"), "\(pages[1])")
        }
    }
}
