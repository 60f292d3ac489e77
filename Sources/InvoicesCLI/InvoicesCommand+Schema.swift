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

                Examples:
                  invoices schema | sqlite3 books.sqlite
                  invoices schema --postgres | psql -1 "postgres://owner@db.example/books"
                """
        )

        @Flag(help: "Print the PostgreSQL DDL instead of SQLite's.")
        var postgres = false

        func run() {
            print(postgres ? PostgresSchema.createStatements : Schema.createStatements, terminator: postgres ? "" : "\n")
        }
    }
}
