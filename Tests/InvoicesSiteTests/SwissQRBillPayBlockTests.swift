import Foundation
import InvoicesCore
import InvoicesReport
@testable import InvoicesSite
import InvoicesTesting
import Testing

/// Issue 43: a statement paid by Swiss QR-bill shows the bill alone (its receipt and payment part carry the amount,
/// account and reference); an amount paid by the EPC code keeps the list of the transfer's details under it.
struct SwissQRBillPayBlockTests {
    /// Each `<div class="pay">…</div>` of `html`.
    static func payBlocks(_ html: String) -> [String] {
        html.components(separatedBy: "<div class=\"pay\">").dropFirst().map { $0.components(separatedBy: "</div>").first ?? "" }
    }

    @Test(arguments: ["en", "de"]) func aQRBillHasNoEPCListAndAnEPCCodeKeepsIt(language: String) throws {
        let books = try EnglishLeftoverTests.books.get()
        var options = SiteOptions(title: "Ω")
        options.language = language
        options.payee = Payee(
            name: "Ω GmbH", iban: "DE89 3704 0044 0532 0130 00", bic: "COBADEFFXXX", paymentURL: "https://pay.example.com/{invoice}",
            address: Payee.Address(street: "Rue du Lac", number: "1268", zip: "2501", city: "Biel", country: "CH"),
            qrBillIBAN: "CH44 3199 9123 0008 8901 2")
        let site = SiteBuilder(books: books, report: try Report(books: books), templates: try TemplateSet(), options: options)
        let pages = Dictionary(uniqueKeysWithValues: site.files().map { ($0.path, String(decoding: $0.data, as: UTF8.self)) })
        let words = site.templates.translation
        var bills = 0, codes = 0
        for index in books.clients.indices {
            let statement = try #require(pages[site.paths.statement(index)])
            for block in Self.payBlocks(statement) {
                if block.contains("<svg class=\"qr-bill\"") {
                    bills += 1
                    #expect(index < 4, "only the Swiss clients (0-3) get a QR-bill here")
                    #expect(!block.contains("<dl>") && !block.contains("<dt>"), "\(block.prefix(200))")
                    #expect(!block.contains("<svg class=\"qr\""))
                    // The online pay link stays.
                    #expect(block.contains("class=\"pay-link\""))
                } else if block.contains("<svg class=\"qr\"") {
                    codes += 1
                    #expect(block.contains("<dl>\n<dt>\(words["col.amount"])</dt>"), "\(block.prefix(400))")
                    #expect(block.contains("<dt>\(words["pay.reference"])</dt>") && block.contains("<dd class=\"iban\">DE89 3704 0044 0532 0130 00</dd>"))
                }
            }
        }
        #expect(bills >= 1 && codes >= 1, "bills \(bills), EPC codes \(codes)")
    }
}
