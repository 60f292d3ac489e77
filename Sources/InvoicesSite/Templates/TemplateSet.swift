import Foundation
internal import Mustache
internal import InvoicesReport
public import InvoicesCore

/// The templates a site is built from: the defaults that ship with the tool, each replaceable by a file of the
/// same name in a user's templates folder.
///
/// Markdown templates (`*.md`) carry every `{{value}}` through cmark as a ``MarkdownValues`` token; the HTML layout
/// (`layout.html`) escapes values for HTML. Partials are referenced by file name without extension:
/// `{{> totals-table}}`.
public struct TemplateSet: Sendable {
    /// Where each template came from, by file name (a path, or `(default)`).
    public private(set) var sources: [String: String] = [:]
    /// The templates with the sections of long lists that compile to row templates replaced by placeholders.
    let library: MustacheLibrary
    /// The templates as written: the general path, and the reference the compiled rows must match.
    let general: MustacheLibrary
    /// The pages rendered through ``library`` when given their lists' rows.
    let fastTemplates: Set<String>
    /// The stylesheets and scripts to copy into the site (`style.css`, `clients.js`), by name.
    let assets: [String: Data]
    /// Compiled row templates of the long lists (see ``PageKind/fastLists``), rendered after cmark.
    let rowTemplates: [RowTemplate]
    /// By template name (without extension): the fingerprint of what a page rendered from it uses: its text, the
    /// partials it includes (transitively), the layout and the assets (``SiteBuilder``'s incremental builds).
    let fingerprints: [String: UInt64]
    /// The fingerprint of the assets alone.
    let assetsFingerprint: UInt64
    /// The kinds of pages these templates were loaded and checked for; a site built from them has these kinds.
    public let pageKinds: PageKinds

    /// The translation tables: the defaults and the templates folder's `i18n/` files.
    public let tables: TranslationTables
    /// The words of the templates' language (``localized(to:)``).
    public let translation: Translation
    /// The templates as read, before their words were put in.
    let unlocalized: [String: (text: String, source: String)]

    /// The same templates in `language` (their words from its table; see ``TranslationTables/translation(for:)``).
    public func localized(to language: LanguageTag) throws(TemplateError) -> TemplateSet {
        language == translation.tag ? self : try TemplateSet(texts: unlocalized, kinds: pageKinds, tables: tables, language: language)
    }

    /// The default templates, as they ship with the tool.
    public static var defaultFiles: [String: String] { DefaultTemplates.files }

    /// Loads the default templates, replacing each by the file of the same name in `directory` when there is one.
    ///
    /// The templates are checked as one graph first (``TemplateChecker``); nothing is rendered from a set with an
    /// error in it.
    /// - Throws: ``TemplateError`` naming the file, line and column of the first problem: a template that does not
    ///   parse, a name its context does not have (see ``TemplateVariables``), a missing or recursive partial, or
    ///   nesting deeper than ``TemplateSyntax/maximumDepth``. ``problems(directory:)`` lists them all.
    /// - Parameters:
    ///   - kinds: The kinds of pages, whose templates' scopes they are checked against.
    ///   - language: The language whose words the templates' `{{t.key}}` get.
    public init(directory: String? = nil, kinds: PageKinds = .builtIn, language: LanguageTag = .english) throws(TemplateError) {
        let (tables, problems) = TranslationTables.load(directory: directory)
        if let first = problems.first { throw first }
        try self.init(texts: Self.read(directory, kinds: kinds), kinds: kinds, tables: tables, language: language)
    }

    /// Loads the templates `texts` (file name to text and the path to name in errors) for the pages of `kinds`, their
    /// `{{t.key}}` words from `tables` in `language` (the default tables when nil).
    init(
        texts: [String: (text: String, source: String)], kinds: PageKinds = .builtIn, tables: TranslationTables? = nil,
        language: LanguageTag = .english
    ) throws(TemplateError) {
        MarkdownContentType.registerOnce()
        pageKinds = kinds
        let fastLists = kinds.fastLists
        let tables = tables ?? TranslationTables.defaults
        let translation = tables.translation(for: language)
        self.tables = tables
        self.translation = translation
        self.unlocalized = texts
        var texts = texts
        for (name, entry) in texts.sorted(by: { $0.key < $1.key }) where name.hasSuffix(".md") || name.hasSuffix(".html") {
            texts[name] = (try TemplateText.localize(entry.text, path: entry.source, translation: translation), entry.source)
        }
        let checked = Self.checker(for: texts, kinds: kinds).check()
        if let error = checked.errors.first { throw error }
        var library = MustacheLibrary()
        var general = MustacheLibrary()
        var assets: [String: Data] = [:]
        var rowTemplates: [RowTemplate] = []
        for (name, entry) in texts.sorted(by: { $0.key < $1.key }) {
            sources[name] = entry.source
            let stem = (name as NSString).deletingPathExtension
            let ext = (name as NSString).pathExtension
            switch ext {
            case "md":
                let prefix = MarkdownContentType.prefix
                let template = try Self.parse(prefix + entry.text, path: entry.source, lineOffset: 1)
                general.register(template, named: stem)
                if let syntax = checked.syntax[stem],
                    let rewritten = Self.rewritingFastRows(
                        syntax, template: stem, resolutions: checked.resolutions, fastLists: fastLists, rowTemplates: &rowTemplates)
                {
                    library.register(try Self.parse(prefix + rewritten, path: entry.source, lineOffset: 1), named: stem)
                } else {
                    library.register(template, named: stem)
                }
            case "html":
                let template = try Self.parse(entry.text, path: entry.source, lineOffset: 0)
                library.register(template, named: stem)
                general.register(template, named: stem)
            default:
                assets[name] = Data(entry.text.utf8)
            }
        }
        self.library = library
        self.general = general
        self.assets = assets
        self.rowTemplates = rowTemplates
        self.fastTemplates = rowTemplates.isEmpty ? [] : Set(fastLists.keys)
        // The words the code puts into pages come from the tables too: those that differ from the shipped English
        // are part of every page's fingerprint (so a default English build keeps its fingerprints).
        let english = TranslationTables.defaults.table(TranslationTables.base) ?? [:]
        let words = translation.words.filter { english[$0.key] != $0.value }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)\n" }.joined()
        var fingerprinted = texts
        if !words.isEmpty { fingerprinted[TranslationTables.fingerprintName] = (words, "") }
        (self.fingerprints, self.assetsFingerprint) = Self.fingerprints(texts: fingerprinted, syntax: checked.syntax)
    }

    /// Each template's fingerprint with its partials, the layout and the assets; and the assets' alone.
    static func fingerprints(
        texts: [String: (text: String, source: String)], syntax: [String: TemplateSyntax]
    ) -> ([String: UInt64], UInt64) {
        var stems: [String: String] = [:]
        var assets = Fingerprint()
        for (name, entry) in texts.sorted(by: { $0.key < $1.key }) {
            let ext = (name as NSString).pathExtension
            if ext == "md" || ext == "html" {
                stems[(name as NSString).deletingPathExtension] = name
            } else {
                assets.add(name)
                assets.add(entry.text)
            }
        }
        func partials(_ nodes: [TemplateSyntax.Node], into names: inout Set<String>) {
            for node in nodes {
                switch node {
                case .partial(let tag):
                    if names.insert(tag.name).inserted, let parsed = syntax[tag.name] { partials(parsed.nodes, into: &names) }
                case .section(_, _, let body, _): partials(body, into: &names)
                default: break
                }
            }
        }
        var result: [String: UInt64] = [:]
        for stem in stems.keys {
            var used: Set<String> = [stem, "layout"]
            for name in Array(used) { if let parsed = syntax[name] { partials(parsed.nodes, into: &used) } }
            var fingerprint = Fingerprint()
            fingerprint.add(assets.value)
            for name in used.sorted() {
                fingerprint.add(name)
                fingerprint.add(stems[name].flatMap { texts[$0]?.text } ?? "")
            }
            result[stem] = fingerprint.value
        }
        return (result, assets.value)
    }

    /// Every problem of the templates `TemplateSet(directory:)` would load, in file order: what `invoices check`
    /// reports, and the first of which `invoices build` stops at. Empty when they load.
    public static func problems(directory: String? = nil, kinds: PageKinds = .builtIn) -> [TemplateError] {
        let (read, folderProblems) = readFolder(directory, kinds: kinds)
        let (tables, tableProblems) = TranslationTables.load(directory: directory)
        let problems = folderProblems + tableProblems
        guard problems.isEmpty else { return problems }
        // The words put in as the build puts them (English: the keys every table falls back to); a key no table has
        // is a problem of its own, and its tag is left for the checker to skip.
        let translation = tables.translation(for: .english)
        var texts = read
        var keyProblems: [TemplateError] = []
        for (name, entry) in read.sorted(by: { $0.key < $1.key }) where name.hasSuffix(".md") || name.hasSuffix(".html") {
            let (text, errors) = TemplateText.localizeAll(entry.text, path: entry.source, translation: translation)
            texts[name] = (text, entry.source)
            keyProblems += errors
        }
        let errors = keyProblems + checker(for: texts, kinds: kinds).check().errors.filter { !($0.code == .unknownVariable && $0.message.contains("'t.")) }
        guard errors.isEmpty else { return errors }
        do {
            _ = try TemplateSet(directory: directory, kinds: kinds)
        } catch {
            return [error]
        }
        return []
    }

    /// The template files by file name: the defaults, each replaced by the file of the same name in `directory`.
    /// - Throws: The first of ``readFolder(_:)``'s problems.
    static func read(_ directory: String?, kinds: PageKinds = .builtIn) throws(TemplateError) -> [String: (text: String, source: String)] {
        let (texts, problems) = readFolder(directory, kinds: kinds)
        if let first = problems.first { throw first }
        return texts
    }

    /// The kinds of file a templates folder contributes, by extension: templates, stylesheets and scripts. Only
    /// these are read, and only the stylesheets and scripts are copied into the site.
    static let kinds: [String: String] = ["md": "template", "html": "template", "css": "stylesheet", "js": "script"]

    /// The folder of translation tables (`.yaml` files, one per language): allowed in a templates folder, never
    /// copied into the site.
    static let translationsFolder = "i18n"

    /// The defaults, each replaced by the file of the same name in `directory`, and every problem of the folder's
    /// files: a name the build writes itself, a link leading out of the folder, a file of a kind the tool does not
    /// read (a users file, a key: they would be published), one that is not a regular file or is past
    /// ``InvoicesCore/FileBudget/templateFile``, or is not UTF-8.
    static func readFolder(_ directory: String?, kinds pageKinds: PageKinds = .builtIn) -> (texts: [String: (text: String, source: String)], problems: [TemplateError]) {
        var texts: [String: (text: String, source: String)] = [:]
        for (name, text) in DefaultTemplates.files where !name.hasPrefix(translationsFolder + "/") { texts[name] = (text, "(default) \(name)") }
        guard let directory else { return (texts, []) }
        let url = URL(fileURLWithPath: directory)
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            return (texts, [TemplateError(code: .missingFolder, path: directory, line: 0, column: 0, message: "templates folder cannot be read")])
        }
        var problems: [TemplateError] = []
        func problem(_ code: TemplateError.Code, _ path: String, _ message: String) {
            problems.append(TemplateError(code: code, path: path, line: 0, column: 0, message: message))
        }
        let root = realPath(directory) ?? directory
        // The files and folders at the site's root the build writes itself (``PageKinds/rootNames``): a stylesheet
        // or script of the folder is copied into the site as it is (`style.css`, `clients.js`), so none may have
        // one of their names.
        let reservedNames = pageKinds.rootNames
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = url.appendingPathComponent(name).path
            // A link may lead to another file of the folder, never outside it.
            guard let real = realPath(path), real.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
                problem(.outsideFolder, path, "is a symbolic link to a file outside the templates folder; copy the file into the folder instead")
                continue
            }
            let ext = (name as NSString).pathExtension
            if ext != "md", ext != "html", reservedNames.contains(name) {
                problem(.reservedName, path, "has the name of a file the build writes itself ('\(name)'); rename it or move it out of the templates folder")
                continue
            }
            let type = FileType(atPath: path)
            if name == Self.translationsFolder, type == .directory { continue }
            guard Self.kinds[ext] != nil, type != .directory else {
                problem(
                    .otherKind, path,
                    "is not a template (.md, .html), a stylesheet (.css) or a script (.js), the only files a templates folder "
                        + "puts into the site; move it out of the templates folder (nothing else is copied, so a users file "
                        + "or a key kept there would be published)")
                continue
            }
            do throws(RegularFile.Failure) {
                texts[name] = (try RegularFile.text(path, budget: .templateFile), path)
            } catch {
                problem(.unreadable, path, error.message + (error.kind == .missing ? "" : "; remove it from the templates folder"))
            }
        }
        return (texts, problems)
    }

    /// A checker over the Markdown and HTML templates among `texts`, each page template against its kind's scope.
    static func checker(for texts: [String: (text: String, source: String)], kinds: PageKinds = .builtIn) -> TemplateChecker {
        var sources: [String: TemplateChecker.Source] = [:]
        for (name, entry) in texts.sorted(by: { $0.key < $1.key }) where name.hasSuffix(".md") || name.hasSuffix(".html") {
            sources[(name as NSString).deletingPathExtension] = TemplateChecker.Source(text: entry.text, path: entry.source, file: name)
        }
        return TemplateChecker(sources: sources, pages: kinds.templateScopes)
    }

    /// Parses `text` with swift-mustache; errors are located `lineOffset` lines up (past a prefix).
    static func parse(_ text: String, path: String, lineOffset: Int) throws(TemplateError) -> MustacheTemplate {
        do {
            return try MustacheTemplate(string: text)
        } catch let error as MustacheTemplate.ParserError {
            throw TemplateError(
                code: .syntax, path: path, line: max(error.context.lineNumber - lineOffset, 1), column: error.context.columnNumber,
                message: TemplateError.describe(error.error))
        } catch {
            throw TemplateError(code: .syntax, path: path, line: 1, column: 1, message: "\(error)")
        }
    }

    /// Renders the template `name` (without extension) with `context`, through Mustache alone.
    func render(_ name: String, _ context: [String: Any]) -> String {
        general.render(context, withTemplate: name) ?? ""
    }

    /// Whether a template named `name` (without extension) exists.
    func has(_ name: String) -> Bool { library.getTemplate(named: name) != nil }
}

/// Puts values into Markdown templates as ``MarkdownValues`` tokens, replaced after cmark by the value escaped for
/// where it landed.
struct MarkdownContentType: MustacheContentType {
    static let pragma = "{{%CONTENT_TYPE:MARKDOWN}}"
    /// What a Markdown template is parsed after: the pragma alone on a line (standalone, so it leaves the template's
    /// first line as it is: a template parses as its file would on its own, as ``TemplateSyntax`` parses it).
    static let prefix = pragma + "\n"
    func escapeText(_ text: String) -> String { MarkdownValues.token(for: text) }

    private static let registration: Void = { MustacheContentTypes.register(MarkdownContentType(), named: "MARKDOWN") }()
    static func registerOnce() { _ = registration }
}

/// The path with every symbolic link resolved, or nil when it does not exist.
private func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}
