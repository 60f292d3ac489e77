import InvoicesApp
import InvoicesPostgres

extension BuildPipeline.Configuration {
    /// Whether the store is on a PostgreSQL server.
    var isPostgres: Bool { PostgresAddress.isAddress(store) }

    /// The store as output names it: a path, or a server address without its password.
    var displayStore: String { isPostgres ? PostgresAddress.redacted(store) : store }
}
