internal import Foundation
internal import InvoicesReport

/// The changes page in the page's language (issue 43): the trail's own words (`added`, `invoice`, `payment`,
/// `written off`) through the tables' `changes.` keys, whose English texts are those words, so an English page is as
/// it was. The values are in the page's formats (ChangesPage+Values.swift); changes.csv keeps the trail's words and
/// values (ISO dates, amounts as decimals, the books' texts) in every language.
extension SiteView {
    /// `added`, `changed`, `removed` in the page's words (`changes.added`...).
    func changeWord(_ what: Trail.Change.What) -> String { word("changes." + what.rawValue) }

    /// A value's name in the page's words: `changes.field.writtenOff` for `written off`; a name the tables do not
    /// know as it is.
    func changeField(_ field: String) -> String {
        guard !field.isEmpty else { return field }
        let key = "changes.field." + Self.camelCase(field)
        return language.translation.has(key) ? word(key) : field
    }

    /// `written off` → `writtenOff`, `write-off` → `writeOff`: the trail's word as a key.
    static func camelCase(_ text: String) -> String {
        text.split { $0 == " " || $0 == "-" }.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst() }
            .joined()
    }

    /// A record's name in the page's words: `invoice INV-7` → `Rechnung INV-7`, `INV-7 payment 2` → `INV-7 Zahlung 2`,
    /// `figures C-1 EUR 2025-09` → `Zahlen C-1 EUR 2025-09`. A name of another shape stays as it is.
    func changeName(_ change: Trail.Change) -> String {
        let name = change.name
        func swapped(_ prefix: String, _ key: String) -> String? {
            name.hasPrefix(prefix + " ") ? word("changes.record." + key) + name.dropFirst(prefix.count) : nil
        }
        switch change.kind {
        case .invoice: return swapped("invoice", "invoice") ?? swapped("credit note", "creditNote") ?? name
        case .figures: return swapped("figures", "figures") ?? name
        case .taxFigures: return swapped("tax", "tax") ?? name
        case .payment, .writeOff, .taxLine:
            // The key ends in ` payment 2`: the last one is the trail's, an identifier before it may hold the word too.
            guard let range = name.range(of: " " + change.kind.rawValue + " ", options: .backwards) else { return name }
            return name.replacingCharacters(in: range, with: " " + word("changes.record." + Self.camelCase(change.kind.rawValue)) + " ")
        }
    }

    /// The values of a record added or removed (`date 2025-02-01, amount 100.00`, the trail's summary: its kind's
    /// fields in order, empty ones left out), each name in the page's words and each value as `format` gives it
    /// (the field's name, the value). A value runs to the next `, ` and a
    /// later field's name, or to the end; a summary of another shape stays as it is.
    func changeSummary(_ text: String, kind: Trail.Kind, value format: (String, Substring) -> String) -> String {
        var rest = Substring(text)
        var remaining = kind.fields[...]
        var pieces: [String] = []
        while !rest.isEmpty {
            guard let index = remaining.firstIndex(where: { rest.hasPrefix($0 + " ") }) else { return text }
            let field = remaining[index]
            remaining = remaining[remaining.index(after: index)...]
            rest = rest.dropFirst(field.count + 1)
            var end = rest.endIndex
            for later in remaining {
                if let range = rest.range(of: ", " + later + " "), range.lowerBound < end { end = range.lowerBound }
            }
            pieces.append(changeField(field) + " " + format(field, rest[..<end]))
            rest = end == rest.endIndex ? "" : rest[rest.index(end, offsetBy: 2)...]
        }
        return pieces.joined(separator: ", ")
    }
}
