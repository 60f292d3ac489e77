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
    var text = ""

    mutating func client(number: String, name: String, currencies: [Report.ClientCurrency], months: [YearMonth]) {
        text += #"{"currencies":["#
        for (index, entry) in currencies.enumerated() {
            if index > 0 { text += "," }
            currency(entry, months: months)
        }
        text += #"],"name":"#
        string(name)
        text += #","number":"#
        string(number)
        text += "}"
    }

    mutating func currency(_ entry: Report.ClientCurrency, months: [YearMonth]) {
        let currency = entry.currency
        text += #"{"aging":{"days_1_30":"#
        amount(entry.aging.days1to30, currency)
        text += #","days_31_60":"#
        amount(entry.aging.days31to60, currency)
        text += #","days_61_90":"#
        amount(entry.aging.days61to90, currency)
        text += #","days_over_90":"#
        amount(entry.aging.over90, currency)
        text += #","not_due":"#
        amount(entry.aging.notDue, currency)
        text += #"},"currency":""# + currency.code + "\""
        text += #","minor_unit_digits":"# + String(currency.minorUnitDigits) + #","months":["#
        var first = true
        for (offset, figures) in entry.months.enumerated() where figures.isActive {
            if !first { text += "," }
            first = false
            self.figures(figures, currency, month: months[offset].description)
        }
        text += #"],"period":"#
        self.figures(entry.period, currency, month: nil)
        text += "}"
    }

    mutating func figures(_ figures: Figures, _ currency: CurrencyCode, month: String?) {
        text += #"{"credit":"#
        amount(figures.credit, currency)
        text += #","credited":"#
        amount(figures.credited, currency)
        text += #","invoiced":"#
        amount(figures.invoiced, currency)
        text += #","invoices":"# + String(figures.invoices)
        if let month { text += #","month":""# + month + "\"" }
        text += #","net":"#
        amount(figures.net, currency)
        text += #","outstanding":"#
        amount(figures.outstanding, currency)
        text += #","overdue":"#
        amount(figures.overdue, currency)
        text += #","paid":"#
        amount(figures.paid, currency)
        text += #","tax":"#
        amount(figures.tax, currency)
        text += #","written_off":"#
        amount(figures.writtenOff, currency)
        text += "}"
    }

    mutating func amount(_ minorUnits: Int64, _ currency: CurrencyCode) {
        text += #"{"currency":""# + currency.code + #"","decimal":""#
        text += Money.decimalString(minorUnits, digits: currency.minorUnitDigits)
        text += #"","minor_units":"# + String(minorUnits) + "}"
    }

    mutating func string(_ value: String) {
        text += "\""
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            text += value
            text += "\""
            return
        }
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
        text += "\""
    }
}
