import Foundation
public import InvoicesStore

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
public final class PostgresChanges: @unchecked Sendable {
    // @unchecked Sendable: `connection` is only used on `queue`.
    public let address: PostgresAddress
    private let queue = DispatchQueue(label: "invoices.postgres.changes")
    private var connection: PostgresConnection?

    public init(_ address: PostgresAddress) { self.address = address }

    static let tokenQuery: String = {
        let tables = Schema.tables(version: Schema.version).map { "to_regclass('\(Schema.snakeCase($0.name))')" } + [
            "to_regclass('\(PostgresSchema.versionTable)')"
        ]
        return """
            SELECT CASE WHEN pg_is_in_recovery() THEN 'replayed ' || coalesce(pg_last_wal_replay_lsn()::text, '')
            ELSE 'counted ' || coalesce((
              SELECT string_agg(concat_ws(' ', relname, n_tup_ins, n_tup_upd, n_tup_del, n_live_tup), ', ' ORDER BY relname)
              FROM pg_stat_user_tables WHERE relid = ANY (ARRAY[\(tables.joined(separator: ", "))]::oid[])), '') END
            """
    }()

    /// The current token, or the issue that kept the server from answering (the connection is then closed, and the
    /// next call connects again). libpq waits on the poller's own queue, never on Swift concurrency's threads.
    public func token() async -> Result<String, StoreIssues> {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.poll()) }
        }
    }

    private func poll() -> Result<String, StoreIssues> {
        let connection: PostgresConnection
        if let open = self.connection {
            connection = open
        } else {
            do throws(StoreIssues) {
                connection = try PostgresConnection(address)
            } catch {
                return .failure(error)
            }
        }
        self.connection = connection
        do {
            let rows = try connection.execute(Self.tokenQuery)
            return .success((rows.values.first?.first ?? nil) ?? "")
        } catch {
            self.connection = nil
            return .failure(StoreIssues([connection.issue(for: error)]))
        }
    }

    /// Closes the connection, if one is open.
    public func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                self.connection = nil
                continuation.resume()
            }
        }
    }
}
