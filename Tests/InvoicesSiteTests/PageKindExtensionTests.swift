import Foundation
import InvoicesCore
import InvoicesReport
@testable import InvoicesSite
import InvoicesStore
import InvoicesTesting
import Testing

/// A kind of page the test target adds, in one type: the first client's invoice notes, linking the client's page.
///
/// It also shows the last client's notes without fingerprinting them, on purpose: a rebuild that reuses its unit
/// then shows the old notes, which is how the test sees that its fingerprint decided.
struct NotesPage: SiteWidePageKind {
    let site: SiteView
    static let path = "notes/all.html"
    var key: String { "notes" }
    func inputs(_ inputs: SiteBuilder.Inputs) -> UInt64 { fingerprint(inputs.clients[0], templates: ["notes"]) }
    func files() -> [File] {
        let links = SitePaths.Links(from: Self.path)
        let clients = [0, books.clients.count - 1].map { client in
            let notes = site.invoicesByClient[client].map { books.invoices[$0].notes }.joined(separator: ", ")
            return Client(name: books.clients[client].name, href: links(site.paths.client(client)), notes: notes)
        }
        return [site.page(Self.path, template: "notes", title: "Notes", Context(clients: clients))]
    }
    /// Its template's context: the names `notes.md` may use follow from it.
    struct Context: PageContext { var clients: [Client] }
    struct Client: Codable, Sendable { var name, href, notes: String }
    static var templateContexts: [String: any PageContext.Type] { ["notes": Context.self] }
    static let rootNames = ["notes"]
    static func sitemap(in site: SiteView) -> [SitemapEntry] { [SitemapEntry(path: path)] }
}

/// A kind whose one template's context has a client's name: `field.md` may use `name`, and nothing else of it.
struct FieldPage: SiteWidePageKind {
    let site: SiteView
    var key: String { "field" }
    func inputs(_ inputs: SiteBuilder.Inputs) -> UInt64 { 0 }
    func files() -> [File] { [] }
    struct Context: PageContext { var name: String }
    static var templateContexts: [String: any PageContext.Type] { ["field": Context.self] }
}

/// ``FieldPage`` with one field added to its context's type, and nothing else changed.
struct GrownFieldPage: SiteWidePageKind {
    let site: SiteView
    var key: String { "field" }
    func inputs(_ inputs: SiteBuilder.Inputs) -> UInt64 { 0 }
    func files() -> [File] { [] }
    struct Context: PageContext {
        var name: String
        var city: String?
    }
    static var templateContexts: [String: any PageContext.Type] { ["field": Context.self] }
}

/// Adding a kind of page is one type and one line (issue 42): its pages are written, its links and sitemap entry
/// made, its template checked against its scope, and its fingerprint honoured by an incremental build.
struct PageKindExtensionTests {
    /// The one line.
    static let kinds = PageKinds.builtIn.adding(NotesPage.self)

    static let template = "# Notes\n\n{{#clients}}\n- [{{name}}]({{href}}): {{notes}}\n{{/clients}}\n"

    struct Project {
        let folder: TemporaryFolder
        var books: Books
        var writer: SiteWriter { SiteWriter(output: folder.path("site")) }

        init() throws {
            folder = try TemporaryFolder()
            try StoreFixture.make(at: folder.path("s.sqlite"), sql: StoreFixture.small)
            books = try BooksStore(path: folder.path("s.sqlite")).books
            try FileManager.default.createDirectory(atPath: folder.path("templates"), withIntermediateDirectories: true)
            try Data(PageKindExtensionTests.template.utf8).write(to: URL(fileURLWithPath: folder.path("templates/notes.md")))
        }

        func site() throws -> SiteBuilder {
            var options = SiteOptions()
            options.baseURL = "https://example.com/r/"
            let templates = try TemplateSet(directory: folder.path("templates"), kinds: PageKindExtensionTests.kinds)
            return SiteBuilder(books: books, report: try Report(books: books), templates: templates, options: options)
        }

        /// Builds the site, reusing what `previous` allows; returns the new manifest and the notes page.
        func build(previous: SiteManifest?) async throws -> (SiteManifest, String) {
            let staging = try writer.begin()
            let manifest = try await site().write(to: staging, previous: previous)
            _ = try staging.commit()
            let page = try String(contentsOfFile: writer.output.path + "/" + NotesPage.path, encoding: .utf8)
            return (manifest, page)
        }

        func file(_ path: String) throws -> String { try String(contentsOfFile: writer.output.path + "/" + path, encoding: .utf8) }
    }

    @Test func itsPagesLinksAndSitemapEntryAreMade() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        let (manifest, page) = try await project.build(previous: nil)
        let site = try project.site()
        #expect(manifest.units["notes"]?.files.map(\.path) == [NotesPage.path])
        #expect(page.contains("<a href=\"../\(site.paths.client(0))\">Acme *Corp*</a>: Design"), "\(page)")
        #expect(page.contains("<link rel=\"stylesheet\" href=\"../style.css\">"), "the layout's root, one folder down")
        let sitemap = try project.file(SitePaths.sitemap)
        #expect(sitemap.contains("<url><loc>https://example.com/r/notes/all.html</loc></url>\n</urlset>"), "\(sitemap)")
        // The built-in kinds are as before: the same pages, the same sitemap entries ahead of the new one.
        #expect(sitemap.contains("<url><loc>https://example.com/r/</loc></url>\n<url><loc>https://example.com/r/clients.html</loc></url>"))
    }

    @Test func itsTemplateIsCheckedAgainstItsScope() throws {
        let project = try Project()
        defer { project.folder.remove() }
        #expect(TemplateSet.problems(directory: project.folder.path("templates"), kinds: Self.kinds).isEmpty)
        let bad = Self.template.replacingOccurrences(of: "{{notes}}", with: "{{notez}}")
        try Data(bad.utf8).write(to: URL(fileURLWithPath: project.folder.path("templates/notes.md")))
        let problems = TemplateSet.problems(directory: project.folder.path("templates"), kinds: Self.kinds)
        #expect(problems.map(\.code) == [.unknownVariable], "\(problems)")
        #expect(problems.first?.line == 4)
        // Without the kind, notes.md is no page: nothing says what it may use, so nothing is checked.
        #expect(TemplateSet.problems(directory: project.folder.path("templates")).isEmpty)
        // Its root folder is the site's: a templates folder may not hold a file of that name.
        try Data().write(to: URL(fileURLWithPath: project.folder.path("templates/notes")))
        #expect(TemplateSet.problems(directory: project.folder.path("templates"), kinds: Self.kinds).map(\.code).contains(.reservedName))
    }

    /// A template is checked against its kind's context type: a name the type lacks is refused with the template's
    /// file and line; adding the field to the type makes the same template accepted, with no list to update.
    @Test func aTemplateIsCheckedAgainstItsContextsType() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Data("# {{name}}\n\nFrom {{city}}\n".utf8).write(to: URL(fileURLWithPath: folder.path("field.md")))
        let refused = TemplateSet.problems(directory: folder.url.path, kinds: PageKinds.builtIn.adding(FieldPage.self))
        #expect(refused.map(\.code) == [.unknownVariable], "\(refused)")
        #expect(refused.first?.path == folder.path("field.md"))
        #expect(refused.first?.line == 3)
        #expect(refused.first?.message.contains("'city'") == true)
        #expect(TemplateSet.problems(directory: folder.url.path, kinds: PageKinds.builtIn.adding(GrownFieldPage.self)).isEmpty)
    }

    @Test func anIncrementalBuildHonoursItsFingerprint() async throws {
        var project = try Project()
        defer { project.folder.remove() }
        let (first, page) = try await project.build(previous: nil)
        #expect(page.contains("Design") && !page.contains("Changed"))
        // The last client's notes change: not in the kind's inputs, so its unit is reused, its page as it was.
        let last = try #require(project.books.invoices.lastIndex { Int($0.clientIndex) == project.books.clients.count - 1 })
        project.books.invoices[last].notes = "Unfingerprinted"
        let (second, reused) = try await project.build(previous: first)
        #expect(second.units["notes"]?.inputs == first.units["notes"]?.inputs)
        #expect(reused == page)
        #expect(try project.file(project.site().paths.client(1)).contains("Unfingerprinted"), "the client's own page is rendered again")
        // The first client's notes change: in its inputs, so the page is rendered again, with both changes.
        project.books.invoices[0].notes = "Changed"
        let (third, rendered) = try await project.build(previous: second)
        #expect(third.units["notes"]?.inputs != second.units["notes"]?.inputs)
        #expect(rendered.contains("Changed") && rendered.contains("Unfingerprinted"), "\(rendered)")
    }
}
