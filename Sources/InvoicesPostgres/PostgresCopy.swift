public import InvoicesStore
internal import ObjectContexts

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
        try PostgresStore.serializable(address) { store in try copy(dump, on: store.connection) }
    }

    static func copy(_ dump: StoreDump, on connection: PostgresConnection) throws -> Summary {
        // The dump has the current schema's columns: an older server store is migrated first (docs/store.md).
        let version = try PostgresBooks.checkVersion(connection)
        guard version == Schema.version else {
            throw StoreIssues([
                StoreIssue(
                    kind: .wrongSchema, path: connection.address.description,
                    message: "the store is schema version \(version) and a copy writes version \(Schema.version) rows; "
                        + "migrate it first (`invoices schema --postgres --migrate-from \(version) | psql -1 ADDRESS`, docs/store.md)")
            ])
        }
        var summary = Summary()
        for rows in dump.tables {
            let table = Schema.snakeCase(rows.table.name)
            let columns = rows.table.columns.map(\.snakeName)
            let list = columns.joined(separator: ", ")
            let scratch = "invoices_copy_\(table)"
            try connection.execute("CREATE TEMPORARY TABLE \(scratch) (LIKE \(table)) ON COMMIT DROP")
            // The rows in COPY's text format: one line each, tab-separated, \N for NULL.
            var data = ""
            for row in rows.rows {
                data += row.map(copyText).joined(separator: "\t")
                data += "\n"
            }
            try connection.copyIn("COPY \(scratch) (\(list)) FROM STDIN", data)
            let updates = columns.dropFirst().map { "\($0) = EXCLUDED.\($0)" }.joined(separator: ", ")
            let current = columns.dropFirst().map { "\(table).\($0)" }.joined(separator: ", ")
            let incoming = columns.dropFirst().map { "EXCLUDED.\($0)" }.joined(separator: ", ")
            var counts = Summary.Table(name: table)
            let upsert = try connection.execute(
                "INSERT INTO \(table) (\(list)) SELECT \(list) FROM \(scratch) ORDER BY id "
                    + "ON CONFLICT (id) DO UPDATE SET \(updates) WHERE (\(current)) IS DISTINCT FROM (\(incoming)) "
                    + "RETURNING (xmax = 0)")
            for inserted in upsert.values {
                if inserted.first == "t" { counts.added += 1 } else { counts.updated += 1 }
            }
            counts.unchanged = rows.rows.count - counts.added - counts.updated
            summary.tables.append(counts)
            try connection.execute(
                "SELECT setval(pg_get_serial_sequence('\(table)', 'id'), (SELECT coalesce(max(id), 0) + 1 FROM \(table)), false)")
        }
        return summary
    }

    /// A value in COPY's text format: `\N` for NULL, and a backslash, tab, line feed or carriage return escaped.
    static func copyText(_ value: Value) -> String {
        switch value {
        case .null: return "\\N"
        case .integer(let number): return String(number)
        case .double(let number): return "\(number)"
        case .text(let text):
            var escaped = ""
            escaped.reserveCapacity(text.utf8.count)
            for character in text.unicodeScalars {
                switch character {
                case "\\": escaped += "\\\\"
                case "\t": escaped += "\\t"
                case "\n": escaped += "\\n"
                case "\r": escaped += "\\r"
                default: escaped.unicodeScalars.append(character)
                }
            }
            return escaped
        }
    }
}
