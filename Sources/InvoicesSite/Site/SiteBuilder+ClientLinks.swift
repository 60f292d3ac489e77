import Foundation
internal import InvoicesReport

extension SiteBuilder {
    /// The path of a client's private page (`c/<token>/index.html`), or nil without client links.
    public func clientLinkPath(_ clientIndex: Int) -> String? {
        options.clientLinkToken.map { "c/\($0(books.clients[clientIndex].number))/index.html" }
    }

    /// A client's page and statement, and with client links the page's private copy.
    func clientFiles(_ totals: Report.ClientTotals, invoices: [Int]) -> [File] {
        let pages = [clientPage(totals, invoices: invoices), statementPage(totals, invoices: invoices)]
        guard let path = clientLinkPath(totals.clientIndex) else { return pages }
        return pages + [clientLinkPage(totals, invoices: invoices, path: path)]
    }

    /// The client's page as the client sees it at its private address: the same content, the style inline, no
    /// navigation, no canonical or feed link, and no link at all except `mailto:` ones, so the page leads nowhere
    /// else in the site.
    func clientLinkPage(_ totals: Report.ClientTotals, invoices: [Int], path: String) -> File {
        let registry = RowListRegistry(marker: TemplateSet.rowMarker)
        let context = clientContext(totals, invoices: invoices, registry: registry)
        let layout: [String: Any] = [
            "root": "", "inlineStyle": String(decoding: templates.assets["style.css"] ?? Data(), as: UTF8.self),
        ]
        var file = render(path, template: "client", title: books.clients[totals.clientIndex].name, context, root: "", layout: layout, rows: registry)
        file.data = Data(Self.removingLinks(from: String(decoding: file.data, as: UTF8.self)).utf8)
        return file
    }

    /// `html` without any `href` attribute except `mailto:` ones (attribute values here are always double-quoted:
    /// the templates and cmark write them so, and every value is escaped).
    static func removingLinks(from html: String) -> String {
        var output = ""
        output.reserveCapacity(html.utf8.count)
        var rest = html[...]
        while let range = rest.firstRange(of: " href=\"") {
            guard let end = rest[range.upperBound...].firstIndex(of: "\"") else { break }
            output += rest[..<range.lowerBound]
            if rest[range.upperBound..<end].hasPrefix("mailto:") { output += rest[range.lowerBound...end] }
            rest = rest[rest.index(after: end)...]
        }
        output += rest
        return output
    }
}
