import Foundation
import InvoicesTesting
import Testing

/// A rebuild renders only the pages whose inputs changed, and gives the same bytes as a full build.
@Suite(.serialized)
struct IncrementalBuildTests {
    @Test(.temporaryFolder) func nothingChangedKeepsEveryFileAsItWas() throws {
        let project = try TestProject.initialized()
        // The first rebuild's changes page says "nothing changed" where the first build's said "first report".
        let second = try project.buildSummary(project.site)
        #expect(second.contains(" 1 changed"), "\(second)")
        let before = try project.stamps()
        let summary = try project.buildSummary(project.site)
        #expect(summary.contains(" 0 changed"), "\(summary)")
        #expect(try project.stamps() == before)
        #expect(FileManager.default.fileExists(atPath: project.folder.path(".site.manifest")))
    }

    @Test(.temporaryFolder) func anInvoiceChangedRendersItsPagesAndKeepsTheOthers() throws {
        let project = try TestProject.initialized()
        let invoice = try StoreFixture.query(project.store, "SELECT clientId, issuedOn FROM invoice ORDER BY id LIMIT 1")[0]
        let ownPage = try project.clientPage(Int(invoice["clientId"]!)!)
        let before = try project.stamps()
        try project.sql("UPDATE invoice SET amount = amount + 1234, net = net + 1234 WHERE id = (SELECT MIN(id) FROM invoice)")
        try project.expectSameAsFullBuild()
        let after = try project.stamps()
        #expect(after[ownPage] != before[ownPage])
        #expect(after["report.json"] != before["report.json"])
        let month = "months/" + invoice["issuedOn"]!.prefix(7) + ".html"
        #expect(after[month] != before[month])
        // Every other client's page is the same file, untouched.
        let others = before.keys.filter { $0.hasPrefix("clients/") && $0 != ownPage }
        #expect(others.count >= 10)
        for path in others { #expect(after[path] == before[path], "\(path)") }
    }

    /// A fiscal year's or quarter's page depends on its own months and the invoices behind its taxes, not on the
    /// whole books: after the newest invoice changes, every quarter and year that ended before it keeps its inputs
    /// (so it is taken over without rendering), its own quarter and year do not, and the site equals a full build.
    @Test(.temporaryFolder) func anInvoiceChangedKeepsThePeriodsBeforeIt() throws {
        let project = try TestProject.initialized()
        let newest = try StoreFixture.query(project.store, "SELECT id, issuedOn FROM invoice ORDER BY issuedOn DESC, id DESC LIMIT 1")[0]
        let issued = try #require(newest["issuedOn"])
        let year = String(issued.prefix(4)), month = try #require(Int(issued.dropFirst(5).prefix(2)))
        let quarter = "period:quarters/\(year)-Q\((month - 1) / 3 + 1).html", ownYear = "period:years/\(year).html"
        let before = try project.unitInputs()
        try project.sql("UPDATE invoice SET amount = amount + 1234, net = net + 1234 WHERE id = \(newest["id"]!)")
        try project.expectSameAsFullBuild()
        let after = try project.unitInputs()
        let earlier = before.keys.filter {
            ($0.hasPrefix("period:quarters/") && $0 < quarter) || ($0.hasPrefix("period:years/") && $0 < ownYear)
        }
        #expect(earlier.count >= 3, "\(before.keys.sorted())")
        for key in earlier { #expect(after[key] == before[key], "\(key)") }
        #expect(after[quarter] != nil && after[quarter] != before[quarter])
        #expect(after[ownYear] != nil && after[ownYear] != before[ownYear])
    }

    /// A quarter's print pack shows what its quarter's page shows, worked out once for both per build (issue 46:
    /// it was worked out twice): after the newest invoice changes, its own quarter's page and pack have new inputs,
    /// every earlier quarter's keep theirs, and the site equals a full build. A pack given another period's
    /// fingerprint would be kept stale, or rendered again for nothing.
    @Test(.temporaryFolder) func aQuartersPackFollowsItsOwnQuarter() throws {
        let project = try TestProject.initialized()
        let newest = try StoreFixture.query(project.store, "SELECT id, issuedOn FROM invoice ORDER BY issuedOn DESC, id DESC LIMIT 1")[0]
        let issued = try #require(newest["issuedOn"])
        let quarter = "quarters/\(issued.prefix(4))-Q\((try #require(Int(issued.dropFirst(5).prefix(2))) - 1) / 3 + 1)"
        let before = try project.unitInputs()
        try project.sql("UPDATE invoice SET amount = amount + 1234, net = net + 1234 WHERE id = \(newest["id"]!)")
        try project.expectSameAsFullBuild()
        let after = try project.unitInputs()
        let own = ["pack:\(quarter)/print.html", "period:\(quarter).html"]
        for key in own { #expect(after[key] != nil && after[key] != before[key], "\(key)") }
        let earlier = before.keys.filter { $0.hasPrefix("pack:quarters/") && $0 < own[0] }
        #expect(earlier.count >= 3, "\(before.keys.sorted())")
        for key in earlier { #expect(after[key] == before[key], "\(key)") }
    }

    /// A quarter's lists and CSV are a unit of their own (`lists:`), keyed by the rows they show and not by the
    /// quarter's totals (issue 46): after the oldest invoice changes, its outstanding amount moves in every later
    /// month, so the later quarters' pages render again, but a quarter whose rows did not change keeps its lists'
    /// files; the quarter the invoice is in renders its lists again, and the site equals a full build.
    @Test(.temporaryFolder) func anOlderInvoiceChangedKeepsTheLaterQuartersLists() throws {
        let project = try TestProject.initialized()
        let oldest = try StoreFixture.query(project.store, "SELECT id, issuedOn FROM invoice WHERE id = (SELECT MIN(id) FROM invoice)")[0]
        let issued = try #require(oldest["issuedOn"])
        let own = "quarters/\(issued.prefix(4))-Q\((try #require(Int(issued.dropFirst(5).prefix(2))) - 1) / 3 + 1).html"
        let before = try project.unitInputs()
        let stamps = try project.stamps()
        try project.sql("UPDATE invoice SET amount = amount + 1234, net = net + 1234 WHERE id = \(oldest["id"]!)")
        try project.expectSameAsFullBuild()
        let after = try project.unitInputs()
        #expect(after["lists:\(own)"] != nil && after["lists:\(own)"] != before["lists:\(own)"])
        let kept = after.keys.filter { key in
            guard key.hasPrefix("lists:"), after[key] == before[key] else { return false }
            let page = "period:" + key.dropFirst("lists:".count)
            return after[page] != before[page]
        }
        #expect(!kept.isEmpty, "\(after.keys.sorted())")
        // Their files are the previous build's, untouched (the CSV of each).
        let csvs = kept.map { String($0.dropFirst("lists:".count).dropLast(".html".count)) + ".csv" }
        for path in csvs where stamps[path] != nil { #expect(try project.stamps()[path] == stamps[path], "\(path)") }
        #expect(csvs.contains { stamps[$0] != nil })
    }

    /// A month's list of clients in one currency is a unit of its own (`month-list:`), keyed by that list's rows
    /// (issue 46): after the oldest invoice changes, its client's row moves in every later month's list of its
    /// currency, and the months' pages render again, but the months' lists in the other currencies (several pages
    /// each at `--page-size 10`) keep their unit and are taken over without rendering; the site equals a full build. The
    /// list of clients (`clients`) shows no amount and is kept too, until an invoice is added.
    @Test(.temporaryFolder) func anOlderInvoiceChangedKeepsTheMonthsOtherListsAndTheClientList() throws {
        let (project, paged) = try TestProject.paged()
        let oldest = try StoreFixture.query(project.store, "SELECT id, currency FROM invoice WHERE id = (SELECT MIN(id) FROM invoice)")[0]
        let currency = try #require(oldest["currency"])
        let before = try project.unitInputs()
        try project.sql("UPDATE invoice SET amount = amount + 1234, net = net + 1234 WHERE id = \(oldest["id"]!)")
        let summary = try project.expectSameAsFullBuild(paged)
        let after = try project.unitInputs()
        let kept = after.keys.filter { key in
            guard key.hasPrefix("month-list:"), !key.hasSuffix(":\(currency)"), after[key] == before[key] else { return false }
            let month = "month:" + key.dropFirst("month-list:".count).split(separator: ":")[0]
            return after[month] != before[month]
        }
        #expect(!kept.isEmpty, "\(after.keys.sorted())")
        // Their pages (several a list) were taken over, not rendered: at least those files are counted as reused.
        let files = try project.files().keys
        let keptFiles = kept.flatMap { key in
            let cells = key.dropFirst("month-list:".count).split(separator: ":")
            return files.filter { $0.hasPrefix("months/\(cells[0])/\(cells[1])/") }
        }
        #expect(keptFiles.count > kept.count, "a kept list of several pages")
        let reused = try #require(TestProject.reused(summary), "\(summary)")
        #expect(reused >= keptFiles.count, "\(summary)")
        // The changed currency's lists render again.
        #expect(after.contains { $0.key.hasPrefix("month-list:") && $0.key.hasSuffix(":\(currency)") && before[$0.key] != $0.value })
        // The list of clients shows no amount: it is kept; one more invoice of a client changes its invoice count.
        #expect(after["clients"] != nil && after["clients"] == before["clients"])
        // The collections page renders again (its months' outstanding moved); its lists on pages of their own
        // (`collections-list:overdue-EUR`, `collections-list:days-to-pay`), each a unit, are kept where their rows are.
        let collectionLists = after.keys.filter { $0.hasPrefix("collections-list:") }
        #expect(collectionLists.count > 1 && after["collections"] != before["collections"], "\(after.keys.sorted())")
        let keptLists = collectionLists.filter { after[$0] == before[$0] }
        #expect(!keptLists.isEmpty)
        let listFiles = keptLists.flatMap { key in files.filter { $0.hasPrefix("collections/" + key.dropFirst("collections-list:".count) + "/") } }
        #expect(!listFiles.isEmpty && reused >= keptFiles.count + listFiles.count, "\(summary)")
        try project.sql(
            "INSERT INTO invoice (identifier, clientId, amount, net, currency, issuedOn, dueOn) SELECT 'ONE-MORE', clientId, 100, 100, currency, issuedOn, dueOn FROM invoice WHERE id = \(oldest["id"]!)")
        try project.expectSameAsFullBuild(paged)
        #expect(try project.unitInputs()["clients"] != after["clients"])
    }

    /// An older invoice with tax lines changed: its quarter's CSV and the lists of its taxes render again, the
    /// quarter's lists of its other taxes are taken over (each tax's list is a unit of its own).
    @Test(.temporaryFolder) func anOlderInvoiceChangedKeepsTheQuartersOtherTaxLists() throws {
        let (project, paged) = try TestProject.paged()
        let before = try project.unitInputs()
        // The lists of one quarter: more than one tax, each on pages of its own.
        let listed = before.keys.filter { $0.hasPrefix("quarter-list:") }
        #expect(listed.count > 1, "\(before.keys.sorted())")
        // The identifier shows in the list of each tax the invoice has a line of.
        try project.sql("UPDATE invoice SET identifier = identifier || '-R' WHERE id = (SELECT MIN(invoiceId) FROM taxLine)")
        let summary = try project.expectSameAsFullBuild(paged)
        let after = try project.unitInputs()
        // `quarter-list:quarters/2024-Q3/tax-EUR-1`: the quarter's page is `quarters/2024-Q3.html`.
        let quarter = { (key: String) in String(key.dropFirst("quarter-list:".count).split(separator: "/").prefix(2).joined(separator: "/")) + ".html" }
        let changed = Set(listed.filter { after[$0] != before[$0] }.map(quarter))
        #expect(changed.count == 1, "one quarter's list changed: \(changed)")
        let kept = listed.filter { changed.contains(quarter($0)) && after[$0] == before[$0] }
        #expect(!kept.isEmpty, "\(listed.sorted())")
        // Their pages were taken over, not rendered.
        let files = try project.files().keys
        let keptFiles = kept.flatMap { key in files.filter { $0.hasPrefix(key.dropFirst("quarter-list:".count) + "/") } }
        #expect(keptFiles.count >= kept.count, "\(kept)")
        let reused = try #require(TestProject.reused(summary), "\(summary)")
        #expect(reused >= keptFiles.count, "\(summary)")
        #expect(changed.allSatisfy { before["lists:\($0)"] != after["lists:\($0)"] }, "the quarter's CSV renders again")
    }

    /// Clients added to a month's list in one currency give it more pages: the rebuilt site equals a full build
    /// (the list's new pages written, the month's page linking them).
    @Test(.temporaryFolder) func aMonthsListGrowingByPagesEqualsAFullBuild() throws {
        let (project, paged) = try TestProject.paged()
        let newest = try StoreFixture.query(
            project.store, "SELECT id, currency, issuedOn, dueOn FROM invoice ORDER BY issuedOn DESC, id DESC LIMIT 1")[0]
        let month = String(try #require(newest["issuedOn"]).prefix(7))
        let currency = try #require(newest["currency"])
        let pages = { try project.files().keys.filter { $0.hasPrefix("months/\(month)/\(currency)/") }.count }
        let before = try pages()
        for number in 1...25 {
            try project.sql("INSERT INTO client (id, number, name) VALUES (\(9000 + number), 'Z-\(900 + number)', 'Added \(number)')")
            try project.sql(
                "INSERT INTO invoice (id, identifier, clientId, amount, net, currency, issuedOn, dueOn) VALUES (\(90000 + number), "
                    + "'ADD-\(number)', \(9000 + number), \(100 * number), \(100 * number), '\(currency)', '\(newest["issuedOn"]!)', '\(newest["dueOn"]!)')")
        }
        try project.expectSameAsFullBuild(paged)
        #expect(try pages() > before, "\(month) \(currency): \(before) pages before")
    }

    /// A payment, a write-off or a tax line renders its client's pages and the pages of the whole books; every
    /// other client's pages are taken over without rendering (they once all were: the site's base fingerprint
    /// held every payment).
    @Test(.temporaryFolder) func aPaymentWriteOffOrTaxLineChangedRendersOnlyItsClientsPages() throws {
        let project = try TestProject.initialized()
        let clientFiles = try project.files().keys.filter { $0.hasPrefix("clients/") || $0.hasPrefix("statements/") }
        #expect(clientFiles.count >= 24)
        let changes = [
            ("UPDATE payment SET method = 'cheque' WHERE id = (SELECT MIN(id) FROM payment)",
             "SELECT count(*) AS n FROM payment WHERE method = 'cheque'"),
            ("INSERT INTO writeOff (invoiceId, writtenOffOn, amount, reason) SELECT id, dueOn, 1, 'rounding' FROM invoice WHERE status = 'sent' AND kind = 'invoice' AND amount > 0 AND id NOT IN (SELECT invoiceId FROM payment) ORDER BY id LIMIT 1",
             "SELECT count(*) AS n FROM writeOff WHERE reason = 'rounding'"),
            ("UPDATE taxLine SET name = name || ' (reduced)' WHERE id = (SELECT MIN(id) FROM taxLine)",
             "SELECT count(*) AS n FROM taxLine WHERE name LIKE '% (reduced)'"),
        ]
        for (change, probe) in changes {
            try project.sql(change)
            #expect(try StoreFixture.query(project.store, probe)[0]["n"] == "1", "\(change)")
            let summary = try project.expectSameAsFullBuild()
            // Two files per client (its page and its statement): all but one client's are reused.
            let reused = try #require(TestProject.reused(summary), "\(summary)")
            #expect(reused >= clientFiles.count - 2, "\(change): \(summary)")
        }
    }

    @Test(.temporaryFolder) func aClientChangedRendersItsPages() throws {
        let project = try TestProject.initialized()
        try project.sql("UPDATE client SET name = 'Renamed & Co', city = 'Elsewhere' WHERE id = (SELECT MIN(clientId) FROM invoice)")
        try project.expectSameAsFullBuild()
        try project.sql("INSERT INTO client (id, number, name) VALUES (9999, 'C-NEW', 'A new client')")
        try project.sql(
            "INSERT INTO invoice (identifier, clientId, amount, currency, issuedOn, dueOn) VALUES ('INV-NEW-1', 9999, 500, 'EUR', '2024-03-05', '2024-04-05')")
        try project.expectSameAsFullBuild()
    }

    /// A client deleted with its invoices and their payments, write-offs and tax lines: the site, the exports with
    /// their grand totals among them, equals a full build.
    @Test(.temporaryFolder) func aDeletedClientGivesAFullBuildsSite() throws {
        let project = try TestProject.initialized()
        let client = try #require(StoreFixture.query(project.store, "SELECT MIN(clientId) AS id FROM invoice")[0]["id"])
        let invoices = "(SELECT id FROM invoice WHERE clientId = \(client))"
        for table in ["payment", "writeOff", "taxLine"] { try project.sql("DELETE FROM \(table) WHERE invoiceId IN \(invoices)") }
        try project.sql("DELETE FROM invoice WHERE clientId = \(client) AND correctsId IS NOT NULL")
        try project.sql("DELETE FROM invoice WHERE clientId = \(client)")
        try project.sql("DELETE FROM client WHERE id = \(client)")
        #expect(try StoreFixture.query(project.store, "SELECT COUNT(*) AS n FROM client WHERE id = \(client)")[0]["n"] == "0")
        try project.expectSameAsFullBuild()
    }

    /// The exports are written in pieces (a client's rows, a run of payments): after one invoice changed, the pieces
    /// of its client are made again and every other client's are taken from the previous files; the files equal a
    /// full build's.
    @Test(.temporaryFolder) func theExportsTakeUnchangedPiecesFromThePreviousBuild() throws {
        let project = try TestProject.initialized()
        try project.buildSummary(project.site)
        let index = try String(contentsOfFile: project.folder.path(".site.pieces"), encoding: .utf8)
        let clients = try StoreFixture.query(project.store, "SELECT COUNT(DISTINCT clientId) AS n FROM invoice")[0]["n"].flatMap { Int($0) }
        let perClient = try #require(clients)
        #expect(index.hasPrefix("invoices-export-pieces 1\n"))
        let keys = try project.pieceKeys()
        try project.sql("UPDATE invoice SET amount = amount + 1234, net = net + 1234 WHERE id = (SELECT MIN(id) FROM invoice)")
        let result = try CLI.run(["build", "--store", project.store, "--templates", project.templates, "--output", project.site])
        #expect(result.status == 0, "\(result.stderr)")
        // report.json, totals.csv and aging.csv: one piece each of the changed client; taxes.csv: its one piece; the
        // journals: the run holding the invoice's transaction, if it is in the period (else only their heads change).
        let journalRuns = try project.pieceKeys().filter { $0.key.hasPrefix("books/") }.map { path, runs in
            Set(runs).subtracting(keys[path] ?? []).count
        }.reduce(0, +)
        #expect(journalRuns <= 2)
        let counts = try #require(result.stderr.firstMatch(of: /export pieces: (\d+) reused, (\d+) made/), "\(result.stderr)")
        #expect(Int(counts.2) == 4 + journalRuns, "\(result.stderr)")
        #expect(Int(counts.1)! >= 3 * (perClient - 1), "\(result.stderr)")
        try project.expectSameAsFullBuild()

        // A previous export edited (its stamp changes): none of its pieces is taken, and the files are still a full build's.
        let report = project.site + "/report.json"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: report))
        let digit = try #require(bytes.lastIndex(of: UInt8(ascii: "7")))
        bytes[digit] = UInt8(ascii: "8")
        try bytes.write(to: URL(fileURLWithPath: report))
        try project.sql("UPDATE invoice SET amount = amount + 1, net = net + 1 WHERE id = (SELECT MIN(id) FROM invoice)")
        let after = try CLI.run(["build", "--store", project.store, "--templates", project.templates, "--output", project.site])
        let made = try #require(after.stderr.firstMatch(of: /export pieces: \d+ reused, (\d+) made/), "\(after.stderr)")
        #expect(Int(made.1)! >= perClient + 3, "\(after.stderr)")
        try project.expectSameAsFullBuild()
    }

    /// Each journal is a main file and a file per fiscal year (`books/2025.journal`) in runs of transactions: after
    /// the newest invoice changed, its year's files make the invoice's run again and take every other run from the
    /// previous file; the other years' files are the previous ones, linked (no run read, same inode).
    @Test(.temporaryFolder) func theJournalsTakeUnchangedRunsFromThePreviousBuild() throws {
        let project = try TestProject.initialized()
        let before = try project.pieceKeys()
        let years = before.keys.filter { $0.hasPrefix("books/") }.sorted()
        #expect(years.count >= 4 && years.count % 2 == 0, "\(years)")
        for path in years { #expect(before[path, default: []].count >= 2, "\(path): \(before[path, default: []])") }
        let newest = try StoreFixture.query(project.store, "SELECT id, issuedOn FROM invoice ORDER BY issuedOn DESC, id DESC LIMIT 1")[0]
        let year = String(try #require(newest["issuedOn"]).prefix(4))
        #expect(years.contains("books/\(year).journal") && years.contains("books/\(year).beancount"), "\(years)")
        func inode(_ path: String) throws -> Int? {
            try FileManager.default.attributesOfItem(atPath: project.site + "/" + path)[.systemFileNumber] as? Int
        }
        let inodes = try years.map(inode)
        try project.sql("UPDATE invoice SET amount = amount + 1234, net = net + 1234 WHERE id = \(try #require(newest["id"]))")
        let result = try CLI.run(["build", "--store", project.store, "--templates", project.templates, "--output", project.site])
        #expect(result.status == 0, "\(result.stderr)")
        let after = try project.pieceKeys()
        for (path, inodeBefore) in zip(years, inodes) {
            let runs = after[path, default: []]
            #expect(runs.count == before[path, default: []].count, "\(path)")
            if path.hasPrefix("books/\(year).") {
                // The invoice's run is made, every other run is taken from the previous file.
                #expect(runs.filter { !before[path, default: []].contains($0) }.count == 1, "\(path)")
                #expect(try inode(path) != inodeBefore, "\(path)")
            } else {
                #expect(runs == before[path, default: []], "\(path)")
                #expect(try inode(path) == inodeBefore, "\(path)")
            }
        }
        // report.json, totals.csv, aging.csv: the client's piece; taxes.csv; a run in each journal.
        let counts = try #require(result.stderr.firstMatch(of: /export pieces: (\d+) reused, (\d+) made/), "\(result.stderr)")
        #expect(Int(counts.2) == 6, "\(result.stderr)")
        try project.expectSameAsFullBuild()
    }

    /// The trail is written in runs of records: after one invoice changed, the runs that hold its record and the
    /// figures it moved are made again, every other run is taken from the previous trail (neither made nor
    /// compared), and the trail and the changes page equal a full build's.
    @Test(.temporaryFolder) func theTrailTakesUnchangedRunsFromThePreviousBuild() throws {
        let project = try TestProject.initialized()
        let before = try project.trailPieceKeys()
        #expect(before.count >= 10, "\(before)")
        let newest = try StoreFixture.query(project.store, "SELECT id, identifier FROM invoice ORDER BY issuedOn DESC, id DESC LIMIT 1")[0]
        try project.sql("UPDATE invoice SET amount = amount + 1234, net = net + 1234 WHERE id = \(try #require(newest["id"]))")
        let result = try CLI.run(["build", "--store", project.store, "--templates", project.templates, "--output", project.site])
        #expect(result.status == 0, "\(result.stderr)")
        let counts = try #require(result.stderr.firstMatch(of: /trail pieces: (\d+) reused, (\d+) made/), "\(result.stderr)")
        let after = try project.trailPieceKeys()
        let made = after.filter { !before.contains($0) }.count
        // The invoice's run, its client's figures of the month and after (one or two runs), the month's taxes.
        #expect(made >= 1 && made <= 6, "\(result.stderr)")
        #expect(Int(counts.2) == made && Int(counts.1) == after.count - made, "\(result.stderr)")
        #expect(try String(contentsOfFile: project.site + "/changes.html", encoding: .utf8).contains(try #require(newest["identifier"])))
        try project.sql("UPDATE invoice SET amount = amount + 1, net = net + 1 WHERE id = \(try #require(newest["id"]))")
        try project.expectSameAsFullBuild()

        // A previous trail edited by hand (same size, a line the rebuild would take): nothing stale is taken, and the
        // trail and changes page are still a full build's.
        let path = project.folder.path(".site.trail")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let at = try #require(bytes.firstRange(of: Data("\tinvoice\t".utf8)))
        bytes[at.upperBound] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: path))
        try project.sql("UPDATE invoice SET amount = amount + 1, net = net + 1 WHERE id = \(try #require(newest["id"]))")
        try project.expectSameAsFullBuild()
    }

    @Test(.temporaryFolder) func aTemplateChangedRendersThePagesThatUseIt() throws {
        let project = try TestProject.initialized()
        let before = try project.stamps()
        let month = project.templates + "/month.md"
        try Data((try String(contentsOfFile: month, encoding: .utf8) + "\nA line added to every month.\n").utf8)
            .write(to: URL(fileURLWithPath: month))
        try project.expectSameAsFullBuild()
        let after = try project.stamps()
        let months = before.keys.filter { $0.hasPrefix("months/") }
        #expect(!months.isEmpty)
        for path in months { #expect(after[path] != before[path], "\(path)") }
        for path in before.keys where path.hasPrefix("clients/") { #expect(after[path] == before[path], "\(path)") }
        // The layout is used by every page.
        let layout = project.templates + "/layout.html"
        try Data((try String(contentsOfFile: layout, encoding: .utf8) + "<!-- changed -->\n").utf8).write(to: URL(fileURLWithPath: layout))
        try project.expectSameAsFullBuild()
    }

    @Test(.temporaryFolder) func changedOptionsRenderAgain() throws {
        let project = try TestProject.initialized()
        try project.expectSameAsFullBuild(["--title", "Another title"])
        try project.expectSameAsFullBuild(["--title", "Another title", "--base-url", "https://example.com/r/"])
        try project.expectSameAsFullBuild(["--title", "Another title", "--as-of", "2024-02-10"])
        try project.expectSameAsFullBuild(["--month", "2024-03"])
        // Other fiscal years: other quarter and year pages, and none of the previous build's left behind.
        try project.expectSameAsFullBuild(["--fiscal-year-start", "04"])
        // A fiscal quarter, then the year around it: other months, statements and exports.
        try project.expectSameAsFullBuild(["--fiscal-year-start", "04", "--quarter", "2024-Q1"])
        try project.expectSameAsFullBuild(["--fiscal-year-start", "04", "--year", "2024"])
        try project.expectSameAsFullBuild([])
    }

    @Test(.temporaryFolder) func aDamagedOrEditedFileIsRenderedAgain() throws {
        let project = try TestProject.initialized()
        // A second build: its changes page says nothing changed, as every rebuild below will.
        try project.buildSummary(project.site)
        let reference = try project.files()
        let page = try #require(reference.keys.sorted().first { $0.hasPrefix("clients/") })
        let path = project.site + "/" + page
        // Same size, other bytes: only the content check can tell.
        var damaged = reference[page]!
        damaged[damaged.count / 2] ^= 0x20
        try damaged.write(to: URL(fileURLWithPath: path))
        try Data("edited by hand".utf8).write(to: URL(fileURLWithPath: project.site + "/index.html"))
        try FileManager.default.removeItem(atPath: project.site + "/report.json")
        try project.buildSummary(project.site)
        #expect(try project.files() == reference)
        // A damaged manifest is ignored: everything is rendered again, with the same bytes.
        try Data("invoices-site-manifest 2\nU zz\n".utf8).write(to: URL(fileURLWithPath: project.folder.path(".site.manifest")))
        let summary = try project.buildSummary(project.site)
        #expect(try project.files() == reference, "\(summary)")
    }
}

/// The incremental and up-to-date build tests' project.
extension TestProject {
    /// A project from `invoices init` (store and a copy of the default templates) in the test's folder, built once
    /// into `site`: a copy of ``initializedOnce``, whose files (the project, the site and the build's records beside
    /// it) are the same bytes in every folder, since nothing a build records names the folder.
    static func initialized() throws -> TestProject {
        let project = try TestProject(store: "p/books.sqlite", templates: "p/templates")
        let source = try initializedOnce.get()
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            try FileManager.default.copyItem(atPath: source.path + "/" + name, toPath: project.path(name))
        }
        return project
    }

    /// The project `initialized()` copies: `invoices init` (12 clients, 400 invoices) and its first build, made once
    /// for the incremental and up-to-date tests (19 tests: 19 inits and first builds fewer, docs/performance.md).
    /// Left in the temporary folder, as the other suites' shared stores are.
    static let initializedOnce: Result<URL, any Error> = Result {
        let folder = try TemporaryFolder("incremental-initialized")
        let created = try CLI.run(["init", folder.path("p"), "--clients", "12", "--invoices", "400"])
        guard created.status == 0 else { throw InitializedFailure(description: "invoices init: \(created.stderr)") }
        let first = try CLI.run([
            "build", "--store", folder.path("p/books.sqlite"), "--templates", folder.path("p/templates"), "--output",
            folder.path("site"),
        ])
        guard first.status == 0, first.stdout.contains("changed") else {
            throw InitializedFailure(description: "invoices build: \(first.stdout)\(first.stderr)")
        }
        return folder.url
    }

    /// A project of 120 clients and 3,000 invoices built with `--page-size 10`, so a month's list of clients in
    /// one currency has several pages; with the options to build it with.
    static func paged() throws -> (TestProject, [String]) {
        let project = try TestProject(store: "p/books.sqlite", templates: "p/templates")
        let created = try CLI.run(["init", project.path("p"), "--clients", "120", "--invoices", "3000"])
        guard created.status == 0 else { throw InitializedFailure(description: "invoices init: \(created.stderr)") }
        let options = ["--page-size", "10"]
        try project.buildSummary(project.site, options)
        return (project, options)
    }

    struct InitializedFailure: Error, CustomStringConvertible { var description: String }

    /// The keys of the pieces in the exports' index (`.site.pieces`), by file, in the files' order.
    func pieceKeys() throws -> [String: [String]] {
        var keys: [String: [String]] = [:]
        var path = ""
        for line in try String(contentsOfFile: folder.path(".site.pieces"), encoding: .utf8).split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            if fields.first == "F" {
                path = String(fields[2...].joined(separator: " "))
                keys[path] = []
            } else {
                keys[path, default: []].append(String(fields[0]))
            }
        }
        return keys
    }

    /// The keys of the trail's runs in its index (`.site.trail-pieces`), in the file's order.
    func trailPieceKeys() throws -> [String] {
        let lines = try String(contentsOfFile: folder.path(".site.trail-pieces"), encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "invoices-export-pieces 1" && lines.dropFirst().first?.hasSuffix(" .site.trail") == true, "\(lines.prefix(2))")
        return lines.dropFirst(2).map { String($0.split(separator: " ")[0]) }
    }

    /// Builds into `output` with the project's store and templates; returns the summary line.
    @discardableResult
    func buildSummary(_ output: String, _ extra: [String] = []) throws -> String {
        let result = try CLI.run(["build", "--store", store, "--templates", templates, "--output", output] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    /// Rebuilds `site` incrementally, builds everything into a fresh folder, and expects the same files with
    /// the same bytes in both.
    /// - Returns: The incremental build's summary line.
    @discardableResult
    func expectSameAsFullBuild(_ extra: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        // The full build compares with the same previous record as the incremental one, so their changes pages
        // must be the same too (none when the trail is missing).
        let name = "full-\(UUID().uuidString)"
        let full = folder.path(name)
        if FileManager.default.fileExists(atPath: folder.path(".site.trail")) {
            try FileManager.default.copyItem(atPath: folder.path(".site.trail"), toPath: folder.path(".\(name).trail"))
        }
        let summary = try buildSummary(site, extra)
        try buildSummary(full, extra + ["--full"])
        let incremental = try files()
        let reference = try files(in: full)
        #expect(incremental.keys.sorted() == reference.keys.sorted(), sourceLocation: sourceLocation)
        for (path, bytes) in reference where incremental[path] != bytes {
            Issue.record("\(path) differs from a full build", sourceLocation: sourceLocation)
        }
        // The trail too: the rebuild took its unchanged runs from the previous trail, the full build made them all.
        let trail = try Data(contentsOf: URL(fileURLWithPath: folder.path(".site.trail")))
        let fullTrail = try Data(contentsOf: URL(fileURLWithPath: folder.path(".\(name).trail")))
        #expect(trail == fullTrail, "the trail differs from a full build's", sourceLocation: sourceLocation)
        return summary
    }

    /// How many files a build's summary line says it took over from the previous site without rendering them.
    static func reused(_ summary: String) -> Int? {
        guard let match = summary.firstMatch(of: /(\d+) reused/) else { return nil }
        return Int(match.1)
    }

    /// Each file's inode and modification time (nanoseconds).
    func stamps() throws -> [String: [Int]] {
        var stamps: [String: [Int]] = [:]
        for path in try files().keys {
            var info = stat()
            #expect(stat(site + "/" + path, &info) == 0)
            stamps[path] = [Int(info.st_ino), info.st_mtim.tv_sec, info.st_mtim.tv_nsec]
        }
        return stamps
    }

    /// The inputs fingerprint the manifest records for each unit, by unit key (`period:quarters/2024-Q3.html`).
    func unitInputs() throws -> [String: String] {
        let manifest = try String(contentsOfFile: folder.path(".site.manifest"), encoding: .utf8)
        var units: [String: String] = [:]
        for line in manifest.split(separator: "\n") where line.hasPrefix("U ") {
            let cells = line.split(separator: " ", maxSplits: 2)
            units[String(cells[2])] = String(cells[1])
        }
        return units
    }

    /// The path of the client page of the client with row id `id`.
    func clientPage(_ id: Int) throws -> String {
        let number = try StoreFixture.query(store, "SELECT number FROM client WHERE id = \(id)")[0]["number"]!
        let pages = try files().filter { $0.key.hasPrefix("clients/") && String(decoding: $0.value, as: UTF8.self).contains(number) }
        return try #require(pages.keys.sorted().first)
    }
}
