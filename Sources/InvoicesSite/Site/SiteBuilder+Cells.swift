import Foundation
internal import InvoicesCore
internal import InvoicesReport

/// What several page kinds show alike: figures, aging, credits, an invoice's status.
extension SiteView {
    /// `hasCredits` and `credits`: per currency with a credit note, a write-off or a client credit.
    func creditsContext(_ entries: [(CurrencyCode, Figures)]) -> [String: Any] {
        let rows: [[String: Any]] = entries.filter { $0.1.credited != 0 || $0.1.writtenOff != 0 || $0.1.credit != 0 }.map {
            [
                "currency": $0.0.code, "credited": money($0.1.credited, $0.0), "writtenOff": money($0.1.writtenOff, $0.0),
                "credit": money($0.1.credit, $0.0),
            ]
        }
        return ["hasCredits": !rows.isEmpty, "credits": rows]
    }

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
        case "invoices": String(figures.invoices)
        default: ""
        }
    }

    /// One currency's aging: `notDue`, `amounts` (every bucket in order, not yet due first, each `amount`) and, with
    /// the default buckets, `days1to30`, `days31to60`, `days61to90` and `over90`.
    func agingRow(_ aging: Aging, _ currency: CurrencyCode) -> [String: Any] {
        var row: [String: Any] = [
            "currency": currency.code, "notDue": money(aging.notDue, currency),
            "amounts": aging.buckets.map { ["amount": money($0, currency)] },
        ]
        if report.agingBuckets == .standard, aging.buckets.count == 5 {
            for (name, amount) in zip(["days1to30", "days31to60", "days61to90", "over90"], aging.pastDue) {
                row[name] = money(amount, currency)
            }
        }
        return row
    }

    /// `agingColumns`: the heads of the aging buckets (``Report/agingBuckets``), in order: `notDue` for the first,
    /// `between` with `low` and `high` for each limit, `over` with `low` for the last.
    var agingColumns: [[String: Any]] {
        report.agingBuckets.ranges.map { range -> [String: Any] in
            // Every key set in every head: a missing one would be looked up in the enclosing context.
            guard let range else { return ["notDue": true, "between": false, "over": false, "low": "", "high": ""] }
            guard let high = range.high else {
                return ["notDue": false, "between": false, "over": true, "low": String(range.low), "high": ""]
            }
            return ["notDue": false, "between": true, "over": false, "low": String(range.low), "high": String(high)]
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
