import Foundation
import InvoicesApp
import InvoicesCore
import InvoicesReport
import InvoicesStore
import Testing

/// Issue 46 (peak ≤ 1 GB at 20,000 clients and 2,000,000 invoices): the figures a build holds through the render
/// are no larger than they need to be. Every client's statements and every quarter's tax sources are not held, but
/// worked out when a page reads them; the journal's transactions are not a list grown by doubling to up to twice its
/// length (docs/performance.md, "The figures held through the render" and "The peak at L under 1 GB").
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

    /// How many tax sources `value` holds, the books and the report aside.
    static func taxSourcesHeld(in value: Any) -> Int {
        if value is Books || value is Report || value is [Int32] { return 0 }
        if value is TaxSource { return 1 }
        return Mirror(reflecting: value).children.reduce(0) { $0 + taxSourcesHeld(in: $1.value) }
    }

    /// The figures hold no tax source, only the tax lines each quarter's come from (4 bytes a line against a
    /// source's 40); read, each quarter's sources are those of a pass over every tax line.
    @Test func taxSourcesAreWorkedOutWhenRead() async throws {
        let read = try await Self.read()
        #expect(Self.taxSourcesHeld(in: read.figures) == 0)
        var sources = 0
        for (position, period) in read.figures.periods.enumerated() where period.quarter != 0 {
            let first = read.report.months[period.offsets.lowerBound], last = read.report.months[period.offsets.upperBound - 1]
            let expected = Report.taxSources(in: read.books, from: first.firstDay, to: last.lastDay)
            #expect(read.figures.taxSources[position] == expected, "\(period.year)-Q\(period.quarter)")
            sources += expected.values.reduce(0) { $0 + $1.count }
        }
        #expect(sources > 1_000)
        #expect(read.figures.taxSources.linesHeld < 2 * sources)
        // Sources put in are the ones read back.
        var figures = read.figures
        let quarter = try #require(figures.periods.indices.first { figures.periods[$0].quarter != 0 })
        figures.taxSources[quarter] = [:]
        #expect(figures.taxSources[quarter].isEmpty && !read.figures.taxSources[quarter].isEmpty)
        #expect(figures != read.figures)
    }

    /// A quarter's sources from its lines alone are the full pass's: an invoice paid in later quarters (cash basis
    /// there), one paid before it was issued, a credit note, a draft, and invoices without tax lines between them
    /// (the first payment of a line's invoice found past theirs).
    @Test func aQuartersLinesGiveTheFullPassSources() throws {
        func day(_ text: String) -> CalendarDate { CalendarDate(iso: text)! }
        var invoices: [InvoiceSnapshot] = []
        var payments: [PaymentSnapshot] = []
        var lines: [TaxLineSnapshot] = []
        func invoice(_ issued: String, _ paid: [String], kind: InvoiceKind = .invoice, status: InvoiceStatus = .sent, taxed: Bool = true) {
            let index = Int32(invoices.count)
            invoices.append(InvoiceSnapshot(
                id: Int64(index + 1), identifier: "INV-\(index)", clientIndex: 0, currencyIndex: 0, amount: 1190,
                issued: day(issued), due: day(issued), paid: nil, notes: "", status: status, kind: kind, net: taxed ? 1000 : 1190))
            for date in paid { payments.append(PaymentSnapshot(invoiceIndex: index, date: day(date), amount: 1190 / Int64(paid.count))) }
            if taxed {
                lines.append(TaxLineSnapshot(invoiceIndex: index, taxIndex: 0, net: 600, amount: 114))
                lines.append(TaxLineSnapshot(invoiceIndex: index, taxIndex: 1, net: 400, amount: 76))
            }
        }
        invoice("2025-01-15", ["2025-04-10", "2025-07-01"])
        for _ in 0..<40 { invoice("2025-02-01", ["2025-02-02", "2025-05-02", "2025-08-02"], taxed: false) }
        invoice("2025-01-02", ["2024-12-31"])
        invoice("2025-05-20", [], kind: .creditNote)
        invoice("2025-02-10", ["2025-02-11"], status: .draft)
        invoice("2025-09-30", ["2025-09-30", "2025-10-01"])
        let books = Books(
            clients: [ClientSnapshot(id: 1, number: "C-1", name: "Acme")], invoices: invoices, currencies: [try CurrencyCode("EUR")],
            payments: payments, taxLines: lines, taxes: [TaxRate(name: "VAT", milliPercent: 19000), TaxRate(name: "VAT", milliPercent: 7000)],
            schemaVersion: 2)
        let quarters = [("2024-10-01", "2024-12-31"), ("2025-01-01", "2025-03-31"), ("2025-04-01", "2025-06-30"), ("2025-07-01", "2025-09-30")]
            .map { day($0.0)...day($0.1) }
        // Given out of order, with a year (nil) among them.
        let periods: [ClosedRange<CalendarDate>?] = [nil, quarters[2], quarters[0], quarters[3], quarters[1]]
        let held = Report.taxLines(in: books, periods: periods)
        #expect(held[0].isEmpty)
        var sources = 0
        for (position, days) in periods.enumerated() {
            guard let days else { continue }
            let full = Report.taxSources(in: books, from: days.lowerBound, to: days.upperBound)
            #expect(Report.taxSources(in: books, from: days.lowerBound, to: days.upperBound, lines: held[position].lazy.map(Int.init)) == full)
            #expect(full.values.reduce(0) { $0 + $1.count } <= held[position].count)
            sources += full.values.reduce(0) { $0 + $1.count }
        }
        // Two lines each: Q4 2024 the prepayment; Q1 two issued; Q2 a payment and the credit note; Q3 a payment and
        // an invoice.
        #expect(sources == 2 * (1 + 2 + 2 + 2))
        #expect(!held.joined().contains(6) && !held.joined().contains(7), "the draft's lines are not held")
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
