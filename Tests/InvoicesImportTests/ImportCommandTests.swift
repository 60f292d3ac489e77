import Foundation
import GRDB
import InvoicesTesting
import Testing

/// `invoices import` run as a process: output, exit codes, atomicity under SIGKILL (issue 7).
@Suite(.serialized) struct ImportCommandTests {
    @Test(.temporaryFolder) func importCreatesTheStoreAndReportsWhatItDid() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let files = ["freshbooks-clients.csv", "freshbooks-invoices.csv"].map(Support.fixture)
        let first = try CLI.run(["import", "--store", store] + files)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "Imported into \(store): clients: 2 added, 0 updated, 0 unchanged; invoices: 3 added, 0 updated, 0 unchanged\n")
        let again = try CLI.run(["import", "--store", store] + files)
        #expect(again.stdout.hasSuffix("clients: 0 added, 0 updated, 2 unchanged; invoices: 0 added, 0 updated, 3 unchanged\n"))
        // The store is one `invoices build` reads.
        let build = try CLI.run(["build", "--store", store, "--output", folder.path("site"), "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
    }

    @Test(.temporaryFolder) func aFileWithSeveralBadLinesExits65WithOneMessagePerErrorAndChangesNothing() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        #expect(try CLI.run(["import", "--store", store, Support.fixture("freshbooks-clients.csv")]).status == 0)
        let before = try #require(Support.bytes(store))
        let bad = Support.fixture("freshbooks-invoices-bad.csv")
        let result = try CLI.run(["import", "--store", store, bad])
        #expect(result.status == 65)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(result.stderr)")
        #expect(lines.first == "Error: \(bad):3: column 'Line Total': '12.345' has more decimals than USD allows (2); it is not rounded")
        #expect(lines.dropFirst().first?.hasPrefix("Error: \(bad):4: column 'Date Issued': '03/04/2025' is not a date") == true)
        #expect(lines.dropFirst(2).first?.hasPrefix("Error: \(bad):5: column 'Currency': 'USX'") == true)
        #expect(lines.dropFirst(3).first?.hasPrefix("Error: \(bad):5: column 'Date Paid': is empty") == true)
        #expect(lines.last == "Error: nothing was written to \(store)")
        #expect(Support.bytes(store) == before)
    }

    @Test(.temporaryFolder) func exitCodesForMissingFilesAndUsage() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let missing = try CLI.run(["import", "--store", store, folder.path("nope.csv")])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("nope.csv: no such file"))
        #expect(!FileManager.default.fileExists(atPath: store))
        #expect(try CLI.run(["import", "--store", store, "--format", "quickbooks", Support.fixture("books.json")]).status == 64)
        let notAStore = folder.path("notes.txt")
        try Data("hello".utf8).write(to: URL(fileURLWithPath: notAStore))
        let refused = try CLI.run(["import", "--store", notAStore, Support.fixture("books.json")])
        #expect(refused.status == 65)
        #expect(Support.bytes(notAStore) == Data("hello".utf8))
    }

    /// A native invoices CSV of `count` invoices for client C-001 (from clients.csv).
    func writeBigExport(to path: String, count: Int) throws {
        var text = "identifier,clientNumber,amount,currency,issuedOn,dueOn,paidOn,notes\n"
        text.reserveCapacity(count * 70)
        for index in 0..<count {
            let day = index % 28 + 1
            text += "BIG-\(index),C-001,\(index % 5000).\(index % 100 < 10 ? "0" : "")\(index % 100),EUR,2025-03-\(day < 10 ? "0" : "")\(day),2025-04-30,,row \(index)\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test(.temporaryFolder) func anImportKilledPartWayLeavesTheStoreAsItWas() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        #expect(try CLI.run(["import", "--store", store, Support.fixture("clients.csv"), Support.fixture("invoices.csv")]).status == 0)
        let big = folder.path("big.csv")
        try writeBigExport(to: big, count: 20_000)
        let before = try Support.dump(store)
        let beforeBytes = try #require(Support.bytes(store))
        try FileManager.default.copyItem(atPath: store, toPath: folder.path("before.sqlite"))

        // How long a whole import takes here, on a copy.
        let copy = folder.path("copy.sqlite")
        try FileManager.default.copyItem(atPath: store, toPath: copy)
        let clock = ContinuousClock()
        let start = clock.now
        let full = try CLI.run(["import", "--store", copy, big])
        let duration = clock.now - start
        #expect(full.status == 0, "\(full.stderr)")
        let after = try Support.dump(copy)
        #expect(after.count == before.count + 20_000)

        var random = SeededRandom(seed: 7)
        var sawHotJournal = 0
        var sawUntouched = 0
        // At least 8 rounds; more (up to 20) until two kills have landed inside the write transaction.
        for round in 0..<20 where round < 8 || sawHotJournal < 2 {
            let process = Process()
            process.executableURL = CLI.executable
            process.arguments = ["import", "--store", store, big]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            // Kill somewhere between 30% and 105% of a full run: in parsing, inside the transaction or at commit.
            let fraction = 0.3 + Double(random.below(750)) / 1000
            let delay = duration * fraction
            try process.run()
            if round % 2 == 1 {
                // Every other round: kill the moment the write transaction has begun (its journal appears).
                let deadline = Date().addingTimeInterval(Double(duration.components.seconds) * 3 + 10)
                while process.isRunning, !FileManager.default.fileExists(atPath: store + "-journal"), Date() < deadline {
                    usleep(200)
                }
            } else {
                Thread.sleep(forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let exited = process.terminationReason == .exit
            let journal = FileManager.default.fileExists(atPath: store + "-journal")
            let untouched = Support.bytes(store) == beforeBytes
            if journal { sawHotJournal += 1 }
            if untouched { sawUntouched += 1 }
            let dump = try Support.dump(store)
            if exited {
                // The import finished before the kill: the store holds the whole import.
                #expect(dump == after, "round \(round): a completed import left other content")
            }
            if exited || dump == after {
                // Finished, or killed after the commit on the way out: the whole import landed. Start again from
                // `before` (an import that beat the kill must not end the rounds before one landed mid-transaction).
                try FileManager.default.removeItem(atPath: store)
                try FileManager.default.copyItem(atPath: folder.path("before.sqlite"), toPath: store)
                continue
            }
            #expect(dump == before, "round \(round): a killed import changed the store's content")
            #expect(Support.bytes(store) == beforeBytes, "round \(round): the store's bytes differ after rollback")
        }
        // Say what the rounds exercised; a run where every kill came before the transaction proves less.
        print("killed imports: \(sawHotJournal) left a hot journal, \(sawUntouched) left the bytes untouched")
        #expect(sawHotJournal > 0, "no kill landed inside the write transaction; the rollback path was not exercised")
    }
}

extension ImportCommandTests {
    @Test(.temporaryFolder) func aStoreLockedByAnotherWriterExits73AndKeepsItsContent() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        #expect(try CLI.run(["import", "--store", store, Support.fixture("clients.csv")]).status == 0)
        let before = try Support.dump(store)
        // Another process's writer, holding an exclusive lock across accesses.
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let holder = try DatabaseQueue(path: store, configuration: configuration)
        try holder.writeWithoutTransaction { db in try db.execute(sql: "BEGIN EXCLUSIVE") }
        let result = try CLI.run(["import", "--store", store, Support.fixture("invoices.csv")])
        try holder.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        try holder.close()
        #expect(result.status == 73)
        #expect(result.stderr.contains("is locked by another process"))
        #expect(try Support.dump(store) == before)
    }
}
