internal import InvoicesCore

/// A QuickBooks Online report exported as CSV (Reports › … › Export to CSV): title rows (the report's name, the
/// company's, the dates) above the header row, and the total, basis and timestamp rows below the data
/// (docs/import.md, "QuickBooks Online"). Found by its header row among the file's first rows; columns are named as
/// QuickBooks spells them in any case (`Open balance`, `Open Balance`), and kept under one canonical name each.
struct QuickBooksReport {
    enum Kind: Equatable {
        /// Reports › Who owes you › Invoice List: one row per invoice, with its customer and open balance.
        case invoiceList
        /// Reports › Sales and customers › Transaction List by Customer: the customers as group rows (in a first
        /// column without a name), their invoices, payments and credits below, and a `Total for …` row each.
        case transactionsByCustomer

        init(_ format: ImportFormat) {
            self = format == .quickBooksTransactions ? .transactionsByCustomer : .invoiceList
        }

        var format: ImportFormat { self == .invoiceList ? .quickBooksInvoiceList : .quickBooksTransactions }

        /// The canonical columns the header row must have.
        var required: [String] {
            switch self {
            case .invoiceList: ["Date", "Num", "Customer", "Amount", "Open Balance"]
            case .transactionsByCustomer: ["Date", "Transaction Type", "Num", "Amount"]
            }
        }
    }

    let kind: Kind
    /// The line of the header row (1 when the file has no title rows).
    let headerLine: Int
    /// The header's columns under their canonical names (`Open Balance`), others as written; the group column "".
    let header: [String]
    /// Each canonical column as the file spells it, for messages.
    let spelled: [String: String]
    /// The records after the header row.
    let records: [CSVDocument.Record]
    /// How many records may come before the header row.
    static let titleRows = 12

    /// The report `document` holds, or nil when it is none: `format` names another format, or the first row is
    /// already that of another format (`otherFormat`), or no row among the first ones is a QuickBooks header.
    init?(document: CSVDocument, format: ImportFormat?, otherFormat: Bool) {
        let wanted: [Kind]
        switch format {
        case .quickBooksInvoiceList?: wanted = [.invoiceList]
        case .quickBooksTransactions?: wanted = [.transactionsByCustomer]
        case nil where !otherFormat: wanted = [.transactionsByCustomer, .invoiceList]
        default: return nil
        }
        // The document's first record (its "header") has no line of its own; the ones after it do.
        let rows = [(line: 1, fields: document.header)] + document.records.map { (line: $0.line, fields: $0.fields) }
        for index in rows.indices.prefix(Self.titleRows) {
            let header = rows[index].fields.map(Self.canonical)
            let columns = Set(header)
            guard let kind = wanted.first(where: { kind in
                kind.required.allSatisfy(columns.contains)
                    && (kind == .invoiceList ? true : header.first == "" && !columns.contains("Customer"))
            }) else { continue }
            self.kind = kind
            self.header = header
            var spelled: [String: String] = [:]
            for (name, text) in zip(header, rows[index].fields) where spelled[name] == nil {
                spelled[name] = text.trimmingCharacters(in: .whitespaces)
            }
            self.spelled = spelled
            headerLine = rows[index].line
            records = Array(document.records[index...])
            return
        }
        return nil
    }

    /// The canonical name of a QuickBooks column title (case and spacing as any report writes them).
    static func canonical(_ title: String) -> String {
        let words = title.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        switch words.lowercased() {
        case "date", "transaction date": return "Date"
        case "transaction type", "type": return "Transaction Type"
        case "num", "no.", "no", "number": return "Num"
        case "posting": return "Posting"
        case "memo/description", "memo", "description": return "Memo/Description"
        case "customer", "customer name", "customer full name", "name": return "Customer"
        case "due date": return "Due Date"
        case "amount": return "Amount"
        case "open balance": return "Open Balance"
        case "currency": return "Currency"
        case "exchange rate": return "Exchange Rate"
        case "foreign amount": return "Foreign Amount"
        case "foreign open balance": return "Foreign Open Balance"
        default: return words
        }
    }

    /// A row below the data that is not a transaction: the basis (`Accrual basis`, `Cash Basis`) and the time the
    /// report was run (`Monday, January 19, 2026 10:15 AM GMT-05:00`), alone in their row.
    static func isFooter(_ text: String) -> Bool {
        let lower = text.lowercased()
        if lower.hasPrefix("accrual basis") || lower.hasPrefix("cash basis") { return true }
        let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        return weekdays.contains { lower.hasPrefix($0 + ",") || lower.hasPrefix($0 + " ") }
            && (lower.contains(" am") || lower.contains(" pm") || lower.contains("gmt"))
    }
}

extension ImportReader {
    /// Reads a QuickBooks Online report found in a CSV file (``QuickBooksReport``) into the batch.
    func readQuickBooks(file: String, report: QuickBooksReport, dates: DateReader, into batch: inout ImportBatch, problems: inout ProblemList) {
        var context = RowContext(dates: dates, problems: problems, defaultTerms: options.defaultTerms)
        let books = context.quickBooks(report, file: file, home: options.currency)
        batch.clients += books.clients
        batch.invoices += books.invoices
        batch.payments += books.payments
        batch.warnings += books.warnings
        problems = context.problems
    }
}
