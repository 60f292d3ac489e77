internal import InvoicesCore

/// One transaction row of a QuickBooks Online report, read (``RowContext/quickBooksEntries(_:_:home:)``).
struct QuickBooksEntry {
    enum Kind { case invoice, payment, creditMemo, salesReceipt, refundReceipt }
    let row: CSVTable.Row
    let customer: String
    let kind: Kind
    let number: String
    let issued: CalendarDate
    /// The `Due Date`, nil when the report has none for it.
    let due: CalendarDate?
    /// The amount in the transaction's currency, as a magnitude: the transaction type says which way it goes.
    let amount: Money
    /// The report's open balance, as a magnitude; nil when the report does not show one for it.
    let open: Int64?
    /// A voided transaction: its memo starts with `Void` and QuickBooks shows its amount as 0.
    let void: Bool
    let memo: String?
}

/// QuickBooks Online's Invoice List and Transaction List by Customer reports (docs/import.md, "QuickBooks Online").
extension RowContext {
    /// The result of reading a report: clients, invoices and credit notes, listed payments, warnings.
    typealias QuickBooksBooks = (clients: [ImportedClient], invoices: [ImportedInvoice], payments: [ImportedPayment], warnings: [ImportProblem])

    mutating func quickBooks(_ report: QuickBooksReport, file: String, home: String?) -> QuickBooksBooks {
        let table = CSVTable(file: file, header: report.header, records: report.records)
        let columns = Set(report.header)
        let header = SourceLocation(file: file, line: report.headerLine)
        // With multicurrency on, `Amount` and `Open Balance` are in the home currency and `Foreign Amount` and
        // `Foreign Open Balance` in the transaction's `Currency`: the latter are the invoice's.
        let multicurrency = columns.contains("Currency")
        var homeCurrency: CurrencyCode?
        if multicurrency {
            guard columns.contains("Foreign Amount") else {
                problem(
                    header, report.spelled["Currency"],
                    "the report has a Currency column but no Foreign Amount: its Amount is in the home currency; add Foreign Amount "
                        + "(and Foreign Open Balance) in Customize › Rows/Columns and export again")
                return ([], [], [], [])
            }
        } else {
            guard let home else {
                problem(
                    header, nil,
                    "the report names no currency (multicurrency is off); give the company's home currency with --currency, e.g. --currency USD")
                return ([], [], [], [])
            }
            guard let code = try? CurrencyCode(home.uppercased()) else {
                problem(header, nil, "--currency '\(home)' is not an ISO 4217 currency code; give the company's home currency, e.g. --currency USD")
                return ([], [], [], [])
            }
            homeCurrency = code
        }
        let openColumn: String? = multicurrency
            ? (columns.contains("Foreign Open Balance") ? "Foreign Open Balance" : nil)
            : (columns.contains("Open Balance") ? "Open Balance" : nil)
        if report.kind == .invoiceList, openColumn == nil {
            problem(header, report.spelled["Open Balance"], "the report has Currency but no Foreign Open Balance; add it in Customize › Rows/Columns and export again")
            return ([], [], [], [])
        }
        let reading = QuickBooksColumns(amount: multicurrency ? "Foreign Amount" : "Amount", open: openColumn, home: homeCurrency, spelled: report.spelled)
        let (entries, leftOut, rejected) = quickBooksEntries(report, table, reading)
        var warnings: [ImportProblem] = []
        if leftOut > 0 {
            warnings.append(
                ImportProblem(
                    location: SourceLocation(file: file),
                    message: "\(leftOut) non-posting transaction(s) (Estimate, Delayed Charge, Delayed Credit, Statement…) left out: they move no money"))
        }
        var clients: [ImportedClient] = []
        var names: Set<String> = []
        for entry in entries where names.insert(entry.customer).inserted {
            clients.append(ImportedClient(number: nil, name: entry.customer, source: entry.row.location))
        }
        switch report.kind {
        case .invoiceList:
            let (invoices, paidOnIssue) = quickBooksInvoiceList(entries, reading)
            if paidOnIssue > 0 {
                warnings.append(
                    ImportProblem(
                        location: SourceLocation(file: file),
                        message: "\(paidOnIssue) invoice(s) partly or wholly paid: each Amount less Open Balance is recorded as one payment on its Date; "
                            + "the Invoice List does not say when it was paid (the Transaction List by Customer does)"))
            }
            return (clients, invoices, [], warnings)
        case .transactionsByCustomer:
            if openColumn == nil {
                warnings.append(
                    ImportProblem(
                        location: SourceLocation(file: file),
                        message: "the report has no \(multicurrency ? "Foreign Open Balance" : "Open Balance") column: payments and credit memos are applied "
                            + "to each customer's oldest open invoices, as QuickBooks applies them, without checking QuickBooks' balances; add the column "
                            + "(Customize › Rows/Columns) to check them"))
            }
            let (invoices, payments) = quickBooksLedger(entries.filter { !rejected.contains($0.customer) }, reading)
            return (clients, invoices, payments, warnings)
        }
    }

    /// The transaction rows of the report, with their customer; title, group, total and footer rows are passed over,
    /// and non-posting transactions counted (`leftOut`).
    mutating func quickBooksEntries(
        _ report: QuickBooksReport, _ table: CSVTable, _ reading: QuickBooksColumns
    ) -> (entries: [QuickBooksEntry], leftOut: Int, rejected: Set<String>) {
        let grouped = report.kind == .transactionsByCustomer
        let reader = ServiceDates(rows: table.rows, fallback: dates, columns: ["Date", "Due Date"])
        if let found = reader.problem { problem(found.0, reading.spelled["Date"], found.1) }
        var customer: String?
        var ended = false
        var leftOut = 0
        var entries: [QuickBooksEntry] = []
        // Customers with a transaction left out for its problems: their balances cannot be checked (nothing is written).
        var rejected: Set<String> = []
        for row in table.rows {
            let fields = row.record.fields.map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = fields.first(where: { !$0.isEmpty }) else { continue }
            let filled = fields.filter { !$0.isEmpty }.count
            // The footer: the basis and the time the report was run, one cell each (its commas quoted, or not).
            if ended && (filled == 1 || QuickBooksReport.isFooter(fields.filter { !$0.isEmpty }.joined(separator: ",")))
                || filled == 1 && QuickBooksReport.isFooter(first)
            {
                ended = true
                continue
            }
            if ended {
                problem(row.location, nil, "comes after the report's TOTAL row, where only its basis and the time it was run stand; remove it")
                continue
            }
            let label = grouped ? fields[0] : first
            if label.uppercased() == "TOTAL" {
                ended = true
                continue
            }
            if label.lowercased().hasPrefix("total for ") { continue }
            if grouped, !fields[0].isEmpty {
                guard filled == 1 else {
                    problem(row.location, nil, "'\(fields[0])' in the customer column, with other cells filled: neither a customer's row nor a transaction")
                    continue
                }
                customer = fields[0]
                continue
            }
            guard fields.count == report.header.count else {
                problem(row.location, nil, "has \(fields.count) fields, the header on line \(report.headerLine) has \(report.header.count)")
                continue
            }
            if fields.allSatisfy(\.isEmpty) { continue }
            let name = grouped ? customer : row["Customer"]
            guard let name, !name.isEmpty else {
                problem(row.location, grouped ? nil : reading.spelled["Customer"], grouped ? "a transaction before any customer's row" : "is empty; every transaction has a customer")
                continue
            }
            let type = report.header.contains("Transaction Type") ? row["Transaction Type"] : "Invoice"
            let kind: QuickBooksEntry.Kind
            switch type.lowercased() {
            case "invoice": kind = .invoice
            case "payment", "receive payment": kind = .payment
            case "credit memo": kind = .creditMemo
            case "sales receipt": kind = .salesReceipt
            case "refund receipt", "refund": kind = .refundReceipt
            case "estimate", "delayed charge", "delayed credit", "charge", "credit", "statement", "time charge", "billable expense charge":
                leftOut += 1
                continue
            default:
                if row["Posting"].lowercased() == "no" {
                    leftOut += 1
                    continue
                }
                problem(
                    row.location, reading.spelled["Transaction Type"],
                    "'\(type)' is not a sales transaction the books hold; expected Invoice, Payment, Credit Memo, Sales Receipt or Refund Receipt "
                        + "(Estimate and other non-posting ones are left out); filter it out of the report (Customize › Filter › Transaction Type)")
                continue
            }
            if row["Posting"].lowercased() == "no" {
                leftOut += 1
                continue
            }
            if report.kind == .invoiceList, kind != .invoice {
                problem(
                    row.location, reading.spelled["Transaction Type"],
                    "'\(type)' in an Invoice List; it lists invoices only: import the Transaction List by Customer for payments and credits")
                continue
            }
            if let entry = quickBooksEntry(row, name, kind, reader, reading) { entries.append(entry) } else { rejected.insert(name) }
        }
        return (entries, leftOut, rejected)
    }

    /// One transaction row read; nil after a problem (reported).
    mutating func quickBooksEntry(
        _ row: CSVTable.Row, _ customer: String, _ kind: QuickBooksEntry.Kind, _ reader: ServiceDates, _ reading: QuickBooksColumns
    ) -> QuickBooksEntry? {
        let location = row.location
        let spelled = { (column: String) in reading.spelled[column] ?? column }
        let number = row["Num"]
        if number.isEmpty, kind != .payment {
            problem(location, spelled("Num"), "is empty; every invoice, credit memo and receipt needs its number")
        }
        let currency = reading.home ?? currency(row["Currency"], location, spelled("Currency"))
        let issued = quickBooksDate(row, "Date", reader, spelled: spelled("Date"))
        let due: CalendarDate?? = row.optional("Due Date") == nil || row["Due Date"].isEmpty
            ? .some(nil) : quickBooksDate(row, "Due Date", reader, spelled: spelled("Due Date")).map { Optional($0) }
        guard let currency else { return nil }
        let amount = quickBooksMoney(row, reading.amount, currency, spelled: spelled(reading.amount))
        var open: Int64?? = .some(nil)
        if let column = reading.open { open = quickBooksMoney(row, column, currency, spelled: spelled(column), empty: true) }
        guard !number.isEmpty || kind == .payment, let amount = amount ?? nil, let open, let issued, let due else { return nil }
        if amount < 0, kind == .invoice || kind == .salesReceipt {
            problem(location, spelled(reading.amount), "'\(row[reading.amount])' is negative; an invoice's amount is what the customer owes (a credit is a Credit Memo)")
            return nil
        }
        let memo = row.optional("Memo/Description")
        let void = memo.map { $0.lowercased().hasPrefix("void") } ?? false
        if void, amount != 0 {
            problem(
                location, spelled(reading.amount),
                "is \(row[reading.amount]), but the memo '\(memo ?? "")' says the transaction is voided, which QuickBooks shows as 0.00; the row contradicts itself")
            return nil
        }
        return QuickBooksEntry(
            row: row, customer: customer, kind: kind, number: number, issued: issued, due: due,
            amount: Money(minorUnits: abs(amount), currency: currency), open: open.map(abs), void: void, memo: memo.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The invoices of an Invoice List: `Amount − Open Balance` was received, recorded as one payment on the invoice's
    /// date (the report has no payment dates); how many such invoices, for the warning.
    mutating func quickBooksInvoiceList(_ entries: [QuickBooksEntry], _ reading: QuickBooksColumns) -> (invoices: [ImportedInvoice], paidOnIssue: Int) {
        var invoices: [ImportedInvoice] = []
        var paidOnIssue = 0
        for entry in entries {
            guard var invoice = quickBooksDocument(entry) else { continue }
            if entry.void {
                invoices.append(invoice)
                continue
            }
            guard let open = entry.open else {
                problem(entry.row.location, reading.spelled[reading.open ?? ""], "is empty; the Invoice List shows every invoice's open balance (0.00 when paid)")
                continue
            }
            guard open <= entry.amount.minorUnits else {
                problem(
                    entry.row.location, reading.spelled[reading.open ?? ""],
                    "\(entry.row[reading.open ?? ""]) is more than the invoice's amount \(entry.amount.decimalString); QuickBooks' balance and amount disagree")
                continue
            }
            let received = entry.amount.minorUnits - open
            invoice.receipts = ImportedReceipts(received: received == 0 ? nil : received, receivedOn: received == 0 ? nil : entry.issued)
            if received != 0 { paidOnIssue += 1 }
            if open == 0 { invoice.paid = entry.issued }
            invoices.append(invoice)
        }
        return (invoices, paidOnIssue)
    }

    /// The Transaction List by Customer: each customer's payments and credit memos, in date order, are applied to
    /// their oldest open invoices in the same currency issued by then (QuickBooks' own default); a payment becomes one
    /// payment row per invoice it pays, a credit memo corrects the oldest invoice it fits in whole (else it stays the
    /// customer's credit). Each invoice's outstanding must then be QuickBooks' open balance for it, or it is a problem.
    mutating func quickBooksLedger(_ entries: [QuickBooksEntry], _ reading: QuickBooksColumns) -> (invoices: [ImportedInvoice], payments: [ImportedPayment]) {
        struct Open {
            let entry: QuickBooksEntry
            var remaining: Int64
            var settledOn: CalendarDate?
            var payments: [ImportedPayment] = []
        }
        var open: [Open] = []
        var credits: [(entry: QuickBooksEntry, applied: Int?)] = []
        var others: [ImportedInvoice] = []
        for entry in entries {
            switch entry.kind {
            case .invoice:
                if entry.void {
                    if let invoice = quickBooksDocument(entry) { others.append(invoice) }
                } else {
                    open.append(Open(entry: entry, remaining: entry.amount.minorUnits))
                }
            case .payment, .creditMemo:
                if entry.void, entry.kind == .payment { continue }
                credits.append((entry, nil))
            case .salesReceipt, .refundReceipt:
                guard var document = quickBooksDocument(entry) else { continue }
                if !entry.void, entry.amount.minorUnits != 0 {
                    // Paid (or paid back) on the spot.
                    let sign: Int64 = entry.kind == .salesReceipt ? 1 : -1
                    document.receipts = ImportedReceipts(received: sign * entry.amount.minorUnits, receivedOn: entry.issued)
                    if entry.kind == .salesReceipt { document.paid = entry.issued }
                }
                others.append(document)
            }
        }
        let byDate = { (a: QuickBooksEntry, b: QuickBooksEntry) in a.issued < b.issued }
        // Each customer's open invoices in one currency, oldest first (file order within a day).
        let key = { (entry: QuickBooksEntry) in [entry.customer, entry.amount.currency.code] }
        var order: [[String]: [Int]] = [:]
        for index in open.indices.sorted(by: { byDate(open[$0].entry, open[$1].entry) || (!byDate(open[$1].entry, open[$0].entry) && $0 < $1) }) {
            order[key(open[index].entry), default: []].append(index)
        }
        let creditOrder = credits.indices.sorted {
            byDate(credits[$0].entry, credits[$1].entry) || (!byDate(credits[$1].entry, credits[$0].entry) && $0 < $1)
        }
        for index in creditOrder {
            let credit = credits[index].entry
            guard !credit.void, credit.amount.minorUnits > 0 else { continue }
            let eligible = (order[key(credit)] ?? []).filter { open[$0].remaining > 0 && open[$0].entry.issued <= credit.issued }
            if credit.kind == .creditMemo {
                if let target = eligible.first, open[target].remaining >= credit.amount.minorUnits {
                    open[target].remaining -= credit.amount.minorUnits
                    if open[target].remaining == 0 { open[target].settledOn = credit.issued }
                    credits[index].applied = target
                }
                continue
            }
            var left = credit.amount.minorUnits
            for target in eligible where left > 0 {
                let take = min(left, open[target].remaining)
                open[target].remaining -= take
                left -= take
                if open[target].remaining == 0 { open[target].settledOn = credit.issued }
                open[target].payments.append(
                    ImportedPayment(
                        invoice: open[target].entry.number, date: credit.issued, amount: Money(minorUnits: take, currency: credit.amount.currency),
                        reference: credit.number, source: credit.row.location,
                        columns: ["invoice": "Num", "paidOn": reading.spelled["Date"] ?? "Date", "amount": reading.spelled[reading.amount] ?? reading.amount,
                                  "currency": reading.spelled["Currency"] ?? "Currency"]))
            }
            if left > 0 {
                problem(
                    credit.row.location, reading.spelled[reading.amount],
                    "the payment of \(credit.amount.decimalString) \(credit.amount.currency) is \(Money(minorUnits: left, currency: credit.amount.currency).decimalString) more than "
                        + "the open invoices of '\(credit.customer)' issued by its date; the report does not say what else it paid (an invoice dated before "
                        + "the report's dates, a prepayment): widen the report's dates to the customer's first invoice")
            }
        }
        var invoices: [ImportedInvoice] = []
        var payments: [ImportedPayment] = []
        for item in open {
            let entry = item.entry
            if let stated = entry.open, stated != item.remaining {
                problem(
                    entry.row.location, reading.spelled[reading.open ?? ""],
                    "QuickBooks' open balance \(entry.row[reading.open ?? ""]) is not the tool's outstanding \(Money(minorUnits: item.remaining, currency: entry.amount.currency).decimalString): "
                        + "the Amount less the payments and credit memos of '\(entry.customer)' in the report, applied to the oldest open invoices first; "
                        + "the report does not say what else settled it, so it is not imported")
                continue
            }
            guard var invoice = quickBooksDocument(entry) else { continue }
            if item.payments.isEmpty { invoice.receipts = ImportedReceipts(received: nil, receivedOn: nil) }
            invoice.paid = item.remaining == 0 ? item.settledOn ?? entry.issued : nil
            invoices.append(invoice)
            payments += item.payments
        }
        for (entry, applied) in credits where entry.kind == .creditMemo {
            let unapplied = applied == nil && !entry.void ? entry.amount.minorUnits : 0
            if let stated = entry.open, stated != unapplied {
                problem(
                    entry.row.location, reading.spelled[reading.open ?? ""],
                    "QuickBooks' open balance \(entry.row[reading.open ?? ""]) is not the credit the tool leaves unapplied (\(Money(minorUnits: unapplied, currency: entry.amount.currency).decimalString)): "
                        + "a credit memo is applied whole to the customer's oldest open invoice it fits in, else kept as the customer's credit")
                continue
            }
            guard var document = quickBooksDocument(entry) else { continue }
            if let applied {
                document.corrects = open[applied].entry.number
                document.applied = entry.issued
            }
            invoices.append(document)
        }
        return (invoices + others, payments)
    }

    /// The invoice or credit note a transaction is: kind, status (void or sent), amount, dates, memo as notes.
    mutating func quickBooksDocument(_ entry: QuickBooksEntry) -> ImportedInvoice? {
        let isCredit = entry.kind == .creditMemo || entry.kind == .refundReceipt
        let due = entry.kind == .invoice ? entry.due ?? entry.issued.adding(days: defaultTerms) : entry.issued
        guard checkOrder(issued: entry.issued, due: due, paid: nil, entry.row.location, dueColumn: "Due Date", paidColumn: "Date") else { return nil }
        var invoice = ImportedInvoice(
            identifier: entry.number, client: .name(entry.customer), clientColumn: "Customer", amount: entry.amount, issued: entry.issued,
            due: due, dueIsDerived: entry.kind == .invoice && entry.due == nil, paid: nil, notes: entry.memo, source: entry.row.location,
            status: entry.void ? .void : .sent)
        invoice.kind = isCredit ? .creditNote : .invoice
        // A re-import states the credit note's application anew (none unless the ledger applies it).
        invoice.corrects = nil
        invoice.applied = nil
        return invoice
    }

    /// A date in the report's order (day or month first, told from the file or `--date-format`); nil after a problem.
    mutating func quickBooksDate(_ row: CSVTable.Row, _ column: String, _ reader: ServiceDates, spelled: String) -> CalendarDate? {
        let text = row[column]
        if text.isEmpty {
            problem(row.location, spelled, "is empty; expected \(reader.expected)")
            return nil
        }
        if let date = reader.date(text) { return date }
        problem(row.location, spelled, "'\(text)' is not \(reader.expected), naming a real day")
        return nil
    }

    /// An amount's sign and magnitude as accounting exports write them: `(400.00)` and `-400.00` are negative, and a
    /// leading currency symbol among `symbols` is dropped (`-$400.00`).
    static func signed(_ text: Substring, symbols: String) -> (negative: Bool, magnitude: Substring) {
        var text = text
        var negative = false
        if text.hasPrefix("("), text.hasSuffix(")") {
            negative = true
            text = text.dropFirst().dropLast()
        }
        if text.hasPrefix("-") {
            negative.toggle()
            text = text.dropFirst()
        }
        if let symbol = text.first, symbols.contains(symbol) { text = text.dropFirst() }
        return (negative, text)
    }

    /// An amount as QuickBooks writes it: `1,234.56`, `-400.00` or `(400.00)`, with or without a currency symbol;
    /// an empty cell is nil when `empty` allows it (a problem otherwise).
    mutating func quickBooksMoney(_ row: CSVTable.Row, _ column: String, _ currency: CurrencyCode, spelled: String, empty: Bool = false) -> Int64?? {
        var text = Substring(row[column])
        if text.isEmpty {
            if empty { return .some(nil) }
            problem(row.location, spelled, "is empty; every transaction has an amount")
            return nil
        }
        let (negative, magnitude) = Self.signed(text, symbols: "$£€¥")
        text = magnitude
        // Thousands separators: groups of three digits before the decimal point.
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let groups = parts[0].split(separator: ",", omittingEmptySubsequences: false)
        guard groups.count == 1 || (groups.first.map { (1...3).contains($0.count) } ?? false) && groups.dropFirst().allSatisfy({ $0.count == 3 }) else {
            problem(row.location, spelled, "'\(row[column])' is not an amount such as 1,234.56, -400.00 or (400.00)")
            return nil
        }
        let plain = groups.joined() + (parts.count == 2 ? "." + parts[1] : "")
        guard let money = money(plain, currency, row.location, spelled) else { return nil }
        guard money.minorUnits != .min else {
            problem(row.location, spelled, "'\(row[column])' \(MinorUnits.tooLarge)")
            return nil
        }
        return .some(negative ? -money.minorUnits : money.minorUnits)
    }
}

/// Which columns a report's amounts are read from.
struct QuickBooksColumns {
    /// `Amount`, or `Foreign Amount` with multicurrency on.
    let amount: String
    /// `Open Balance` (`Foreign Open Balance` with multicurrency), when the report has it.
    let open: String?
    /// The home currency (`--currency`) when the report names none.
    let home: CurrencyCode?
    /// Each canonical column as the file spells it.
    let spelled: [String: String]
}
