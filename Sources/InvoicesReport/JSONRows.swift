import Foundation
internal import InvoicesCore

extension JSONEncoder {
    /// Encodes a document that holds only strings, integers and booleans, which cannot fail.
    func encodeOrFail(_ value: some Encodable) -> Data {
        do {
            return try encode(value)
        } catch {
            preconditionFailure("report.json could not be encoded: \(error)")
        }
    }
}

/// Writes the `clients` entries of `report.json` directly, with the keys in the order and the string escaping
/// `JSONEncoder` uses with `.sortedKeys`, `.withoutEscapingSlashes` and snake_case keys.
struct JSONRows {
    /// The JSON written so far: every piece is appended as bytes, never joined into strings first (report.json is
    /// 385 MB at 2,000,000 invoices).
    var bytes: [UInt8] = []
    /// The aging buckets' keys in the order `.sortedKeys` writes them, each with its index in ``Aging/buckets``, and
    /// the text before its value.
    let agingKeys: [(prefix: String, index: Int)]

    init(agingBuckets: AgingBuckets) {
        let sorted = agingBuckets.columnNames.enumerated().sorted { $0.element < $1.element }
        agingKeys = sorted.enumerated().map { offset, key in
            ((offset == 0 ? #"{"aging":{""# : #",""#) + key.element + #"":"#, key.offset)
        }
    }

    mutating func raw(_ text: StaticString) { text.withUTF8Buffer { bytes.append(contentsOf: $0) } }
    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func client(number: String, name: String, currencies: [Report.ClientCurrency], months: [YearMonth]) {
        raw(#"{"currencies":["#)
        for (index, entry) in currencies.enumerated() {
            if index > 0 { raw(",") }
            currency(entry, months: months)
        }
        raw(#"],"name":"#)
        string(name)
        raw(#","number":"#)
        string(number)
        raw("}")
    }

    mutating func currency(_ entry: Report.ClientCurrency, months: [YearMonth]) {
        let currency = entry.currency
        for key in agingKeys {
            raw(key.prefix)
            amount(entry.aging.buckets[key.index], currency)
        }
        raw(#"},"currency":""#)
        raw(currency.code)
        raw("\"")
        raw(#","minor_unit_digits":"#)
        raw(String(currency.minorUnitDigits))
        raw(#","months":["#)
        var first = true
        for (offset, figures) in entry.months.enumerated() where figures.isActive {
            if !first { raw(",") }
            first = false
            self.figures(figures, currency, month: months[offset].description)
        }
        raw(#"],"period":"#)
        self.figures(entry.period, currency, month: nil)
        raw("}")
    }

    mutating func figures(_ figures: Figures, _ currency: CurrencyCode, month: String?) {
        raw(#"{"credit":"#)
        amount(figures.credit, currency)
        raw(#","credited":"#)
        amount(figures.credited, currency)
        raw(#","invoiced":"#)
        amount(figures.invoiced, currency)
        raw(#","invoices":"#)
        raw(String(figures.invoices))
        if let month {
            raw(#","month":""#)
            raw(month)
            raw("\"")
        }
        raw(#","net":"#)
        amount(figures.net, currency)
        raw(#","outstanding":"#)
        amount(figures.outstanding, currency)
        raw(#","overdue":"#)
        amount(figures.overdue, currency)
        raw(#","paid":"#)
        amount(figures.paid, currency)
        raw(#","tax":"#)
        amount(figures.tax, currency)
        raw(#","written_off":"#)
        amount(figures.writtenOff, currency)
        raw("}")
    }

    mutating func amount(_ minorUnits: Int64, _ currency: CurrencyCode) {
        raw(#"{"currency":""#)
        raw(currency.code)
        raw(#"","decimal":""#)
        raw(Money.decimalString(minorUnits, digits: currency.minorUnitDigits))
        raw(#"","minor_units":"#)
        raw(String(minorUnits))
        raw("}")
    }

    mutating func string(_ value: String) {
        raw("\"")
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            raw(value)
            raw("\"")
            return
        }
        var text = ""
        var start = value.unicodeScalars.startIndex
        let scalars = value.unicodeScalars
        var index = start
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let escape: String?
            switch scalar {
            case "\"": escape = "\\\""
            case "\\": escape = "\\\\"
            case "\n": escape = "\\n"
            case "\r": escape = "\\r"
            case "\t": escape = "\\t"
            case "\u{08}": escape = "\\b"
            case "\u{0C}": escape = "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    escape = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    escape = nil
                }
            }
            if let escape {
                text.unicodeScalars.append(contentsOf: scalars[start..<index])
                text += escape
                start = scalars.index(after: index)
            }
            index = scalars.index(after: index)
        }
        text.unicodeScalars.append(contentsOf: scalars[start..<scalars.endIndex])
        raw(text)
        raw("\"")
    }
}
