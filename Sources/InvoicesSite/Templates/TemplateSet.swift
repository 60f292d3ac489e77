import Foundation
internal import Mustache

/// The templates a site is built from: the defaults that ship with the tool, each replaceable by a file of the
/// same name in a user's templates folder.
///
/// Markdown templates (`*.md`) escape every `{{value}}` with ``MarkdownEscaper``; the HTML layout
/// (`layout.html`) escapes values for HTML. Partials are referenced by file name without extension:
/// `{{> totals-table}}`.
public struct TemplateSet: Sendable {
    /// Where each template came from, by file name (a path, or `(default)`).
    public private(set) var sources: [String: String] = [:]
    let library: MustacheLibrary
    /// Non-template files to copy into the site (`style.css`), by name.
    let assets: [String: Data]
    /// Compiled row templates of the long lists (see ``TemplateSet/fastLists``), rendered after cmark.
    let rowTemplates: [RowTemplate]

    /// The default templates, as they ship with the tool.
    public static var defaultFiles: [String: String] { DefaultTemplates.files }

    /// Loads the default templates, replacing each by the file of the same name in `directory` when there is one.
    /// - Throws: ``TemplateError`` naming the file, line and column of a template that does not parse, or of a
    ///   name its context does not have (see ``TemplateVariables``).
    public init(directory: String? = nil) throws(TemplateError) {
        MarkdownContentType.registerOnce()
        var texts: [String: (text: String, source: String)] = [:]
        for (name, text) in DefaultTemplates.files { texts[name] = (text, "(default) \(name)") }
        if let directory {
            let url = URL(fileURLWithPath: directory)
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: directory)
            } catch {
                throw TemplateError(code: .missingFolder, path: directory, line: 0, column: 0, message: "templates folder cannot be read")
            }
            for name in names.sorted() where !name.hasPrefix(".") {
                let path = url.appendingPathComponent(name).path
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                    throw TemplateError(code: .unreadable, path: path, line: 0, column: 0, message: "cannot be read as UTF-8 text")
                }
                texts[name] = (text, path)
            }
        }
        var library = MustacheLibrary()
        var assets: [String: Data] = [:]
        var rowTemplates: [RowTemplate] = []
        for (name, entry) in texts.sorted(by: { $0.key < $1.key }) {
            sources[name] = entry.source
            let stem = (name as NSString).deletingPathExtension
            let ext = (name as NSString).pathExtension
            switch ext {
            case "md":
                let prefix = MarkdownContentType.pragma
                var template = try Self.parse(prefix + entry.text, path: entry.source, prefix: prefix.count)
                var rewritten = entry.text
                for fast in Self.fastLists[stem] ?? [] {
                    rewritten = Self.rewritingFastRows(rewritten, section: fast.section, columns: fast.columns, rowTemplates: &rowTemplates)
                }
                if rewritten != entry.text { template = try Self.parse(prefix + rewritten, path: entry.source, prefix: prefix.count) }
                library.register(template, named: stem)
            case "html":
                library.register(try Self.parse(entry.text, path: entry.source, prefix: 0), named: stem)
            default:
                assets[name] = Data(entry.text.utf8)
            }
        }
        var checked: [String: (text: String, path: String)] = [:]
        for (name, entry) in texts where name.hasSuffix(".md") || name.hasSuffix(".html") {
            checked[(name as NSString).deletingPathExtension] = (entry.text, entry.source)
        }
        if let error = TemplateChecker(texts: checked).check().first { throw error }
        self.library = library
        self.assets = assets
        self.rowTemplates = rowTemplates
    }

    static func parse(_ text: String, path: String, prefix: Int) throws(TemplateError) -> MustacheTemplate {
        do {
            return try MustacheTemplate(string: text)
        } catch let error as MustacheTemplate.ParserError {
            let column = error.context.lineNumber == 1 ? max(error.context.columnNumber - prefix, 1) : error.context.columnNumber
            throw TemplateError(
                code: .syntax, path: path, line: error.context.lineNumber, column: column,
                message: TemplateError.describe(error.error))
        } catch {
            throw TemplateError(code: .syntax, path: path, line: 1, column: 1, message: "\(error)")
        }
    }

    /// Renders the template `name` (without extension) with `context`.
    func render(_ name: String, _ context: [String: Any]) -> String {
        library.render(context, withTemplate: name) ?? ""
    }

    /// Whether a template named `name` (without extension) exists.
    func has(_ name: String) -> Bool { library.getTemplate(named: name) != nil }
}

/// Escapes values in Markdown templates with ``MarkdownEscaper``.
struct MarkdownContentType: MustacheContentType {
    static let pragma = "{{%CONTENT_TYPE:MARKDOWN}}"
    func escapeText(_ text: String) -> String { MarkdownEscaper.escape(text) }

    private static let registration: Void = { MustacheContentTypes.register(MarkdownContentType(), named: "MARKDOWN") }()
    static func registerOnce() { _ = registration }
}
