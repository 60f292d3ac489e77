/// Checks a set of templates as one graph, before anything is rendered.
///
/// Each template is parsed with ``TemplateSyntax``; then every page template is walked from its top with the scopes
/// of ``TemplateVariables``, following its partials where they are included. A section opens the scope of its name,
/// and a name resolves from the innermost open scope outwards, as Mustache looks it up (swift-mustache renders an
/// unknown name as nothing, silently). Templates that are not pages are walked too, without scopes, so a partial
/// nobody includes is still checked for missing and recursive partials.
///
/// Errors: a name the context does not have, a partial that does not exist, a partial that includes itself
/// (directly or through others; rendering it would never end), sections and partials nested more than
/// ``TemplateSyntax/maximumDepth`` deep, and every syntax error. Each names file, line and column, and the chain of
/// includes that leads there (`client.md:47 includes invoice-list.md`).
struct TemplateChecker {
    struct Source {
        var text: String
        /// The path to name in errors.
        var path: String
        /// The file name, for include chains (`invoice-list.md`).
        var file: String
    }

    /// Template sources by template name (file name without extension).
    var sources: [String: Source]
    /// The scope of each page template, by template name: the kinds' (``PageKinds/templateScopes``). Given by the
    /// caller, so the checker builds without the page kinds (scripts/fuzz.sh compiles it alone).
    var pages: [String: TemplateScope]

    /// The most tags a walk visits: partials included many times at many levels would otherwise take exponential
    /// time here, and at render time.
    static let tagBudget = 100_000

    /// The names a template may write unescaped (`{{{name}}}`, `{{& name}}`): markup the tool draws itself, never a
    /// value from the books. In the HTML layout, the page's HTML and the inlined stylesheet; in a Markdown template,
    /// the QR code and the chart, which pass cmark as HTML tokens (``MarkdownValues/html(_:)``).
    static func unescapedNames(in file: String) -> Set<String> {
        file.hasSuffix(".html") ? ["content", "inlineStyle", "pageStyle"] : ["qr", "svg"]
    }

    /// Where a section is: its template's name and the offset of its open tag's line.
    struct SectionKey: Hashable {
        var template: String
        var offset: Int
    }

    /// What a section's name resolves to on a page: the page and the path of names from the page's context
    /// (`["monthly", "months"]`); nil when it resolves to the item of an inverted section or not at all.
    struct Resolution: Hashable {
        var page: String
        var path: [String]?
    }

    /// The result of a check.
    struct Outcome {
        /// The templates that parse.
        var syntax: [String: TemplateSyntax]
        var errors: [TemplateError]
        /// For each section reached from a page, what its name resolves to, on every page and include that reaches it.
        var resolutions: [SectionKey: Set<Resolution>]
    }

    /// The parsed templates (those that parse) and every error, in template-name order.
    func check() -> Outcome {
        var syntax: [String: TemplateSyntax] = [:]
        var errors: [TemplateError] = []
        for (name, source) in sources.sorted(by: { $0.key < $1.key }) {
            do {
                syntax[name] = try TemplateSyntax(source.text)
            } catch {
                let code: TemplateError.Code =
                    switch error.kind {
                    case .unclosedSection: .unclosedSection
                    case .tooDeep: .tooDeep
                    case .syntax, .unsupported: .syntax
                    }
                errors.append(
                    TemplateError(
                        code: code, path: source.path, line: error.location.line, column: error.location.column,
                        message: error.message))
            }
        }
        var walk = Walk(sources: sources, syntax: syntax)
        for (name, scope) in pages.sorted(by: { $0.key < $1.key }) where syntax[name] != nil {
            walk.page = name
            walk.visit(name, stack: [Scope(names: scope, path: [])], chain: [], depth: 0)
        }
        walk.page = nil
        for name in syntax.keys.sorted() where pages[name] == nil {
            walk.visit(name, stack: nil, chain: [], depth: 0)
        }
        var seen = Set<String>()
        for error in walk.errors where seen.insert(error.description).inserted { errors.append(error) }
        return Outcome(syntax: syntax, errors: errors, resolutions: walk.resolutions)
    }

    /// An open scope: its names, and the path of names from the page's context that leads to it.
    struct Scope {
        var names: TemplateScope
        var path: [String]?
    }

    /// One include on the way to a template: the including file and the line of its `{{> name}}`.
    struct Include {
        var name: String
        var file: String
        var line: Int
    }

    struct Walk {
        let sources: [String: Source]
        let syntax: [String: TemplateSyntax]
        var errors: [TemplateError] = []
        var budget = TemplateChecker.tagBudget
        var exhausted = false
        /// The page being walked; nil while walking templates on their own.
        var page: String?
        var resolutions: [SectionKey: Set<Resolution>] = [:]

        /// `client.md:47 includes invoice-list.md, invoice-list.md:4 includes totals-table.md`, ending at `last`.
        static func describe(_ chain: [Include], _ last: String) -> String {
            zip(chain, chain.dropFirst().map(\.file) + [last]).map { "\($0.file):\($0.line) includes \($1)" }
                .joined(separator: ", ")
        }

        /// Walks template `name` with the scopes `stack` (nil: names unchecked), reached through `chain`.
        mutating func visit(_ name: String, stack: [Scope]?, chain: [Include], depth: Int) {
            guard let source = sources[name], let parsed = syntax[name] else { return }
            var stack = stack
            walk(parsed.nodes, source: source, name: name, stack: &stack, chain: chain, depth: depth)
        }

        mutating func error(_ code: TemplateError.Code, _ source: Source, _ tag: TemplateSyntax.Tag, _ message: String) {
            errors.append(
                TemplateError(code: code, path: source.path, line: tag.location.line, column: tag.location.column, message: message))
        }

        mutating func walk(
            _ nodes: [TemplateSyntax.Node], source: Source, name: String, stack: inout [Scope]?, chain: [Include],
            depth: Int
        ) {
            var from: String { chain.isEmpty ? "" : " (\(Self.describe(chain, source.file)))" }
            for node in nodes {
                budget -= 1
                switch node {
                case .text, .silent:
                    continue
                case .variable(let tag, let escaped):
                    if !escaped, case let markup = TemplateChecker.unescapedNames(in: source.file), !markup.contains(tag.name) {
                        let allowed = markup.sorted().map { "{{{" + $0 + "}}}" }.joined(separator: " and ")
                        error(
                            .unescapedValue, source, tag,
                            "'\(tag.name)' is written unescaped, and only markup the tool draws may be (\(allowed) here): "
                                + "write {{\(tag.name)}}\(from) (see docs/templates.md)")
                        continue
                    }
                    _ = resolve(tag, source: source, stack: stack, from: from)
                case .section(let tag, let inverted, let body, let extent):
                    guard depth + 1 <= TemplateSyntax.maximumDepth else {
                        error(
                            .tooDeep, source, tag,
                            "sections and partials nested more than \(TemplateSyntax.maximumDepth) deep\(from) (see docs/templates.md)")
                        return
                    }
                    let scope = resolve(tag, source: source, stack: stack, from: from)
                    let path = inverted ? nil : stack.flatMap { Self.path(of: tag.name, in: $0) }
                    if let page {
                        resolutions[SectionKey(template: name, offset: extent.openLineStart), default: []]
                            .insert(Resolution(page: page, path: path))
                    }
                    let opened = Scope(names: inverted ? TemplateScope([:]) : (scope ?? TemplateScope([:])), path: path)
                    var inner = stack.map { $0 + [opened] }
                    walk(body, source: source, name: name, stack: &inner, chain: chain, depth: depth + 1)
                case .partial(let tag):
                    let partial = tag.name
                    let here = Include(name: name, file: source.file, line: tag.location.line)
                    guard let included = sources[partial] else {
                        error(
                            .missingPartial, source, tag,
                            "missing partial '\(partial)': no template '\(partial).md' or '\(partial).html'\(from)")
                        continue
                    }
                    if partial == name || chain.contains(where: { $0.name == partial }) {
                        let start = chain.firstIndex { $0.name == partial } ?? chain.count
                        let loop = Array(chain[start...]) + [here]
                        error(
                            .recursivePartial, source, tag,
                            "partial '\(partial)' includes itself, so it would never finish rendering: \(Self.describe(loop, included.file))")
                        continue
                    }
                    guard depth + 1 <= TemplateSyntax.maximumDepth else {
                        error(
                            .tooDeep, source, tag,
                            "sections and partials nested more than \(TemplateSyntax.maximumDepth) deep\(from) (see docs/templates.md)")
                        return
                    }
                    guard budget > 0 else {
                        if !exhausted {
                            exhausted = true
                            error(
                                .tooDeep, source, tag,
                                "partials included within partials expand to more than \(TemplateChecker.tagBudget) tags\(from); include fewer times")
                        }
                        return
                    }
                    visit(partial, stack: stack, chain: chain + [here], depth: depth + 1)
                }
            }
        }

        /// The path from the page's context to what `name` (without transforms) names, looked up as Mustache does.
        static func path(of name: String, in stack: [Scope]) -> [String]? {
            guard !name.contains("("), name != "." else { return nil }
            let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard let first = parts.first, let level = stack.lastIndex(where: { $0.names.names[first] != nil }) else { return nil }
            return stack[level].path.map { $0 + parts }
        }

        /// The scope a section over `tag` opens (nil for a plain value); records an unknown name.
        mutating func resolve(
            _ tag: TemplateSyntax.Tag, source: Source, stack: [Scope]?, from: @autoclosure () -> String
        ) -> TemplateScope? {
            guard let stack else { return nil }
            switch TemplateChecker.resolve(TemplateChecker.innerName(tag.name), in: stack.map(\.names)) {
            case .success(let scope):
                return scope
            case .failure(let unknown):
                error(.unknownVariable, source, tag, unknown.message + from())
                return nil
            }
        }
    }

    /// The name inside transforms: `uppercase(name)` is `name`.
    static func innerName(_ name: String) -> String {
        var name = Substring(name)
        while let open = name.firstIndex(of: "("), name.hasSuffix(")") {
            name = name[name.index(after: open)..<name.index(before: name.endIndex)]
        }
        return String(name)
    }

    struct Unknown: Error { var message: String }

    /// The scope a dotted name opens (nil for a plain value), or why it is unknown.
    static func resolve(_ name: String, in stack: [TemplateScope]) -> Result<TemplateScope?, Unknown> {
        if name == "." { return .success(nil) }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let first = parts.first, let found = stack.reversed().first(where: { $0.names[first] != nil }) else {
            let known = Set(stack.flatMap { $0.names.keys }).sorted().joined(separator: ", ")
            return .failure(Unknown(message: "unknown variable '\(name)'; here the context has: \(known) (see docs/templates.md)"))
        }
        var current: TemplateScope? = found.names[first] ?? nil
        for part in parts.dropFirst() {
            guard let scope = current, let next = scope.names[part] else {
                return .failure(Unknown(message: "unknown variable '\(name)': '\(part)' is not a field here (see docs/templates.md)"))
            }
            current = next
        }
        return .success(current)
    }
}
