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

    @Test(arguments: addresses)
    func thePasswordIsNeverPrinted(address: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
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
