internal import Ccmark

/// Renders CommonMark to an HTML fragment through libcmark.
///
/// By default raw HTML in the input is omitted (cmark's safe mode) and `javascript:` links are dropped. The site's
/// own templates are trusted and may contain raw HTML blocks (tables, charts); they are rendered with
/// ``Options/allowsRawHTML``, and every value from the store in them is escaped by ``MarkdownEscaper`` first.
/// Related documentation: <https://spec.commonmark.org/0.30/>
public struct MarkdownRenderer: Sendable {
    /// How to render.
    public struct Options: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// Pass raw HTML and unsafe links through (for trusted templates only).
        public static let allowsRawHTML = Options(rawValue: CMARK_OPT_UNSAFE)
        /// Turn straight quotes and dashes into typographic ones.
        public static let smartPunctuation = Options(rawValue: CMARK_OPT_SMART)
    }

    public let options: Options

    public init(options: Options = []) {
        self.options = options
    }

    /// The HTML for `markdown`.
    public func html(from markdown: String) -> String {
        var markdown = markdown
        return markdown.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return "" }
            let pointer = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
            guard let html = cmark_markdown_to_html(pointer, bytes.count, options.rawValue | CMARK_OPT_DEFAULT) else { return "" }
            defer { cmark_get_default_mem_allocator().pointee.free(html) }
            return String(cString: html)
        }
    }
}
