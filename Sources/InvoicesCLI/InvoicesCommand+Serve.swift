import ArgumentParser
import Foundation
import InvoicesCore
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
                keeps serving the previous site. Ctrl-C (SIGINT) or SIGTERM stops the server; it then exits 0.

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

        func validate() throws {
            guard (0...65535).contains(port) else { throw ValidationError("--port \(port) is not a port; expected 0 to 65535") }
            guard interval >= 10 else { throw ValidationError("--interval must be at least 10 milliseconds") }
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
            let rebuilder = Rebuilder(
                project: project, resolved: resolved, generation: generation, interval: .milliseconds(interval))
            await rebuilder.build(reason: nil)

            var logger = Logger(label: "invoices.serve")
            logger.logLevel = .error
            let output = URL(fileURLWithPath: resolved.configuration.output).standardizedFileURL
            let app = Application(
                responder: SiteServer.router(serving: output.path, generation: generation, logger: logger).buildResponder(),
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
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Watches the inputs of a build by polling their modification times, and rebuilds when one changes.
struct Rebuilder: Service {
    let project: ProjectOptions
    let resolved: ResolvedProject
    let generation: BuildGeneration
    let interval: Duration

    func run() async throws {
        await cancelWhenGracefulShutdown {
            var resolved = self.resolved
            var seen = Self.stamps(of: resolved.inputs)
            while !Task.isCancelled {
                do { try await Task.sleep(for: self.interval) } catch { return }
                let now = Self.stamps(of: resolved.inputs)
                guard now != seen else { continue }
                let changed = Set(now.keys).union(seen.keys).filter { now[$0] != seen[$0] }.sorted()
                seen = now
                // The project file may have changed what to build: read it again.
                do throws(CommandError) {
                    resolved = try self.project.resolve(with: try self.project.loadConfig())
                    seen = Self.stamps(of: resolved.inputs)
                } catch {
                    printError(error.message)
                    continue
                }
                await Rebuilder(project: self.project, resolved: resolved, generation: self.generation, interval: self.interval)
                    .build(reason: changed.map { ($0 as NSString).lastPathComponent }.joined(separator: ", "))
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
