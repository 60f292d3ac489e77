extension TemplateSet {
    /// The long lists whose rows may be rendered by a compiled ``RowTemplate``: by template (file name without
    /// extension), the section's name and its row's columns. The site builder gives these sections a ``RowList``.
    static let fastLists: [String: [(section: String, columns: [String])]] = [
        "invoice-list": [("invoices", invoiceColumns)],
        "client": [("invoices", invoiceColumns), ("months", monthlyColumns)],
        "month": [("rows", monthRowColumns)],
    ]
    static let monthRowColumns = TemplateVariables.figures + ["name", "number", "href", "change"]
    static let invoiceColumns = ["identifier", "issued", "due", "paid", "amount", "status", "notes"]
    static let monthlyColumns = TemplateVariables.figures + ["label", "href"]

    /// The marker of the placeholders rows are rendered into after cmark.
    static let rowMarker = "invoices-fast-rows"

    /// `text` with the section `section` replaced by a placeholder tag (`{{{invoices.__fast_3}}}`) when its body is
    /// HTML that compiles to a ``RowTemplate`` over `columns`; `rowTemplates` gets the compiled template. The text
    /// is returned unchanged when the section is missing, nested in itself or uses more than a row template can.
    static func rewritingFastRows(_ text: String, section: String, columns: [String], rowTemplates: inout [RowTemplate]) -> String {
        let openTag = "{{#\(section)}}"
        let closeTag = "{{/\(section)}}"
        guard let open = text.range(of: openTag), let close = text.range(of: closeTag, range: open.upperBound..<text.endIndex),
            text.range(of: openTag, range: open.upperBound..<close.lowerBound) == nil
        else { return text }
        // Standalone tags take their whole line, as in Mustache.
        let openLineStart = text[..<open.lowerBound].lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
        let openStandalone = text[openLineStart..<open.lowerBound].allSatisfy { $0 == " " || $0 == "\t" }
            && (text[open.upperBound...].first == "\n" || open.upperBound == text.endIndex)
        let closeLineStart = text[..<close.lowerBound].lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
        let closeStandalone = text[closeLineStart..<close.lowerBound].allSatisfy { $0 == " " || $0 == "\t" }
            && (text[close.upperBound...].first == "\n" || close.upperBound == text.endIndex)
        let bodyStart = openStandalone && open.upperBound < text.endIndex ? text.index(after: open.upperBound) : open.upperBound
        let bodyEnd = closeStandalone ? closeLineStart : close.lowerBound
        guard bodyStart <= bodyEnd else { return text }
        let body = String(text[bodyStart..<bodyEnd])
        guard body.drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" }).first == "<",
            let template = RowTemplate(body, columns: columns)
        else { return text }
        let replaceStart = openStandalone ? openLineStart : open.lowerBound
        var replaceEnd = close.upperBound
        if closeStandalone, replaceEnd < text.endIndex { replaceEnd = text.index(after: replaceEnd) }
        rowTemplates.append(template)
        let tag = "{{{\(section).\(RowListRegistry.fastPrefix)\(rowTemplates.count - 1)}}}"
        return text[..<replaceStart] + (openStandalone ? tag + "\n" : tag) + text[replaceEnd...]
    }
}
