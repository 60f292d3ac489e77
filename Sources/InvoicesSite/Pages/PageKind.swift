import Foundation
internal import InvoicesCore
internal import InvoicesReport

/// One kind of page of the site: the overview, the client list, a client's pages, a month, a fiscal year or
/// quarter, collections, the exports, what changed, the feed and sitemap, the assets, the 404 page.
///
/// Each declares in one place what it is made of, and ``SiteBuilder`` only schedules them:
/// - ``key``: its unit in the manifest (``SiteManifest``); an incremental build reuses a unit's files while its
///   inputs are unchanged;
/// - ``inputs(_:)``: the fingerprint of everything its files are rendered from, its templates included;
/// - ``files()``: its files at their addresses: its pages through their templates and rows, the pages of its long
///   lists (``PagedList``), and any file beside them.
///
/// What every page shares (the layout, money, the addresses of the other pages, the pages of a long list) is the
/// ``site``'s, a read-only ``SiteView``.
///
/// What the site derives from its kinds (``PageKinds``) the kind declares as static members: its units
/// (``jobs(in:)``), its templates with the type of each one's context (``templateContexts``, from which the names
/// each may use, ``templateScopes``, and its long lists for the compiled row path, ``fastLists``, are derived), the names at the site's root it writes (``rootNames``) and its pages in `sitemap.xml`
/// (``sitemap(in:)``). Adding a kind is one type in `Pages/` and one line in ``PageKinds/builtIn``.
protocol PageKind: Sendable {
    /// The site it is part of: the books, the report, the templates, the options and the paths.
    var site: SiteView { get }
    var key: String { get }
    func inputs(_ inputs: SiteBuilder.Inputs) -> UInt64
    /// Its own files: its pages, and any file beside them (the pages of its long lists are ``pagedLists()``).
    func files() -> [SiteBuilder.File]
    /// Its long lists that go to pages of their own (``PagedList``); by default none.
    func pagedLists() -> [PagedList]
    /// Writes its files into `staging`: by default each of ``files()`` in turn, then each page of its
    /// ``pagedLists()``, rendered one at a time as it is written.
    func write(to staging: SiteStaging) throws(SiteWriteError) -> [SiteManifest.File]
    /// The kind with what both ``inputs(_:)`` and ``files()`` need worked out once (the scheduler calls it before
    /// either, on the job's own task); by default the kind itself.
    func prepared() -> Self
    /// ``prepared()`` for a build with `inputs`, whose values worked out once per build it may take; by default
    /// ``prepared()``. The scheduler (``IncrementalUnits``) calls this one.
    func prepared(with inputs: SiteBuilder.Inputs) -> Self
    /// The job its unit runs in: units of the same group (of any kind) run in one job, one after the other in the
    /// kinds' order, at the place of the group's first (``PageKinds/jobs(in:last:)``); nil (the default) for a job
    /// of its own. A quarter's page, lists and print pack are one group: the quarter's tax sources they share
    /// (``SiteBuilder/Inputs/quarterSources``) are then held while that job runs, not from the quarters' first
    /// page to their last pack.
    var jobGroup: String? { get }

    /// Its units in `site`, in jobs that render independently (each job's units one after the other).
    static func jobs(in site: SiteView) -> [[any PageKind]]
    /// The templates it renders, each with the type of its context (``PageContext``): the one place that says
    /// what a template may use (``templateScopes``) and which of its lists take the compiled row path
    /// (``fastLists``). By default none.
    static var templateContexts: [String: any PageContext.Type] { get }
    /// The files and folders at the site's root it writes, which a templates folder may not hold
    /// (``TemplateSet``); by default none.
    static var rootNames: [String] { get }
    /// Its pages in `sitemap.xml` (with a base URL), from the site's root; by default none.
    static func sitemap(in site: SiteView) -> [SitemapEntry]
    /// Whether its unit is written after all the others, once ``SiteView/changeLog`` is known (the changes page).
    static var writtenLast: Bool { get }
}

/// A page of `sitemap.xml`: its path from the site's root, and the day it last changed when known.
struct SitemapEntry: Sendable {
    var path: String
    var lastModified: CalendarDate? = nil
}

/// A kind with one unit for the whole site, made from the site alone.
protocol SiteWidePageKind: PageKind {
    init(site: SiteView)
}

extension SiteWidePageKind {
    static func jobs(in site: SiteView) -> [[any PageKind]] { [[Self(site: site)]] }
}

extension PageKind {
    typealias File = SiteBuilder.File

    static var templateContexts: [String: any PageContext.Type] { [:] }

    /// The templates it renders, each with its scope: the names the template may use, which `invoices check` and
    /// every build check it against (``TemplateChecker``). Derived from each template's context type
    /// (``PageContext/scope``), never written by hand.
    static var templateScopes: [String: TemplateScope] { templateContexts.mapValues { $0.scope } }

    /// Its long lists that may render by the compiled row path (``RowTemplate``): by template, the path of names to
    /// the list from the page's context, and its row's columns: each ``Rows`` field of a template's context type.
    static var fastLists: [String: [(path: [String], columns: [String])]] {
        templateContexts.compactMapValues { $0.fastLists.isEmpty ? nil : $0.fastLists }
    }
    static var rootNames: [String] { [] }
    static func sitemap(in site: SiteView) -> [SitemapEntry] { [] }
    static var writtenLast: Bool { false }

    var books: Books { site.books }
    var report: Report { site.report }
    var options: SiteOptions { site.options }
    var templates: TemplateSet { site.templates }

    func prepared() -> Self { self }
    func prepared(with inputs: SiteBuilder.Inputs) -> Self { prepared() }
    var jobGroup: String? { nil }

    func pagedLists() -> [PagedList] { [] }

    func write(to staging: SiteStaging) throws(SiteWriteError) -> [SiteManifest.File] { try write(files(), pagedLists(), to: staging) }

    /// Writes `files`, then each page of `lists`, rendered one at a time as it is written.
    func write(_ files: [File], _ lists: [PagedList], to staging: SiteStaging) throws(SiteWriteError) -> [SiteManifest.File] {
        var written: [SiteManifest.File] = []
        for file in files { written.append(try staging.write(file)) }
        for list in lists {
            try site.forEachPage(of: list) { (file) throws(SiteWriteError) in written.append(try staging.write(file)) }
        }
        return written
    }

    /// Every file it writes, its list pages included, in memory (for tests and ``SiteBuilder/files()``).
    func allFiles() -> [SiteBuilder.File] { files() + pagedLists().flatMap(site.pages(of:)) }

    /// A unit's inputs: `data` (the fingerprint of what it shows of the books), its key, and its `templates`
    /// (each with its partials, the layout and the assets: ``TemplateSet/fingerprints``).
    func fingerprint(_ data: UInt64, templates names: [String]) -> UInt64 {
        var fingerprint = Fingerprint(seed: data)
        fingerprint.add(key)
        for name in names { fingerprint.add(templates.fingerprints[name] ?? 0) }
        return fingerprint.value
    }
}

/// The stylesheet, scripts and other assets of the templates, as they are.
struct AssetFiles: SiteWidePageKind {
    let site: SiteView
    var key: String { "assets" }
    func inputs(_ inputs: SiteBuilder.Inputs) -> UInt64 { fingerprint(templates.assetsFingerprint ^ inputs.base, templates: []) }
    func files() -> [File] { templates.assets.sorted(by: { $0.key < $1.key }).map { File(path: $0.key, data: $0.value) } }
}
