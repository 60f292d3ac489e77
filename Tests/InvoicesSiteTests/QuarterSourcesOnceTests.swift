import Foundation
import InvoicesCore
import InvoicesReport
@testable import InvoicesSite
import InvoicesStore
import InvoicesTesting
import Testing

/// A quarter's tax sources are made once per build for the three kinds that show them (its page, its lists and CSV,
/// its print pack), and let go when the last of them has taken them (issue 46's leftovers).
@Suite struct QuarterSourcesOnceTests {
    @Test func aValueIsMadeOnceForItsTakersAndLetGoAfterTheLast() {
        let shared = SiteBuilder.Inputs.SharedValues<[Int]>()
        var makes = 0
        for _ in 0..<3 {
            #expect(shared.take("q", takers: 3) { makes += 1; return [makes] } == [1])
        }
        #expect(makes == 1)
        #expect(shared.count == 0, "let go after its third taker")
        #expect(shared.take("q", takers: 3) { makes += 1; return [makes] } == [2], "a later build's taker makes it again")
        #expect(shared.count == 1)
        #expect(shared.made == 2)
    }

    /// The scheduler runs a quarter's page, CSV, tax lists and print pack in one job, in that order, where the quarter's page
    /// was; a year's page is a job of its own, and every unit is in exactly one job.
    @Test func aQuartersPageListsAndPackAreOneJob() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try SampleGenerator(clients: 4, invoices: 120, seed: 5).write(to: folder.path("s.sqlite"))
        let books = try BooksStore(path: folder.path("s.sqlite")).books
        let site = SiteBuilder(books: books, report: try Report(books: books), templates: try TemplateSet(), options: SiteOptions())
        let jobs = site.jobs().map { $0.map(\.key) }
        let quarters = site.view.fiscalPeriods().filter { $0.quarter != 0 }
        try #require(!quarters.isEmpty)
        for quarter in quarters {
            let path = SitePaths.period(quarter)
            let job = try #require(jobs.first { $0.first == "period:" + path }, "\(path): \(jobs)")
            #expect(Array(job.prefix(2)) == ["period:" + path, "lists:" + path] && job.last == "pack:" + SitePaths.quarterPack(quarter), "\(job)")
            // Between them the list of each of the quarter's taxes (`quarter-list:quarters/2024-Q3/tax-EUR-1`).
            let lists = job.dropFirst(2).dropLast()
            #expect(!lists.isEmpty && lists.allSatisfy { $0.hasPrefix("quarter-list:" + path.dropLast(".html".count) + "/tax-") }, "\(job)")
        }
        let keys = jobs.joined()
        #expect(Set(keys).count == keys.count)
        #expect(keys.count == PageKinds.builtIn.kinds.flatMap { $0.jobs(in: site.view) }.joined().count)
        for year in site.view.fiscalPeriods() where year.quarter == 0 { #expect(jobs.contains(["period:" + SitePaths.period(year)])) }
    }

    @Test func aFullBuildMakesEachQuartersSourcesOnceAndHoldsNoneAfter() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = folder.path("s.sqlite")
        let sample = try CLI.run(["sample", "--clients", "10", "--invoices", "600", "--seed", "3", "--output", store])
        try #require(sample.status == 0, "\(sample.stderr)")
        let books = try BooksStore(path: store).books
        let site = SiteBuilder(books: books, report: try Report(books: books), templates: try TemplateSet(), options: SiteOptions())
        let quarters = site.view.fiscalPeriods().filter { $0.quarter != 0 }
        try #require(quarters.count >= 4)
        let writer = SiteWriter(output: folder.path("site"))
        let staging = try writer.begin()
        let manifest = try await site.write(to: staging)
        _ = try staging.commit()
        #expect(site.inputs.quarterSources.made == quarters.count, "one pass over a quarter's tax lines per build, not one per kind")
        // A month's clients per currency: one pass per month for all its lists, let go after the last.
        #expect(site.inputs.monthMembers.made == site.view.report.months.count, "one pass over the clients per month, not one per list")
        #expect(site.inputs.monthMembers.count == 0)
        #expect(site.inputs.monthMembers.mostHeld <= ProcessInfo.processInfo.activeProcessorCount)
        #expect(site.inputs.quarterSources.count == 0, "every quarter's sources let go once its page, lists and pack took them")
        // A quarter's three kinds run in one job, so no more quarters' sources are held at once than jobs run at once
        // (all of them were, from the first quarter's page to the last one's pack: 76 MiB at L).
        #expect(site.inputs.quarterSources.mostHeld <= ProcessInfo.processInfo.activeProcessorCount, "\(site.inputs.quarterSources.mostHeld) held at once")
        // What the three kinds wrote is what each makes from the figures on its own (the in-memory path).
        for quarter in quarters {
            let page = PeriodPage(site: site.view, period: quarter, periods: site.view.fiscalPeriods())
            let csv = SitePaths.periodCSV(quarter)
            guard manifest.units["lists:" + SitePaths.period(quarter)]?.files.contains(where: { $0.path == csv }) == true else { continue }
            let written = try Data(contentsOf: URL(fileURLWithPath: folder.path("site/" + csv)))
            #expect(written == Data(page.csv(sources: page.taxSources()).utf8), "\(csv)")
        }
    }
}
