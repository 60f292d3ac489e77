import Foundation
import InvoicesTesting
import Testing

/// A password in the address reaches a real server whole, as its own keyword (PQconnectdbParams), and is never
/// printed, also when the server refuses it (issue 41).
@Suite(.serialized)
struct PostgresPasswordAddressTests {
    @Test(.temporaryFolder) func aPasswordHoldingAtAndAnEncodedSlashLogsInAndAWrongOneIsNeverShown() throws {
        let (server, database) = try PostgresStoreTests.serverWithStore()
        defer { server.stop() }
        let password = "Pa@ss/Wo:rd?42"
        try server.psql(
            "CREATE ROLE alice LOGIN PASSWORD 'Pa@ss/Wo:rd?42'; GRANT SELECT ON ALL TABLES IN SCHEMA public TO alice;",
            database: database)
        var environment = ProcessInfo.processInfo.environment
        environment["PGPASSWORD"] = nil
        environment["TZ"] = "Pacific/Kiritimati"
        let folder = try TemporaryFolder.current
        // '@' and ':' as written (the user part ends at the last '@'), '/' and '?' percent-encoded.
        let address = "postgres://alice:Pa@ss%2FWo:rd%3F42@127.0.0.1:\(server.port)/\(database)?sslmode=disable"
        let build = try CLI.run(
            ["build", "--store", address, "--output", folder.path("site"), "--quiet"], environment: environment)
        #expect(build.status == 0, "\(build.stderr)")
        #expect(!(build.stdout + build.stderr).contains("ss/Wo"))
        // A wrong password: refused (77), and neither it nor the right one is shown.
        let wrong = "postgres://alice:Wr@ng%2Fpw-7@127.0.0.1:\(server.port)/\(database)?sslmode=disable"
        let refused = try CLI.run(
            ["build", "--store", wrong, "--output", folder.path("site")], environment: environment)
        let output = refused.stdout + refused.stderr
        #expect(refused.status == 77, "\(output)")
        #expect(
            !output.contains("ng%2Fpw") && !output.contains("ng/pw") && !output.contains("Wr@")
                && !output.contains(password), "\(output)")
        #expect(output.contains("postgres://alice@127.0.0.1:\(server.port)/\(database)"), "\(output)")
    }
}
