import Foundation
@testable import InvoicesImport
import InvoicesCore
import InvoicesTesting
import Testing

/// A file with millions of bad rows is reported in bounded memory: the first problems listed, the rest counted (issue 28).
struct BoundedProblemsTests {
    @Test func theListKeepsTheFirstProblemsInFileAndLineOrderAndCountsTheRest() {
        var list = ProblemList(files: ["a.csv", "b.csv"], limit: 10)
        var heldMost = 0
        // Problems arrive out of order (b before a, lines backwards), as checks across rows add them.
        for line in stride(from: 10_000, to: 0, by: -1) {
            list.add(ImportProblem(location: SourceLocation(file: "b.csv", line: line), message: "b\(line)"))
            list.add(ImportProblem(location: SourceLocation(file: "a.csv", line: line), message: "a\(line)"))
            heldMost = max(heldMost, list.held)
        }
        #expect(list.total == 20_000 && list.omitted == 19_990)
        #expect(heldMost < 20)
        #expect(list.first.map(\.message) == (1...10).map { "a\($0)" })
    }

    @Test(.temporaryFolder) func anImportWithThousandsOfBadRowsListsTwoHundredAndCountsAll() throws {
        let folder = try TemporaryFolder.current
        var csv = AllProblemsInOneRunTests.header
        for row in 0..<5_000 { csv += "INV-\(row),C-1,12.345,EUR,2025-01-0\(row % 9 + 1),not-a-date,,\n" }
        let file = folder.path("invoices.csv")
        try Data(csv.utf8).write(to: URL(fileURLWithPath: file))
        let error = try #require(throws: ImportError.self) { try ImportReader().read(files: [file]) }
        #expect(error.problems.count == ImportError.defaultProblemLimit)
        #expect(error.total == 10_000, "two problems a row: the amount's decimals and the due date")
        #expect(error.problems.first?.location.line == 2)
        #expect(error.description.hasSuffix("... and 9800 more problems"))
    }
}
