import Foundation
import InvoicesTesting
import Testing

/// The last good site survives; the books are never touched (issue 10).
@Suite(.serialized)
struct ReliabilityTests {
    /// Every file of a site folder, by relative path.
    func snapshot(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let root = URL(fileURLWithPath: folder)
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return files }
        for case let path as String in enumerator {
            var isDirectory: ObjCBool = false
            let full = root.appendingPathComponent(path).path
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = try Data(contentsOf: URL(fileURLWithPath: full))
            }
        }
        return files
    }

    func leftovers(in folder: TemporaryFolder) throws -> [String] {
        // The build manifest, the trail, the exports' and trail's pieces and the carried inputs (docs/cli.md) are the
        // files a build keeps beside its output; and the site the last build replaced, retired for the next build to
        // remove (one folder: each build removes the ones before it).
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        let retired = names.filter { $0.hasPrefix(".site.retired-") }
        return names.filter {
            $0.hasPrefix(".site.") && ![".site.manifest", ".site.trail", ".site.pieces", ".site.trail-pieces", ".site.inputs"].contains($0)
                && (retired.count > 1 || !$0.hasPrefix(".site.retired-"))
        }
    }

    @Test(.temporaryFolder) func aBuildKilledAtRandomMomentsLeavesEitherTheOldOrTheNewSite() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        // 3,000 invoices: a debug build of them still outlasts most kills (at most 0.7 s in); 15,000 cost 28 s of CPU
        // for this test alone (issue 42 item 7).
        #expect(try CLI.run(["sample", "--clients", "40", "--invoices", "3000", "--seed", "5", "--output", store]).status == 0)
        // The two complete sites a killed build may leave: the previous one (A) and the new one (B). Each is built
        // twice, as the site below, so that its changes page compares with a previous build too ("nothing changed").
        for _ in 0..<2 {
            #expect(try CLI.run(["build", "--store", store, "--output", folder.path("a"), "--title", "Site A", "--quiet"]).status == 0)
            #expect(try CLI.run(["build", "--store", store, "--output", folder.path("b"), "--title", "Site B", "--quiet"]).status == 0)
        }
        let siteA = try snapshot(folder.path("a"))
        let siteB = try snapshot(folder.path("b"))
        #expect(siteA != siteB)
        for _ in 0..<2 {
            #expect(try CLI.run(["build", "--store", store, "--output", folder.path("site"), "--title", "Site A", "--quiet"]).status == 0)
        }

        var random = SeededRandom(seed: 20)
        var sawOld = 0
        var sawNew = 0
        for _ in 0..<20 {
            let process = Process()
            process.executableURL = CLI.executable
            process.arguments = ["build", "--store", store, "--output", folder.path("site"), "--title", "Site B", "--quiet"]
            try process.run()
            usleep(UInt32(random.below(700_000)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let site = try snapshot(folder.path("site"))
            #expect(site == siteA || site == siteB, "the output folder is a mix of two sites")
            if site == siteA { sawOld += 1 } else if site == siteB { sawNew += 1 }
            // Put the old site back for the next round when the new one landed.
            if site == siteB {
                #expect(try CLI.run(["build", "--store", store, "--output", folder.path("site"), "--title", "Site A", "--quiet"]).status == 0)
            }
        }
        #expect(sawOld > 0)
        let final = try CLI.run(["build", "--store", store, "--output", folder.path("site"), "--title", "Site B", "--quiet"])
        #expect(final.status == 0)
        #expect(try snapshot(folder.path("site")) == siteB)
        #expect(try leftovers(in: folder) == [], "temporary folders left behind")
    }

    @Test(.temporaryFolder) func aBuildOnAFullDiskFailsClearlyAndKeepsThePreviousSite() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        #expect(try CLI.run(["sample", "--clients", "20", "--invoices", "400", "--seed", "2", "--output", store]).status == 0)
        let disk = folder.path("disk")
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        let output = disk + "/site"
        let mounted = shell("mount -t tmpfs -o size=512k tmpfs '\(disk)'") == 0
        defer { if mounted { _ = shell("umount '\(disk)'") } }
        // A small site that fits.
        let small = folder.path("small.sqlite")
        #expect(try CLI.run(["sample", "--clients", "2", "--invoices", "10", "--seed", "2", "--output", small]).status == 0)
        #expect(try CLI.run(["build", "--store", small, "--output", output, "--quiet"]).status == 0)
        let before = try snapshot(output)
        let result: CLI.Result
        if mounted {
            result = try CLI.run(["build", "--store", store, "--output", output])
        } else {
            // No mounting allowed here: a file size limit makes writes fail the same way (EFBIG instead of ENOSPC).
            result = try runShell("ulimit -f 64; exec '\(CLI.executable.path)' build --store '\(store)' --output '\(output)'")
        }
        #expect(result.status == 73)
        #expect(result.stderr.contains("cannot write the site"), "\(result.stderr)")
        #expect(result.stderr.contains(mounted ? "No space left on device" : "File too large"), "\(result.stderr)")
        #expect(result.stderr.contains("the previous site is untouched"))
        #expect(try snapshot(output) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk).filter { $0.hasPrefix(".site.") && ![".site.manifest", ".site.trail", ".site.pieces", ".site.trail-pieces", ".site.inputs"].contains($0) } == [])
    }

    @Test(.temporaryFolder) func aLockedStoreIsReportedAndLeftAlone() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        #expect(try CLI.run(["sample", "--clients", "5", "--invoices", "50", "--seed", "2", "--output", store]).status == 0)
        // Another process holds an exclusive (write) lock until it is told to stop.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = ["python3", "-c", """
            import sqlite3, sys, time
            db = sqlite3.connect(sys.argv[1], isolation_level=None)
            db.execute('BEGIN EXCLUSIVE')
            db.execute("UPDATE client SET name = name WHERE id = 1")
            print('locked', flush=True)
            sys.stdin.read()
            db.execute('ROLLBACK')
            """, store]
        let input = Pipe()
        let output = Pipe()
        holder.standardInput = input
        holder.standardOutput = output
        try holder.run()
        _ = output.fileHandleForReading.availableData  // waits for "locked"
        let result = try CLI.run(["build", "--store", store, "--output", folder.path("site")])
        try input.fileHandleForWriting.close()
        holder.waitUntilExit()
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(store): the database is locked by another process"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("site")))
    }

    @Test(.temporaryFolder) func aStoreInWALModeKeepsTheBytesOfAllItsFiles() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        #expect(try CLI.run(["sample", "--clients", "5", "--invoices", "50", "--seed", "2", "--output", store]).status == 0)
        // Switch to WAL and leave committed rows in the -wal file (no checkpoint), as a running app would.
        #expect(shell("""
            python3 -c "
            import sqlite3, os
            db = sqlite3.connect('\(store)', isolation_level=None)
            db.execute('PRAGMA journal_mode=WAL'); db.execute('PRAGMA wal_autocheckpoint=0')
            db.execute(\\"INSERT INTO invoice (identifier, clientId, amount, currency, issuedOn, dueOn) VALUES ('WAL-1', 1, 100, 'EUR', '2025-01-01', '2025-01-31')\\")
            os._exit(0)"
            """) == 0)
        let files = [store, store + "-wal", store + "-shm"]
        let before = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(before[1].count > 0)
        let result = try CLI.run(["build", "--store", store, "--output", folder.path("site")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == before)
        let bad = try CLI.run(["build", "--store", store, "--output", folder.path("site"), "--templates", folder.path("none")])
        #expect(bad.status != 0)
        #expect(try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == before)
        // The row that only lives in the -wal file was read.
        let clients = try FileManager.default.contentsOfDirectory(atPath: folder.path("site/clients"))
        let page = try clients.map { try String(contentsOfFile: folder.path("site/clients/\($0)"), encoding: .utf8) }
        #expect(page.contains { $0.contains("WAL-1") })
    }

    @Test(.temporaryFolder) func aTruncatedStoreIsReportedAsCorrupt() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        #expect(try CLI.run(["sample", "--clients", "30", "--invoices", "3000", "--seed", "2", "--output", store]).status == 0)
        let data = try Data(contentsOf: URL(fileURLWithPath: store))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: store))
        let result = try CLI.run(["build", "--store", store, "--output", folder.path("site")])
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(store): the database file is corrupt"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("site")))
    }

    @Test(.temporaryFolder) func corruptedPagesAreReportedAsCorrupt() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        #expect(try CLI.run(["sample", "--clients", "30", "--invoices", "3000", "--seed", "2", "--output", store]).status == 0)
        var data = try Data(contentsOf: URL(fileURLWithPath: store))
        // Overwrite every page after the first two with garbage, keeping the header and schema page.
        var random = SeededRandom(seed: 3)
        for index in 8192..<data.count { data[index] = UInt8(random.below(256)) }
        try data.write(to: URL(fileURLWithPath: store))
        let result = try CLI.run(["build", "--store", store, "--output", folder.path("site")])
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(store):"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: folder.path("site")))
    }
}

/// Runs a shell command, returning its exit status.
func shell(_ command: String) -> Int32 {
    (try? CLI.shell(command).status) ?? -1
}

/// Runs a shell command, returning its result.
func runShell(_ command: String) throws -> CLI.Result {
    try CLI.shell(command)
}
