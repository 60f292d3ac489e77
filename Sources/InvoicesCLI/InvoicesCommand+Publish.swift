import ArgumentParser
import Foundation
import InvoicesPublish

extension InvoicesCommand {
    struct Publish: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Publishes the built site to a folder or an SSH server, switching to it atomically.",
            discussion: """
                DEST is a local folder or ssh://user@host[:port]/path (ssh and rsync from the system; keys from the \
                agent or -i). The site goes into DEST/releases/<id>/ (the id derives from the content; files \
                unchanged since an earlier release are hard-linked, not uploaded), then DEST/current is switched to it \
                atomically. A failed upload leaves current as it was. Serve DEST/current, never DEST itself.

                Settings can live under 'publish:' in invoices.yaml (destination, keep, identity, known_hosts, server, \
                users, web_group, url_path, bcrypt_cost, bwlimit); flags win. docs/publishing.md explains the server snippets.

                Examples:
                  invoices publish ssh://deploy@www.example.com/srv/reports --known-hosts deploy/known_hosts
                  invoices publish /srv/www/reports --server nginx --users users.txt --url-path /reports/
                  invoices publish --dry-run
                  invoices publish --rollback
                """
        )

        @Argument(help: "A folder, or ssh://user@host[:port]/path. Default: publish.destination in invoices.yaml.")
        var destination: String?

        @Option(help: "The project file (YAML). Default: invoices.yaml in the current folder, when there is one.")
        var config: String?

        @Option(help: "The built site folder to publish. Default: the project's output, else Output.")
        var site: String?

        @Option(help: "How many releases to keep at the destination, the current one included. Default: 5.")
        var keep: Int?

        @Flag(help: "Point current back at the release published before it, and upload nothing.")
        var rollback = false

        @Flag(help: "List what would change (new, changed, deleted files, with counts) and write nothing.")
        var dryRun = false

        @Option(name: [.customShort("i"), .long], help: "The SSH private key to log in with. Default: the agent's keys or ssh's own.")
        var identity: String?

        @Option(help: "A known_hosts file with the server's key; no other host key is accepted.")
        var knownHosts: String?

        @Option(help: "Also write a web-server snippet for the published path: nginx (DEST/nginx.conf) or apache (.htaccess in the release).")
        var server: String?

        @Option(help: "A users file (one 'name:password' line each) to make DEST/htpasswd from, with bcrypt hashes.")
        var users: String?

        @Option(help: "The web server's group (e.g. www-data): htpasswd is given to it, mode 0640. Default: readable by all local users (0644).")
        var webGroup: String?

        @Option(help: "The address path the site is served under, for the snippet. Default: /reports/.")
        var urlPath: String?

        @Option(help: "The bcrypt cost of new password hashes (4 to 31). Default: 10.")
        var bcryptCost: Int?

        @Option(help: "Upload at most this many KiB per second.")
        var bwlimit: Int?

        @Flag(name: .customLong("public"), help: "Leave X-Robots-Tag: noindex out of the snippet (for a site built with --public).")
        var isPublic = false

        @Flag(help: "Print nothing but errors.")
        var quiet = false

        func validate() throws {
            if let keep, keep < 1 { throw ValidationError("--keep \(keep) must be at least 1") }
            if let bcryptCost, !(4...31).contains(bcryptCost) { throw ValidationError("--bcrypt-cost \(bcryptCost) must be between 4 and 31") }
            if let bwlimit, bwlimit < 1 { throw ValidationError("--bwlimit \(bwlimit) must be a positive number of KiB per second") }
            if let server, ServerSnippet.Kind(rawValue: server) == nil {
                throw ValidationError("--server '\(server)' is not a server this can configure; expected nginx or apache")
            }
            if let urlPath, ServerSnippet.normalizedURLPath(urlPath) == nil {
                throw ValidationError("--url-path '\(urlPath)' is not an address path; expected e.g. /reports/")
            }
            if let webGroup, webGroup.isEmpty || !webGroup.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) {
                throw ValidationError("--web-group '\(webGroup)' is not a group name, e.g. www-data")
            }
            if rollback && dryRun { throw ValidationError("--rollback and --dry-run cannot be used together") }
        }

        func run() throws {
            do {
                let publisher = try makePublisher()
                if rollback {
                    let (from, to) = try publisher.rollback()
                    say("Rolled back \(publisher.target)/current from release \(from) to release \(to).")
                } else if dryRun {
                    report(try publisher.plan(), target: publisher.target)
                } else {
                    report(try publisher.publish(), target: publisher.target)
                }
            } catch let error as CommandError {
                printError(error.message)
                throw ExitCode(error.code)
            } catch let error as PublishError {
                printError(error.message)
                throw ExitCode(error.code.exitCode)
            }
        }

        /// The publisher the flags and the project file describe; a flag wins over `publish.KEY`.
        func makePublisher() throws -> Publisher {
            let project = try ProjectOptions.loadConfig(path: config)
            func setting(_ key: String) -> String? { project?["publish." + key] }
            func pathSetting(_ key: String) -> String? { project?.path("publish." + key) }
            guard let destinationText = destination ?? Self.destination(in: project) else {
                throw CommandError(
                    code: .usage,
                    message: "no destination: pass a folder or ssh://user@host/path, or set 'destination' under 'publish:' in \(ProjectConfig.fileName)")
            }
            let target = try PublishTarget(destinationText)
            var options = PublishOptions(site: site ?? project?.path("output") ?? "Output")
            options.site = URL(fileURLWithPath: options.site).standardizedFileURL.path
            options.keep = keep ?? setting("keep").flatMap(Int.init) ?? 5
            options.identity = identity ?? pathSetting("identity")
            options.knownHosts = knownHosts ?? pathSetting("known_hosts")
            options.server = (server ?? setting("server")).flatMap(ServerSnippet.Kind.init(rawValue:))
            options.users = users ?? pathSetting("users")
            options.webGroup = webGroup ?? setting("web_group")
            if let path = (urlPath ?? setting("url_path")) {
                guard let normalized = ServerSnippet.normalizedURLPath(path) else {
                    throw CommandError(code: .dataError, message: "publish.url_path '\(path)' is not an address path; expected e.g. /reports/")
                }
                options.urlPath = normalized
            }
            options.bcryptCost = bcryptCost ?? setting("bcrypt_cost").flatMap(Int.init) ?? Bcrypt.defaultCost
            options.bandwidthLimit = bwlimit ?? setting("bwlimit").flatMap(Int.init)
            options.isPublic = isPublic || project?["public"] == "true"
            if let users = options.users, PublishOptions.isInside(users, folder: options.site) {
                throw CommandError(code: .usage, message: "\(users): the users file is inside the site folder \(options.site), which is published; keep it elsewhere")
            }
            if options.server != nil, options.users == nil, !options.isPublic, !quiet {
                printWarning("--server without --users: the snippet asks for no password")
            }
            return Publisher(target: target, options: options)
        }

        /// `publish.destination`, a local folder resolved against the project file's folder.
        static func destination(in project: ProjectConfig?) -> String? {
            guard let text = project?["publish.destination"] else { return nil }
            return text.contains("://") ? text : project?.path("publish.destination")
        }

        func report(_ result: Publisher.Result, target: PublishTarget) {
            let was = result.previous.map { "release \($0)" } ?? "nothing"
            if result.reused {
                say(result.previous == result.release
                    ? "Release \(result.release) is already current at \(target); nothing uploaded."
                    : "Switched \(target)/current to release \(result.release), published before (nothing uploaded); it was \(was).")
            } else {
                say("""
                    Published release \(result.release) to \(target): \(result.files) files, \(result.transferred) uploaded, \
                    \(result.files - result.transferred) unchanged and linked; current was \(was).
                    """)
            }
            if !result.removed.isEmpty { say("Removed \(result.removed.count) old releases: \(result.removed.joined(separator: ", ")).") }
            for file in result.changedServerFiles {
                say(file == "nginx.conf" ? "Wrote \(target)/nginx.conf: reload nginx to apply it (nginx -s reload)." : "Wrote \(target)/\(file).")
            }
        }

        func report(_ plan: Publisher.Plan, target: PublishTarget) {
            for change in plan.changes { say("\(change.kind.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(change.path)") }
            let counts = [Publisher.Change.Kind.new, .changed, .deleted].map { kind in "\(plan.changes.filter { $0.kind == kind }.count) \(kind.rawValue)" }
            let against = plan.current.map { "release \($0) (current)" } ?? "nothing published yet"
            say("Dry run: release \(plan.release) against \(against) at \(target): \(counts.joined(separator: ", ")), \(plan.unchanged) unchanged; nothing was written.")
        }

        func say(_ line: String) {
            if !quiet { printLine(line) }
        }
    }
}

extension ProjectOptions {
    /// Reads the project file at `path`, else `invoices.yaml` in the current folder if there is one.
    static func loadConfig(path: String?) throws(CommandError) -> ProjectConfig? {
        var options = ProjectOptions()
        options.config = path
        return try options.loadConfig()
    }
}
