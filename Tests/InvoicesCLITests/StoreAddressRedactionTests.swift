import Foundation
import InvoicesTesting
import Testing

/// No printer shows a PostgreSQL password, however the address carries it (issue 28).
struct StoreAddressRedactionTests {
    static let addresses = [
        "postgres://ann@127.0.0.1:9/books?password=hunter2&sslmode=disable",
        "postgres://ann:hunter2@127.0.0.1:9/books?sslmode=disable",
        "postgresql://ann@127.0.0.1:9/books?sslmode=disable&PassWord=hunter2",
        "postgres://ann@127.0.0.1:9/books?password%3Dhunter2",
        "postgresql://ann:hunter2@[bad/books?password=hunter2",
    ]

    @Test(.temporaryFolder, arguments: addresses)
    func thePasswordIsNeverPrinted(address: String) throws {
        let folder = try TemporaryFolder.current
        try Data("number,name\nC-1,Ann\n".utf8).write(to: URL(fileURLWithPath: folder.path("clients.csv")))
        let runs = [
            ["check", "--store", address, "--format", "json"],
            ["check", "--store", address],
            ["build", "--store", address, "--verbose", "--output", folder.path("site")],
            ["import", "--store", address, folder.path("clients.csv")],
        ]
        for arguments in runs {
            let result = try CLI.run(arguments)
            #expect(result.status != 0)
            #expect(!(result.stdout + result.stderr).contains("hunter2"), "\(arguments): \(result.stdout)\(result.stderr)")
            // The address is still named, so the user knows which one failed.
            #expect((result.stdout + result.stderr).contains("ann"), "\(arguments)")
        }
    }
}

/// A password holding `/` or `@` is never printed either: libpq reads a URL's user part only up to the first `@` or
/// `/`, and would take the rest of the password for the host or port, then name it in its message (issue 41).
struct StoreAddressPasswordShapeTests {
    @Test func aPasswordWithAnAtSignIsReadWholeAndNeverPrinted() throws {
        let address = "postgres://alice:Pa@ss-Word-42@127.0.0.1:1/db?sslmode=disable"
        for arguments in [["check", "--store", address], ["build", "--store", address, "--verbose"]] {
            let result = try CLI.run(arguments)
            let output = result.stdout + result.stderr
            // Unreachable (69; check reports it as a problem, 65): the host is 127.0.0.1, not a piece of the password.
            #expect(result.status == (arguments[0] == "check" ? 65 : 69), "\(arguments): \(output)")
            #expect(!output.contains("ss-Word") && !output.contains("Pa@"), "\(arguments): \(output)")
            #expect(output.contains("postgres://alice@127.0.0.1:1/db") && output.contains("127.0.0.1:1"), "\(arguments): \(output)")
        }
    }

    @Test func aPasswordWithASlashIsRefusedWithoutShowingIt() throws {
        let address = "postgres://alice:hunter2/x@127.0.0.1:1/db"
        for arguments in [["check", "--store", address], ["build", "--store", address, "--verbose"]] {
            let result = try CLI.run(arguments)
            let output = result.stdout + result.stderr
            #expect(result.status == (arguments[0] == "check" ? 65 : 64), "\(arguments): \(output)")
            #expect(!output.contains("hunter2"), "\(arguments): \(output)")
            #expect(output.contains("%2F") && output.contains("alice@127.0.0.1:1/db"), "\(arguments): \(output)")
        }
    }

    @Test func anEncodedSlashIsDecodedForLibpqAndStillNeverPrinted() throws {
        let result = try CLI.run(["build", "--store", "postgres://alice:hunter2%2Fx@127.0.0.1:1/db"])
        #expect(result.status == 69, "\(result.stderr)")
        #expect(!(result.stdout + result.stderr).contains("hunter2"), "\(result.stdout)\(result.stderr)")
    }
}
