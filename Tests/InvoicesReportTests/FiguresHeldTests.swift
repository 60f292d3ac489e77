import Foundation
import InvoicesApp
import InvoicesCore
import InvoicesReport
import InvoicesStore
import Testing

/// Issue 46 (peak ≤ 1 GB at 20,000 clients and 2,000,000 invoices): the figures a build holds through the render
/// are no larger than they need to be. Every client's statements are not held, but worked out when a page reads
/// them; the quarters' tax sources and the journal's transactions are not lists grown by doubling to up to twice
/// their length (docs/performance.md, "The figures held through the render").
struct FiguresHeldTests {
    static func read() async throws -> BooksAndReport {
        try await BooksAndReport.read(store: BooksStore(path: ChildContextFiguresTests.store.get()), period: ReportPeriod(), fiscalYearStart: 4)
    }

    /// How many statements and statement lines `value` holds, the books and the report (the figures' inputs) aside.
    static func statementsHeld(in value: Any) -> Int {
        if value is Books || value is Report { return 0 }
        if value is ClientStatement || value is ClientStatement.Line { return 1 }
        return Mirror(reflecting: value).children.reduce(0) { $0 + statementsHeld(in: $1.value) }
    }

    /// The figures hold no statement, yet each client's statements read from them are the report's.
    @Test func statementsAreWorkedOutWhenRead() async throws {
        let read = try await Self.read()
        #expect(Self.statementsHeld(in: read.figures) == 0)
        var lines = 0
        for totals in read.report.clients {
            let expected = Result { () throws(ReportError) in
                try read.report.statements(of: totals, invoices: read.figures.invoicesByClient[totals.clientIndex], in: read.books)
            }
            #expect(read.figures.statements[totals.clientIndex] == expected)
            lines += (try? expected.get())?.reduce(0) { $0 + $1.lines.count } ?? 0
        }
        #expect(lines > 1_000)
        // A client without figures has no statements; statements put in are the ones read back.
        #expect(read.figures.statements.count == read.books.clients.count)
        var figures = read.figures
        let client = try #require(read.report.clients.first).clientIndex
        figures.statements[client] = .success([])
        #expect(figures.statements[client] == .success([]))
        #expect(figures != read.figures)
    }

    /// Each quarter's lists of tax sources and the journal's transactions hold their length, give or take the
    /// allocator's rounding, not the spare room of a list grown by doubling.
    @Test func taxSourcesAndTransactionsHoldTheirLength() async throws {
        let read = try await Self.read()
        var lists = 0
        for quarter in read.figures.taxSources {
            for (key, list) in quarter {
                lists += 1
                #expect(list.capacity - list.count <= 1, "\(key): \(list.count) sources, room for \(list.capacity)")
            }
        }
        #expect(lists > 4)
        let entries = read.figures.journal.entries
        #expect(entries.count > 1_200)
        #expect(entries.capacity <= read.books.invoices.count + read.books.payments.count + read.books.writeOffs.count + 1)
    }
}
