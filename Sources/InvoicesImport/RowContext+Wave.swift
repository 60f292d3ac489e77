internal import InvoicesCore

/// Wave's customers export and its accounting transactions export, imported together (docs/import.md, "Wave"). The
/// transactions are a ledger: an invoice is a transaction debiting Accounts Receivable and crediting income (and sales
/// tax), a payment one crediting Accounts Receivable, each of its lines naming the customer and the invoice number. The
/// ledger has no currencies, due dates or statuses: the currency is the customer's (`customer_currency`), the due date
/// the issue date plus `--default-terms`, and every invoice is sent.
extension ImportFormat {
    static let waveCustomerColumns = ["customer_name", "customer_currency"]
    static let waveTransactionColumns = [
        "Transaction ID", "Transaction Date", "Account Name", "Amount (One column)", "Customer", "Invoice Number", "Account Group", "Account Type",
    ]
}

/// The Wave rows read, kept until every file of the import is read: the ledger's amounts are read in the customer's
/// currency, which only the customers export states.
struct WaveLedger: Sendable, Hashable {
    /// One ledger line of an invoice (a line naming an invoice number), its amounts as written.
    struct Line: Sendable, Hashable {
        var transaction: String
        var date: CalendarDate
        var accountName: String
        var accountGroup: String
        var accountType: String
        var description: String
        var lineDescription: String
        var amount: String
        var otherAccounts: String
        var customer: String
        var invoice: String
        var beforeTax: String
        var taxAmount: String
        var taxName: String
        var source: SourceLocation
    }

    /// Each customer's currency (by `customer_name`), and where it was read.
    var currencies: [String: CurrencyCode] = [:]
    var lines: [Line] = []
    /// Transactions (by id) with a line on an expense account: a payment on them is a write-off, named by the account.
    var expenseAccounts: [String: String] = [:]
}

extension RowContext {
    /// A customer of Wave's customers export: `customer_name`, `account_number` as the client number (else matched by
    /// name), `email`, `address_line_1` and `address_line_2` (joined by a line break), `city`, `postal_code/zip_code`,
    /// `country`; `customer_currency` is the currency of the customer's ledger lines.
    mutating func waveCustomer(_ row: CSVTable.Row, links: inout ServiceLinks) -> ImportedClient? {
        let location = row.location
        guard let name = required(row["customer_name"], location, "customer_name", what: "customer"),
            let currency = currency(row["customer_currency"], location, "customer_currency")
        else { return nil }
        links.wave.currencies[name] = currency
        let street = ["address_line_1", "address_line_2"].compactMap { row.filled($0) }
        return ImportedClient(
            number: row.filled("account_number"), name: name, email: row.optional("email"),
            street: street.isEmpty ? row.optional("address_line_1") : street.joined(separator: "\n"), city: row.optional("city"),
            zip: row.optional("postal_code/zip_code"), country: row.optional("country"), source: location)
    }

    /// Wave's accounting transactions: the lines naming an invoice number are kept for ``ImportReader/linkWave(_:problems:)``;
    /// lines of an expense account are noted by transaction (a payment there is a write-off). Other lines (the bank side of
    /// a payment, bills, expenses) are not the books of a client and are left out.
    mutating func waveTransactions(_ rows: [CSVTable.Row], links: inout ServiceLinks) {
        let reader = serviceDates(rows, ["Transaction Date"])
        for row in rows {
            let location = row.location
            if row["Account Group"] == "Expense", let transaction = row.filled("Transaction ID") {
                links.wave.expenseAccounts[transaction] = row["Account Name"]
            }
            guard let invoice = row.filled("Invoice Number") else {
                if row.filled("Customer") != nil, row["Account Type"] == "System Receivable Invoice" {
                    problem(
                        location, "Invoice Number",
                        "is empty on an Accounts Receivable line of customer '\(row["Customer"])'; the ledger moves the receivable outside an invoice "
                            + "(a customer payment not applied to one), which the books cannot hold, so the customer's balance would differ")
                }
                continue
            }
            guard let customer = required(row["Customer"], location, "Customer", what: "invoice line"),
                let transaction = required(row["Transaction ID"], location, "Transaction ID", what: "ledger line"),
                let day = serviceDate(row, "Transaction Date", reader, required: true) ?? nil
            else { continue }
            links.wave.lines.append(
                WaveLedger.Line(
                    transaction: transaction, date: day, accountName: row["Account Name"], accountGroup: row["Account Group"],
                    accountType: row["Account Type"], description: row["Transaction Description"], lineDescription: row["Transaction Line Description"],
                    amount: row["Amount (One column)"], otherAccounts: row["Other Accounts for this Transaction"], customer: customer, invoice: invoice,
                    beforeTax: row["Amount Before Sales Tax"], taxAmount: row["Sales Tax Amount"], taxName: row["Sales Tax Name"], source: location))
        }
    }
}

extension ImportReader {
    /// Turns the Wave ledger's lines into invoices and payments, in each customer's currency. An invoice is the
    /// transaction whose lines credit income: its Accounts Receivable line is the amount, its income lines the net (and
    /// `Sales Tax Amount`, `Sales Tax Name` the taxes). Every other Accounts Receivable line naming the invoice is a payment
    /// (a credit, negative) or a refund (a debit); one whose transaction debits an expense account is a write-off.
    func linkWave(_ batch: inout ImportBatch, problems: inout ProblemList) {
        let ledger = batch.links.wave
        guard !ledger.lines.isEmpty else { return }
        var context = RowContext(dates: DateReader(pattern: options.dateFormat), problems: problems, defaultTerms: options.defaultTerms)
        defer { problems = context.problems }
        var order: [String] = []
        var byInvoice: [String: [WaveLedger.Line]] = [:]
        for line in ledger.lines {
            if byInvoice[line.invoice] == nil { order.append(line.invoice) }
            byInvoice[line.invoice, default: []].append(line)
        }
        for number in order {
            let lines = byInvoice[number]!
            let first = lines[0]
            guard let currency = ledger.currencies[first.customer] else {
                context.problem(
                    first.source, "Customer",
                    "customer '\(first.customer)' is not in the Wave customers export of this import; the ledger has no currencies, so import the "
                        + "customers export (with customer_currency) together with the transactions")
                context.rejectedInvoice(naming: .name(first.customer), column: "Customer", at: first.source)
                continue
            }
            if let other = lines.first(where: { $0.customer != first.customer }) {
                context.problem(other.source, "Customer", "'\(other.customer)' differs from '\(first.customer)' on line \(first.source.line ?? 0) of invoice '\(number)'")
                continue
            }
            if let (invoice, payments) = context.waveInvoice(number, lines, currency: currency, expenseAccounts: ledger.expenseAccounts) {
                batch.invoices.append(invoice)
                batch.payments += payments
            }
        }
    }
}

extension RowContext {
    /// One Wave invoice and its payments from its ledger lines; nil after a problem (reported).
    mutating func waveInvoice(
        _ number: String, _ lines: [WaveLedger.Line], currency: CurrencyCode, expenseAccounts: [String: String]
    ) -> (ImportedInvoice, [ImportedPayment])? {
        let receivable = { (line: WaveLedger.Line) in line.accountType == "System Receivable Invoice" || line.accountName == "Accounts Receivable" }
        let incomeTransactions = Set(lines.filter { $0.accountGroup == "Income" }.map(\.transaction))
        guard incomeTransactions.count == 1, let transaction = incomeTransactions.first else {
            problem(
                lines[0].source, "Transaction ID",
                incomeTransactions.isEmpty
                    ? "invoice '\(number)' has no ledger line on an income account (Account Group 'Income'); the ledger does not say what was sold"
                    : "invoice '\(number)' is in \(incomeTransactions.count) transactions with income lines (\(incomeTransactions.sorted().joined(separator: ", "))); an invoice is one transaction")
            return nil
        }
        var valid = true
        func amount(_ text: String, _ line: WaveLedger.Line, _ column: String, empty: Int64? = nil) -> Int64? {
            if text.isEmpty, let empty { return empty }
            guard let money = money(text, currency, line.source, column, allowNegative: true) else {
                valid = false
                return nil
            }
            return money.minorUnits
        }
        let own = lines.filter { $0.transaction == transaction }
        guard let arLine = own.first(where: receivable), own.filter(receivable).count == 1 else {
            problem(own[0].source, "Account Name", "invoice '\(number)' has \(own.filter(receivable).count) Accounts Receivable lines in its transaction \(transaction); expected one")
            return nil
        }
        let total = amount(arLine.amount, arLine, "Amount (One column)")
        var net: Int64 = 0
        var tax: Int64 = 0
        var groups: [(name: String, net: Int64, tax: Int64)] = []
        var items: [String] = []
        for line in own where line.accountGroup == "Income" {
            guard let lineNet = amount(line.amount, line, "Amount (One column)"), let lineTax = amount(line.taxAmount, line, "Sales Tax Amount", empty: 0) else { continue }
            if lineTax != 0, line.taxName.isEmpty {
                problem(line.source, "Sales Tax Name", "is empty, but 'Sales Tax Amount' is \(line.taxAmount); every tax needs its name")
                valid = false
                continue
            }
            guard let sum = MinorUnits.add(net, lineNet), let taxes = MinorUnits.add(tax, lineTax) else {
                problem(line.source, "Amount (One column)", "added to the invoice's other lines \(MinorUnits.tooLarge)")
                valid = false
                continue
            }
            (net, tax) = (sum, taxes)
            let prefix = line.description + " - "
            items.append(line.lineDescription.hasPrefix(prefix) ? String(line.lineDescription.dropFirst(prefix.count)) : line.lineDescription)
            guard !line.taxName.isEmpty else { continue }
            if let index = groups.firstIndex(where: { $0.name == line.taxName }) {
                groups[index].net = MinorUnits.add(groups[index].net, lineNet) ?? .max
                groups[index].tax = MinorUnits.add(groups[index].tax, lineTax) ?? .max
            } else {
                groups.append((line.taxName, lineNet, lineTax))
            }
        }
        guard valid, let total else { return nil }
        let show = { (minor: Int64) in Money(minorUnits: minor, currency: currency).decimalString }
        guard total > 0 else {
            problem(arLine.source, "Amount (One column)", "'\(arLine.amount)' is not positive; an invoice debits Accounts Receivable with what the customer owes")
            return nil
        }
        guard MinorUnits.add(net, tax) == total else {
            problem(
                arLine.source, "Amount (One column)",
                "\(arLine.amount) on Accounts Receivable is not the income lines (\(show(net))) plus their Sales Tax Amount (\(show(tax))); "
                    + "the ledger's invoice does not add up")
            return nil
        }
        let taxLines = groups.map { group -> ImportedTax.Line in
            let rate = Self.xeroRate(group.name).flatMap { TaxRate(name: group.name, percent: $0) }
                ?? TaxRate(name: group.name, milliPercent: Int32(clamping: group.net > 0 && group.tax >= 0 ? proportionalMilli(group.tax, group.net) : 0))
            return ImportedTax.Line(name: group.name, rate: rate.percent, net: group.net == net ? nil : group.net, amount: group.tax)
        }
        let issued = arLine.date
        guard checkOrder(issued: issued, due: issued.adding(days: defaultTerms), paid: nil, arLine.source, dueColumn: nil, paidColumn: "Transaction Date")
        else { return nil }
        var invoice = ImportedInvoice(
            identifier: number, client: .name(arLine.customer), clientColumn: "Customer", amount: Money(minorUnits: total, currency: currency),
            issued: issued, due: issued.adding(days: defaultTerms), dueIsDerived: true, paid: nil, notes: items.joined(separator: ", "),
            source: arLine.source, status: .sent, receipts: ImportedReceipts(received: nil, receivedOn: nil), tax: ImportedTax(net: net, lines: taxLines))
        invoice.kind = .invoice
        var writeOffs: [ImportedWriteOff] = []
        var payments: [ImportedPayment] = []
        let columns = ["invoice": "Invoice Number", "paidOn": "Transaction Date", "amount": "Amount (One column)", "currency": "Customer"]
        for line in lines where line.transaction != transaction && receivable(line) {
            guard let value = amount(line.amount, line, "Amount (One column)"), value != 0 else { continue }
            guard value != .min else {
                problem(line.source, "Amount (One column)", "'\(line.amount)' \(MinorUnits.tooLarge)")
                return nil
            }
            if let account = expenseAccounts[line.transaction], value < 0 {
                writeOffs.append(ImportedWriteOff(date: line.date, amount: -value, reason: account))
            } else {
                payments.append(
                    ImportedPayment(
                        invoice: number, date: line.date, amount: Money(minorUnits: -value, currency: currency), method: line.otherAccounts,
                        reference: line.transaction, source: line.source, columns: columns))
            }
        }
        guard valid else { return nil }
        invoice.writeOffs = writeOffs
        return (invoice, payments)
    }
}
