import Foundation
import InvoicesTesting
import Testing

/// Inputs that are wrong in ways a user would not see: a base URL carrying a password, a FIFO where a file
/// belongs (issue 28, finding 11). Each is refused at once with a message naming it, and nothing is written.
struct EdgeInputsTests {
    static let credentialURLs = [
        "https://ann:hunter2@example.com/reports/",
        "https://hunter2@example.com/reports/",
        "http://ann:hunter2@127.0.0.1:8080/",
    ]

    @Test(.temporaryFolder, arguments: credentialURLs)
    func aBaseURLWithCredentialsIsRefusedWithoutPrintingThem(url: String) throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        try StoreFixture.make(at: store, sql: StoreFixture.small)
        let flag = try CLI.run(["build", "--store", store, "--output", folder.path("site"), "--base-url", url])
        #expect(flag.status == 64, "\(flag.stderr)")
        #expect(flag.stderr.contains("--base-url") && flag.stderr.contains("user name or password"), "\(flag.stderr)")
        #expect(!(flag.stdout + flag.stderr).contains("hunter2"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("site")))
        // The same address in the project file: refused naming the file, line and key, still without the password.
        try Data("store: books.sqlite\noutput: site\nbase_url: \(url)\n".utf8).write(to: folder.url.appendingPathComponent("invoices.yaml"))
        let project = try CLI.run(["build"], in: folder.url)
        #expect(project.status != 0)
        #expect(project.stderr.contains("invoices.yaml:3") && project.stderr.contains("base_url"), "\(project.stderr)")
        #expect(!(project.stdout + project.stderr).contains("hunter2"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("site")))
    }

    @Test(.temporaryFolder) func aFIFOGivenAsTheStoreIsRefusedAtOnce() throws {
        let folder = try TemporaryFolder.current
        let fifo = folder.path("books.sqlite")
        #expect(mkfifo(fifo, 0o600) == 0)
        let executable = CLI.executable.path
        // Nobody ever writes to the FIFO: opening it for reading would wait forever; timeout(1) says 124 then.
        for command in ["build --output '\(folder.path("site"))'", "check", "import '\(folder.path("none.csv"))'"] {
            let result = try CLI.shell("timeout 20 '\(executable)' \(command) --store '\(fifo)'")
            #expect(result.status != 124, "\(command) hung on the FIFO")
            #expect(result.status == 65 || result.status == 66, "\(command): \(result.status) \(result.stderr)")
            if !command.hasPrefix("import") {
                #expect(result.stdout.contains("FIFO") || result.stderr.contains("FIFO"), "\(command): \(result.stdout)\(result.stderr)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("site")))
    }

    @Test(.temporaryFolder) func aFIFOInTheTemplatesFolderIsRefusedAtOnce() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        try StoreFixture.make(at: store, sql: StoreFixture.small)
        try FileManager.default.createDirectory(atPath: folder.path("templates"), withIntermediateDirectories: true)
        #expect(mkfifo(folder.path("templates/client.md"), 0o600) == 0)
        let result = try CLI.shell(
            "timeout 20 '\(CLI.executable.path)' build --store '\(store)' --templates '\(folder.path("templates"))' --output '\(folder.path("site"))'")
        #expect(result.status == 65, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains("client.md") && result.stderr.contains("FIFO"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("site")))
    }
}
