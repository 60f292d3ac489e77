import ArgumentParser
import InvoicesPostgres
import InvoicesStore

extension InvoicesCommand {
    struct SchemaCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "schema",
            abstract: "Prints the statements that create an empty store (SQLite, or PostgreSQL with --postgres).",
            discussion: """
                The PostgreSQL statements run in one transaction and end with the version record; see docs/store.md \
                for the role rights a build needs (SELECT only).

                With --migrate-from VERSION it prints the statements that turn a store of that version into one of \
                the current version instead, each migration its own transaction (run them on a copy first).

                Examples:
                  invoices schema | sqlite3 books.sqlite
                  invoices schema --postgres | psql -1 "postgres://owner@db.example/books"
                  invoices schema --migrate-from 2 | sqlite3 books.sqlite
                  invoices schema --postgres --migrate-from 2 | psql "postgres://owner@db.example/books"
                """
        )

        @Flag(help: "Print the PostgreSQL DDL instead of SQLite's.")
        var postgres = false

        @Option(name: .customLong("migrate-from"), help: ArgumentHelp("Print the migration of a store of this schema version to the current one.", valueName: "version"))
        var migrateFrom: Int?

        func validate() throws {
            guard let migrateFrom else { return }
            let versions = postgres ? Array(PostgresSchema.readableVersions.dropLast()) : Array(Schema.readableVersions.dropLast())
            guard versions.contains(migrateFrom) else {
                throw ValidationError(
                    "--migrate-from \(migrateFrom): this build migrates \(postgres ? "PostgreSQL" : "SQLite") stores of version "
                        + versions.map(String.init).joined(separator: " or ") + " to version \(Schema.version)")
            }
        }

        func run() {
            if let migrateFrom {
                print(postgres ? PostgresSchema.migrationFromV2 : Schema.migrations(from: migrateFrom).joined(separator: "\n"), terminator: postgres ? "" : "\n")
                return
            }
            print(postgres ? PostgresSchema.createStatements : Schema.createStatements, terminator: postgres ? "" : "\n")
        }
    }
}
