// Compiled by scripts/fuzz.sh against the import reader and InvoicesCore (as FuzzCSVImport is), linking libqpdf
// and zlib. Seeded with Fuzz/seeds/FuzzEInvoicePDF: the attack PDFs of issue 41 (a name tree
// naming itself, a double-Flate zlib bomb, deep XML in a double-Flate attachment, an attachment named with escape
// sequences) and a Factur-X PDF that imports.
internal import InvoicesCore
@testable internal import InvoicesImport

/// The Factur-X reader on any bytes (issue 41): libqpdf, the name tree walk, the capped inflate and the XML reader
/// never crash, hang or pass their budget (libFuzzer's -rss_limit_mb and -timeout in scripts/fuzz.sh make either a
/// failure), and what comes out keeps the reader's promises: every problem is in the file and its message holds no
/// character a terminal would act on (control, C1, bidirectional); an invoice read is valid.
///
/// An input that does not start with `%PDF-` is given that header, so every input reaches libqpdf.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if !bytes.starts(with: Array("%PDF-".utf8)) { bytes = Array("%PDF-1.7\n".utf8) + bytes }
    let reader = ImportReader(options: ImportReader.Options())
    var batch = ImportBatch(files: ["fuzz.pdf"])
    var problems = ProblemList(files: ["fuzz.pdf"], limit: 1_000)
    reader.read(file: "fuzz.pdf", bytes: bytes, dates: DateReader(pattern: nil), into: &batch, problems: &problems)
    for problem in problems.first {
        check(problem.location.file == "fuzz.pdf", "a problem names another file: \(problem)")
        check(!problem.message.isEmpty, "a problem without a message at \(problem.location)")
        for text in [problem.description] + batch.warnings.map(\.message) {
            let unsafe = text.unicodeScalars.first { scalar in
                switch scalar.value {
                case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069: true
                default: false
                }
            }
            check(unsafe == nil, "a message holds U+\(String(unsafe?.value ?? 0, radix: 16)): \(text)")
        }
    }
    for invoice in batch.invoices {
        check(invoice.amount.minorUnits >= 0, "invoice '\(invoice.identifier)' has a negative amount")
        check(invoice.due >= invoice.issued && invoice.due <= InvoiceRules.lastDay, "invoice '\(invoice.identifier)' has due date \(invoice.due)")
        let received = invoice.receipts?.received ?? 0
        check(received >= 0 && received <= invoice.amount.minorUnits, "invoice '\(invoice.identifier)' received \(received)")
        check((invoice.notes ?? "").utf8.count <= InputBudget.noteBytes || !problems.isEmpty, "a note past its bound was not refused")
    }
    return 0
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
