internal import Foundation

extension QuarterPackPage {
    /// The pack's style: the site's style sheet, inline, then the foot of every printed page in the page's language,
    /// "Page 3 of 12" from the `pack.pageOf` word (`{page}` and `{pages}` are the CSS page counters), escaped for a
    /// CSS string (``CSSText``). Inline because the words are the page's: the shared style.css has none.
    var style: String {
        let footer = CSSText.content(site.word("pack.pageOf"), counters: ["page": "page", "pages": "pages"])
        return String(decoding: templates.assets["style.css"] ?? Data(), as: UTF8.self)
            + "\n@media print {\n  @page pack { @bottom-right { content: \(footer); } }\n}\n"
    }
}
