import Foundation
internal import InvoicesCore
internal import InvoicesReport

/// `404.html`, served for unknown addresses at any depth.
struct NotFoundPage: SiteWidePageKind {
    let site: SiteView
    var key: String { "404" }
    func inputs(_ inputs: SiteBuilder.Inputs) -> UInt64 { fingerprint(inputs.base, templates: ["404"]) }
    func files() -> [File] { [page()] }
}

extension NotFoundPage {
    static var templateContexts: [String: any PageContext.Type] { ["404": Context.self] }

    /// What `404.html` shows: with a base URL, the link home.
    struct Context: PageContext {
        var home: String?
    }
}

extension NotFoundPage {
    /// The page served for unknown addresses, at any depth: relative links would break there, so with a base URL
    /// its links and stylesheet are absolute; without one it has its style inline and no links.
    func page() -> File {
        var context = Context()
        var layout: [String: Any] = [:]
        let root: String
        if let baseURL = options.baseURL {
            root = baseURL
            context.home = baseURL
            layout["nav"] = true
        } else {
            root = ""
            layout["inlineStyle"] = String(decoding: templates.assets["style.css"] ?? Data(), as: UTF8.self)
        }
        layout["root"] = root
        return site.render(SitePaths.notFound, template: "404", title: site.word("notFound.title"), context.mustacheValue(), root: root, layout: layout)
    }
}
