internal import InvoicesCore

/// Invoice Ninja v5's CSV exports (Reports › Clients, Invoices or Invoice Items, Credits, Payments › Export), read together: the
/// clients give the numbers and addresses, the invoices and credits name their client by name, the payments their
/// invoice by number (docs/import.md, "Invoice Ninja"). Headers are those the English export writes: an entity's
/// columns prefixed with its name (`Invoice Amount`), the number columns doubled (`Invoice Invoice Number`).
extension ImportFormat {
    var invoiceNinjaColumns: [String] {
        switch self {
        case .invoiceNinjaClients: ["Name", "Number", "Client Currency"]
        case .invoiceNinjaInvoices:
            ["Client Name", "Client Currency", "Invoice Invoice Number", "Invoice Amount", "Invoice Balance", "Invoice Paid to Date",
             "Invoice Date", "Invoice Due Date", "Invoice Status"]
        case .invoiceNinjaCredits:
            ["Client Name", "Client Currency", "Credit Credit Number", "Credit Amount", "Credit Balance", "Credit Paid to Date", "Credit Date",
             "Credit Status"]
        case .invoiceNinjaPayments: ["Client Name", "Payment Date", "Payment Amount", "Payment Refunded", "Payment Currency", "Payment Status"]
        default: []
        }
    }
}

/// What one file of a service leaves for the others of the same import to complete (``ImportReader/link(_:problems:)``).
struct ServiceLinks: Sendable, Hashable {
    /// An Invoice Ninja invoice's `Invoice Paid to Date`, for the payments export to be checked against.
    struct NinjaInvoice: Sendable, Hashable {
        var identifier: String
        var paidToDate: Int64
        var issued: CalendarDate
        var currency: CurrencyCode
        var source: SourceLocation
    }

    var ninjaInvoices: [NinjaInvoice] = []
    /// The Invoice Ninja payments files read, each with the invoices its payments name.
    var ninjaPaymentFiles: [String] = []
    var ninjaPaidInvoices: Set<String> = []
    /// Invoice Ninja invoices and credits whose paid or applied amount was dated on their own date, per file.
    var ninjaDatedOnIssue: [String: Int] = [:]
    /// Wave's ledger and customers, joined once every file is read (RowContext+Wave.swift).
    var wave = WaveLedger()
    /// The Stripe Dashboard's invoice ids and unsettled balances, for its credit notes export (RowContext+StripeCSV.swift).
    var stripe = StripeCSVLinks()
}

extension RowContext {
    /// A client of Invoice Ninja's clients export: `Name`, `Number`, `Email`, `Street` and `Apt/Suite` (joined by a line
    /// break), `City`, `Postal Code`, `Country` (the country's English name, as the export writes it).
    mutating func invoiceNinjaClient(_ row: CSVTable.Row) -> ImportedClient? {
        let location = row.location
        guard let name = required(row["Name"], location, "Name", what: "client") else { return nil }
        let street = ["Street", "Apt/Suite"].compactMap { row.filled($0) }
        return ImportedClient(
            number: row.filled("Number"), name: name, email: row.optional("Email"),
            street: street.isEmpty ? row.optional("Street") : street.joined(separator: "\n"), city: row.optional("City"),
            zip: row.optional("Postal Code"), country: row.optional("Country"), source: location)
    }

    /// Invoice Ninja's invoices: one row each, the client by `Client Name`, the currency the client's. Drafts are drafts;
    /// Sent, Partial, Paid (and Overdue, Unpaid) sent, owing `Invoice Balance`, which must be `Invoice Amount` less
    /// `Invoice Paid to Date`; Cancelled void when nothing was paid, else sent with the rest written off; Reversed void.
    mutating func invoiceNinjaInvoices(_ rows: [CSVTable.Row], links: inout ServiceLinks) -> [ImportedInvoice] {
        var invoices: [ImportedInvoice] = []
        let reader = serviceDates(rows, ["Invoice Date", "Invoice Due Date"])
        for (row, items) in ninjaItemGroups(rows) {
            guard var document = ninjaDocument(row, prefix: "Invoice", number: "Invoice Invoice Number", reader) else { continue }
            if let tax = ninjaItemTax(items, document) { document.invoice.tax = tax }
            let status: InvoiceStatus
            let column = "Invoice Status"
            var writtenOff: Int64 = 0
            switch row[column] {
            case "Draft": status = .draft
            case "Sent", "Partial", "Paid", "Overdue", "Unpaid": status = .sent
            case "Cancelled":
                // Invoice Ninja sets a cancelled invoice's balance to 0 and keeps what was paid.
                status = document.paid == 0 ? .void : .sent
                writtenOff = document.amount - document.paid
            case "Reversed":
                // Reversed: what was paid became a credit (in the credits export); the invoice owes and holds nothing.
                status = .void
                guard document.paid == 0 else {
                    problem(row.location, "Invoice Paid to Date", "is \(row["Invoice Paid to Date"]) on a reversed invoice; Invoice Ninja moves a reversed invoice's payments to a credit, leaving 0")
                    continue
                }
            default:
                problem(row.location, column, "'\(row[column])' is not an Invoice Ninja invoice status; expected Draft, Sent, Partial, Paid, Cancelled or Reversed (the export in English)")
                continue
            }
            if status != .draft {
                let owed = writtenOff == 0 && status == .sent ? document.amount - document.paid : 0
                guard owed == document.balance, document.paid <= document.amount else {
                    problem(
                        row.location, "Invoice Balance",
                        "Invoice Ninja's balance \(document.money(document.balance)) is not Invoice Amount less Invoice Paid to Date (\(document.money(document.amount - document.paid)))"
                            + (status == .sent && writtenOff == 0 ? "" : " on a \(row[column].lowercased()) invoice, whose balance is 0")
                            + "; the file does not say what else settled it, so it is not imported")
                    continue
                }
                if row[column] == "Paid", document.balance != 0 {
                    problem(row.location, "Invoice Balance", "is \(row["Invoice Balance"]), but the status is Paid; Invoice Ninja's balance and status disagree")
                    continue
                }
            }
            document.invoice.status = status
            document.invoice.kind = .invoice
            document.invoice.writeOffs = writtenOff > 0 && status == .sent
                ? [ImportedWriteOff(date: document.invoice.issued, amount: writtenOff, reason: "cancelled in Invoice Ninja")] : []
            document.invoice.receipts = ImportedReceipts(received: document.paid == 0 ? nil : document.paid, receivedOn: document.invoice.issued)
            if status == .sent {
                links.ninjaInvoices.append(
                    .init(identifier: document.invoice.identifier, paidToDate: document.paid, issued: document.invoice.issued,
                          currency: document.invoice.amount.currency, source: row.location))
            }
            invoices.append(document.invoice)
        }
        return invoices
    }

    /// The invoices' rows: each row alone (the invoices export), or, in the invoice *item* export (`Item Line Total`,
    /// one row per line item), the rows of one invoice together, whose invoice columns must agree (a problem otherwise).
    mutating func ninjaItemGroups(_ rows: [CSVTable.Row]) -> [(CSVTable.Row, [CSVTable.Row])] {
        guard let first = rows.first, first.optional("Item Line Total") != nil else { return rows.map { ($0, []) } }
        var order: [String] = []
        var groups: [String: [CSVTable.Row]] = [:]
        for row in rows {
            let number = row["Invoice Invoice Number"]
            if groups[number] == nil { order.append(number) }
            groups[number, default: []].append(row)
        }
        let invoiceColumns = ImportFormat.invoiceNinjaInvoices.invoiceNinjaColumns + ["Invoice Tax Amount", "Invoice Uses Inclusive Taxes"]
        return order.compactMap { number in
            let items = groups[number]!
            for column in invoiceColumns {
                if let other = items.first(where: { $0[column] != items[0][column] }) {
                    problem(other.location, column, "'\(other[column])' differs from '\(items[0][column])' on line \(items[0].record.line) of invoice '\(number)'")
                    return nil
                }
            }
            return (items[0], items)
        }
    }

    /// The net and tax lines an invoice's line items give (`Item Line Total`, `Item Tax Amount`, `Item Tax Name 1–3` at
    /// `Item Tax Rate 1–3`): one tax line per name, with the net of its lines; nil when the lines do not add up to the
    /// invoice's `Invoice Amount` and `Invoice Tax Amount` (an invoice-level discount, surcharge or tax), which then decide.
    mutating func ninjaItemTax(_ items: [CSVTable.Row], _ document: NinjaDocument) -> ImportedTax? {
        guard !items.isEmpty, let invoiceTax = document.invoice.tax else { return nil }
        let currency = document.invoice.amount.currency
        let inclusive = items[0]["Invoice Uses Inclusive Taxes"] == "Yes"
        var net: Int64 = 0
        var tax: Int64 = 0
        var groups: [(rate: TaxRate, net: Int64, tax: Int64)] = []
        for item in items {
            guard let total = money(ninjaAmount(item["Item Line Total"]), currency, item.location, "Item Line Total", allowNegative: true)?.minorUnits,
                let itemTax = money(ninjaAmount(item["Item Tax Amount"]), currency, item.location, "Item Tax Amount", allowNegative: true)?.minorUnits,
                let itemNet = inclusive ? MinorUnits.subtract(total, itemTax) : total, let sum = MinorUnits.add(net, itemNet), let taxes = MinorUnits.add(tax, itemTax)
            else { return nil }
            (net, tax) = (sum, taxes)
            let names = (1...3).compactMap { index -> TaxRate? in
                item.filled("Item Tax Name \(index)").flatMap { TaxRate(name: $0, percent: ImportReader.percent(item["Item Tax Rate \(index)"])) }
            }
            guard names.count == (1...3).filter({ item.filled("Item Tax Name \($0)") != nil }).count else { return nil }
            let amounts: [Int64]
            switch names.count {
            case 0 where itemTax == 0: continue
            case 0: return nil
            case 1: amounts = [itemTax]
            default:
                let each = names.compactMap { Self.ninjaTax(itemNet, milliPercent: $0.milliPercent) }
                guard each.count == names.count, MinorUnits.sum(each) == itemTax else { return nil }
                amounts = each
            }
            for (rate, amount) in zip(names, amounts) {
                if let index = groups.firstIndex(where: { $0.rate == rate }) {
                    guard let groupNet = MinorUnits.add(groups[index].net, itemNet), let groupTax = MinorUnits.add(groups[index].tax, amount) else { return nil }
                    (groups[index].net, groups[index].tax) = (groupNet, groupTax)
                } else {
                    groups.append((rate, itemNet, amount))
                }
            }
        }
        guard net == invoiceTax.net, tax == invoiceTax.lines.reduce(0, { $0 + $1.amount }) else { return nil }
        return ImportedTax(
            net: net, lines: groups.map { ImportedTax.Line(name: $0.rate.name, rate: $0.rate.percent, net: $0.net == net ? nil : $0.net, amount: $0.tax) })
    }

    /// Invoice Ninja's credits, as credit notes: Draft a draft; Sent, Partial and Applied sent. The applied part
    /// (`Credit Paid to Date`, used to pay invoices) leaves the client's credit as a negative payment on the credit's date;
    /// `Credit Balance`, the credit left, must be the amount less it.
    mutating func invoiceNinjaCredits(_ rows: [CSVTable.Row], links: inout ServiceLinks) -> [ImportedInvoice] {
        var credits: [ImportedInvoice] = []
        let reader = serviceDates(rows, ["Credit Date", "Credit Due Date"])
        for row in rows {
            guard var document = ninjaDocument(row, prefix: "Credit", number: "Credit Credit Number", reader) else { continue }
            let column = "Credit Status"
            switch row[column] {
            case "Draft": document.invoice.status = .draft
            case "Sent", "Partial", "Applied": document.invoice.status = .sent
            default:
                problem(row.location, column, "'\(row[column])' is not an Invoice Ninja credit status; expected Draft, Sent, Partial or Applied (the export in English)")
                continue
            }
            if document.invoice.status == .sent {
                guard document.paid <= document.amount, document.amount - document.paid == document.balance else {
                    problem(
                        row.location, "Credit Balance",
                        "Invoice Ninja's credit balance \(document.money(document.balance)) is not Credit Amount less Credit Paid to Date "
                            + "(\(document.money(document.amount - document.paid))), so it is not imported")
                    continue
                }
            }
            document.invoice.kind = .creditNote
            document.invoice.receipts = ImportedReceipts(received: document.paid == 0 ? nil : -document.paid, receivedOn: document.invoice.issued)
            if document.paid != 0 { links.ninjaDatedOnIssue[row.location.file, default: 0] += 1 }
            credits.append(document.invoice)
        }
        return credits
    }

    /// Invoice Ninja's payments: each names its invoice in `Invoice Invoice Number` (a column the default export lacks:
    /// add the invoice's number to the report's columns). Completed and Pending payments are money received;
    /// Partially Refunded and Refunded ones are the payment and a refund (negative) of `Payment Refunded` on its day;
    /// Voided and Failed ones are no money and left out; so are payments of no invoice (the client's credit) and of 0 (an
    /// invoice paid from a credit), counted as skipped.
    mutating func invoiceNinjaPayments(_ rows: [CSVTable.Row], links: inout ServiceLinks) -> [ImportedPayment] {
        guard let first = rows.first else { return [] }
        guard first.optional("Invoice Invoice Number") != nil else {
            problem(
                SourceLocation(file: first.location.file, line: 1), nil,
                "has no 'Invoice Invoice Number' column, so no payment names its invoice; export the payments again with the invoice's "
                    + "Number added to the report's columns (Reports › Payments › Columns)")
            return []
        }
        links.ninjaPaymentFiles.append(first.location.file)
        let reader = serviceDates(rows, ["Payment Date"])
        var payments: [ImportedPayment] = []
        for row in rows {
            let location = row.location
            let invoice = row["Invoice Invoice Number"]
            switch row["Payment Status"] {
            case "Completed", "Pending", "Partially Refunded", "Refunded": break
            case "Voided", "Failed": continue  // no money moved
            default:
                problem(
                    location, "Payment Status",
                    "'\(row["Payment Status"])' is not an Invoice Ninja payment status; expected Pending, Completed, Partially Refunded, Refunded, Voided or Failed")
                continue
            }
            guard let currency = currency(row["Payment Currency"], location, "Payment Currency"),
                let amount = money(ninjaAmount(row["Payment Amount"]), currency, location, "Payment Amount"),
                let refunded = money(ninjaAmount(row["Payment Refunded"]), currency, location, "Payment Refunded"),
                let day = serviceDate(row, "Payment Date", reader, required: true) ?? nil
            else { continue }
            guard refunded.minorUnits <= amount.minorUnits else {
                problem(location, "Payment Refunded", "\(refunded.decimalString) is more than the payment, \(amount.decimalString)")
                continue
            }
            if invoice.isEmpty || amount.minorUnits == 0 {
                skippedPayments += 1
                continue
            }
            links.ninjaPaidInvoices.insert(invoice)
            let columns = ["invoice": "Invoice Invoice Number", "paidOn": "Payment Date", "amount": "Payment Amount", "currency": "Payment Currency"]
            let reference = row.filled("Payment Transaction Reference") ?? row["Payment Number"]
            payments.append(
                ImportedPayment(invoice: invoice, date: day, amount: amount, method: row["Payment Method"], reference: reference, source: location, columns: columns))
            if refunded.minorUnits > 0 {
                payments.append(
                    ImportedPayment(
                        invoice: invoice, date: day, amount: Money(minorUnits: -refunded.minorUnits, currency: currency), method: row["Payment Method"],
                        reference: "refund" + (reference.isEmpty ? "" : " of \(reference)"), source: location,
                        columns: columns.merging(["amount": "Payment Refunded"]) { $1 }))
            }
        }
        return payments
    }

    /// The dates of `columns` in `rows`: `YYYY-MM-DD` as the services write them, or `d/M/yyyy` in the order the file's
    /// dates show (a spreadsheet that rewrote them), else `--date-format`'s (``ServiceDates``). The first date that leaves the
    /// order open is a problem.
    mutating func serviceDates(_ rows: [CSVTable.Row], _ columns: [String]) -> ServiceDates {
        let reader = ServiceDates(rows: rows, fallback: dates, columns: columns)
        if let found = reader.problem { problem(found.0, columns[0], found.1) }
        return reader
    }

    /// An amount as Invoice Ninja writes it: a plain decimal (`1832.7`, `-50`); an empty cell is 0.
    func ninjaAmount(_ text: String) -> String { text.isEmpty ? "0" : text }

    /// The columns invoices and credits share, read; nil after a problem (reported).
    mutating func ninjaDocument(_ row: CSVTable.Row, prefix: String, number column: String, _ reader: ServiceDates) -> NinjaDocument? {
        let location = row.location
        let number = required(row[column], location, column, what: prefix.lowercased())
        let client = required(row["Client Name"], location, "Client Name", what: prefix.lowercased())
        let currency = currency(row["Client Currency"], location, "Client Currency")
        let issued = serviceDate(row, "\(prefix) Date", reader, required: true)
        let due = serviceDate(row, "\(prefix) Due Date", reader, required: false)
        guard let currency else {
            rejectedInvoice(naming: client.map { .name($0) }, column: "Client Name", at: location)
            return nil
        }
        let figures = ["Amount", "Balance", "Paid to Date", "Tax Amount"].map { name in
            money(ninjaAmount(row["\(prefix) \(name)"]), currency, location, "\(prefix) \(name)", allowNegative: name == "Balance")
        }
        guard let number, let client, let issued = issued ?? nil, let due = due, let amount = figures[0], let balance = figures[1],
            let paid = figures[2], let tax = figures[3]
        else {
            rejectedInvoice(naming: client.map { .name($0) }, column: "Client Name", at: location)
            return nil
        }
        guard tax.minorUnits <= amount.minorUnits else {
            problem(location, "\(prefix) Tax Amount", "\(tax.decimalString) is more than the \(prefix.lowercased())'s amount, \(amount.decimalString)")
            rejectedInvoice(naming: .name(client), column: "Client Name", at: location)
            return nil
        }
        let dueDate = due ?? (prefix == "Credit" ? issued : issued.adding(days: defaultTerms))
        guard checkOrder(issued: issued, due: dueDate, paid: nil, location, dueColumn: "\(prefix) Due Date", paidColumn: "\(prefix) Date") else {
            rejectedInvoice(naming: .name(client), column: "Client Name", at: location)
            return nil
        }
        let net = amount.minorUnits - tax.minorUnits
        var invoice = ImportedInvoice(
            identifier: number, client: .name(client), clientColumn: "Client Name", amount: amount, issued: issued, due: dueDate,
            dueIsDerived: due == nil && prefix == "Invoice", paid: nil, notes: row.optional("\(prefix) Public Notes"), source: location,
            tax: ImportedTax(net: net, lines: ninjaTaxLines(row, prefix: prefix, net: net, tax: tax.minorUnits)))
        invoice.writeOffs = []
        return NinjaDocument(invoice: invoice, amount: amount.minorUnits, balance: balance.minorUnits, paid: paid.minorUnits)
    }

    /// The tax lines of an invoice or credit whose export states only its total tax (`Tax Amount`, the lines' taxes and the
    /// invoice-level ones together) and the invoice-level taxes' names and rates (`Tax Name 1–3`, `Tax Rate 1–3`). When
    /// those rates on the net, each rounded half away from zero to the currency's units as Invoice Ninja rounds, add up to
    /// the tax, one line per rate; otherwise (taxes on the lines) one line named after the taxes, or `Tax`, at the rate the
    /// tax makes on the net (to 0.001 %, half to even).
    func ninjaTaxLines(_ row: CSVTable.Row, prefix: String, net: Int64, tax: Int64) -> [ImportedTax.Line] {
        guard tax != 0 else { return [] }
        let named = (1...3).compactMap { index -> TaxRate? in
            guard let name = row.filled("\(prefix) Tax Name \(index)") else { return nil }
            return TaxRate(name: name, percent: ImportReader.percent(row["\(prefix) Tax Rate \(index)"]))
        }
        if !named.isEmpty, named.count == (1...3).filter({ row.filled("\(prefix) Tax Name \($0)") != nil }).count {
            let amounts = named.map { Self.ninjaTax(net, milliPercent: $0.milliPercent) }
            if amounts.allSatisfy({ $0 != nil }), MinorUnits.sum(amounts.compactMap { $0 }) == tax {
                return zip(named, amounts).map { ImportedTax.Line(name: $0.name, rate: $0.percent, amount: $1 ?? 0) }
            }
        }
        let name = named.isEmpty ? "Tax" : named.map(\.name).joined(separator: " + ")
        let rate = TaxRate(name: name, milliPercent: Int32(clamping: net > 0 && tax > 0 ? proportionalMilli(tax, net) : 0))
        return [ImportedTax.Line(name: name, rate: rate.percent, amount: tax)]
    }

    /// `net × milliPercent / 100 000`, rounded half away from zero; nil past 64 bits.
    static func ninjaTax(_ net: Int64, milliPercent: Int32) -> Int64? {
        // The quotient is at most |net| × (rate / 100 % + 1), which must fit.
        guard !net.multipliedReportingOverflow(by: Int64(milliPercent) / 100_000 + 1).overflow else { return nil }
        let product = net.multipliedFullWidth(by: Int64(milliPercent))
        let (quotient, remainder) = Int64(100_000).dividingFullWidth(product)
        guard remainder.magnitude * 2 >= 100_000 else { return quotient }
        return net < 0 ? quotient - 1 : quotient + 1
    }
}

/// An Invoice Ninja invoice or credit read (``RowContext/ninjaDocument(_:prefix:number:)``), its figures in minor units.
struct NinjaDocument {
    var invoice: ImportedInvoice
    let amount: Int64
    let balance: Int64
    let paid: Int64

    func money(_ minorUnits: Int64) -> String { Money(minorUnits: minorUnits, currency: invoice.amount.currency).decimalString }
}

extension ImportReader {
    /// Joins what files of one service leave to the others, once every file is read: Invoice Ninja's payments are checked
    /// against each invoice's `Invoice Paid to Date` (the rest of it was paid from a credit); Wave's ledger gets its
    /// customers' currencies.
    func link(_ batch: inout ImportBatch, problems: inout ProblemList) {
        linkInvoiceNinja(&batch, problems: &problems)
        linkWave(&batch, problems: &problems)
        linkStripe(&batch, problems: &problems)
    }

    func linkInvoiceNinja(_ batch: inout ImportBatch, problems: inout ProblemList) {
        let links = batch.links
        var datedOnIssue = links.ninjaDatedOnIssue
        if !links.ninjaPaymentFiles.isEmpty {
            var cash: [String: Int64] = [:]
            for payment in batch.payments where links.ninjaPaymentFiles.contains(payment.source.file) {
                cash[payment.invoice] = MinorUnits.add(cash[payment.invoice] ?? 0, payment.amount.minorUnits) ?? .max
            }
            var rejected: Set<String> = []
            for invoice in links.ninjaInvoices {
                let listed = cash[invoice.identifier] ?? 0
                let money = { (amount: Int64) in Money(minorUnits: amount, currency: invoice.currency).decimalString }
                if listed > invoice.paidToDate {
                    problems.add(
                        ImportProblem(
                            location: invoice.source, column: "Invoice Paid to Date",
                            message: "Invoice Ninja's paid to date \(money(invoice.paidToDate)) is less than the payments the payments export lists for "
                                + "invoice '\(invoice.identifier)' (\(money(listed))); a payment may name one invoice only"))
                    rejected.insert(invoice.identifier)
                } else if listed < invoice.paidToDate {
                    // Paid from a credit: Invoice Ninja's payments export lists only money received.
                    batch.payments.append(
                        ImportedPayment(
                            invoice: invoice.identifier, date: invoice.issued,
                            amount: Money(minorUnits: invoice.paidToDate - listed, currency: invoice.currency), method: "Credit",
                            reference: "credit applied", source: invoice.source))
                    datedOnIssue[invoice.source.file, default: 0] += 1
                }
            }
            let paidInvoices = Set(links.ninjaInvoices.map(\.identifier))
            for index in batch.invoices.indices where paidInvoices.contains(batch.invoices[index].identifier) {
                // The payments listed (or none) are the invoice's: no statement of its own.
                batch.invoices[index].receipts = ImportedReceipts(received: nil, receivedOn: nil)
            }
            batch.invoices.removeAll { rejected.contains($0.identifier) }
        } else {
            for invoice in links.ninjaInvoices where invoice.paidToDate != 0 { datedOnIssue[invoice.source.file, default: 0] += 1 }
        }
        for (file, count) in datedOnIssue.sorted(by: { $0.key < $1.key }) {
            batch.warnings.append(
                ImportProblem(
                    location: SourceLocation(file: file),
                    message: "\(count) invoice(s) or credit(s) paid from a credit, applied to invoices, or paid without the payments export: each "
                        + "such amount is recorded on the invoice's or credit's own date; Invoice Ninja's invoice and credit exports do not say when"))
        }
    }
}
