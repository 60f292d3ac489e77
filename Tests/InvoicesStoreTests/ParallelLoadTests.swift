import Foundation
import GRDB
import InvoicesCore
@testable import InvoicesStore
import InvoicesTesting
import Testing

/// The payments, write-offs and tax lines read on a second connection (issue 46, item 4): the same books and the
/// same messages as one connection reading everything, and only when both connections see one point in time.
struct ParallelLoadTests {
    /// The books of `path` read twice in one read transaction: once with the detail tables from a second
    /// connection (which must have proved it sees this snapshot), once by this connection alone.
    /// With `split`, the invoice table is read in two parts (one per connection) from two invoices on, the second
    /// part handed over in parts of `partRows`; `issueLimit` problems kept.
    static func bothWays(
        _ path: String, split: Bool = true, partRows: Int = 7, issueLimit: Int = 100, paymentRowsBeforeHandOver: Int? = nil,
        request: ((Int64?) -> Void)? = nil, tablesRead: (([String]) -> Void)? = nil, checkedThere: ((Bool) -> Void)? = nil
    ) throws -> (parallel: Result<Books, StoreIssues>, direct: Result<Books, StoreIssues>) {
        var loader = StoreLoader(path: path)
        loader.invoiceSplitMinimum = split ? 2 : .max
        loader.invoicePartRows = partRows
        loader.issueLimit = issueLimit
        loader.paymentRowsBeforeHandOver = paymentRowsBeforeHandOver
        let state = loader.file.commitState()
        #expect(state != nil)
        let queue = try loader.file.openReadOnly(label: "test")
        defer { try? queue.close() }
        return try queue.read { db in
            let version = try loader.checkSchema(db)
            let details = loader.startDetailRead(version: version, stateBefore: state)
            let parallel = Result { () throws(StoreIssues) in try Self.load(loader, db, version, details) }
            #expect(details.tables != nil || details.checkedThere, "the second connection did not read the detail tables")
            request?(details.invoiceRequest?.above)
            tablesRead?(details.tablesRead)
            checkedThere?(details.checkedThere)
            let direct = Result { () throws(StoreIssues) in try Self.load(loader, db, version, nil) }
            return (parallel, direct)
        }
    }

    static func load(_ loader: StoreLoader, _ db: Database, _ version: Int, _ details: DetailRead?) throws(StoreIssues) -> Books {
        do {
            return try loader.loadBooks(db, version: version, details: details)
        } catch let error as StoreIssues {
            throw error
        } catch {
            throw StoreIssues([StoreIssue(kind: .unreadable, path: loader.path, message: "\(error)")])
        }
    }

    static func expectSame(_ a: Books, _ b: Books) {
        #expect(a.clients == b.clients)
        #expect(a.invoices == b.invoices)
        #expect(a.currencies == b.currencies)
        #expect(a.payments == b.payments)
        #expect(a.paymentDetails == b.paymentDetails)
        #expect(a.writeOffs == b.writeOffs)
        #expect(a.taxLines == b.taxLines)
        #expect(a.taxes == b.taxes)
    }

    @Test(.temporaryFolder) func aSampleStoreReadsTheSameOnTwoConnections() throws {
        let path = try TemporaryFolder.current.path("books.sqlite")
        try SampleGenerator(clients: 30, invoices: 2000, seed: 7).write(to: path)
        let (parallel, direct) = try Self.bothWays(path)
        let a = try parallel.get(), b = try direct.get()
        #expect(a.payments.count > 1000 && a.taxLines.count > 500)
        Self.expectSame(a, b)
    }

    /// The invoice table read in two parts, the rows above the middle id on the second connection (issue 46 item 4):
    /// the same books as one scan, with currencies first seen in the second part (CHF, USD), a credit note there
    /// correcting an invoice of the first, and the second part handed over in parts of 7 rows.
    @Test(.temporaryFolder) func theInvoicesReadInTwoPartsGiveTheSameBooks() throws {
        let path = try TemporaryFolder.current.path("books.sqlite")
        var sql = "INSERT INTO client (id, number, name) VALUES (1, 'C-1', 'Acme'), (2, 'C-2', 'Globex');\n"
        for id in 1...40 {
            let currency = id <= 20 ? "EUR" : ["USD", "EUR", "CHF"][id % 3]
            let credit = id == 33 ? ", 'credit', 1, '2025-03-01'" : ", 'invoice', NULL, NULL"
            sql += "INSERT INTO invoice (id, identifier, clientId, amount, net, currency, issuedOn, dueOn, notes, kind, correctsId, appliedOn) "
                + "VALUES (\(id), 'INV-\(id)', \(id % 2 + 1), \(100 * id), \(100 * id), '\(id == 33 ? "CHF" : currency)', '2025-01-\(10 + id % 18)', "
                + "'2025-02-10', 'a note long enough to be kept once: \(id % 4)'\(credit));\n"
            sql += "INSERT INTO payment (id, invoiceId, paidOn, amount, method, reference) VALUES (\(id), \(id), '2025-02-01', 10, 'bank transfer (SEPA instant)', 'R-\(id)');\n"
        }
        // Invoice 1 is client 2's, in CHF, so the credit note 33 (client 2, CHF) corrects it across the two parts.
        sql += "UPDATE invoice SET currency = 'CHF', clientId = 2 WHERE id IN (1, 33);\n"
        try StoreFixture.make(at: path, sql: sql, version: 3)
        var above: Int64?
        let (parallel, direct) = try Self.bothWays(path) { above = $0 }
        #expect(above == 20, "the invoices were not read in two parts")
        let a = try parallel.get(), b = try direct.get()
        #expect(a.invoices.count == 40 && a.currencies.map(\.code) == ["CHF", "EUR", "USD"])
        #expect(a.invoices[32].corrects == 0)
        Self.expectSame(a, b)
    }

    /// Problems in both parts, past the issue limit: the messages one scan gives, in its order, and all counted.
    @Test(.temporaryFolder) func theInvoicesReadInTwoPartsGiveTheSameMessages() throws {
        let path = try TemporaryFolder.current.path("books.sqlite")
        var sql = "PRAGMA ignore_check_constraints = ON;\nINSERT INTO client (id, number, name) VALUES (1, 'C-1', 'Acme');\n"
        for id in 1...30 {
            let currency = [4, 18, 22].contains(id) ? "EUX" : (id > 15 ? "CHF" : "EUR")
            let amount = [9, 25, 29].contains(id) ? "-5" : "100"
            sql += "INSERT INTO invoice (id, identifier, clientId, amount, currency, issuedOn, dueOn) "
                + "VALUES (\(id), 'INV-\(id)', 1, \(amount), '\(currency)', '2025-01-10', '2025-02-10');\n"
        }
        try StoreFixture.make(at: path, sql: sql, version: 3)
        for limit in [2, 3, 4, 100] {
            var above: Int64?
            let (parallel, direct) = try Self.bothWays(path, issueLimit: limit) { above = $0 }
            #expect(above == 15)
            guard case .failure(let a) = parallel, case .failure(let b) = direct else {
                Issue.record("both reads should refuse the store")
                return
            }
            #expect(a.issues.count == min(limit, 6) && a.total == 6)
            #expect(a.issues.map(\.description) == b.issues.map(\.description))
            #expect(a.total == b.total)
        }
    }

    /// With the invoices in two parts, the second connection reads the payments and write-offs after its invoices
    /// and the loader checks the tax lines on its own connection meanwhile, instead of waiting for their copy after
    /// the join (docs/performance.md, "Why the two-part load did not shorten the wall"); unsplit, the second one
    /// reads all three. Problems in a credit note's `correctsId`, the payments, the write-offs and the tax lines keep
    /// one scan's order at every issue limit, all counted.
    @Test(.temporaryFolder) func theLoaderChecksTheTaxLinesWhileTheSecondConnectionReadsThePayments() throws {
        let path = try TemporaryFolder.current.path("books.sqlite")
        var sql = "PRAGMA foreign_keys = OFF; PRAGMA ignore_check_constraints = ON;\n"
            + "INSERT INTO client (id, number, name) VALUES (1, 'C-1', 'Acme');\n"
        for id in 1...12 {
            let credit = id == 11 ? "'credit', 999" : "'invoice', NULL"
            sql += "INSERT INTO invoice (id, identifier, clientId, amount, net, currency, issuedOn, dueOn, kind, correctsId) "
                + "VALUES (\(id), 'INV-\(id)', 1, 1100, 1000, 'EUR', '2025-01-10', '2025-02-10', \(credit));\n"
            sql += "INSERT INTO payment (id, invoiceId, paidOn, amount) VALUES (\(id), \(id), '\(id % 4 == 0 ? "2025-02-30" : "2025-01-20")', 100);\n"
            sql += "INSERT INTO writeOff (id, invoiceId, writtenOffOn, amount, reason) VALUES (\(id), \(id), '2025-03-01', \(id % 5 == 0 ? 0 : 5), 'r');\n"
            sql += "INSERT INTO taxLine (id, invoiceId, name, rate, net, amount) VALUES (\(id), \(id), 'VAT', '\(id % 3 == 0 ? "ten" : "10")', 1000, 100);\n"
        }
        try StoreFixture.make(at: path, sql: sql, version: 3)
        // 1 correctsId, 3 payments (4, 8, 12), 2 write-offs (5, 10), 4 tax lines (3, 6, 9, 12), then those invoices' sums.
        for limit in [1, 2, 4, 5, 6, 7, 100] {
            var read: [String] = []
            let (parallel, direct) = try Self.bothWays(path, issueLimit: limit, tablesRead: { read = $0 })
            #expect(read == ["payment", "writeOff"], "the second connection copied the tax lines")
            guard case .failure(let a) = parallel, case .failure(let b) = direct else {
                Issue.record("both reads should refuse the store")
                return
            }
            #expect(a.total == b.total && a.total >= 10)
            #expect(a.issues.count == min(limit, a.total))
            #expect(a.issues.map(\.description) == b.issues.map(\.description))
        }
        let valid = try TemporaryFolder.current.path("valid.sqlite")
        try SampleGenerator(clients: 5, invoices: 300, seed: 11).write(to: valid)
        var read: [String] = []
        let (parallel, direct) = try Self.bothWays(valid, tablesRead: { read = $0 })
        #expect(read == ["payment", "writeOff"])
        Self.expectSame(try parallel.get(), try direct.get())
        _ = try Self.bothWays(valid, split: false, tablesRead: { read = $0 })
        #expect(read == StoreLoader.detailTables)
    }

    /// With the invoices split, the second connection checks the payments and write-offs itself against every
    /// invoice the loader hands over after the join (docs/performance.md, "The payments checked on the second
    /// connection"), the rows it stepped before the hand-over copied and checked first: payments of invoices in both
    /// parts, with methods (their details' indexes), a credit note's `correctsId`, problems in payments, write-offs
    /// and tax lines. Whether the hand-over comes before the first payment row (0), after a few (3, 17) or after the
    /// last (`.max`), or whenever it comes (nil): one scan's books, and its messages in its order at every limit.
    @Test(.temporaryFolder) func theSecondConnectionChecksThePaymentsAgainstTheJoinedInvoices() throws {
        let path = try TemporaryFolder.current.path("books.sqlite")
        let valid = try TemporaryFolder.current.path("valid.sqlite")
        var sql = "PRAGMA foreign_keys = OFF; PRAGMA ignore_check_constraints = ON;\n"
            + "INSERT INTO client (id, number, name) VALUES (1, 'C-1', 'Acme'), (2, 'C-2', 'Globex');\n"
        for id in 1...40 {
            let credit = id == 27 ? "'credit', 998" : "'invoice', NULL"
            sql += "INSERT INTO invoice (id, identifier, clientId, amount, net, currency, issuedOn, dueOn, kind, correctsId) "
                + "VALUES (\(id), 'INV-\(id)', \(id % 2 + 1), 1100, 1000, '\(id > 30 ? "CHF" : "EUR")', '2025-01-10', '2025-02-10', \(credit));\n"
            sql += "INSERT INTO taxLine (id, invoiceId, name, rate, net, amount) VALUES (\(id), \(id), 'VAT', '\(id % 13 == 0 ? "ten" : "10")', 1000, 100);\n"
        }
        // Payments in row order jump between the two parts: invoice 7 p mod 40 + 1 for payment p.
        for payment in 1...60 {
            let invoice = payment == 44 ? 999 : (7 * payment) % 40 + 1
            let day = payment % 11 == 0 ? "2025-02-30" : "2025-01-\(10 + payment % 18)"
            let currency = payment == 23 ? "'USD'" : "NULL"
            sql += "INSERT INTO payment (id, invoiceId, paidOn, amount, currency, method, reference) "
                + "VALUES (\(payment), \(invoice), '\(day)', \(payment), \(currency), '\(["", "card", "bank transfer (SEPA instant)"][payment % 3])', 'R-\(payment)');\n"
        }
        for writeOff in 1...6 {
            sql += "INSERT INTO writeOff (id, invoiceId, writtenOffOn, amount, reason) VALUES (\(writeOff), \(41 - 6 * writeOff), '2025-03-01', \(writeOff == 4 ? 0 : 5), 'r');\n"
        }
        try StoreFixture.make(at: path, sql: sql, version: 3)
        try SampleGenerator(clients: 7, invoices: 400, seed: 5).write(to: valid)
        for before in [0, 3, 17, .max, nil] as [Int?] {
            for limit in [1, 2, 3, 6, 8, 100] {
                var there = false
                let (parallel, direct) = try Self.bothWays(path, issueLimit: limit, paymentRowsBeforeHandOver: before, checkedThere: { there = $0 })
                #expect(there, "the second connection did not check the payments")
                guard case .failure(let a) = parallel, case .failure(let b) = direct else {
                    Issue.record("both reads should refuse the store")
                    return
                }
                // 1 correctsId, 6 payments (11, 22, 23, 33, 44, 55), 1 write-off, 3 tax lines (13, 26, 39), then sums.
                #expect(a.total == b.total && a.total >= 11)
                #expect(a.issues.count == min(limit, a.total))
                #expect(a.issues.map(\.description) == b.issues.map(\.description), "before \(String(describing: before)), limit \(limit)")
            }
            var there = false
            let (parallel, direct) = try Self.bothWays(valid, partRows: 50, paymentRowsBeforeHandOver: before, checkedThere: { there = $0 })
            #expect(there)
            let a = try parallel.get(), b = try direct.get()
            #expect(a.payments.count > 200 && !a.paymentDetails.isEmpty)
            Self.expectSame(a, b)
        }
    }

    /// Cells of every storage class where a text, an integer or a date is expected: each message, in the same order,
    /// whichever connection read the row.
    @Test(.temporaryFolder) func oddCellsGiveTheSameMessagesInTheSameOrder() throws {
        let path = try TemporaryFolder.current.path("books.sqlite")
        try StoreFixture.make(
            at: path,
            sql: """
                PRAGMA foreign_keys = OFF; PRAGMA ignore_check_constraints = ON;  -- rows written by other tools
                INSERT INTO client (id, number, name) VALUES (1, 'C-1', 'Acme');
                INSERT INTO invoice (id, identifier, clientId, amount, net, currency, issuedOn, dueOn)
                  VALUES (1, 'INV-1', 1, 1100, 1000, 'EUR', '2025-01-10', '2025-02-10'),
                         (2, 'INV-2', 1, 500, NULL, 'EUR', '2025-01-10', '2025-02-10');
                INSERT INTO payment (id, invoiceId, paidOn, amount, currency, method, reference) VALUES
                  (1, 1, '2025-01-11', 'abc', NULL, '', ''),
                  (2, 1, '2025-01-11', 1.5, NULL, '', ''),
                  (3, 1, '2025-02-30', 100, NULL, 'card', X'FF'),
                  (4, 1, '2025-01-12', 100, 'USD', '', ''),
                  (5, '2', '2025-01-12', 100, NULL, 'bank', 'R-1'),
                  (6, 99, '2025-01-12', 100, NULL, '', ''),
                  (7, 'x', '2025-01-12', 100, NULL, '', ''),
                  (8, 2, 20250112, 100, NULL, '', ''),
                  (9, 2, '2025-01-13', 42, NULL, 'é', ''),
                  (10, '2abc', '2025-01-13', 1, NULL, '', '');  -- text SQLite reads as the integer 2
                INSERT INTO writeOff (id, invoiceId, writtenOffOn, amount, reason) VALUES
                  (1, 2, '2025-03-01', 0, 'none'), (2, 2, '2025-03-01', 10, X'C3A9');
                INSERT INTO taxLine (id, invoiceId, name, rate, net, amount) VALUES
                  (1, 1, 'VAT', '10', 1000.0, 100), (2, 1, 'VAT', 'ten', 1000, 100), (3, 2, 'VAT', 10, NULL, 7);
                """, version: 3)
        let (parallel, direct) = try Self.bothWays(path)
        guard case .failure(let a) = parallel, case .failure(let b) = direct else {
            Issue.record("both reads should refuse the store")
            return
        }
        #expect(a.issues.count > 8)
        #expect(a.issues.map(\.description) == b.issues.map(\.description))
        #expect(a.total == b.total)
    }

    /// The valid rows of the odd cells above (an invoice id stored as text, a rate stored as an integer, a reason as a
    /// blob) read the same.
    @Test(.temporaryFolder) func cellsOfOtherStorageClassesReadTheSame() throws {
        let path = try TemporaryFolder.current.path("books.sqlite")
        try StoreFixture.make(
            at: path,
            sql: """
                INSERT INTO client (id, number, name) VALUES (1, 'C-1', 'Acme');
                INSERT INTO invoice (id, identifier, clientId, amount, net, currency, issuedOn, dueOn)
                  VALUES (1, 'INV-1', 1, 1100, 1000, 'EUR', '2025-01-10', '2025-02-10');
                INSERT INTO payment (id, invoiceId, paidOn, amount, currency, method, reference) VALUES
                  (1, '1', '2025-01-11', 100, 'EUR', 'bank', 12345), (2, 1, '2025-01-12', 100, NULL, '', '');
                INSERT INTO writeOff (id, invoiceId, writtenOffOn, amount, reason) VALUES (1, 1, '2025-03-01', 10, X'C3A9');
                INSERT INTO taxLine (id, invoiceId, name, rate, net, amount) VALUES (1, 1, 'VAT', 10, NULL, 100);
                """, version: 3)
        let (parallel, direct) = try Self.bothWays(path)
        let a = try parallel.get(), b = try direct.get()
        #expect(a.paymentDetails == [PaymentDetails(method: "bank", reference: "12345")])
        #expect(a.writeOffs.first?.reason == "é")
        Self.expectSame(a, b)
    }

    /// A commit between the loader's start and the second connection's changes what says which commit a reader
    /// sees, in WAL mode and in rollback-journal mode, so the second connection gives up and the loader reads the
    /// tables itself, from its own snapshot.
    @Test(.temporaryFolder) func aCommitBetweenTheTwoStartsIsNoticed() throws {
        for wal in [true, false] {
            let path = try TemporaryFolder.current.path(wal ? "wal.sqlite" : "journal.sqlite")
            try SampleGenerator(clients: 3, invoices: 40, seed: 3).write(to: path)
            let loader = StoreLoader(path: path)
            let change = "UPDATE payment SET amount = amount + 1 WHERE id = 1"
            if wal {
                try StoreFixture.withChangeInWriteAheadLog(path, "UPDATE client SET name = name WHERE id = 1") {
                    let before = loader.file.commitState()
                    #expect(before != nil)
                    #expect(loader.file.commitState() == before, "nothing committed, nothing changed")
                    let writer = try DatabasePool(path: path)
                    try writer.write { db in try db.execute(sql: change) }
                    #expect(loader.file.commitState() != before)
                    let queue = try loader.file.openReadOnly(label: "test")
                    try queue.read { db in
                        _ = try loader.checkSchema(db)
                        let details = loader.startDetailRead(version: 3, stateBefore: before)
                        details.done.wait()
                        #expect(details.tables == nil)
                    }
                    try queue.close()
                    try writer.close()
                }
            } else {
                let before = loader.file.commitState()
                try StoreFixture.execute(path, change)
                #expect(loader.file.commitState() != before)
            }
            // A whole fetch still reads one point in time: the committed change.
            let books = try loader.fetch().books
            let stored = try StoreFixture.query(path, "SELECT amount FROM payment WHERE id = 1")
            #expect(books.payments.contains { "\($0.amount)" == stored.first?["amount"] })
        }
    }
}
