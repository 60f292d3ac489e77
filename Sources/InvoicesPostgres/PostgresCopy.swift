public import InvoicesStore
internal import ObjectContexts
internal import PostgresNIO

/// Copies a SQLite store's rows to a PostgreSQL store, ids kept: moving the books to a server is one command
/// (`invoices import --store postgres://… books.sqlite`), and running it again changes nothing.
///
/// In one `SERIALIZABLE` transaction (``PostgresStore/serializable(_:attempts:_:)``, with its retries), table by table
/// in creation order: the rows go into a temporary table, then one `INSERT … ON CONFLICT (id) DO UPDATE … WHERE` the
/// row differs, so a row already on the server with the same values is left alone. Rows the server holds that the
/// file does not are kept. The identity sequences are moved past the copied ids.
public enum PostgresCopy {
    /// What a copy did, per table.
    public struct Summary: Sendable, CustomStringConvertible {
        public struct Table: Sendable {
            public var name: String
            public var added = 0, updated = 0, unchanged = 0
        }

        public var tables: [Table] = []

        /// `client: 2 added, 0 updated, 0 unchanged; invoice: …`
        public var description: String {
            tables.map { "\($0.name): \($0.added) added, \($0.updated) updated, \($0.unchanged) unchanged" }.joined(separator: "; ")
        }
    }

    /// Copies `dump` to the store at `address`.
    /// - Throws: ``InvoicesStore/StoreIssues`` as ``PostgresStore/serializable(_:attempts:_:)`` does; a row that
    ///   clashes with another row on the server (the same client number under another id) is bad data (65).
    public static func copy(_ dump: StoreDump, to address: PostgresAddress) throws -> Summary {
        try PostgresStore.serializable(address) { store in
            let connection = store.connection
            return try PostgresStore.wait { try await copy(dump, on: connection) }
        }
    }

    static func copy(_ dump: StoreDump, on connection: PostgresConnection) async throws -> Summary {
        let logger = PostgresSession.logger
        var summary = Summary()
        for rows in dump.tables {
            let table = Schema.snakeCase(rows.table.name)
            let columns = rows.table.columns.map(\.snakeName)
            let list = columns.joined(separator: ", ")
            let scratch = "invoices_copy_\(table)"
            _ = try await connection.query(
                PostgresQuery(unsafeSQL: "CREATE TEMPORARY TABLE \(scratch) (LIKE \(table)) ON COMMIT DROP"), logger: logger
            ).collect()
            let types = rows.table.columns.map { column in
                switch column.type {
                case .key, .integer: "bigint"
                case .text: "text"
                case .date: "date"
                }
            }
            // 500 rows a statement: far below the 65 535 parameters one statement may have.
            for start in stride(from: 0, to: rows.rows.count, by: 500) {
                let batch = rows.rows[start..<min(start + 500, rows.rows.count)]
                var bindings = PostgresBindings(capacity: batch.count * columns.count)
                var tuples: [String] = []
                for row in batch {
                    var placeholders: [String] = []
                    for (index, value) in row.enumerated() {
                        switch value {
                        case .null: bindings.appendNull()
                        case .integer(let number): bindings.append(number)
                        case .double(let number): bindings.append(number)
                        case .text(let text): bindings.append(text)
                        }
                        placeholders.append("$\(bindings.count)::\(types[index])")
                    }
                    tuples.append("(" + placeholders.joined(separator: ", ") + ")")
                }
                _ = try await connection.query(
                    PostgresQuery(unsafeSQL: "INSERT INTO \(scratch) (\(list)) VALUES " + tuples.joined(separator: ", "), binds: bindings),
                    logger: logger
                ).collect()
            }
            let updates = columns.dropFirst().map { "\($0) = EXCLUDED.\($0)" }.joined(separator: ", ")
            let current = columns.dropFirst().map { "\(table).\($0)" }.joined(separator: ", ")
            let incoming = columns.dropFirst().map { "EXCLUDED.\($0)" }.joined(separator: ", ")
            var counts = Summary.Table(name: table)
            let upsert = try await connection.query(
                PostgresQuery(
                    unsafeSQL: "INSERT INTO \(table) (\(list)) SELECT \(list) FROM \(scratch) ORDER BY id "
                        + "ON CONFLICT (id) DO UPDATE SET \(updates) WHERE (\(current)) IS DISTINCT FROM (\(incoming)) "
                        + "RETURNING (xmax = 0)"),
                logger: logger)
            for try await inserted in upsert.decode(Bool.self) {
                if inserted { counts.added += 1 } else { counts.updated += 1 }
            }
            counts.unchanged = rows.rows.count - counts.added - counts.updated
            summary.tables.append(counts)
            _ = try await connection.query(
                PostgresQuery(
                    unsafeSQL: "SELECT setval(pg_get_serial_sequence('\(table)', 'id'), (SELECT coalesce(max(id), 0) + 1 FROM \(table)), false)"),
                logger: logger
            ).collect()
        }
        return summary
    }
}
