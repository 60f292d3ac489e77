internal import InvoicesCore

/// An export file as its pieces: a head, pieces one after the other (with ``separator`` between two), and a tail.
///
/// The pieces of `report.json`, `totals.csv` and `aging.csv` are the report's clients (``Report/clients`` order);
/// those of `payments.csv` are runs of payments (``ReportExports/layout(_:paymentRuns:)``). A piece's bytes depend
/// only on its own rows and on what every piece shares (the months, the options), so a build can take a piece whose
/// inputs did not change from the previous file instead of making it again (InvoicesSite's `ExportPieces`). The head
/// and the tail hold what depends on everything (the grand totals, the taxes): they are made on every build.
/// ``write(into:)`` makes every piece: the file the same whichever way its pieces came.
public struct ExportLayout {
    /// What comes before the first piece (a CSV file's header; `{"clients":[` in `report.json`).
    public let head: [UInt8]
    /// What comes between two pieces (`,` in `report.json`).
    public let separator: [UInt8]
    /// What comes after the last piece (`report.json`'s grand totals, periods and taxes).
    public let tail: [UInt8]
    /// How many pieces there are.
    public let count: Int
    private let make: (Int, inout [UInt8]) -> Void

    init(head: [UInt8], separator: [UInt8] = [], tail: [UInt8] = [], count: Int, make: @escaping (Int, inout [UInt8]) -> Void) {
        self.head = head
        self.separator = separator
        self.tail = tail
        self.count = count
        self.make = make
    }

    /// Appends piece `index`'s bytes to `bytes`.
    public func append(_ index: Int, to bytes: inout [UInt8]) { make(index, &bytes) }

    /// The whole file's bytes, every piece made (for tests and callers that do not write in pieces).
    public func data() -> [UInt8] {
        var bytes: [UInt8] = []
        write { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Hands the whole file to `emit` in pieces of about a megabyte, every piece made.
    public func write(into emit: ReportExports.Emit) {
        var bytes = head
        for index in 0..<count {
            if index > 0 { bytes.append(contentsOf: separator) }
            make(index, &bytes)
            if bytes.count > ReportExports.pieceSize {
                bytes.withUnsafeBytes(emit)
                bytes.removeAll(keepingCapacity: true)
            }
        }
        bytes.append(contentsOf: tail)
        bytes.withUnsafeBytes(emit)
    }
}

/// One file of an export written per fiscal year (the journals' years, DATEV's Buchungsstapel) as a head and pieces:
/// its path in the site, and per piece the index of the run (of the runs its layouts were made from) whose
/// transactions of the file's year it holds (a run that crosses a fiscal year's end gives a piece to each year).
public struct ExportFileLayout {
    public let path: String
    public let layout: ExportLayout
    public let runs: [Int]
}

extension ReportExports {
    /// The payments of ``Books/payments`` in runs of `size` (the last shorter): a layout of `payments.csv` for
    /// a caller that does not choose its own runs.
    public func paymentRuns(of size: Int = 4096) -> [Range<Int>] {
        stride(from: 0, to: books.payments.count, by: size).map { $0..<min($0 + size, books.payments.count) }
    }

    /// `file` as a head, pieces and a tail (``ExportLayout``): the clients of the report for `report.json`,
    /// `totals.csv` and `aging.csv`, `paymentRuns` (consecutive ranges of ``Books/payments`` covering them all, in
    /// order; by default ``paymentRuns(of:)``) for `payments.csv`, and one piece for `taxes.csv` (a few rows per tax).
    public func layout(_ file: File, paymentRuns: [Range<Int>]? = nil) -> ExportLayout {
        switch file {
        case .json: jsonLayout()
        case .totals: clientsCSV(Self.totalsColumns, totalsRows)
        case .aging: clientsCSV(Self.agingColumns(report.agingBuckets), agingRows)
        case .payments: paymentsLayout(paymentRuns ?? self.paymentRuns())
        case .taxes: taxesLayout()
        }
    }

    /// A CSV file's header (with the dialect's byte order mark) and a writer for its rows alone.
    private func csvParts(_ header: [String]) -> (head: [UInt8], rows: CSVWriter) {
        var csv = csvWriter(header)
        var head: [UInt8] = []
        csv.flush { head.append(contentsOf: $0) }
        return (head, csv)
    }

    /// A CSV file with one piece per client of the report, its rows written by `rows`.
    private func clientsCSV(_ header: [String], _ rows: @escaping (Report.ClientTotals, inout CSVWriter) -> Void) -> ExportLayout {
        var (head, csv) = csvParts(header)
        let clients = report.clients
        return ExportLayout(head: head, count: clients.count) { index, bytes in
            rows(clients[index], &csv)
            csv.flush { bytes.append(contentsOf: $0) }
        }
    }

    /// One client's rows of `totals.csv`.
    private func totalsRows(_ totals: Report.ClientTotals, _ csv: inout CSVWriter) {
        let client = books.clients[totals.clientIndex]
        for entry in totals.currencies {
            let digits = entry.currency.minorUnitDigits
            for (offset, figures) in entry.months.enumerated() where figures.isActive {
                let (year, quarter) = fiscalCells(report.months[offset])
                csv.append([
                    client.number, client.name, entry.currency.code, report.months[offset].description,
                    Money.decimalString(figures.invoiced, digits: digits),
                    Money.decimalString(figures.paid, digits: digits),
                    Money.decimalString(figures.outstanding, digits: digits),
                    Money.decimalString(figures.overdue, digits: digits), String(figures.invoices),
                    Money.decimalString(figures.net, digits: digits), Money.decimalString(figures.tax, digits: digits),
                    Money.decimalString(figures.credited, digits: digits),
                    Money.decimalString(figures.writtenOff, digits: digits),
                    Money.decimalString(figures.credit, digits: digits), year, quarter,
                ])
            }
        }
    }

    /// One client's rows of `aging.csv`.
    private func agingRows(_ totals: Report.ClientTotals, _ csv: inout CSVWriter) {
        let client = books.clients[totals.clientIndex]
        for entry in totals.currencies where entry.period.outstanding != 0 {
            let digits = entry.currency.minorUnitDigits
            csv.append(
                [client.number, client.name, entry.currency.code, report.asOf?.description ?? ""]
                    + entry.aging.buckets.map { Money.decimalString($0, digits: digits) })
        }
    }

    private func paymentsLayout(_ runs: [Range<Int>]) -> ExportLayout {
        var (head, csv) = csvParts(Self.paymentsColumns)
        return ExportLayout(head: head, count: runs.count) { index, bytes in
            for payment in books.payments[runs[index]] {
                let invoice = books.invoices[Int(payment.invoiceIndex)]
                let client = books.clients[Int(invoice.clientIndex)]
                let currency = books.currencies[Int(invoice.currencyIndex)]
                let details =
                    payment.details >= 0 ? books.paymentDetails[Int(payment.details)] : PaymentDetails(method: "", reference: "")
                let fiscal = fiscalCells(payment.date.month)
                csv.append([
                    invoice.identifier, client.number, client.name, currency.code, payment.date.description,
                    Money.decimalString(payment.amount, digits: currency.minorUnitDigits), payment.amount < 0 ? "refund" : "payment",
                    details.method, details.reference,
                    fiscal.year, fiscal.quarter,
                ])
            }
            csv.flush { bytes.append(contentsOf: $0) }
        }
    }

    private func taxesLayout() -> ExportLayout {
        var (head, csv) = csvParts(Self.taxesColumns)
        return ExportLayout(head: head, count: 1) { _, bytes in
            for totals in report.taxes {
                let tax = books.taxes[totals.taxIndex]
                let digits = totals.currency.minorUnitDigits
                for (offset, figures) in totals.months.enumerated() where figures.isActive {
                    let (year, quarter) = fiscalCells(report.months[offset])
                    csv.append(
                        [totals.currency.code, tax.name, tax.percent, report.months[offset].description]
                            + [figures.accrualNet, figures.accrualTax, figures.cashNet, figures.cashTax].map {
                                Money.decimalString($0, digits: digits)
                            } + [year, quarter])
                }
            }
            csv.flush { bytes.append(contentsOf: $0) }
        }
    }

    /// `report.json`: `{"clients":[`, a piece per client (``JSONRows``) separated by `,`, then `]` and the rest of
    /// the document (grand totals, period, conversion, taxes) through `JSONEncoder`, made on every build.
    private func jsonLayout() -> ExportLayout {
        var document = jsonDocument(includingClients: false)
        document.clients = []
        let top = Self.encoder.encodeOrFail(document)
        let emptyClients = Array(#"{"clients":[]"#.utf8)
        precondition(top.starts(with: emptyClients), "report.json's first key is clients")
        var rows = JSONRows(agingBuckets: report.agingBuckets)
        let clients = report.clients
        let months = report.months
        return ExportLayout(
            head: Array(#"{"clients":["#.utf8), separator: Array(",".utf8), tail: Array("]".utf8) + Array(top.dropFirst(emptyClients.count)),
            count: clients.count
        ) { index, bytes in
            let totals = clients[index]
            let client = books.clients[totals.clientIndex]
            swap(&rows.bytes, &bytes)
            rows.client(number: client.number, name: client.name, currencies: totals.currencies, months: months)
            swap(&rows.bytes, &bytes)
        }
    }
}
