import Foundation
import InvoicesCore
import InvoicesReport
@testable import InvoicesSite
import InvoicesTesting
import Testing

/// The exports as several units (issue 46: the full build's wall): each part its own job, so the cores share them,
/// and a DATEV refusal that reaches the writer is the build's error, not a site silently without its DATEV files.
struct ExportUnitsTests {
    /// The exports are one job per part, before the pages, the journals first; without `datev:` there is no DATEV
    /// job. Together the parts write what `ExportFiles(site:)` writes, each file once.
    @Test func theExportsAreSeveralJobsBeforeThePages() throws {
        let (books, report, options) = try SiteFiguresTests.inputs(fiscalYearStart: 1)
        let site = SiteBuilder(books: books, report: report, templates: try TemplateSet(), options: options)
        let jobs = site.jobs()
        let exports = jobs.prefix { $0.first is ExportFiles }
        #expect(exports.count == 5, "json, tables, payments, journal, beancount")
        #expect(exports.allSatisfy { $0.count == 1 })
        #expect(!jobs.dropFirst(exports.count).contains { job in job.contains { $0 is ExportFiles } })
        let parts = exports.compactMap { ($0.first as? ExportFiles)?.parts }
        #expect(parts.first == [.journal])
        #expect(Set(parts.map(\.count)) == [1] && Set(parts.joined()).count == 5)
        #expect(Set(exports.compactMap { $0.first?.key }).count == 5)
        let apart = exports.flatMap { $0.flatMap { $0.allFiles() } }.map(\.path)
        let whole = ExportFiles(site: site.view).files().map(\.path)
        #expect(apart.sorted() == whole.sorted())
        #expect(Set(apart).count == apart.count)
    }

    /// While the gate is shut (the trail's order being made), the scheduler starts the pages' jobs in their order
    /// and none of the exports'; once it opens, the exports' first, in their order; with only the exports' left
    /// and the gate never opened, the exports' all the same. Without a gate, the list's order.
    @Test func theExportsStartOnceTheGateIsOpen() throws {
        let (books, report, options) = try SiteFiguresTests.inputs(fiscalYearStart: 1)
        let site = SiteBuilder(books: books, report: report, templates: try TemplateSet(), options: options)
        let jobs = site.jobs()
        let exports = jobs.prefix { $0.first is ExportFiles }.count
        #expect(exports > 0 && jobs.count > exports + 2)
        var started = [Bool](repeating: false, count: jobs.count)
        #expect(SiteBuilder.nextJob(jobs, started: started, from: 0, gate: nil) == 0)
        let gate = SiteBuilder.Gate()
        for expected in [exports, exports + 1] {
            let next = try #require(SiteBuilder.nextJob(jobs, started: started, from: 0, gate: gate))
            #expect(next == expected)
            started[next] = true
        }
        gate.open()
        #expect(SiteBuilder.nextJob(jobs, started: started, from: 0, gate: gate) == 0)
        let shut = SiteBuilder.Gate()
        var pagesDone = [Bool](repeating: true, count: jobs.count)
        pagesDone[1] = false
        #expect(SiteBuilder.nextJob(jobs, started: pagesDone, from: 0, gate: shut) == 1, "only an export left")
        #expect(SiteBuilder.nextJob(jobs, started: [Bool](repeating: true, count: jobs.count), from: 0, gate: shut) == nil)
    }

    /// A site written with a gate never opened is every unit, the exports' too (the gate orders, never holds back).
    @Test(.temporaryFolder) func aGateNeverOpenedStillWritesTheExports() async throws {
        let (books, report, options) = try SiteFiguresTests.inputs(fiscalYearStart: 1)
        let site = SiteBuilder(books: books, report: report, templates: try TemplateSet(), options: options)
        let staging = try SiteWriter(output: try TemporaryFolder.current.path("site")).begin()
        defer { staging.discard() }
        let manifest = try await site.write(to: staging, changes: false, exportsAfter: SiteBuilder.Gate())
        let keys = site.jobs(changes: false).joined().map(\.key)
        #expect(Set(manifest.units.keys) == Set(keys))
        #expect(keys.filter { $0.hasPrefix("exports:") }.count == 5)
    }

    /// A DATEV refusal the figures did not hold (here the check's result taken out of them: two clients share a
    /// debtor account) stops the write of the DATEV unit with an error naming the DATEV folder and the refusal,
    /// in the plain write and in the write in pieces. Before, `try?` on the layouts wrote no DATEV file and no error.
    @Test(.temporaryFolder) func aDATEVRefusalTheWriterMeetsIsAnError() throws {
        let (books, report, plain) = try SiteFiguresTests.inputs(fiscalYearStart: 1)
        var options = plain
        var settings = DATEVSettings(adviser: 1001, client: 42, chart: "SKR04", revenue: ["20": 4400, "0": 4120])
        for totals in report.clients { settings.debtors[books.clients[totals.clientIndex].number] = 20000 }
        options.datev = settings
        var figures = SiteFigures(books: books, report: report, fiscalYearStart: 1, datev: settings)
        #expect(figures.datev?.refusal != nil)
        figures.datev?.refusal = nil
        let site = SiteBuilder(books: books, report: report, figures: figures, templates: try TemplateSet(), options: options)
        let datev = try #require(site.jobs().joined().compactMap { $0 as? ExportFiles }.first { $0.parts == [.datev] })
        let output = try TemporaryFolder.current.path("site")
        let staging = try SiteWriter(output: output).begin()
        defer { staging.discard() }
        #expect {
            _ = try datev.write(to: staging)
        } throws: { error in
            let error = error as? SiteWriteError
            return error?.path.hasSuffix("/datev") == true && error?.message.contains("share the DATEV debtor account 20000") == true
        }
        #expect {
            _ = try datev.write(to: staging, inputs: site.inputs, previous: nil)
        } throws: { error in
            (error as? SiteWriteError)?.message.contains("share the DATEV debtor account 20000") == true
        }
    }
}

/// The exports' index is merged from the units that wrote (``SiteBuilder/Inputs/ExportValues``): nothing when no unit
/// wrote (the previous index still holds), else the files written, and the previous entries of the new manifest's
/// other files (their units reused whole), never a file the new site does not have; the same in any order.
struct ExportIndexMergeTests {
    static func file(_ hash: UInt64) -> ExportPieces.FileIndex { .init(hash: hash, pieces: [.init(key: hash, offset: 1, length: 2)]) }

    @Test(.temporaryFolder) func theIndexIsTheWrittenFilesAndTheReusedOnes() throws {
        let url = URL(fileURLWithPath: try TemporaryFolder.current.path("pieces"))
        try ExportPieces(files: ["a.csv": Self.file(1), "b.csv": Self.file(2), "gone.csv": Self.file(3)]).write(to: url)
        let manifest = SiteManifest(units: [
            "exports:a": .init(inputs: 0, files: [.init(path: "a.csv", size: 10, hash: 1)]),
            "exports:b": .init(inputs: 0, files: [.init(path: "b.csv", size: 10, hash: 20)]),
            "exports:c": .init(inputs: 0, files: [.init(path: "c.csv", size: 10, hash: 30)]),
        ])
        let values = SiteBuilder.Inputs.ExportValues()
        #expect(values.previousIndex(url)?.files.count == 3)
        #expect(values.index(for: manifest) == nil, "no unit wrote")
        values.add("c.csv", Self.file(30))
        values.add("b.csv", Self.file(20))
        let index = try #require(values.index(for: manifest))
        #expect(index == ExportPieces(files: ["a.csv": Self.file(1), "b.csv": Self.file(20), "c.csv": Self.file(30)]))
        let other = SiteBuilder.Inputs.ExportValues()
        _ = other.previousIndex(url)
        other.add("b.csv", Self.file(20))
        other.add("c.csv", Self.file(30))
        #expect(other.index(for: manifest)?.text == index.text)
        // Without a previous index (a full build), only what was written.
        let full = SiteBuilder.Inputs.ExportValues()
        full.add("b.csv", Self.file(20))
        #expect(full.index(for: manifest) == ExportPieces(files: ["b.csv": Self.file(20)]))
    }
}
