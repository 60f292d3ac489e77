import Foundation
internal import InvoicesCore

/// Reads import files into one validated ``ImportBatch``, collecting every problem before giving up.
///
/// Each file's format is detected from its header row (or its `.json` extension) unless
/// ``Options/format`` names it. Nothing here touches a store: references to clients that are neither in the
/// batch nor yet known are checked by ``ImportWriter`` inside its transaction.
///
/// ```swift
/// let reader = ImportReader(options: .init(defaultTerms: 30))
/// let batch = try reader.read(files: ["clients.csv", "invoices.csv"])
/// ```
public struct ImportReader: Sendable {
    /// How files are read.
    public struct Options: Sendable, Hashable {
        /// The format of every file; nil to detect each file's format from its header.
        public var format: ImportFormat?
        /// A date pattern accepted besides `YYYY-MM-DD`, e.g. `dd/MM/yyyy`.
        public var dateFormat: String?
        /// Days from issue to due date for sources without a due date (FreshBooks).
        public var defaultTerms: Int
        /// The currency of amounts in files that do not name one (a QuickBooks Online report without multicurrency).
        public var currency: String?

        public init(format: ImportFormat? = nil, dateFormat: String? = nil, defaultTerms: Int = 30, currency: String? = nil) {
            self.format = format
            self.dateFormat = dateFormat
            self.defaultTerms = defaultTerms
            self.currency = currency
        }
    }

    public var options: Options
    /// How many problems to report at most (all are counted).
    public var problemLimit = ImportError.defaultProblemLimit

    public init(options: Options = Options()) {
        self.options = options
    }

    /// Reads and validates `files`.
    /// - Throws: ``ImportError`` with every problem found in the files, in file and line order; `.badOption` for
    ///   a ``Options/dateFormat`` that is not a ``DatePattern``. Unknown clients are found by ``ImportWriter``.
    public func read(files: [String]) throws(ImportError) -> ImportBatch {
        let batch = try batch(from: files)
        if !batch.problems.isEmpty {
            throw ImportError(
                kind: .badData, ordering: batch.problems, files: batch.files, limit: problemLimit, omitted: batch.omittedProblems)
        }
        return batch
    }

    /// Reads and validates `files` into a batch that carries the problems found instead of throwing them, so
    /// that ``ImportWriter/apply(_:to:)`` adds the problems only the store can show (unknown clients) and
    /// reports them all in one run, writing nothing.
    /// - Throws: ``ImportError`` `.badOption` for a bad ``Options/dateFormat``; `.missingInput` when a file is
    ///   missing or unreadable, listing the other files' problems too.
    public func batch(from files: [String]) throws(ImportError) -> ImportBatch {
        if let pattern = options.dateFormat {
            do {
                _ = try DatePattern(pattern)
            } catch {
                // Located at the option, so the message reads `--date-format 'dd/mm/yyyy': mm is minutes; ...`.
                throw ImportError(kind: .badOption, file: "--date-format '\(error.pattern)'", message: error.message)
            }
        }
        var batch = ImportBatch(files: files)
        var problems = ProblemList(files: files, limit: problemLimit)
        var missing: [ImportProblem] = []
        // Not a regular file (a folder, a FIFO, a device), or past its budget: bad data, not a missing file.
        var refused = false
        let dates = DateReader(pattern: options.dateFormat)
        for file in files {
            if let tooLarge = Self.tooLargeEInvoice(file) {
                problems.add(ImportProblem(location: SourceLocation(file: file), message: tooLarge))
                continue
            }
            let data: Data
            do throws(RegularFile.Failure) {
                data = try RegularFile.data(file, budget: .importFile)
            } catch {
                refused = refused || error.exitStatus == .dataError
                missing.append(ImportProblem(location: SourceLocation(file: file), message: error.message))
                continue
            }
            read(file: file, bytes: [UInt8](data), dates: dates, into: &batch, problems: &problems)
        }
        link(&batch, problems: &problems)
        checkDuplicates(&batch, problems: &problems)
        checkTextBounds(batch, problems: &problems)
        if !missing.isEmpty {
            throw ImportError(
                kind: refused ? .badData : .missingInput, ordering: missing + problems.first, files: files, limit: problemLimit,
                omitted: problems.omitted)
        }
        batch.problems = problems.first
        batch.omittedProblems = problems.omitted
        return batch
    }

    func read(file: String, bytes: [UInt8], dates: DateReader, into batch: inout ImportBatch, problems: inout ProblemList) {
        // Nothing but a byte order mark and blank lines: say so, rather than that no header matches.
        let content = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        if content.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            problems.add(
                ImportProblem(
                    location: SourceLocation(file: file),
                    message: "is empty (\(bytes.isEmpty ? "0 bytes" : "no header row, only blank lines")); "
                        + "export the data again, or leave the file out"))
            return
        }
        if options.format == nil, Self.looksLikeXML(bytes) {
            readEInvoice(file: file, xml: bytes, into: &batch, problems: &problems)
            return
        }
        if options.format == nil, bytes.starts(with: Array("%PDF-".utf8)) {
            readFacturX(file: file, pdf: bytes, into: &batch, problems: &problems)
            return
        }
        let looksLikeJSON = file.lowercased().hasSuffix(".json")
            || bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }) == UInt8(ascii: "{")
        if options.format == .json || (options.format == nil && looksLikeJSON) {
            if let (line, message) = Self.jsonNestingProblem(bytes) {
                problems.add(ImportProblem(location: SourceLocation(file: file, line: line), message: message))
                return
            }
            readJSON(file: file, bytes: bytes, dates: dates, into: &batch, problems: &problems)
            return
        }
        var document: CSVDocument
        do {
            document = try CSVDocument(bytes: bytes)
        } catch {
            problems.add(ImportProblem(location: SourceLocation(file: file, line: error.line), message: error.message))
            return
        }
        var nuls = Self.nulProblems(document, file: file)
        guard nuls.isEmpty else {
            // A QuickBooks report's header row is below its title rows: name the columns from it, as for other files.
            let first = document.header.map { $0.trimmingCharacters(in: .whitespaces) }
            if let report = QuickBooksReport(document: document, format: options.format, otherFormat: ImportFormat.detect(header: first) != nil) {
                nuls = Self.nulProblems(document, file: file, header: (line: report.headerLine, names: report.header.map { report.spelled[$0] ?? $0 }))
            }
            nuls.forEach { problems.add($0) }
            return
        }
        var header = document.header.map { $0.trimmingCharacters(in: .whitespaces) }
        NinjaTranslation.translate(&header, &document, format: options.format)
        // QuickBooks Online reports: the header row comes after the title rows (RowContext+QuickBooks.swift).
        if let report = QuickBooksReport(document: document, format: options.format, otherFormat: ImportFormat.detect(header: header) != nil) {
            readQuickBooks(file: file, report: report, dates: dates, into: &batch, problems: &problems)
            return
        }
        let foreign = ForeignExport.recognize(header: header)
        guard let format = options.format ?? ImportFormat.detect(header: header) else {
            let message: String
            if let foreign {
                message = foreign.message
            } else {
                let shown = header.prefix(4).map { "'\($0)'" }.joined(separator: ", ")
                    + (header.count > 4 ? ", ..." : "")
                message = "the header row (\(shown)) matches no import format; a file needs the columns of one of "
                    + ImportFormat.allCases.filter { $0 != .json }.map(\.rawValue).joined(separator: ", ")
                    + ", or is JSON (see docs/import.md for each format's columns)"
            }
            problems.add(ImportProblem(location: SourceLocation(file: file, line: 1), message: message))
            return
        }
        let missingColumns = format.requiredColumns.filter { !header.contains($0) }
        guard missingColumns.isEmpty else {
            problems.add(
                ImportProblem(
                    location: SourceLocation(file: file, line: 1),
                    message: "the header row lacks column(s) " + missingColumns.map { "'\($0)'" }.joined(separator: ", ")
                        + " of the \(format) format" + (foreign.map { "; the file \($0.message)" } ?? "")))
            return
        }
        let table = CSVTable(file: file, header: header, records: document.records)
        for record in document.records where record.fields.count != header.count {
            problems.add(
                ImportProblem(
                    location: SourceLocation(file: file, line: record.line),
                    message: "has \(record.fields.count) fields, the header has \(header.count)"))
        }
        let rows = table.rows.filter { $0.record.fields.count == header.count }
        var context = RowContext(dates: dates, problems: problems, defaultTerms: options.defaultTerms)
        switch format {
        case .clientsCSV: batch.clients += rows.compactMap { context.nativeClient($0) }
        case .invoicesCSV: batch.invoices += rows.compactMap { context.nativeInvoice($0) }
        case .paymentsCSV: batch.payments += rows.compactMap { row in context.nativePayment(location: row.location, value: { row[$0] }) }
        case .freshBooksClients: batch.clients += rows.compactMap { context.freshBooksClient($0) }
        case .freshBooksInvoices: batch.invoices += context.freshBooksInvoices(rows)
        case .freshBooksPayments: batch.payments += context.freshBooksPayments(rows)
        case .zohoInvoices:
            let (clients, invoices) = context.zohoInvoices(rows)
            batch.clients += clients
            batch.invoices += invoices
        case .xeroInvoices:
            let (clients, invoices, warnings) = context.xeroInvoices(rows)
            batch.clients += clients
            batch.invoices += invoices
            batch.warnings += warnings
        case .invoiceNinjaClients: batch.clients += rows.compactMap { context.invoiceNinjaClient($0) }
        case .invoiceNinjaInvoices: batch.invoices += context.invoiceNinjaInvoices(rows, links: &batch.links)
        case .invoiceNinjaCredits: batch.invoices += context.invoiceNinjaCredits(rows, links: &batch.links)
        case .invoiceNinjaPayments: batch.payments += context.invoiceNinjaPayments(rows, links: &batch.links)
        case .waveCustomers: batch.clients += rows.compactMap { context.waveCustomer($0, links: &batch.links) }
        case .waveTransactions: context.waveTransactions(rows, links: &batch.links)
        case .stripeInvoicesCSV:
            let (clients, invoices, warnings) = context.stripeCSVInvoices(rows, links: &batch.links.stripe)
            batch.clients += clients
            batch.invoices += invoices
            batch.warnings += warnings
        case .stripeCreditNotesCSV: batch.invoices += context.stripeCSVCreditNotes(rows, links: &batch.links.stripe)
        case .json, .quickBooksInvoiceList, .quickBooksTransactions: break
        }
        batch.skippedInvoices += context.skipped
        batch.skippedPayments += context.skippedPayments
        batch.rejectedReferences += context.rejectedReferences
        batch.rejectedClients.formUnion(context.rejectedClients)
        problems = context.problems
    }

    /// Why `file` is refused before it is read, or nil: a regular file larger than ``InvoicesCore/InputBudget`` allows
    /// an e-invoice (XML, or a PDF), told by its first bytes. Other formats are read whatever their size.
    static func tooLargeEInvoice(_ file: String) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file),
            attributes[.type] as? FileAttributeType == .typeRegular, let size = (attributes[.size] as? NSNumber)?.intValue,
            size > min(InputBudget.eInvoiceBytes, InputBudget.pdfBytes), let handle = FileHandle(forReadingAtPath: file)
        else { return nil }
        defer { try? handle.close() }
        let start = [UInt8]((try? handle.read(upToCount: 64)) ?? Data())
        if start.starts(with: Array("%PDF-".utf8)), size > InputBudget.pdfBytes { return tooLarge(pdf: true) }
        if looksLikeXML(start), size > InputBudget.eInvoiceBytes { return tooLarge(pdf: false) }
        return nil
    }

    /// Every text field of the batch within its bound (``InvoicesCore/InputBudget``): notes and write-off reasons
    /// ``InputBudget/noteBytes``, every name, identifier, number, e-mail, address field, tax name and payment detail
    /// ``InputBudget/nameBytes`` (of UTF-8). A longer one is a problem at its row.
    func checkTextBounds(_ batch: ImportBatch, problems: inout ProblemList) {
        func check(_ value: String?, _ field: String, note: Bool = false, at source: SourceLocation) {
            guard let value else { return }
            let limit = note ? InputBudget.noteBytes : InputBudget.nameBytes
            guard value.utf8.count > limit else { return }
            problems.add(
                ImportProblem(
                    location: source,
                    message: "the \(field) is \(value.utf8.count) bytes long, more than \(InputBudget.describe(limit)), the limit for "
                        + (note ? "a note" : "a name or identifier") + " (docs/reliability.md)"))
        }
        for client in batch.clients {
            for (value, field) in [(client.number, "client number"), (client.name, "client name"), (client.email, "e-mail"), (client.street, "street"),
                (client.city, "city"), (client.zip, "zip"), (client.country, "country")] as [(String?, String)] {
                check(value, field, at: client.source)
            }
        }
        for invoice in batch.invoices {
            check(invoice.identifier, "invoice identifier", at: invoice.source)
            switch invoice.client {
            case .number(let number): check(number, "client number", at: invoice.source)
            case .name(let name): check(name, "client name", at: invoice.source)
            }
            check(invoice.notes, "note", note: true, at: invoice.source)
            check(invoice.corrects, "corrected invoice's identifier", at: invoice.source)
            for line in invoice.tax?.lines ?? [] {
                check(line.name, "tax name", at: invoice.source)
                check(line.rate, "tax rate", at: invoice.source)
            }
            for writeOff in invoice.writeOffs ?? [] { check(writeOff.reason, "write-off reason", note: true, at: invoice.source) }
        }
        for payment in batch.payments {
            check(payment.invoice, "invoice identifier", at: payment.source)
            check(payment.method, "payment method", at: payment.source)
            check(payment.reference, "payment reference", at: payment.source)
        }
    }

    /// Two invoices with one identifier, or two clients with one number, in the same batch. A client without
    /// a number that appears twice with the same fields (Zoho names a client on every invoice) is kept once.
    func checkDuplicates(_ batch: inout ImportBatch, problems: inout ProblemList) {
        var invoices: [String: SourceLocation] = [:]
        for invoice in batch.invoices {
            if let first = invoices[invoice.identifier] {
                problems.add(
                    ImportProblem(
                        location: invoice.source,
                        message: "invoice '\(invoice.identifier)' is also at \(first); an identifier may appear once"))
            } else {
                invoices[invoice.identifier] = invoice.source
            }
        }
        var numbers: [String: SourceLocation] = [:]
        var names: [String: ImportedClient] = [:]
        var kept: [ImportedClient] = []
        for client in batch.clients {
            if let number = client.number {
                if let first = numbers[number] {
                    problems.add(
                        ImportProblem(
                            location: client.source,
                            message: "client number '\(number)' is also at \(first); a number may appear once"))
                    continue
                }
                numbers[number] = client.source
            } else if let first = names[client.name] {
                var same = client
                same.source = first.source
                if same != first {
                    problems.add(
                        ImportProblem(
                            location: client.source,
                            message: "client '\(client.name)' is also at \(first.source) with other details; "
                                + "clients without a number are matched by name, so each name may appear once"))
                }
                continue
            } else {
                names[client.name] = client
            }
            kept.append(client)
        }
        batch.clients = kept
    }
}

/// The problems found while reading, in bounded memory: every problem is counted, and only the first `limit` in
/// file and line order are kept (a file of four million bad rows keeps 200, not four million messages).
struct ProblemList: Sendable {
    private let rank: [String: Int]
    private let limit: Int
    /// Kept problems with their order key; trimmed to `limit` whenever it reaches twice that.
    private var kept: [(key: Key, problem: ImportProblem)] = []
    /// How many problems were added in all.
    private(set) var total = 0

    private struct Key: Comparable, Sendable {
        var file: Int, line: Int, sequence: Int
        static func < (a: Key, b: Key) -> Bool { (a.file, a.line, a.sequence) < (b.file, b.line, b.sequence) }
    }

    init(files: [String], limit: Int) {
        var rank: [String: Int] = [:]
        for (index, file) in files.enumerated() where rank[file] == nil { rank[file] = index }
        self.rank = rank
        self.limit = max(limit, 1)
    }

    mutating func add(_ problem: ImportProblem) {
        let key = Key(file: rank[problem.location.file] ?? rank.count, line: problem.location.line ?? 0, sequence: total)
        total += 1
        kept.append((key, problem))
        if kept.count >= 2 * limit { trim() }
    }

    /// The first `limit` problems, in file and line order (problems of one line in the order they were found).
    var first: [ImportProblem] {
        var copy = self
        copy.trim()
        return copy.kept.map(\.problem)
    }

    /// How many problems were counted but are not in ``first``.
    var omitted: Int { total - min(total, limit) }

    var isEmpty: Bool { total == 0 }

    /// How many problems are held in memory now: never more than twice the limit.
    var held: Int { kept.count }

    private mutating func trim() {
        kept.sort { $0.key < $1.key }
        if kept.count > limit { kept.removeSubrange(limit...) }
    }
}
