import ArgumentParser
import Foundation
import InvoicesCore
import InvoicesStore

extension InvoicesCommand {
    struct Sample: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Writes a realistic sample store; the same options give the same bytes.",
            discussion: """
                Example:
                  invoices sample --clients 40 --invoices 1200 --seed 1 --output demo.sqlite
                """
        )

        @Option(help: "How many clients.")
        var clients: Int = 40

        @Option(help: "How many invoices, spread over 24 months from January 2024.")
        var invoices: Int = 1200

        @Option(help: "The random seed.")
        var seed: UInt64 = 1

        @Option(help: "The store file to write (replaced if it exists).")
        var output: String

        func validate() throws {
            guard clients > 0 else { throw ValidationError("--clients must be at least 1") }
            guard invoices >= 0 else { throw ValidationError("--invoices cannot be negative") }
        }

        func run() throws {
            do {
                try SampleGenerator(clients: clients, invoices: invoices, seed: seed).write(to: output)
            } catch {
                printError("\(output): cannot write the sample store: \(error)")
                throw ExitCode(ExitStatus.cannotCreate)
            }
            printLine("Wrote \(clients) clients and \(invoices) invoices to \(output)")
        }
    }
}
