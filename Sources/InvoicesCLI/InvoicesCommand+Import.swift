public import ArgumentParser
import Foundation
import InvoicesImport
import InvoicesPostgres

extension InvoicesCommand {
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Imports clients and invoices from CSV or JSON exports into a store, all or nothing.",
            discussion: """
                Formats (detected from each file's header row, or named with --format): \
                \(ImportFormat.allCases.map(\.rawValue).joined(separator: ", ")). See docs/import.md.
                Every row is checked first; if any is wrong, each problem is reported with its file, line and column, \
                nothing is written and the exit code is 65. Importing the same files again changes nothing.

                Examples:
                  invoices import --store books.sqlite clients.csv invoices.csv
                  invoices import --store books.sqlite --default-terms 14 fb-clients.csv fb-invoices.csv
                  invoices import --store books.sqlite --date-format dd/MM/yyyy zoho-invoices.csv
                  invoices import --store "postgres://clerk@db.example/books?sslmode=verify-full" clients.csv invoices.csv
                  invoices import --store "postgres://clerk@db.example/books" books.sqlite

                A SQLite store as the one file, with a postgres:// store, is copied to the server with its ids (a \
                version 1 store as version 2); copying it again changes nothing.

                A PostgreSQL store is written in one SERIALIZABLE transaction; when concurrent writers make the server \
                abort it, it runs again (5 attempts in all), then exits 75. Its server unreachable: 69; login or \
                rights refused: 77; no database or no store tables: 66 (docs/store.md).
                """
        )

        @Option(help: "The store to write: a SQLite file (created when it does not exist) or a postgres:// address.")
        var store: String

        @Option(help: "The format of every file, instead of detecting it from the header row.")
        var format: ImportFormat?

        @Option(help: "A date pattern accepted besides YYYY-MM-DD, e.g. dd/MM/yyyy (day, month and year fields only).")
        var dateFormat: String?

        @Option(help: "Days from issue date to due date for invoices without one (FreshBooks exports without Date Due).")
        var defaultTerms: Int = 30

        @Option(help: "The currency (ISO 4217) of files that name none: a QuickBooks Online report without multicurrency.")
        var currency: String?

        @Flag(help: "Print nothing but errors.")
        var quiet = false

        @Argument(help: "The files to import.")
        var files: [String]

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("name at least one file to import") }
            guard (0...3650).contains(defaultTerms) else {
                throw ValidationError("--default-terms \(defaultTerms) is out of range; expected 0 to 3650 days")
            }
            if let dateFormat {
                do {
                    _ = try DatePattern(dateFormat)
                } catch {
                    throw ValidationError(error.description)
                }
            }
        }

        func run() throws {
            let name = PostgresAddress.isAddress(store) ? PostgresAddress.redacted(store) : store
            let options = ImportReader.Options(format: format, dateFormat: dateFormat, defaultTerms: defaultTerms, currency: currency)
            if PostgresAddress.isAddress(store), files.count == 1, ImportWriter.isSQLiteFile(files[0]) {
                do {
                    let summary = try ImportWriter.copy(storeAt: files[0], to: store)
                    if !quiet { printLine("Copied \(files[0]) into \(name): \(summary)") }
                } catch {
                    printError(error)
                    throw ExitCode(error.exitStatus)
                }
                return
            }
            do {
                // The files' problems travel in the batch: the writer adds unknown clients and reports all at once.
                let batch = try ImportReader(options: options).batch(from: files)
                let summary = try ImportWriter.apply(batch, to: store)
                for warning in batch.warnings + summary.warnings { printWarning("\(warning.location): \(warning.message)") }
                if !quiet {
                    let skipped = batch.skippedInvoices + summary.skippedInvoices
                    let note = skipped == 0 ? "" : "; \(skipped) draft or void invoice\(skipped == 1 ? "" : "s") skipped"
                        + (batch.skippedPayments == 0
                            ? "" : "; \(batch.skippedPayments) payment\(batch.skippedPayments == 1 ? "" : "s") recorded as credit, for no invoice, skipped")
                    printLine("Imported into \(name): \(summary)\(note)")
                }
            } catch {
                printError(error)
                if error.kind == .badData { printError("nothing was written to \(name)") }
                throw ExitCode(error.exitStatus)
            }
        }
    }
}

// Lets `--format` take the format names.
extension ImportFormat: ExpressibleByArgument {}
