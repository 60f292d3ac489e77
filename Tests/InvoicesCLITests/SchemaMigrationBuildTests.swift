import Foundation
import InvoicesStore
import InvoicesTesting
import Testing

/// Schema 3 (issue 43): a v2 store builds as before, and its migration (printed by `invoices schema --migrate-from 2`,
/// run by sqlite3) changes no byte of the site.
struct SchemaMigrationBuildTests {
    @Test(.temporaryFolder) func aV2StoreAndItsMigrationBuildTheSameSiteByteForByte() throws {
        let project = try TestProject.v2Cases()
        #expect(try project.build().status == 0)
        let before = try project.files()
        #expect(before.count > 20)
        let migration = try CLI.run(["schema", "--migrate-from", "2"])
        #expect(migration.status == 0 && migration.stdout.contains("ALTER TABLE client ADD COLUMN language TEXT;"))
        let script = project.folder.path("migrate.sql")
        try Data(migration.stdout.utf8).write(to: URL(fileURLWithPath: script))
        let run = try CLI.shell("sqlite3 '\(project.store)' < '\(script)'")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try BooksStore(path: project.store).books.schemaVersion == 3)
        let output = project.folder.path("site-v3")
        #expect(try project.build(output: output).status == 0)
        let after = try SiteFiles.read(output)
        #expect(Set(before.keys) == Set(after.keys))
        for (path, data) in before where after[path] != data { Issue.record("\(path) differs after the migration") }
    }

    @Test func anUnknownMigrationVersionIsAUsageError() throws {
        let result = try CLI.run(["schema", "--migrate-from", "3"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--migrate-from 3: this build migrates SQLite stores of version 1 or 2 to version 3"), "\(result.stderr)")
    }
}
