// Compiled by scripts/fuzz.sh together with the template parser and checker (Sources/InvoicesSite/Templates:
// TemplateSyntax, TemplateChecker, TemplateVariables, TemplateError, RowTemplate, RowList; Markdown/MarkdownValues,
// MarkdownEscaper) and linked with swift-mustache, built from the package's checkout.
internal import Mustache

/// Properties, for any bytes (split at NUL into up to three templates `a`, `b`, `c` that may include each other):
/// - parsing and checking the set finishes, without a crash, in bounded time (libFuzzer's -timeout catches a hang);
/// - a template ``TemplateSyntax`` accepts does not crash swift-mustache's parser, and a set the checker passes
///   renders through swift-mustache without a crash (no partial recursion, no nesting past the limit);
/// - wherever a section-free or section-using body compiles to a ``RowTemplate`` (Mustache part only), it renders
///   exactly what swift-mustache renders for the same row.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let parts = UnsafeBufferPointer(start: data, count: size).split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
    let names = ["a", "b", "c"]
    var sources: [String: TemplateChecker.Source] = [:]
    for (index, part) in parts.enumerated() {
        let text = String(decoding: part, as: UTF8.self)
        sources[names[index]] = TemplateChecker.Source(text: text, path: "\(names[index]).md", file: "\(names[index]).md")
    }
    // No page scopes: the fuzzed templates a, b, c are no page's (names are checked against the common scope only
    // on pages; the walk, the partial graph and the budgets are what is fuzzed).
    let checked = TemplateChecker(sources: sources, pages: [:]).check()

    var library = MustacheLibrary()
    for (name, source) in sources where checked.syntax[name] != nil {
        guard let template = try? MustacheTemplate(string: source.text) else { continue }
        library.register(template, named: name)
    }
    if checked.errors.isEmpty, library.getTemplate(named: "a") != nil {
        let row: [String: Any] = ["a": "A&", "b": EmptyValue(), "c": "<c>", "list": [["a": "1"], ["a": "2"]]]
        _ = library.render(row, withTemplate: "a")
    }

    if let syntax = checked.syntax["a"], let text = sources["a"]?.text,
        let compiled = RowTemplate(syntax.nodes, columns: ["a", "b", "c"], htmlLines: false),
        let reference = MustacheReference.render(text, row: ["a": "A&", "b": "", "c": "<c>"])
    {
        let values = ["A&", "", "<c>"]
        var output = ""
        compiled.render(into: &output) { values[$0] }
        if output != reference {
            print("template: \(text.debugDescription)\ncompiled: \(output.debugDescription)\nmustache: \(reference.debugDescription)")
            fatalError("the compiled row template differs from swift-mustache")
        }
    }
    return 0
}
