import Foundation
import InvoicesTesting
import Testing

@Suite(.serialized)
struct ServeAndProgressTests {
    static func project() throws -> TemporaryFolder { try ProjectCommandTests.project() }

    @Test(.temporaryFolder) func serveBuildsServesReloadsAndStopsOnSIGINT() async throws {
        let folder = try Self.project()
        let report = folder.url.appendingPathComponent("report")
        let serve = try await ServeProcess.start(in: report)
        defer { serve.terminate() }
        let (process, stdout, stderr, base) = (serve.process, serve.stdout, serve.stderr, serve.base)
        #expect(base.port != 0 && base.port != nil)

        let (status, page) = try await serve.fetch()
        #expect(status == 200)
        #expect(page.contains("data-invoices-livereload"))
        #expect(page.contains("/__livereload"))
        let built = try String(contentsOfFile: report.appendingPathComponent("Output/index.html").path, encoding: .utf8)
        #expect(!built.contains("livereload"))
        #expect(page.replacingOccurrences(of: SiteScript.marker(in: page), with: "") == built)
        let (_, before) = try await serve.fetch("__livereload")

        // Change a template: the served page shows it within a few seconds, and the build counter moves.
        let overview = report.appendingPathComponent("templates/overview.md")
        var text = try String(contentsOf: overview, encoding: .utf8)
        text += "\nServed after a change: marker-4711\n"
        try Data(text.utf8).write(to: overview)
        let changed = try await eventually(10) { try await serve.fetch().1.contains("marker-4711") }
        #expect(changed, "\(stdout.text)\(stderr.text)")
        // The build swaps the new site in, then returns and the counter moves: poll, the gap is short but real.
        let moved = try await eventually(10) {
            try await serve.fetch("__livereload").1 != before
        }
        #expect(moved, "\(stdout.text)\(stderr.text)")
        let rebuilt = try String(contentsOfFile: report.appendingPathComponent("Output/index.html").path, encoding: .utf8)
        #expect(rebuilt.contains("marker-4711"))
        #expect(!rebuilt.contains("livereload"))
        let (missing, _) = try await serve.fetch("nope.html")
        #expect(missing == 404)
        // The project folder holds the store beside Output/: an encoded `..` must not reach it.
        let (outside, leaked) = try await serve.fetch("..%2finvoices.yaml")
        #expect(outside == 400)
        #expect(!leaked.contains("store"))

        process.interrupt()  // SIGINT, as Ctrl-C sends.
        let stopped = await eventually(10) { !process.isRunning }
        #expect(stopped)
        if stopped {
            #expect(process.terminationReason == .exit)
            #expect(process.terminationStatus == 0, "\(stderr.text)")
            #expect(stdout.text.contains("Stopped."))
        }
    }

    @Test(.temporaryFolder) func progressOnAPipeIsOnePlainLinePerPhase() throws {
        let folder = try Self.project()
        let result = try CLI.run(["build"], in: folder.url.appendingPathComponent("report"))
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.map { String($0.prefix(6)) } == ["load  ", "totals", "render", "write "], "\(result.stderr)")
        #expect(!result.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F })
        #expect(!result.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(result.stdout.range(of: #"^Wrote \d+ pages \(\d+ files, \d+ changed, \d+ reused\) to .+ in \d+\.\d\d s\n$"#, options: .regularExpression) != nil)
    }

    @Test(.temporaryFolder)  // script(1) comes with bsdutils, an essential Debian package
    func progressOnATerminalDrawsABar() throws {
        let folder = try Self.project()
        let report = folder.url.appendingPathComponent("report")
        // script(1) runs the build on a pseudo-terminal and copies what it writes.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-q", "-e", "-c", "\(CLI.executable.path) build", "/dev/null"]
        process.currentDirectoryURL = report
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm"
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("\r\u{1B}[2K"))  // Return and erase the line: the status line is redrawn.
        #expect(text.contains("█"))
        #expect(text.contains("░"))
        #expect(text.contains("… render "))
        #expect(text.range(of: #"render  [█░]{30} \d+/\d+"#, options: .regularExpression) != nil)
        #expect(text.contains("Wrote "))
    }
}

/// Finds the live-reload script the server adds, to compare the served page with the built file.
enum SiteScript {
    static func marker(in page: String) -> String {
        guard let start = page.range(of: "<script src=\"/__livereload.js\" data-invoices-livereload>"),
              let end = page.range(of: "</script>\n", range: start.upperBound..<page.endIndex) else { return "" }
        return String(page[start.lowerBound..<end.upperBound])
    }
}
