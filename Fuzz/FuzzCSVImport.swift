// Compiled by scripts/fuzz.sh against the import reader (Sources/InvoicesImport without the writer) and InvoicesCore,
// static libraries built for testing.
internal import InvoicesCore
@testable internal import InvoicesImport

/// The CSV importer on any bytes (issue 16): reading, format detection (ours, and the exports we only name) and
/// row parsing of every format never crash or hang, and what comes out keeps the reader's promises: problems
/// located in the file at a line it has, rows that made it into the batch valid (amounts not negative, due and
/// paid dates not before the issue date), and identifiers unique when no problem was reported.
///
/// The whole input is the file. It is read twice: with the format detected, and with a format named (picked by
/// the input's length, as `--format` would) plus a `--date-format`, so that every format's rows are parsed even
/// when the header is mangled.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let lines = 1 + bytes.count { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
    let formats: [ImportFormat?] = [nil] + ImportFormat.allCases
    let named = ImportReader.Options(format: formats[size % formats.count], dateFormat: "d MMM yy", defaultTerms: 14)
    for options in [ImportReader.Options(), named] {
        let reader = ImportReader(options: options)
        var batch = ImportBatch(files: ["fuzz.csv"])
        var problems = ProblemList(files: ["fuzz.csv"], limit: 1_000_000)
        let dates = DateReader(pattern: options.dateFormat)
        reader.read(file: "fuzz.csv", bytes: bytes, dates: dates, into: &batch, problems: &problems)
        reader.link(&batch, problems: &problems)
        reader.checkDuplicates(&batch, problems: &problems)
        for problem in problems.first {
            check(problem.location.file == "fuzz.csv", "a problem names another file: \(problem)")
            if let line = problem.location.line {
                check((1...lines).contains(line), "line \(line) of a file of \(lines) lines: \(problem)")
            }
            check(!problem.message.isEmpty, "a problem without a message at \(problem.location)")
        }
        for invoice in batch.invoices {
            check(invoice.amount.minorUnits >= 0, "invoice '\(invoice.identifier)' has a negative amount")
            check(invoice.due >= invoice.issued, "invoice '\(invoice.identifier)' is due before it is issued")
            check(invoice.paid.map { $0 >= invoice.issued } ?? true, "invoice '\(invoice.identifier)' is paid before issue")
            check(!invoice.identifier.isEmpty, "an invoice without an identifier at \(invoice.source)")
        }
        if problems.first.isEmpty {
            let identifiers = Set(batch.invoices.map(\.identifier))
            check(identifiers.count == batch.invoices.count, "duplicate identifiers were not reported")
        }
        let error = ImportError(kind: .badData, ordering: problems.first, files: ["fuzz.csv"], limit: 5)
        let kept = min(5, problems.first.count)
        check(error.total == problems.first.count && error.problems.count == kept, "the error lost problems")
    }
    // A pattern made of the first bytes: refused or accepted, never a crash.
    _ = try? DatePattern(String(decoding: bytes.prefix(24), as: UTF8.self))
    return 0
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
