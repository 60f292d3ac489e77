import Foundation
internal import InvoicesStore
internal import Logging
internal import PostgresNIO

/// One connection to a store's server, and what its errors mean for the user: one line each, with the
/// ``InvoicesStore/StoreIssue/Kind`` that decides the exit code. No message ever holds the password.
struct PostgresSession {
    let address: PostgresAddress
    let connection: PostgresConnection
    /// Nothing is logged: messages are the issues this type makes, and a log could carry a connection's details.
    static let logger = Logger(label: "invoices.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Connects and logs in.
    /// - Throws: ``InvoicesStore/StoreIssues``: unreachable (69), login refused (77), no such database (66).
    static func connect(_ address: PostgresAddress) async throws(StoreIssues) -> PostgresSession {
        let tls: PostgresConnection.Configuration.TLS
        do {
            tls = try Self.tls(address)
        } catch {
            throw StoreIssues([StoreIssue(kind: .badAddress, path: address.description, message: "cannot set up TLS: \(error)")])
        }
        var configuration = PostgresConnection.Configuration(
            host: address.host, port: address.port, username: address.user, password: address.password,
            database: address.database, tls: tls)
        configuration.options.connectTimeout = .seconds(Int64(address.connectTimeout))
        if address.sslMode == .verifyFull, !address.host.allSatisfy({ $0.isNumber || $0 == "." || $0 == ":" }) {
            configuration.options.tlsServerName = address.host
        }
        do {
            let connection = try await PostgresConnection.connect(
                on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration, id: 1, logger: logger
            ).get()
            return PostgresSession(address: address, connection: connection)
        } catch {
            throw StoreIssues([issue(for: error, address: address)])
        }
    }

    private static func tls(_ address: PostgresAddress) throws -> PostgresConnection.Configuration.TLS {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch address.sslMode {
        case .disable: return .disable
        case .prefer, .require: configuration.certificateVerification = .none
        case .verifyCA: configuration.certificateVerification = .noHostnameVerification
        case .verifyFull: configuration.certificateVerification = .fullVerification
        }
        if let root = address.sslRootCert { configuration.trustRoots = .file(root) }
        let context = try NIOSSLContext(configuration: configuration)
        return address.sslMode == .prefer ? .prefer(context) : .require(context)
    }

    /// Runs `body` and closes the connection, whatever happens.
    func run<T>(_ body: (PostgresConnection) async throws -> T) async throws(StoreIssues) -> T {
        do {
            let value = try await body(connection)
            try? await connection.close().get()
            return value
        } catch {
            try? await connection.close().get()
            if let issues = error as? StoreIssues { throw issues }
            throw StoreIssues([Self.issue(for: error, address: address)])
        }
    }

    /// The issue an error of postgres-nio (or of the network under it) means for the store at `address`.
    static func issue(for error: any Error, address: PostgresAddress) -> StoreIssue {
        let path = address.description
        let server = "the server at \(address.host):\(address.port)"
        guard let error = error as? PSQLError else {
            return StoreIssue(kind: .unreachable, path: path, message: "cannot reach \(server): \(error)")
        }
        switch error.code {
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            let text = error.serverInfo?[.message] ?? "error \(state)"
            switch state {
            case "28P01", "28000":
                return StoreIssue(
                    kind: .accessDenied, path: path,
                    message: "\(server) refused the login of '\(address.user)' (\(text)); check the user and its password "
                        + "(PGPASSWORD or ~/.pgpass, never on the command line)")
            case "42501":
                return StoreIssue(
                    kind: .accessDenied, path: path,
                    message: "role '\(address.user)' may not read the store (\(text)); grant it SELECT on the store's tables (docs/store.md)")
            case "3D000":
                return StoreIssue(kind: .missing, path: path, message: "no database '\(address.database)' on \(server) (\(text))")
            case "42P01":
                return StoreIssue(
                    kind: .missing, path: path,
                    message: "the database has no Invoices store (\(text)); create the tables with "
                        + "'invoices schema --postgres | psql -1', or check the search_path")
            case "42703", "42804":
                return StoreIssue(kind: .wrongSchema, path: path, message: "the store's tables are not those of schema version \(Schema.version) (\(text))")
            case let state where state.hasPrefix("08") || state.hasPrefix("57P") || state == "53300":
                return StoreIssue(kind: .unreachable, path: path, message: "\(server) is not available (\(text))")
            default:
                return StoreIssue(kind: .unreadable, path: path, message: "the server reported: \(text) (SQLSTATE \(state))")
            }
        case .connectionError:
            let cause = error.underlying.map { "\($0)" } ?? "connection failed"
            return StoreIssue(kind: .unreachable, path: path, message: "cannot reach \(server) (\(cause)); check the host and port, and that the server runs")
        case .serverClosedConnection, .uncleanShutdown, .clientClosedConnection:
            return StoreIssue(kind: .unreachable, path: path, message: "\(server) closed the connection while the store was read; nothing was built, the previous site is kept")
        case .sslUnsupported:
            return StoreIssue(
                kind: .unreachable, path: path,
                message: "\(server) does not offer TLS, and sslmode=\(address.sslMode.rawValue) requires it; enable ssl on the server, or use sslmode=prefer or disable on a trusted network")
        case .failedToAddSSLHandler, .receivedUnencryptedDataAfterSSLRequest:
            return StoreIssue(kind: .unreachable, path: path, message: "TLS with \(server) failed (\(error.underlying.map { "\($0)" } ?? "\(error.code)"))")
        case .authMechanismRequiresPassword:
            return StoreIssue(
                kind: .accessDenied, path: path,
                message: "\(server) asks '\(address.user)' for a password and none was given; set PGPASSWORD or add it to ~/.pgpass")
        case .unsupportedAuthMechanism, .saslError:
            return StoreIssue(kind: .accessDenied, path: path, message: "\(server) refused the login of '\(address.user)' (\(error.code))")
        default:
            return StoreIssue(kind: .unreachable, path: path, message: "the connection to \(server) failed (\(error.code))")
        }
    }
}
