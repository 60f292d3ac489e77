internal import Foundation
internal import InvoicesCore
internal import InvoicesReport

/// A changed value in the page's formats (issue 43): on a page in another language than English, a date as the page's
/// dates (`31.01.2030`), an amount as money with its currency (`7.784,00 €`), a tax rate and a count of invoices in
/// the page's number form (`7,7 %`, `1.200`), a status and a document kind through the status column's and the
/// documents' keys (`status.sent`, `document.creditNote`). English pages show the trail's values as they were;
/// changes.csv keeps them in every language.
extension SiteView {
    /// The currencies of the invoices the amounts of `changes` belong to, by invoice identifier: an invoice's own, a
    /// payment's, write-off's or tax line's invoice's. Only invoices whose currency the books hold now and that did
    /// not change currency in `changes` (their amounts before would be in another): what can be proven. Empty on an
    /// English page, which formats nothing.
    func changeCurrencies(_ changes: [Trail.Change]) -> [String: CurrencyCode] {
        guard !language.tag.isEnglish else { return [:] }
        var wanted = Set<String>()
        var recurrencied = Set<String>()
        for change in changes {
            guard let invoice = Self.invoiceKey(of: change) else { continue }
            if change.kind == .invoice, change.field == "currency" { recurrencied.insert(invoice) }
            // An added or removed record's summary holds its amounts too.
            if change.what != .changed || Self.isAmount(change.field, kind: change.kind) { wanted.insert(invoice) }
        }
        wanted.subtract(recurrencied)
        guard !wanted.isEmpty else { return [:] }
        var currencies: [String: CurrencyCode] = [:]
        for invoice in books.invoices where wanted.contains(invoice.identifier) {
            currencies[invoice.identifier] = books.currencies[Int(invoice.currencyIndex)]
        }
        return currencies
    }

    /// `value`, the value of `field` (a changed field's before or after, or one of an added or removed record's
    /// summary), in the page's formats; as it is on an English page and where nothing proves its format (an empty
    /// date, an amount whose currency is not known).
    func changeValue(_ value: String, field: String, of change: Trail.Change, currencies: [String: CurrencyCode]) -> String {
        guard !language.tag.isEnglish, !value.isEmpty else { return value }
        switch (change.kind, field) {
        case (.invoice, "issued"), (.invoice, "due"), (.payment, "date"), (.writeOff, "date"):
            return CalendarDate(iso: value).map(date) ?? value
        case (.invoice, "status"):
            return language.translation.has("status." + value) ? word("status." + value) : value
        case (.invoice, "kind"):
            let key = value == InvoiceKind.creditNote.name ? "document.creditNote" : "document." + value
            return language.translation.has(key) ? word(key) : value
        case (.taxLine, "rate"):
            // The trail's `7.7%`, as the site writes rates (`7,7 %`).
            guard value.hasSuffix("%"), let milliPercent = TaxRate.milliPercent(String(value.dropLast())) else { return value }
            return rate(TaxRate(name: "", milliPercent: milliPercent))
        case (.figures, "invoices"):
            guard value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let invoices = Int(value) else { return value }
            return count(invoices)
        default:
            guard Self.isAmount(field, kind: change.kind), let currency = changeCurrency(change, currencies: currencies),
                let money = try? Money(parsing: value, currency: currency)
            else { return value }
            return self.money(money.minorUnits, currency)
        }
    }

    /// The currency of `change`'s amounts: the books' currency its key names (`C-1 EUR 2025-09`, `EUR MWST 7.7% 2025-09`),
    /// or its invoice's (`currencies`).
    private func changeCurrency(_ change: Trail.Change, currencies: [String: CurrencyCode]) -> CurrencyCode? {
        let code: Substring
        switch change.kind {
        case .figures:
            let words = change.key.split(separator: " ")
            guard words.count >= 3 else { return nil }
            code = words[words.count - 2]
        case .taxFigures:
            guard let first = change.key.split(separator: " ").first else { return nil }
            code = first
        case .invoice, .payment, .writeOff, .taxLine:
            return Self.invoiceKey(of: change).flatMap { currencies[$0] }
        }
        return books.currencies.first { $0.code == code }
    }

    /// Whether `field` of a record of `kind` is an amount of the record's currency.
    static func isAmount(_ field: String, kind: Trail.Kind) -> Bool {
        switch kind {
        case .invoice: field == "amount" || field == "net" || field == "applied"
        case .payment, .writeOff: field == "amount"
        case .taxLine: field == "net" || field == "amount"
        case .figures: field != "invoices"
        case .taxFigures: true
        }
    }

    /// The identifier of the invoice a document belongs to: `INV-7` for `INV-7` and `INV-7 payment 2`; nil for figures.
    static func invoiceKey(of change: Trail.Change) -> String? {
        switch change.kind {
        case .invoice: return change.key
        case .payment, .writeOff, .taxLine:
            // The key ends in ` payment 2`: the last one is the trail's, the identifier may hold the word too.
            guard let range = change.key.range(of: " " + change.kind.rawValue + " ", options: .backwards) else { return nil }
            return String(change.key[..<range.lowerBound])
        case .figures, .taxFigures: return nil
        }
    }
}
