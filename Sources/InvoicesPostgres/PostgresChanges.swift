import Foundation
public import InvoicesStore
internal import PostgresNIO

/// Tells `serve` when the books on a PostgreSQL server may have changed, cheaply and with the build's rights
/// (`SELECT` only): ``token()`` is a short text that changes when rows of the store's tables are inserted, updated
/// or deleted.
///
/// - On a primary it is the server's counters of the store's tables (`pg_stat_user_tables`: rows inserted, updated,
///   deleted and live, per table of this database). They count every write to those tables, and only those. A
///   writer's counts reach them when its session goes idle after a commit, or ends; a session that commits again
///   within a second of its last report is reported later, up to about 10 s (PostgreSQL 15's statistics flush).
/// - On a hot standby, which keeps no such counters for what it replays, it is the last replayed WAL position
///   (`pg_last_wal_replay_lsn()`): it moves with every write the primary makes, to any database.
///
/// A change that does not touch the books (a rolled-back insert, the server's own `VACUUM`) may move the token as
/// well: the rebuild it causes finds nothing to render again. One connection is kept open between polls.
public actor PostgresChanges {
    public nonisolated let address: PostgresAddress
    private var session: PostgresSession?

    public init(_ address: PostgresAddress) { self.address = address }

    static let tokenQuery: PostgresQuery = {
        let tables = Schema.tables(version: Schema.version).map { "to_regclass('\(Schema.snakeCase($0.name))')" } + [
            "to_regclass('\(PostgresSchema.versionTable)')"
        ]
        return PostgresQuery(
            unsafeSQL: """
                SELECT CASE WHEN pg_is_in_recovery() THEN 'replayed ' || coalesce(pg_last_wal_replay_lsn()::text, '')
                ELSE 'counted ' || coalesce((
                  SELECT string_agg(concat_ws(' ', relname, n_tup_ins, n_tup_upd, n_tup_del, n_live_tup), ', ' ORDER BY relname)
                  FROM pg_stat_user_tables WHERE relid = ANY (ARRAY[\(tables.joined(separator: ", "))]::oid[])), '') END
                """)
    }()

    /// The current token, or the issue that kept the server from answering (the connection is then closed, and the
    /// next call connects again).
    public func token() async -> Result<String, StoreIssues> {
        do {
            let session: PostgresSession
            if let open = self.session {
                session = open
            } else {
                session = try await PostgresSession.connect(address)
                self.session = session
            }
            var token = ""
            for try await text in try await session.connection.query(Self.tokenQuery, logger: PostgresSession.logger).decode(String.self) {
                token = text
            }
            return .success(token)
        } catch {
            await close()
            if let issues = error as? StoreIssues { return .failure(issues) }
            return .failure(StoreIssues([PostgresSession.issue(for: error, address: address)]))
        }
    }

    /// Closes the connection, if one is open.
    public func close() async {
        let connection = session?.connection
        session = nil
        try? await connection?.close().get()
    }
}
