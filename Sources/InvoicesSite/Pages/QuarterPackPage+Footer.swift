internal import Foundation

extension QuarterPackPage {
    /// The pack's own rule, inline after the link to the site's style sheet (the layout's `pageStyle`): the foot of
    /// every printed page in the page's language, "Page 3 of 12" from the `pack.pageOf` word (`{page}` and `{pages}`
    /// are the CSS page counters), escaped for a CSS string (``CSSText``). Inline because the words are the page's:
    /// the shared style.css has none (its own rule, "3 / 12", is what a layout without `pageStyle` prints).
    var style: String {
        let footer = CSSText.content(site.word("pack.pageOf"), counters: ["page": "page", "pages": "pages"])
        return "@media print {\n  @page pack { @bottom-right { content: \(footer); } }\n}"
    }
}
