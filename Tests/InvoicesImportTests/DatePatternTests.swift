import Foundation
import InvoicesCore
import InvoicesImport
import InvoicesTesting
import Testing

/// `--date-format` takes day, month and year fields only; anything else is refused with a suggestion (issue 16).
@Suite struct DatePatternTests {
    @Test(arguments: ["dd/MM/yyyy", "MM/dd/yyyy", "d MMM yyyy", "d. MMMM y", "dd.MM.yy", "yyyy'年'M'月'd'日'", "d 'de' MMMM 'de' yyyy", "d''MM''yyyy"])
    func dayMonthAndYearFieldsAreAccepted(pattern: String) throws {
        #expect(try DatePattern(pattern).text == pattern)
    }

    @Test(arguments: [
        ("dd/mm/yyyy", "mm is minutes; did you mean MM?"),
        ("DD.MM.yyyy", "DD is the day of the year; did you mean dd?"),
        ("dd/MM/YYYY", "YYYY is the year of a week-based calendar; did you mean yyyy?"),
        ("yyyy-MM-dd HH:mm", "HH is an hour; only day, month and year are allowed (d, dd, M, MM, MMM, MMMM, y, yy, yyyy); remove it"),
        ("hh dd/MM/yyyy", "hh is an hour; only day, month and year are allowed (d, dd, M, MM, MMM, MMMM, y, yy, yyyy); remove it"),
        ("dd/MM/yyyy ss", "ss is seconds; only day, month and year are allowed (d, dd, M, MM, MMM, MMMM, y, yy, yyyy); remove it"),
        ("EEE, dd MMM yyyy", "EEE is the day of the week; only day, month and year are allowed (d, dd, M, MM, MMM, MMMM, y, yy, yyyy); remove it"),
        ("yyyy-MM-ddTHH", "T is not a day, month or year field; quote literal letters, as in 'T', or use d, dd, M, MM, MMM, MMMM, y, yy, yyyy"),
        ("ddd/MM/yyyy", "ddd is not a day field; did you mean dd?"),
        ("dd/MM", "has no year; add yyyy, e.g. dd/MM/yyyy"),
        ("dd/MM/yyyy/MM", "has 2 month fields (MM, MM); name the month once"),
        ("dd/MM/yyyy 'at", "a quote (') is never closed; quote literal text as in 'de', and write '' for an apostrophe"),
        ("", "is empty; name a pattern such as dd/MM/yyyy"),
    ])
    func otherFieldsAreRefusedWithASuggestion(pattern: String, message: String) throws {
        let problem = try #require(throws: DatePattern.Problem.self) { try DatePattern(pattern) }
        #expect(problem.message == message)
        #expect(problem.description == "--date-format '\(pattern)': \(message)")
    }

    @Test(.temporaryFolder) func theCommandRefusesMinutesAsAUsageErrorBeforeReadingAnything() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let files = [Support.fixture("clients.csv"), Support.fixture("invoices-dmy.csv")]
        let result = try CLI.run(["import", "--store", store, "--date-format", "dd/mm/yyyy"] + files)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: --date-format 'dd/mm/yyyy': mm is minutes; did you mean MM?\n"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store))
        #expect(try CLI.run(["import", "--store", store, "--date-format", "dd/MM/yyyy"] + files).status == 0)
    }

    @Test func theReaderRefusesAPatternWithAnHourToo() throws {
        let reader = ImportReader(options: .init(dateFormat: "yyyy-MM-dd HH"))
        let error = try #require(throws: ImportError.self) { try reader.read(files: [Support.fixture("invoices.csv")]) }
        #expect(error.kind == .badOption)
        #expect(error.exitStatus == .usage)
        #expect(error.description.hasPrefix("--date-format 'yyyy-MM-dd HH': HH is an hour"))
    }

    @Test(.temporaryFolder) func twoDigitYearsAndMonthNamesAreReadAsDocumented() throws {
        let folder = try TemporaryFolder.current
        let file = folder.path("invoices.csv")
        try Data("""
            identifier,clientNumber,amount,currency,issuedOn,dueOn,paidOn
            A,C-001,1.00,EUR,05 Mar 68,05 Apr 68,
            B,C-001,1.00,EUR,31 Dec 69,31 Jan 70,
            """.utf8).write(to: URL(fileURLWithPath: file))
        let batch = try ImportReader(options: .init(dateFormat: "dd MMM yy")).read(files: [file])
        #expect(batch.invoices.map(\.issued.description) == ["2068-03-05", "1969-12-31"])
        #expect(batch.invoices.map(\.due.description) == ["2068-04-05", "1970-01-31"])
    }
}
