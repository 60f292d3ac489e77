import Foundation
import GRDB
import InvoicesCore
import InvoicesImport
import InvoicesReport
import InvoicesStore
import InvoicesTesting
import Testing

/// Fixture files and store helpers shared by the import tests.
enum Support {
    /// The path of a file in Fixtures/.
    static func fixture(_ name: String) -> String {
        Bundle.module.resourceURL!.appendingPathComponent("Fixtures").appendingPathComponent(name).path
    }

    /// Reads `names` from Fixtures/ and applies them to `store`.
    @discardableResult
    static func importFixtures(
        _ names: [String], into store: String, options: ImportReader.Options = .init()
    ) throws -> ImportSummary {
        let batch = try ImportReader(options: options).read(files: names.map(fixture))
        return try ImportWriter.apply(batch, to: store)
    }

    /// Every row of both tables as text, in id order: for comparing a store's content.
    static func dump(_ store: String) throws -> [String] {
        // Opened read-write so that a hot journal left by a killed writer is rolled back first.
        let queue = try DatabaseQueue(path: store)
        defer { try? queue.close() }
        return try queue.read { db in
            var lines: [String] = []
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
            for table in ["client", "invoice", "payment", "writeOff", "taxLine"] where tables.contains(table) {
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY id") {
                    lines.append(table + ": " + row.columnNames.map { "\($0)=\(row[$0] ?? "NULL")" }.joined(separator: "|"))
                }
            }
            lines.append("user_version=\(try Int.fetchOne(db, sql: "PRAGMA user_version") ?? -1)")
            return lines
        }
    }

    /// Totals per currency code over the whole span: (invoiced, paid, outstanding) in minor units.
    static func totals(_ store: String) throws -> [String: [Int64]] {
        let books = try BooksStore(path: store).books
        let report = try Report(books: books)
        var result: [String: [Int64]] = [:]
        for currency in report.currencies {
            result[currency.currency.code] = [currency.period.invoiced, currency.period.paid, currency.period.outstanding]
        }
        return result
    }

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }
}
