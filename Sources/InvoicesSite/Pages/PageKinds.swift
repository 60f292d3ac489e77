/// The kinds of pages of a site, in order: the one list the scheduler makes its jobs from, and from which the
/// site's sitemap, the names a templates folder may not use, the templates' scopes and the long lists of the
/// compiled row path follow.
///
/// Adding a kind of page is one type in `Pages/` (conforming to ``PageKind``) and one line in ``builtIn``. A caller
/// may add kinds of its own (``adding(_:)``) and load templates for them (``TemplateSet/init(directory:kinds:)``);
/// the site builds what its templates were loaded for.
public struct PageKinds: Sendable {
    let kinds: [any PageKind.Type]

    init(_ kinds: [any PageKind.Type]) { self.kinds = kinds }

    /// The kinds of the site, in the order they are scheduled and listed in the sitemap. The exports are first:
    /// the longest jobs (one per ``ExportFiles/Part``, the journals first), spread over the cores before the pages.
    public static let builtIn = PageKinds([
        ExportFiles.self,
        AssetFiles.self,
        OverviewPage.self,
        ClientsPage.self,
        CollectionsPage.self,
        CollectionsListPage.self,
        NotFoundPage.self,
        ChangesPage.self,
        MonthPage.self,
        MonthListPage.self,
        PeriodPage.self,
        QuarterListsPage.self,
        QuarterTaxListPage.self,
        QuarterPackPage.self,
        ClientPages.self,
        AddressFiles.self,
    ])

    /// These kinds and `kind` after them.
    func adding(_ kind: any PageKind.Type) -> PageKinds { PageKinds(kinds + [kind]) }

    /// The jobs of the whole site, in a stable order; without the kinds written last unless `last`. The units of a
    /// group (``PageKind/jobGroup``) are one job, at the place of the group's first.
    func jobs(in site: SiteView, last: Bool = true) -> [[any PageKind]] {
        var jobs: [[any PageKind]] = []
        var groups: [String: Int] = [:]
        for kind in kinds where last || !kind.writtenLast {
            for job in kind.jobs(in: site) {
                guard let group = job.first?.jobGroup else {
                    jobs.append(job)
                    continue
                }
                if let index = groups[group] {
                    jobs[index] += job
                } else {
                    groups[group] = jobs.count
                    jobs.append(job)
                }
            }
        }
        return jobs
    }

    /// The units written after all the others (``PageKind/writtenLast``).
    func lastUnits(in site: SiteView) -> [any PageKind] {
        var units: [any PageKind] = []
        for kind in kinds where kind.writtenLast { units += kind.jobs(in: site).joined() }
        return units
    }

    /// Each template's scope, by template name: the layout's (``TemplateVariables/layout``) and each kind's.
    var templateScopes: [String: TemplateScope] {
        kinds.reduce(["layout": TemplateVariables.layout]) { scopes, kind in scopes.merging(kind.templateScopes) { _, new in new } }
    }

    /// The long lists of every kind's templates for the compiled row path, by template.
    var fastLists: [String: [(path: [String], columns: [String])]] {
        kinds.reduce([:]) { lists, kind in lists.merging(kind.fastLists) { _, new in new } }
    }

    /// The names at the site's root the kinds write, and the site's own marker file: a templates folder may not
    /// hold them.
    var rootNames: Set<String> { Set(kinds.flatMap { $0.rootNames }).union([SiteWriter.marker]) }

    /// The pages of `sitemap.xml`, kind by kind.
    func sitemap(in site: SiteView) -> [SitemapEntry] { kinds.flatMap { $0.sitemap(in: site) } }
}

extension TemplateVariables {
    /// The scope of each page template, by template name (file name without extension): the layout's and each
    /// built-in kind's (``PageKind/templateScopes``, ``PageKinds/templateScopes``). Here, beside the kinds, so the
    /// template files build without them (scripts/fuzz.sh).
    public static var pages: [String: TemplateScope] { PageKinds.builtIn.templateScopes }
}
