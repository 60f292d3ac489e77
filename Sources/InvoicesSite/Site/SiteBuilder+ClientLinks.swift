import Foundation
internal import InvoicesReport

extension SiteBuilder {
    /// The path of a client's private statement (`c/<token>/index.html`), or nil without client links. The client
    /// page is beside it, at `c/<token>/client.html`.
    public func clientLinkPath(_ clientIndex: Int) -> String? {
        options.clientLinkToken.map { "c/\($0(books.clients[clientIndex].number))/index.html" }
    }

    /// A client's page and statement, and with client links their private copies.
    func clientFiles(_ totals: Report.ClientTotals, invoices: [Int]) -> [File] {
        let pages = [clientPage(totals, invoices: invoices), statementPage(totals, invoices: invoices)]
        guard let path = clientLinkPath(totals.clientIndex) else { return pages }
        let folder = String(path.dropLast("index.html".count))
        return pages + clientLinkPages(totals, invoices: invoices, folder: folder)
    }

    /// The client's statement and page as the client sees them at its private address (the statement first, as
    /// `index.html`; the page as `client.html`): the same content, the style inline, no navigation, no canonical or
    /// feed link, and no link except between the two, `mailto:` ones and the pay links, so the pages lead nowhere
    /// else in the site and show nothing of any other client.
    func clientLinkPages(_ totals: Report.ClientTotals, invoices: [Int], folder: String) -> [File] {
        let name = books.clients[totals.clientIndex].name
        let layout: [String: Any] = [
            "root": "", "inlineStyle": String(decoding: templates.assets["style.css"] ?? Data(), as: UTF8.self),
        ]
        let payPrefix = options.payee?.paymentURL.map { String($0.prefix(while: { $0 != "{" })) }
        func privatePage(_ file: String, template: String, title: String, _ context: [String: Any], _ registry: RowListRegistry) -> File {
            var page = render(folder + file, template: template, title: title, context, root: "", layout: layout, rows: registry)
            let html = String(decoding: page.data, as: UTF8.self)
            page.data = Data(Self.removingLinks(from: html, keeping: ["index.html", "client.html"], prefix: payPrefix).utf8)
            return page
        }
        let statementRows = RowListRegistry(marker: TemplateSet.rowMarker)
        var statement = statementContext(totals, invoices: invoices, registry: statementRows)
        statement["clientHref"] = "client.html"
        let clientRows = RowListRegistry(marker: TemplateSet.rowMarker)
        var client = clientContext(totals, invoices: invoices, registry: clientRows)
        client["statementHref"] = "index.html"
        return [
            privatePage("index.html", template: "statement", title: "Statement · \(name)", statement, statementRows),
            privatePage("client.html", template: "client", title: name, client, clientRows),
        ]
    }

    /// `html` without any `href` attribute except `mailto:` ones, those whose value is one of `keeping`, and those
    /// that start with `prefix` (the pay links; compared with `&amp;` read as `&`). Attribute values here are always
    /// double-quoted: the templates and cmark write them so, and every value is escaped.
    static func removingLinks(from html: String, keeping: Set<String> = [], prefix: String? = nil) -> String {
        var output = ""
        output.reserveCapacity(html.utf8.count)
        var rest = html[...]
        while let range = rest.firstRange(of: " href=\"") {
            guard let end = rest[range.upperBound...].firstIndex(of: "\"") else { break }
            output += rest[..<range.lowerBound]
            let value = rest[range.upperBound..<end]
            let kept = value.hasPrefix("mailto:") || keeping.contains(String(value))
                || prefix.map { !$0.isEmpty && value.replacingOccurrences(of: "&amp;", with: "&").hasPrefix($0) } == true
            if kept { output += rest[range.lowerBound...end] }
            rest = rest[rest.index(after: end)...]
        }
        output += rest
        return output
    }
}
