extension TemplateSet {
    static let monthRowColumns = TemplateVariables.figures + ["name", "number", "href", "change"] + TemplateVariables.figureNumbers + ["changeNumber"]
    static let invoiceColumns = ["identifier", "issued", "due", "paid", "amount", "status", "statusText", "notes", "overdue", "listedAmount"]
    static let monthlyColumns = TemplateVariables.figures + ["label", "href"] + TemplateVariables.figureNumbers

    /// The marker of the placeholders rows are rendered into after cmark.
    static let rowMarker = "data-invoices-rows"

    /// `syntax`'s text with each section that may use the compiled row path replaced by a placeholder section
    /// (`{{#invoices.__fast_3}}`, whose one line is the placeholder an HTML block holds); `rowTemplates` gets the
    /// compiled templates. Nil when no section qualifies.
    ///
    /// A section qualifies when, on every page that reaches it, its name resolves to one of `fastLists` (``PageKinds/fastLists``), with the
    /// same columns; its open and close tags are standalone (so the placeholder section leaves the text around it
    /// as it was); the template keeps the standard delimiters; and its body compiles to a ``RowTemplate``.
    static func rewritingFastRows(
        _ syntax: TemplateSyntax, template: String, resolutions: [TemplateChecker.SectionKey: Set<TemplateChecker.Resolution>],
        fastLists: [String: [(path: [String], columns: [String])]], rowTemplates: inout [RowTemplate]
    ) -> String? {
        guard !syntax.setsDelimiters else { return nil }
        let characters = syntax.characters
        var chosen: [(tag: TemplateSyntax.Tag, extent: TemplateSyntax.Extent, template: RowTemplate)] = []
        func visit(_ nodes: [TemplateSyntax.Node]) {
            for node in nodes {
                guard case .section(let tag, let inverted, let body, let extent) = node else { continue }
                if !inverted, extent.openStandalone, extent.closeStandalone,
                    extent.openLineStart == 0 || characters[extent.openLineStart - 1].isNewline,
                    !characters[extent.openLineStart..<extent.closeEnd].contains(where: { $0.unicodeScalars.contains("\r") }),
                    let found = resolutions[TemplateChecker.SectionKey(template: template, offset: extent.openLineStart)],
                    let columns = Self.columns(for: found, in: fastLists), let compiled = RowTemplate(body, columns: columns)
                {
                    chosen.append((tag, extent, compiled))
                } else {
                    visit(body)
                }
            }
        }
        visit(syntax.nodes)
        guard !chosen.isEmpty else { return nil }
        var text = ""
        var position = 0
        for (tag, extent, compiled) in chosen {
            rowTemplates.append(compiled)
            let name = "\(tag.name).\(RowListRegistry.fastPrefix)\(rowTemplates.count - 1)"
            text += String(characters[position..<extent.openLineStart])
            text += "{{#\(name)}}\n{{{.}}}\n{{/\(name)}}"
            text += String(characters[extent.closeTagEnd..<extent.closeEnd])
            position = extent.closeEnd
        }
        text += String(characters[position...])
        return text
    }

    /// The columns of the one fast list a section resolves to on every page that reaches it; nil if none or several.
    static func columns(for resolutions: Set<TemplateChecker.Resolution>, in fastLists: [String: [(path: [String], columns: [String])]]) -> [String]? {
        var columns: [String]?
        for resolution in resolutions {
            guard let path = resolution.path, let list = fastLists[resolution.page]?.first(where: { $0.path == path }),
                columns == nil || columns == list.columns
            else { return nil }
            columns = list.columns
        }
        return columns
    }

    /// The HTML of Markdown page `name` rendered with `context`: through the compiled row path when `rows` is given
    /// and every placeholder proves to sit where the rows would pass through cmark unchanged; otherwise through
    /// Mustache and cmark alone. Both give the same bytes (RowDifferentialTests).
    func html(_ name: String, _ context: [String: Any], rows: RowListRegistry?, renderer: MarkdownRenderer) -> String {
        page(name, context, rows: rows, renderer: renderer).html
    }

    /// ``html(_:_:rows:renderer:)``, and whether the compiled row path rendered it.
    func page(_ name: String, _ context: [String: Any], rows: RowListRegistry?, renderer: MarkdownRenderer) -> (html: String, compiled: Bool) {
        let (pieces, compiled) = pageBytes(name, context, rows: rows, renderer: renderer)
        return (String(decoding: pieces.joined(), as: UTF8.self), compiled)
    }

    /// ``page(_:_:rows:renderer:)`` as UTF-8 bytes, in pieces written one after the other: a page with long lists
    /// is never turned into a `String` (and validated, and copied) after its rows are in, nor joined.
    func pageBytes(_ name: String, _ context: [String: Any], rows: RowListRegistry?, renderer: MarkdownRenderer) -> (pieces: [[UInt8]], compiled: Bool) {
        if let rows, fastTemplates.contains(name) {
            let markdown = library.render(context, withTemplate: name) ?? ""
            if rows.isEmpty {
                return ([Array(MarkdownValues.decode(renderer.html(from: markdown)).utf8)], false)
            }
            if rows.placeholdersAreProvable(in: markdown) {
                let html = MarkdownValues.decode(renderer.html(from: markdown))
                if let substituted = rows.substitute(in: html, templates: rowTemplates) { return (substituted, true) }
            }
        }
        return ([Array(MarkdownValues.decode(renderer.html(from: render(name, context))).utf8)], false)
    }
}
