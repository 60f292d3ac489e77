import ArgumentParser
import Foundation
import InvoicesCore
import InvoicesPostgres
import Hummingbird
import InvoicesServe
import Logging
import ServiceLifecycle

extension InvoicesCommand {
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Builds the site, serves it on 127.0.0.1 and rebuilds it when the store, templates or project file change.",
            discussion: """
                Open pages reload by themselves after each rebuild: the server adds a small script to the HTML it \
                serves (never to the files it writes) that polls /__livereload. A failed rebuild prints its error and \
                keeps serving the previous site. A store on a PostgreSQL server is watched through the server's counters \
                of its tables (docs/store.md), with the build's SELECT rights. Ctrl-C (SIGINT) or SIGTERM stops the server; it then exits 0.

                Examples:
                  invoices serve
                  invoices serve --port 0          (any free port; the URL is printed)
                  invoices serve --store books.sqlite --templates templates --port 8000
                """
        )

        @OptionGroup var project: ProjectOptions

        @Option(help: "The port to listen on, on 127.0.0.1 only; 0 picks a free one.")
        var port: Int = 8080

        @Option(help: "How often to look for changes, in milliseconds.")
        var interval: Int = 300

        @Option(help: ArgumentHelp("Milliseconds a request's header may take to arrive (for tests).", visibility: .hidden))
        var headerTimeout: Int = 10_000

        func validate() throws {
            guard (0...65535).contains(port) else { throw ValidationError("--port \(port) is not a port; expected 0 to 65535") }
            guard interval >= 10 else { throw ValidationError("--interval must be at least 10 milliseconds") }
            guard headerTimeout >= 100 else { throw ValidationError("--header-timeout must be at least 100 milliseconds") }
        }

        func run() async throws {
            let resolved: ResolvedProject
            do {
                resolved = try project.resolve(with: try project.loadConfig())
            } catch {
                printError(error.message)
                throw ExitCode(error.code)
            }
            let generation = BuildGeneration()
            let books = StoreWatch(store: resolved.configuration.store)
            // Read before the first build: a commit made while it reads shows in a later token.
            _ = await books.changed()
            let rebuilder = Rebuilder(
                project: project, resolved: resolved, generation: generation, interval: .milliseconds(interval), books: books)
            await rebuilder.build(reason: nil)

            var logger = Logger(label: "invoices.serve")
            logger.logLevel = .error
            let output = URL(fileURLWithPath: resolved.configuration.output).standardizedFileURL
            let app = Application(
                responder: SiteServer.router(serving: output.path, generation: generation, logger: logger).buildResponder(),
                server: SiteServer.server(headerTimeout: .milliseconds(headerTimeout)),
                configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: port), serverName: nil),
                services: [rebuilder],
                onServerRunning: { channel in
                    let port = channel.localAddress?.port ?? 0
                    say("Serving \(output.path) at http://127.0.0.1:\(port)/ (Ctrl-C to stop)")
                },
                logger: logger)
            do {
                try await app.runService(gracefulShutdownSignals: [.sigint, .sigterm])
            } catch {
                printError("cannot serve on 127.0.0.1:\(port): \(error)")
                throw ExitCode(ExitStatus.software)
            }
            say("Stopped.")
        }
    }
}

/// Writes a line to standard output at once (no buffering: a parent process may be waiting for it).
func say(_ line: String) {
    printLine(line)
}

/// Watches the inputs of a build by polling their modification times (and a PostgreSQL store's ``StoreWatch``), and
/// rebuilds when one changes.
struct Rebuilder: Service {
    let project: ProjectOptions
    let resolved: ResolvedProject
    let generation: BuildGeneration
    let interval: Duration
    let books: StoreWatch

    func run() async throws {
        await cancelWhenGracefulShutdown {
            var resolved = self.resolved
            var seen = Self.stamps(of: resolved.inputs)
            while !Task.isCancelled {
                do { try await Task.sleep(for: self.interval) } catch { return }
                let now = Self.stamps(of: resolved.inputs)
                let booksChanged = await self.books.changed()
                guard now != seen || booksChanged else { continue }
                let changed = Set(now.keys).union(seen.keys).filter { now[$0] != seen[$0] }.sorted()
                    .map { ($0 as NSString).lastPathComponent } + (booksChanged ? [resolved.configuration.displayStore] : [])
                seen = now
                // The project file may have changed what to build: read it again.
                do throws(CommandError) {
                    resolved = try self.project.resolve(with: try self.project.loadConfig())
                    seen = Self.stamps(of: resolved.inputs)
                } catch {
                    printError(error.message)
                    continue
                }
                if await self.books.watch(resolved.configuration.store) { _ = await self.books.changed() }
                await Rebuilder(
                    project: self.project, resolved: resolved, generation: self.generation, interval: self.interval, books: self.books
                ).build(reason: changed.joined(separator: ", "))
            }
        }
    }

    /// Builds once; advances the live-reload generation when the build succeeds.
    func build(reason: String?) async {
        if let reason { say("Changed: \(reason); rebuilding") }
        let reporter = ProgressReporter(mode: ProgressReporter.mode(quiet: false))
        do {
            let line = try await generation.rebuild { [resolved] () async throws(CommandError) -> String in
                try await InvoicesCommand.Build.build(resolved, reporter: reporter)
            }
            say(line)
        } catch {
            printError(error.message)
        }
    }

    /// The modification time of each input, and of each file directly inside an input folder.
    static func stamps(of paths: [String]) -> [String: Date] {
        let manager = FileManager.default
        var stamps: [String: Date] = [:]
        for path in paths {
            guard let attributes = try? manager.attributesOfItem(atPath: path) else { continue }
            stamps[path] = attributes[.modificationDate] as? Date
            if attributes[.type] as? FileAttributeType == .typeDirectory,
               let names = try? manager.contentsOfDirectory(atPath: path) {
                for name in names where !name.hasPrefix(".") {
                    let file = path + "/" + name
                    stamps[file] = (try? manager.attributesOfItem(atPath: file))?[.modificationDate] as? Date
                }
            }
        }
        return stamps
    }
}

/// The books on a PostgreSQL server, for `serve`: whether they changed since the last look (``PostgresChanges``).
/// A file store needs none of this (its modification time is watched); for one, ``changed()`` is always false.
actor StoreWatch {
    private var changes: PostgresChanges?
    private var token: String?
    /// Whether the last look failed (its message is printed once, not at every poll).
    private var failing = false

    init(store: String) {
        changes = PostgresAddress.isAddress(store) ? (try? PostgresAddress(store)).map(PostgresChanges.init) : nil
    }

    /// Watches `store` from now on, if it is another store than the one watched; returns whether it is.
    func watch(_ store: String) async -> Bool {
        let address = PostgresAddress.isAddress(store) ? try? PostgresAddress(store) : nil
        guard address != changes?.address else { return false }
        await changes?.close()
        changes = address.map(PostgresChanges.init)
        token = nil
        failing = false
        return true
    }

    /// Whether the server's token moved since the last look. The first look, and a look while the server does not
    /// answer, say no; the first answer after a failure says yes unless it equals the last one known.
    func changed() async -> Bool {
        guard let changes else { return false }
        switch await changes.token() {
        case .success(let now):
            // After a failure, an unknown token counts as a change: the server is back, and the site may be stale.
            defer { (token, failing) = (now, false) }
            return failing ? token != now : token != nil && token != now
        case .failure(let issues):
            if !failing { printError("cannot look for changes to the books: " + issues.issues.map(\.message).joined(separator: "; ")) }
            failing = true
            return false
        }
    }
}
