import Foundation
import GRDB
import InvoicesCore
import InvoicesStore
import InvoicesTesting
import Testing

/// A Core Data store in WAL mode, as the app leaves it while it runs: committed rows still in `-wal`.
struct CoreDataWALTests {
    /// Creates a WAL store whose last invoices are only in the `-wal` file, and returns the writer, kept open
    /// (closing the last connection would checkpoint the WAL into the main file).
    static func makeStoreInWALMode(at path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0")
        }
        let writer = try DatabaseQueue(path: path, configuration: configuration)
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: CoreDataFixture.datedSchema)
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")  // The schema is in the main file...
            try db.execute(sql: """
                INSERT INTO ZCLIENT (Z_PK, Z_ENT, Z_OPT, ZNAME, ZNUMBER) VALUES (1, 1, 1, 'Acme', 'C-1');
                INSERT INTO ZINVOICE (Z_PK, Z_ENT, Z_OPT, ZCLIENT, ZAMOUNT, ZISSUEDAT, ZDUEAT, ZCURRENCY, ZIDENTIFIER)
                  VALUES (1, 2, 1, 1, 10.5, 760060800, 762652800, 'USD', 'INV-1');
                """)
            // ...and each of these transactions only in the -wal file.
            try db.execute(sql: """
                INSERT INTO ZINVOICE (Z_PK, Z_ENT, Z_OPT, ZCLIENT, ZAMOUNT, ZISSUEDAT, ZDUEAT, ZCURRENCY, ZIDENTIFIER)
                  VALUES (2, 2, 1, 1, 20.25, 760060800, 762652800, 'USD', 'INV-2');
                """)
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 2 WHERE Z_NAME = 'Invoice'")
        }
        return writer
    }

    /// The app's writer runs in another process. SQLite shares one `-shm` mapping between all connections of a
    /// process, so a reader next to an in-process writer would write through the writer's mapping; the test
    /// therefore reads a copy of all three files taken while the writer is open (what a reader sees when the app
    /// has them open elsewhere or stopped without checkpointing).
    @Test(.temporaryFolder) func aStoreInWALModeIsReadAsASnapshotAndNoneOfItsFilesChange() throws {
        let folder = try TemporaryFolder.current
        let original = folder.path("Original.sqlite")
        let writer = try Self.makeStoreInWALMode(at: original)
        defer { try? writer.close() }
        let path = folder.path("Invoices.sqlite")
        for suffix in ["", "-wal", "-shm"] { try FileManager.default.copyItem(atPath: original + suffix, toPath: path + suffix) }
        let files = [path, path + "-wal", path + "-shm"]
        let before = try files.map(CoreDataFixture.bytes)
        #expect(before[1].count > 0, "the -wal file holds the committed rows")
        // A plain reader of the main file alone would not see the rows committed to the WAL.
        let mainOnly = folder.path("main-only.sqlite")
        try FileManager.default.copyItem(atPath: path, toPath: mainOnly)
        #expect(try StoreFixture.query(mainOnly, "SELECT count(*) AS n FROM ZINVOICE") == [["n": "0"]])

        let loaded = try BooksStore(path: path)
        #expect(loaded.books.invoices.map(\.identifier) == ["INV-1", "INV-2"])
        #expect(loaded.books.invoices.map(\.amount).reduce(0, +) == 1050 + 2025)
        let after = try files.map(CoreDataFixture.bytes)
        for (file, (old, new)) in zip(files, zip(before, after)) { #expect(old == new, "\(file) changed") }
        #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
    }

    @Test(.temporaryFolder) func aWALFileWithoutItsShmFileIsRefusedAndNothingIsCreated() throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("Invoices.sqlite")
        let writer = try Self.makeStoreInWALMode(at: path)
        defer { try? writer.close() }
        // The main file and the -wal file, copied while the writer is open, without the -shm file.
        let copy = folder.path("Copy.sqlite")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        try FileManager.default.copyItem(atPath: path + "-wal", toPath: copy + "-wal")
        let before = try [copy, copy + "-wal"].map(CoreDataFixture.bytes)

        let error = try #require(throws: StoreIssues.self) { try BooksStore(path: copy).books }
        #expect(error.description.hasPrefix("\(copy): the store is in WAL mode and has a '-wal' file but no '-shm' file beside it"))
        #expect(!FileManager.default.fileExists(atPath: copy + "-shm"))
        #expect(try [copy, copy + "-wal"].map(CoreDataFixture.bytes) == before)
    }
}
