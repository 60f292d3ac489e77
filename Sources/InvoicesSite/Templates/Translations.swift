import Foundation
public import InvoicesCore
internal import Yams

/// The translation tables of a templates folder: one YAML file per language in `i18n/` (`i18n/de.yaml`), each a flat
/// mapping of key to text. The tables shipped with the tool (`Templates/i18n/`) come first; a file of the user's
/// folder overrides the keys it sets and can add a language (docs/templates.md).
///
/// A table is data, never markup: its text goes into a page as text, escaped as a value is (``TemplateText``).
public struct TranslationTables: Sendable {
    /// The tables the folder's files go over: by lowercase tag, each parsed when first asked for (``Shipped``).
    private let shipped: Shipped
    /// By lowercase tag: the keys the folder's `i18n/` files set, over the shipped table of the same language.
    private var overrides: [String: [String: String]] = [:]
    /// By lowercase tag: where its table came from, for messages.
    var sources: [String: String] = [:]

    /// The tables shipped with the tool (`Templates/i18n/`, seven languages), each parsed the first time a build asks
    /// for its language, once per process: a build in one language parses English and that one, not all seven (the
    /// seven were 7 % of a small release build's samples). They have no problems: the tests parse every one.
    static let shipped = parsedWhenAsked(DefaultTemplates.files)

    /// The tables `files` holds (its `i18n/*.yaml` files), each parsed the first time its language is asked for.
    static func parsedWhenAsked(_ files: [String: String]) -> TranslationTables {
        TranslationTables(shipped: Shipped(texts: shippedTexts(files), parsed: nil))
    }

    /// The languages (lowercase) whose table has been parsed so far.
    var parsedLanguages: [String] { shipped.parsedLanguages }

    /// The tables shipped with the tool.
    static var defaults: TranslationTables { shipped }

    /// The shipped tables, each key replaced by `directory`'s `i18n/` files.
    /// - Returns: The tables, and the problems of the folder's files.
    static func load(directory: String?) -> (TranslationTables, [TemplateError]) {
        shipped.overridden(by: directory, problems: [])
    }

    /// The name the words of a non-default language are fingerprinted under, among the assets.
    static let fingerprintName = "i18n/(words)"

    /// The language every key exists in, and every other falls back to.
    static let base = "en"

    private init(shipped: Shipped) {
        self.shipped = shipped
        sources = shipped.texts.mapValues(\.path)
    }

    /// The tables `defaults` holds (its `i18n/*.yaml` files), each parsed now, with `directory`'s `i18n/` files
    /// over them.
    /// - Returns: The tables, and the problems of the defaults' tables and of the folder's files (a file that is not a
    ///   flat mapping of text).
    static func load(defaults: [String: String], directory: String?) -> (TranslationTables, [TemplateError]) {
        let texts = shippedTexts(defaults)
        var parsed: [String: [String: String]] = [:]
        var problems: [TemplateError] = []
        for (language, entry) in texts.sorted(by: { $0.key < $1.key }) {
            do throws(TemplateError) {
                parsed[language] = try parse(entry.text, path: entry.path)
            } catch {
                problems.append(error)
            }
        }
        let tables = TranslationTables(shipped: Shipped(texts: texts.filter { parsed[$0.key] != nil }, parsed: parsed))
        return tables.overridden(by: directory, problems: problems)
    }

    /// The `i18n/*.yaml` files of `files` (name to text) by lowercase language, with the path messages name.
    private static func shippedTexts(_ files: [String: String]) -> [String: (text: String, path: String)] {
        var texts: [String: (text: String, path: String)] = [:]
        let folder = TemplateSet.translationsFolder + "/"
        for (name, text) in files where name.hasPrefix(folder) && name.hasSuffix(".yaml") {
            let language = String(name.dropFirst(folder.count).dropLast(".yaml".count)).lowercased()
            texts[language] = (text, "(default) " + name)
        }
        return texts
    }

    /// Tables by lowercase tag, each parsed from its text the first time it is asked for, and kept. Shared by the
    /// copies of the ``TranslationTables`` it was made for.
    private final class Shipped: @unchecked Sendable {
        let texts: [String: (text: String, path: String)]
        private let lock = NSLock()
        private var parsed: [String: [String: String]]

        init(texts: [String: (text: String, path: String)], parsed: [String: [String: String]]?) {
            self.texts = texts
            self.parsed = parsed ?? [:]
        }

        var parsedLanguages: [String] { lock.withLock { parsed.keys.sorted() } }

        func table(_ language: String) -> [String: String]? {
            guard let entry = texts[language] else { return nil }
            if let table = lock.withLock({ parsed[language] }) { return table }
            let table: [String: String]
            do throws(TemplateError) {
                table = try TranslationTables.parse(entry.text, path: entry.path)
            } catch {
                // Built into the executable and parsed by the tests (TranslationTests): a failure is the build's.
                preconditionFailure("\(entry.path) does not parse: \(error.message)")
            }
            lock.withLock { parsed[language] = table }
            return table
        }
    }

    /// The table of `language` (lowercase): the shipped one with the folder's keys over it; nil when neither has one.
    func table(_ language: String) -> [String: String]? {
        let base = shipped.table(language)
        guard let own = overrides[language] else { return base }
        return (base ?? [:]).merging(own) { _, new in new }
    }

    /// Whether there is a table for `language` (lowercase), without parsing it.
    func hasTable(_ language: String) -> Bool { shipped.texts[language] != nil || overrides[language] != nil }

    /// Every table by lowercase tag, all parsed (the tests').
    var tables: [String: [String: String]] {
        Dictionary(uniqueKeysWithValues: languages.compactMap { language in table(language).map { (language, $0) } })
    }

    /// These tables with `directory`'s `i18n/` files over them; `problems` with the files' problems after them.
    private func overridden(by directory: String?, problems: [TemplateError]) -> (TranslationTables, [TemplateError]) {
        var result = self, problems = problems
        guard let directory else { return (result, problems) }
        let path = URL(fileURLWithPath: directory).appendingPathComponent(TemplateSet.translationsFolder).path
        guard FileType(atPath: path) == .directory, let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
            return (result, problems)
        }
        for name in names.sorted() where !name.hasPrefix(".") {
            let file = URL(fileURLWithPath: path).appendingPathComponent(name).path
            guard name.hasSuffix(".yaml") || name.hasSuffix(".yml") else {
                problems.append(TemplateError(code: .otherKind, path: file, line: 0, column: 0, message: "is not a translation table (a .yaml file named by its language, e.g. de.yaml); move it out of the i18n folder"))
                continue
            }
            let language = (name as NSString).deletingPathExtension
            if let problem = LanguageTag.pageLanguageProblem(with: language) {
                problems.append(TemplateError(code: .otherKind, path: file, line: 0, column: 0, message: "is not named by a language: \(problem)"))
                continue
            }
            do throws(TemplateError) {
                let text: String
                do throws(RegularFile.Failure) {
                    text = try RegularFile.text(file, budget: .templateFile)
                } catch {
                    throw TemplateError(code: .unreadable, path: file, line: 0, column: 0, message: error.message)
                }
                result.merge(try Self.parse(text, path: file), language: language.lowercased(), source: file)
            } catch {
                problems.append(error)
            }
        }
        return (result, problems)
    }

    private mutating func merge(_ table: [String: String], language: String, source: String) {
        overrides[language, default: [:]].merge(table) { _, new in new }
        sources[language] = sources[language].map { $0 + ", " + source } ?? source
    }

    /// A table's text: a YAML mapping of key (letters, digits, `.`, `_`, `-`) to a string.
    static func parse(_ text: String, path: String) throws(TemplateError) -> [String: String] {
        func failure(_ line: Int, _ message: String) -> TemplateError {
            TemplateError(code: .syntax, path: path, line: line, column: 0, message: message)
        }
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch {
            throw failure(1, "is not valid YAML: \(error)")
        }
        guard let node else { return [:] }
        guard let mapping = node.mapping else { throw failure(node.mark?.line ?? 1, "must be a mapping of key to text, e.g. client.number: Kundennummer") }
        var result: [String: String] = [:]
        for (key, value) in mapping {
            let line = key.mark?.line ?? 1
            guard let name = key.scalar?.string, isKey(name) else {
                throw failure(line, "has a key that is not a name (letters, digits, '.', '_', '-'), e.g. client.number")
            }
            guard let scalar = value.scalar else {
                throw failure(line, "'\(name)' must be a text, not a list or mapping")
            }
            guard result.updateValue(scalar.string, forKey: name) == nil else { throw failure(line, "sets '\(name)' twice") }
        }
        return result
    }

    static func isKey(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 100 && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    }

    /// The languages with a table, lowercase.
    public var languages: [String] { Set(shipped.texts.keys).union(overrides.keys).sorted() }

    /// The words of `tag`: its table, else the table of its BCP 47 fallbacks (`de-ch`, then `de`), each key missing
    /// there taken from English.
    public func translation(for tag: LanguageTag) -> Translation {
        let english = table(Self.base) ?? [:]
        var words = english
        var found: [String] = []
        var covered: Set<String> = []
        for language in tag.fallbacks.reversed() where language != Self.base {
            guard let table = self.table(language) else { continue }
            found.append(language)
            for (key, text) in table where english[key] != nil {
                words[key] = text
                covered.insert(key)
            }
        }
        let missing = tag.primary == Self.base ? [] : english.keys.filter { !covered.contains($0) }.sorted()
        return Translation(tag: tag, table: found.last, words: words, missing: missing, english: english)
    }
}

/// The words of one page language: a table and its fallbacks, complete (a key missing in the language's table has
/// its English text).
public struct Translation: Sendable {
    /// The language asked for; it stays the pages' `lang` even when its table is a fallback's.
    public let tag: LanguageTag
    /// The table found for it (lowercase tag), or nil when only English applies.
    public let table: String?
    let words: [String: String]
    /// The keys the language's table does not have, taken from English.
    public let missing: [String]
    let english: [String: String]

    /// The text of `key`, or the key itself when no table has it.
    subscript(key: String) -> String { words[key] ?? key }

    /// Whether `key` exists.
    func has(_ key: String) -> Bool { words[key] != nil }

    /// The text of `key` with its `{name}` placeholders filled from `values` (a placeholder without a value stays as
    /// written).
    func text(_ key: String, _ values: [String: String] = [:]) -> String {
        Self.fill(self[key], values)
    }

    /// The text of `key` ready to have its `{name}` filled many times (a statement line's "due {date}", one per
    /// row): split into pieces once; each fill gives what ``text(_:_:)`` gives with `[name: value]`.
    func filler(_ key: String, name: String) -> Filler {
        var pieces: [Filler.Piece] = []
        Self.pieces(self[key], names: { $0 == name }) { piece, isName in pieces.append(isName ? .value : .text(piece)) }
        return Filler(pieces: pieces)
    }

    /// A text whose one placeholder name is filled per use (``filler(_:name:)``).
    struct Filler: Sendable {
        enum Piece: Sendable {
            case text(String)
            case value
        }

        let pieces: [Piece]

        /// The text with each of its placeholders replaced by `value`.
        func callAsFunction(_ value: String) -> String {
            if pieces.count == 1, case .text(let text) = pieces[0] { return text }
            var result = ""
            for piece in pieces {
                switch piece {
                case .text(let text): result += text
                case .value: result += value
                }
            }
            return result
        }
    }

    /// `text` with each `{name}` replaced by `values[name]`, the rest as it is.
    static func fill(_ text: String, _ values: [String: String]) -> String {
        // The brace looked for among the bytes: `text.contains("{")` here is Foundation's string search (a statement
        // line's due date fills one text per row). Without a `{` byte `pieces` gives the text back as it is.
        guard !values.isEmpty, text.utf8.contains(UInt8(ascii: "{")) else { return text }
        var result = ""
        pieces(text, names: values.keys.contains) { piece, isName in result += isName ? values[piece] ?? "" : piece }
        return result
    }

    /// Hands `text` to `body` in order, piece by piece: each `{name}` for which `names` holds as the name alone
    /// (`isName`), and the text between them, other braces included, as it is.
    static func pieces(_ text: String, names: (String) -> Bool, _ body: (_ piece: String, _ isName: Bool) -> Void) {
        var literal = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            literal += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: "}"), names(String(after[..<close])) {
                if !literal.isEmpty { body(literal, false) }
                literal = ""
                body(String(after[..<close]), true)
                rest = after[after.index(after: close)...]
            } else {
                literal += "{"
                rest = after
            }
        }
        literal += rest
        if !literal.isEmpty { body(literal, false) }
    }

    /// The placeholders (`{name}`) of `text`: names of letters and digits.
    static func placeholders(_ text: String) -> Set<String> {
        var names: Set<String> = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { break }
            let name = after[..<close]
            if !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) { names.insert(String(name)) }
            rest = after[after.index(after: close)...]
        }
        return names
    }
}

/// Puts a table's text into a template's text, in place of `{{t.key}}`: escaped so that it renders as the text it
/// is, in Markdown and in HTML, inside an element or an attribute (the table is data: `<b>`, `{{x}}`, `*` and
/// `[a](b)` in it show as written). A `{name}` placeholder that the key's English text also has becomes the
/// template's `{{name}}` value (escaped as every value); any other `{` stays text.
enum TemplateText {
    /// The characters that could mean markup somewhere a text lands, as numeric character references (cmark decodes
    /// them in Markdown, browsers in HTML; both then show the character).
    static let escaped: [Character: String] = [
        "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "{": "&#123;", "}": "&#125;", "[": "&#91;", "]": "&#93;",
        "*": "&#42;", "_": "&#95;", "`": "&#96;", "\\": "&#92;", "~": "&#126;", "|": "&#124;", "!": "&#33;",
    ]
    /// What a Markdown line must not start with (a heading, list, quote or rule), as references when a text starts
    /// with it.
    static let leading: [Character: String] = ["#": "&#35;", "-": "&#45;", "+": "&#43;", "=": "&#61;"]

    /// The prefix of the keys whose text a page's script fills in (`script.clientCount`, `{found} of {total}
    /// clients`): in a template their `{name}` placeholders stay as written (escaped, so `&#123;found&#125;` in an
    /// attribute, which the browser reads as `{found}`), never template values.
    static let scriptPrefix = "script."

    /// `text` escaped (see the type), its placeholders among `allowed` turned into template values.
    static func escape(_ text: String, allowed: Set<String>) -> String {
        var result = ""
        var characters = Substring(text.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " "))
        if let first = characters.first, let reference = leading[first] {
            result += reference
            characters = characters.dropFirst()
        } else if let first = characters.first, first.isNumber {
            // `1. Quartal` alone on a line would be a list item.
            let digits = characters.prefix { $0.isNumber }
            let after = characters.dropFirst(digits.count).first
            if after == "." || after == ")" {
                result += digits + (after == "." ? "&#46;" : "&#41;")
                characters = characters.dropFirst(digits.count + 1)
            }
        }
        while let character = characters.first {
            if character == "{", let close = characters.firstIndex(of: "}") {
                let name = String(characters[characters.index(after: characters.startIndex)..<close])
                if allowed.contains(name) {
                    result += "{{" + name + "}}"
                    characters = characters[characters.index(after: close)...]
                    continue
                }
            }
            result += escaped[character] ?? String(character)
            characters = characters.dropFirst()
        }
        return result
    }

    /// `template` with every `{{t.key}}` replaced by the escaped text of `key` in `translation`.
    /// - Throws: ``TemplateError`` (unknown variable) at the first key no table has.
    static func localize(_ template: String, path: String, translation: Translation) throws(TemplateError) -> String {
        let (text, errors) = localizeAll(template, path: path, translation: translation)
        if let first = errors.first { throw first }
        return text
    }

    /// ``localize(_:path:translation:)``, with every key no table has as an error, its tag left as written.
    ///
    /// One pass over the template: the tags are found with the standard library's `firstRange(of:)` on the rest, not
    /// Foundation's `range(of:)`, which copies the rest into a new string at each tag (a template of n tags took n²
    /// time: 3 MB of nested sections, about 20 s; docs/performance.md). An error's line and column are counted on from
    /// the error before.
    static func localizeAll(_ template: String, path: String, translation: Translation) -> (String, [TemplateError]) {
        var errors: [TemplateError] = []
        guard template.contains("{{") else { return (template, errors) }
        var result = ""
        var rest = Substring(template)
        let open = "{{", close = "}}"
        var counted = (index: template.startIndex, location: TemplateSyntax.Location(line: 1, column: 1))
        while let start = rest.firstRange(of: open) {
            result += rest[..<start.lowerBound]
            let inside = rest[start.upperBound...]
            guard let end = inside.firstRange(of: close) else {
                result += rest[start.lowerBound...]
                rest = ""
                break
            }
            let name = inside[..<end.lowerBound].trimmingCharacters(in: .whitespaces)
            guard name.hasPrefix("t."), !inside.hasPrefix("{") else {
                result += rest[start.lowerBound..<end.upperBound]
                rest = inside[end.upperBound...]
                continue
            }
            let key = String(name.dropFirst(2))
            guard translation.has(key) else {
                // Where the key starts (after the `{{`), as ``TemplateSyntax/location(of:in:)`` counts.
                for character in template[counted.index..<start.upperBound] {
                    if character == "\n" || character == "\r\n" {
                        counted.location.line += 1
                        counted.location.column = 1
                    } else {
                        counted.location.column += 1
                    }
                }
                counted.index = start.upperBound
                let location = counted.location
                errors.append(
                    TemplateError(
                        code: .unknownVariable, path: path, line: location.line, column: location.column,
                        message: "'t.\(key)' is not a key of the translation tables (Templates/i18n/en.yaml lists them; docs/templates.md)"))
                result += rest[start.lowerBound..<end.upperBound]
                rest = inside[end.upperBound...]
                continue
            }
            // A key for the page's script (`script.`) keeps its placeholders as text: the script fills them.
            let allowed = key.hasPrefix(scriptPrefix) ? [] : Translation.placeholders(translation.english[key] ?? "")
            result += escape(translation[key], allowed: allowed)
            rest = inside[end.upperBound...]
        }
        return (result + rest, errors)
    }
}
