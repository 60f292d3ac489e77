import Foundation

/// Finds names a template uses that its context does not have.
///
/// swift-mustache renders an unknown name as nothing, silently; this walks a template's tags (with line and column)
/// against the scopes of ``TemplateVariables``. A section opens the scope of its name; a name resolves from the
/// innermost open scope outwards, as Mustache looks it up. A partial (`{{> name}}`) is checked where it is included,
/// with the scopes open there.
struct TemplateChecker {
    /// Template texts and the path to name in errors, by template name (file name without extension).
    var texts: [String: (text: String, path: String)]

    /// Every unknown name in the page templates, in template-name order.
    func check() -> [TemplateError] {
        var errors: [TemplateError] = []
        for (name, scope) in TemplateVariables.pages.sorted(by: { $0.key < $1.key }) {
            guard let entry = texts[name] else { continue }
            check(entry.text, path: entry.path, stack: [scope], including: [name], errors: &errors)
        }
        return errors
    }

    /// A tag of a template: its sigil (`#`, `^`, `/`, `>`, `&`, `{` or empty for a value), its name and where it is.
    struct Tag {
        var sigil: Character?
        var name: String
        var line: Int
        var column: Int
    }

    private func check(_ text: String, path: String, stack: [TemplateScope], including: Set<String>, errors: inout [TemplateError]) {
        var stack = stack
        for tag in Self.tags(in: text) {
            switch tag.sigil {
            case "!", "%", "$":
                continue
            case ">", "<":
                guard !including.contains(tag.name), let partial = texts[tag.name] else { continue }
                check(partial.text, path: partial.path, stack: stack, including: including.union([tag.name]), errors: &errors)
            case "/":
                if stack.count > 1 { stack.removeLast() }
            default:
                let name = Self.innerName(tag.name)
                let found = Self.resolve(name, in: stack)
                if case .failure(let unknown) = found {
                    errors.append(TemplateError(code: .unknownVariable, path: path, line: tag.line, column: tag.column, message: unknown.message))
                }
                if tag.sigil == "#" {
                    if case .success(let scope) = found { stack.append(scope ?? TemplateScope([:])) } else { stack.append(TemplateScope([:])) }
                } else if tag.sigil == "^" {
                    stack.append(TemplateScope([:]))
                }
            }
        }
    }

    /// The name inside transforms: `uppercase(name)` is `name`.
    static func innerName(_ name: String) -> String {
        var name = Substring(name)
        while let open = name.firstIndex(of: "("), name.hasSuffix(")") {
            name = name[name.index(after: open)..<name.index(before: name.endIndex)]
        }
        return name.trimmingCharacters(in: .whitespaces)
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

    /// The tags of a Mustache template, honouring set-delimiter tags, with 1-based line and column of each name.
    static func tags(in text: String) -> [Tag] {
        let characters = Array(text)
        var open: [Character] = ["{", "{"], close: [Character] = ["}", "}"]
        var tags: [Tag] = []
        var index = 0, line = 1, column = 1
        func matches(_ pattern: [Character], at position: Int) -> Bool {
            position + pattern.count <= characters.count && Array(characters[position..<position + pattern.count]) == pattern
        }
        func advance(to position: Int) {
            while index < position {
                if characters[index] == "\n" { line += 1; column = 1 } else { column += 1 }
                index += 1
            }
        }
        while index < characters.count {
            guard matches(open, at: index) else { advance(to: index + 1); continue }
            advance(to: index + open.count)
            var sigil: Character? = nil
            var triple = false
            if index < characters.count, "#^/>&{!=%$<".contains(characters[index]) {
                sigil = characters[index]
                triple = sigil == "{" && open == ["{", "{"]
                advance(to: index + 1)
            }
            while index < characters.count, characters[index] == " " { advance(to: index + 1) }
            let (nameLine, nameColumn) = (line, column)
            var end = index
            let closing = triple ? ["}"] + close : (sigil == "=" ? ["="] + close : close)
            while end < characters.count, !matches(closing, at: end) { end += 1 }
            let name = String(characters[index..<end]).trimmingCharacters(in: .whitespacesAndNewlines)
            advance(to: min(end + closing.count, characters.count))
            if sigil == "=" {
                let parts = name.split(separator: " ", omittingEmptySubsequences: true)
                if parts.count == 2 { open = Array(parts[0]); close = Array(parts[1]) }
                continue
            }
            tags.append(Tag(sigil: sigil, name: name, line: nameLine, column: nameColumn))
        }
        return tags
    }
}
