import ArgumentParser
import Foundation
import InvoicesApp
import InvoicesCore
import InvoicesPublish
import InvoicesReport
import InvoicesStore

extension InvoicesCommand {
    struct Links: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Prints each client's private address (its client link), for sending.",
            discussion: """
                One line per client that has a page in the report: client number, name and address, separated by \
                tabs. A tab, line break, backslash or control character in a number or name is written as an escape \
                (\\t, \\n, \\\\, \\u{1b}), so every line is one client. The address is absolute with --base-url (or base_url in invoices.yaml), else relative to the \
                site's root. The key comes from --client-links (a file, or env:NAME), never from the command line.

                Examples:
                  invoices links --client-links secrets/client-links.key
                  INVOICES_LINK_KEY=... invoices links --client-links env:INVOICES_LINK_KEY --base-url https://example.com/reports/
                """
        )

        @OptionGroup var project: ProjectOptions

        func run() async throws {
            do {
                let config = try project.loadConfig()
                let resolved = try project.resolve(with: config)
                guard let key = try project.loadClientLinkKey(config: config) else {
                    throw CommandError(
                        code: .usage,
                        message: "no client-link key: pass --client-links KEY-FILE (or env:NAME), or set client_links in \(ProjectConfig.fileName)")
                }
                let base = resolved.configuration.site.baseURL ?? ""
                for client in try await Self.clientsWithPages(resolved) {
                    // Values from the books are escaped so that no tab, line break or terminal control can forge a row.
                    let fields = [client.number, client.name].map(TerminalText.escaped)
                    print("\(fields[0])\t\(fields[1])\t\(base)\(key.path(forClient: client.number))")
                }
            } catch let error as CommandError {
                printError(error.message)
                throw ExitCode(error.code)
            }
        }

        /// The clients the report has a page for, in the report's order.
        static func clientsWithPages(_ resolved: ResolvedProject) async throws(CommandError) -> [ClientSnapshot] {
            // The build's own reading of the store (the same options, the same contexts), without rendering.
            do {
                let books = try await BuildPipeline(configuration: resolved.configuration).books()
                return books.report.clients.map { books.books.clients[$0.clientIndex] }
            } catch {
                throw CommandError(code: error.code, message: error.message)
            }
        }
    }
}

extension ProjectOptions {
    /// The client-link key named by `--client-links` or `client_links`, or nil when neither is given.
    /// - Throws: ``CommandError``: 66 when the file or variable is missing, 65 when the key is too short.
    func loadClientLinkKey(config: ProjectConfig?) throws(CommandError) -> ClientLinkKey? {
        guard let source = clientLinks ?? config?.clientLinksSource else { return nil }
        do {
            return try ClientLinkKey(source: source)
        } catch {
            throw CommandError(code: error.code.exitCode, message: error.message)
        }
    }
}

extension PublishError.Code {
    /// The exit code for this failure (``InvoicesCore/ExitStatus``).
    var exitCode: ExitStatus {
        switch self {
        case .usage: .usage
        case .badInput: .dataError
        case .missingInput: .noInput
        case .unavailable: .unavailable
        case .transfer: .ioError
        case .cannotCreate: .cannotCreate
        default: .software
        }
    }
}
