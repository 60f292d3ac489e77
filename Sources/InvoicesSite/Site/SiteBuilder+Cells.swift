import Foundation
internal import InvoicesCore
internal import InvoicesReport

/// What several page kinds show alike: an invoice's status, a figure by name (the typed rows are in SharedContexts.swift).
extension SiteView {
    /// The status of invoice `index` at `asOf`: draft, void, credit-note, or by its balance: paid, partial, credit,
    /// overdue, open.
    func invoiceStatus(_ index: Int, asOf: CalendarDate) -> String {
        let invoice = books.invoices[index]
        if invoice.status != .sent { return invoice.status.name }
        if invoice.kind == .creditNote { return "credit-note" }
        if let balance = report.balances[index] {
            if balance < 0 { return "credit" }
            if balance == 0 { return "paid" }
            if balance < invoice.amount { return "partial" }
            return invoice.due < asOf ? "overdue" : "open"
        }
        if let paid = invoice.paid, paid <= asOf { return "paid" }
        return invoice.due < asOf ? "overdue" : "open"
    }

    /// One figure of `figures` by its template name (`invoiced`, `paid`, ...), formatted.
    func figuresCell(_ figures: Figures, _ currency: CurrencyCode, _ name: String) -> String {
        switch name {
        case "currency": currency.code
        case "invoiced": money(figures.invoiced, currency)
        case "paid": money(figures.paid, currency)
        case "outstanding": money(figures.outstanding, currency)
        case "overdue": money(figures.overdue, currency)
        case "invoices": count(figures.invoices)
        case "invoicedNumber": amountNumber(figures.invoiced, currency)
        case "paidNumber": amountNumber(figures.paid, currency)
        case "outstandingNumber": amountNumber(figures.outstanding, currency)
        case "overdueNumber": amountNumber(figures.overdue, currency)
        default: ""
        }
    }
}

extension SiteBuilder {
    /// Whether `text` is an e-mail address: an RFC 5322 addr-spec whose local part is a dot-atom of ASCII `atext`
    /// and whose domain is two or more dot-separated labels of letters, digits and inner hyphens. Quoted local
    /// parts, domain literals and non-ASCII addresses are not links (they show as text).
    static func isAddress(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count <= 64, parts[1].utf8.count <= 253 else { return false }
        let atext = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~".utf8)
        let local = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        guard local.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy(atext.contains) }) else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { label in
            let bytes = Array(label.utf8)
            return !bytes.isEmpty && bytes.count <= 63 && bytes.first != UInt8(ascii: "-") && bytes.last != UInt8(ascii: "-")
                && bytes.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == UInt8(ascii: "-") }
        }
    }
}
