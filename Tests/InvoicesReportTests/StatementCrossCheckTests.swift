import Foundation
import GRDB
import InvoicesCore
import InvoicesReport
import InvoicesStore
import Testing

/// Client statements on a generated store against SQL over the same file: for every client and currency, the
/// opening balance plus the lines is the closing balance, both balances are what SQL sums from every balance event
/// (credit notes' applications included), the lines are the events SQL lists, and the closing balance is the
/// report's own figure (outstanding less credit at the as-of date).
struct StatementCrossCheckTests {
    struct Key: Hashable, CustomStringConvertible {
        var client: String
        var currency: String
        var description: String { "\(client) \(currency)" }
    }

    /// Every line a statement shows, in SQL (applications of credit notes move credit between two of the same
    /// client's invoices and are no line). Columns: clientId, currency, day, delta.
    static let lines = """
        lines(clientId, currency, day, delta) AS (
            SELECT clientId, currency, issuedOn, amount FROM invoice WHERE status = 'sent' AND kind = 'invoice'
            UNION ALL SELECT clientId, currency, issuedOn, -amount FROM invoice WHERE status = 'sent' AND kind = 'credit'
            UNION ALL SELECT i.clientId, i.currency, p.paidOn, -p.amount FROM payment p JOIN invoice i ON i.id = p.invoiceId
            UNION ALL SELECT i.clientId, i.currency, w.writtenOffOn, -w.amount FROM writeOff w JOIN invoice i ON i.id = w.invoiceId
                WHERE i.status = 'sent' AND i.kind = 'invoice')
        """

    struct Expected {
        var opening: Int64 = 0
        var closing: Int64 = 0
        var lines = 0
        var activity: Int64 = 0
    }

    func expected(_ queue: DatabaseQueue, from: CalendarDate, to: CalendarDate) throws -> [Key: Expected] {
        var expected: [Key: Expected] = [:]
        try queue.readNow { db in
            for row in try Row.fetchAll(
                db,
                sql: """
                    WITH \(ReportCrossCheckTests.events)
                    SELECT c.number, i.currency,
                           coalesce(sum(CASE WHEN e.day < ? THEN e.delta END), 0) AS opening,
                           coalesce(sum(CASE WHEN e.day <= ? THEN e.delta END), 0) AS closing
                    FROM events e JOIN invoice i ON i.id = e.invoiceId JOIN client c ON c.id = i.clientId GROUP BY 1, 2
                    """, arguments: [from.description, to.description])
            {
                let key = Key(client: row["number"], currency: row["currency"])
                expected[key, default: Expected()].opening = row["opening"]
                expected[key, default: Expected()].closing = row["closing"]
            }
            for row in try Row.fetchAll(
                db,
                sql: """
                    WITH \(Self.lines)
                    SELECT c.number, l.currency, count(*) AS n, sum(l.delta) AS activity
                    FROM lines l JOIN client c ON c.id = l.clientId WHERE l.day BETWEEN ? AND ? GROUP BY 1, 2
                    """, arguments: [from.description, to.description])
            {
                let key = Key(client: row["number"], currency: row["currency"])
                expected[key, default: Expected()].lines = row["n"]
                expected[key, default: Expected()].activity = row["activity"]
            }
        }
        return expected
    }

    /// The whole store; one month in the middle (an opening balance); an as-of date inside the last months; a fiscal
    /// quarter (`--quarter`) and a fiscal year (`--year`) with years from April and from July.
    @Test(arguments: [0, 1, 2, 3, 4])
    func statementsMatchSQLAndTheReport(choice: Int) throws {
        let path = try ReportCrossCheckTests.store.get()
        let books = try BooksStore(path: path).books
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        let whole = try Report(books: books)
        let period: ReportPeriod
        switch choice {
        case 0: period = ReportPeriod()
        case 1: period = ReportPeriod(month: whole.months[12])
        case 2: period = ReportPeriod(months: whole.months[3]...whole.months[20], asOf: whole.months[19].firstDay.adding(days: 9))
        case 3:
            // The third quarter of the fiscal year from April that the store's 13th month falls in.
            period = .fiscalQuarter(3, of: whole.months[12].fiscal(startingIn: 4).year, startingIn: 4)
        default:
            // The fiscal year from July that the store's 9th month falls in: it starts before that month.
            period = .fiscalYear(whole.months[8].fiscal(startingIn: 7).year, startingIn: 7)
        }
        let report = try Report(books: books, period: period)
        switch choice {
        case 3:
            #expect(report.months.count == 3 && report.months.allSatisfy { $0.fiscal(startingIn: 4).quarter == 3 })
            #expect(report.months[0].month == 10)
        case 4:
            #expect(report.months.count == 12 && report.months[0].month == 7 && report.months[11].month == 6)
            #expect(Set(report.months.map { $0.fiscal(startingIn: 7).year }).count == 1)
            #expect(report.months.contains(whole.months[8]))
        default: break
        }
        let (from, to) = try #require(report.statementPeriod)
        #expect(from == report.months[0].firstDay)
        #expect(to == report.asOf)
        let expected = try expected(queue, from: from, to: to)

        var invoicesByClient = Array(repeating: [Int](), count: books.clients.count)
        for index in books.invoices.indices { invoicesByClient[Int(books.invoices[index].clientIndex)].append(index) }
        var seen = 0
        var withOpening = 0
        var seenKeys = Set<Key>()
        var kinds = Set<ClientStatement.Line.Kind>()
        for totals in report.clients {
            let statements = try report.statements(of: totals, invoices: invoicesByClient[totals.clientIndex], in: books)
            #expect(statements.map(\.currency) == totals.currencies.map(\.currency))
            for (statement, entry) in zip(statements, totals.currencies) {
                let key = Key(client: books.clients[totals.clientIndex].number, currency: statement.currency.code)
                let want = expected[key] ?? Expected()
                seen += 1
                seenKeys.insert(key)
                // Opening balance + activity = closing balance, line by line.
                var balance = statement.opening
                for line in statement.lines {
                    #expect(line.day >= from && line.day <= to, "\(key)")
                    balance += line.delta
                    #expect(line.balance == balance, "\(key)")
                    kinds.insert(line.kind)
                }
                #expect(balance == statement.closing, "\(key)")
                #expect(statement.charges - statement.credits == statement.closing - statement.opening, "\(key)")
                // Both balances and the lines, as SQL finds them.
                #expect(statement.opening == want.opening, "\(key)")
                #expect(statement.closing == want.closing, "\(key)")
                #expect(statement.lines.count == want.lines, "\(key)")
                #expect(statement.closing - statement.opening == want.activity, "\(key)")
                // The closing balance is the report's balance figure at the as-of date.
                #expect(statement.closing == entry.period.outstanding - entry.period.credit, "\(key)")
                // In date order.
                #expect(zip(statement.lines, statement.lines.dropFirst()).allSatisfy { $0.day <= $1.day }, "\(key)")
                if statement.opening != 0 { withOpening += 1 }
            }
        }
        #expect(seen > 60)
        // Every pair SQL sees with a balance or a line has a statement.
        for (key, want) in expected where want.lines > 0 || want.opening != 0 || want.closing != 0 {
            #expect(seenKeys.contains(key), "\(key) has no statement")
        }
        if choice != 0 { #expect(withOpening > 0) }
        if choice == 0 { #expect(kinds == [.invoice, .creditNote, .payment, .refund, .writeOff]) }
    }
}
