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
        #expect(site.inputs.quarterSources.count == 0, "every quarter's sources let go once its page, lists and pack took them")
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
