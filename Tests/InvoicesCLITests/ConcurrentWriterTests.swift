import Foundation
import InvoicesTesting
import Testing

/// A build reads one point in time of a store that another process keeps writing (issue 10).
@Suite(.serialized)
struct ConcurrentWriterTests {
    /// Keeps writing in WAL mode until its standard input closes (or 1000 transactions). Each transaction inserts a new client with one
    /// invoice, and an invoice of client C-1 first stored as 0 and then raised to 100 (1.00 EUR): a build that saw
    /// part of a transaction would count an invoice of 0, or an invoice of a client it did not load.
    static let writer = """
        import sqlite3, sys, threading, time
        db = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
        db.execute('PRAGMA journal_mode=WAL')
        stop = threading.Event()
        threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
        n = 0
        print('writing', flush=True)
        # At most 1000 transactions, about 100 a second: enough to overlap every build (a debug build of this
        # store takes longer than a tenth of a second), few enough that the store, whose every new client is a
        # page and a statement, stays small: at 400 a second the later builds read thousands of clients and the
        # test cost 17 s of CPU (issue 42 item 7).
        while not stop.is_set() and n < 1000:
            time.sleep(0.01)
            n += 1
            db.execute('BEGIN IMMEDIATE')
            db.execute("INSERT INTO client (number, name) VALUES (?, ?)", ('W-%06d' % n, 'Writer %d' % n))
            new = db.execute('SELECT last_insert_rowid()').fetchone()[0]
            db.execute("INSERT INTO invoice (identifier, clientId, amount, currency, issuedOn, dueOn) VALUES (?, 1, 0, 'EUR', '2025-01-10', '2025-02-10')", ('A-%06d' % n,))
            db.execute("UPDATE invoice SET amount = 100 WHERE identifier = ?", ('A-%06d' % n,))
            db.execute("INSERT INTO invoice (identifier, clientId, amount, currency, issuedOn, dueOn) VALUES (?, ?, 7, 'EUR', '2025-01-11', '2025-02-11')", ('B-%06d' % n, new))
            db.execute('COMMIT')
        print(n, flush=True)
        """

    /// Parses RFC 4180 CSV without quoted fields (the test's names have no commas or quotes).
    func rows(_ csv: String) -> [[String: String]] {
        let lines = csv.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        guard let header = lines.first?.split(separator: ",", omittingEmptySubsequences: false).map(String.init) else { return [] }
        return lines.dropFirst().map { line in
            Dictionary(uniqueKeysWithValues: zip(header, line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
        }
    }

    @Test(.temporaryFolder) func everyBuildSeesTheTotalsOfOnePointInTime() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        try StoreFixture.make(
            at: store,
            sql: """
                INSERT INTO client (id, number, name) VALUES (1, 'C-1', 'Acme');
                INSERT INTO invoice (identifier, clientId, amount, currency, issuedOn, dueOn)
                  VALUES ('A-0', 1, 100, 'EUR', '2025-01-09', '2025-02-09');
                """)
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        writer.arguments = ["python3", "-c", Self.writer, store]
        let input = Pipe()
        let output = Pipe()
        writer.standardInput = input
        writer.standardOutput = output
        try writer.run()
        _ = output.fileHandleForReading.availableData  // waits for "writing"

        var seen: [Int] = []
        for round in 0..<6 {
            let site = folder.path("site\(round)")
            let result = try CLI.run(["build", "--store", store, "--output", site, "--quiet"])
            #expect(result.status == 0, "\(result.stderr)")
            guard result.status == 0 else { continue }
            let totals = rows(try String(contentsOfFile: site + "/totals.csv", encoding: .utf8))
            let acme = totals.filter { $0["client_number"] == "C-1" }
            #expect(acme.count == 1, "\(acme)")
            guard let row = acme.first, let count = Int(row["invoices"] ?? "") else { continue }
            #expect(row["currency"] == "EUR")
            #expect(row["invoiced"] == "\(count).00", "C-1 has \(count) invoices of 1.00 EUR but invoiced \(row["invoiced"] ?? "?")")
            // One new client per committed transaction, each with one invoice of 0.07 EUR.
            let writers = totals.filter { $0["client_number"]?.hasPrefix("W-") == true }
            #expect(writers.count == count - 1)
            #expect(writers.allSatisfy { $0["invoiced"] == "0.07" && $0["invoices"] == "1" })
            seen.append(count)
        }
        try input.fileHandleForWriting.close()
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        let written = Int(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        #expect(written > 0)
        // The builds saw the writer's progress, never more than it wrote.
        #expect(seen == seen.sorted())
        #expect(seen.allSatisfy { $0 <= written + 1 })
        #expect(Set(seen).count > 1, "the writer made no progress between builds: \(seen)")

        // The store is intact: SQLite's own check, and every row the writer committed is there.
        let check = try StoreFixture.query(store, "PRAGMA integrity_check")
        #expect(check.first?.values.first == "ok")
        let count = try StoreFixture.query(store, "SELECT count(*) AS n, sum(amount) AS total FROM invoice WHERE clientId = 1")
        #expect(count.first?["n"] == "\(written + 1)")
        #expect(count.first?["total"] == "\((written + 1) * 100)")
        let final = try CLI.run(["build", "--store", store, "--output", folder.path("final"), "--quiet"])
        #expect(final.status == 0, "\(final.stderr)")
    }
}
