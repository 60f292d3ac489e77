public import InvoicesCore

/// The account names of `books.journal` (config `journal:`, docs/exports.md): each a `:`-separated path whose
/// components are left as they are, so each must be plain text under ``JournalText`` (nothing to escape).
public struct JournalAccounts: Sendable, Hashable {
    /// Parent of one receivable account per client: `assets:receivables:<client number>`.
    public var receivables = "assets:receivables"
    /// Parent of one bank account per currency: `assets:bank:EUR`.
    public var bank = "assets:bank"
    /// Parent of one revenue account per tax name and rate (`income:sales:VAT 20%`), and of `untaxed`.
    public var revenue = "income:sales"
    /// Parent of one tax payable account per tax name and rate: `liabilities:tax:VAT 20%`.
    public var tax = "liabilities:tax"
    /// The expense write-offs go to.
    public var writeOffs = "expenses:write-offs"
    /// The counterpart of the opening balances.
    public var opening = "equity:opening balances"

    /// The keys of the `journal:` mapping, in the order the docs list them.
    public static let keys = ["receivables", "bank", "revenue", "tax", "write_offs", "opening"]

    public init() {}

    /// The account set by `key` (one of ``keys``).
    public subscript(key key: String) -> String? {
        get {
            switch key {
            case "receivables": receivables
            case "bank": bank
            case "revenue": revenue
            case "tax": tax
            case "write_offs": writeOffs
            case "opening": opening
            default: nil
            }
        }
        set {
            guard let newValue else { return }
            switch key {
            case "receivables": receivables = newValue
            case "bank": bank = newValue
            case "revenue": revenue = newValue
            case "tax": tax = newValue
            case "write_offs": writeOffs = newValue
            case "opening": opening = newValue
            default: break
            }
        }
    }

    /// What is wrong with `name` as a configured account, or nil: it must be components separated by `:`, none empty,
    /// each plain text (``JournalText/escape(_:)`` leaves it as it is).
    public static func problem(_ name: String) -> String? {
        let components = name.split(separator: ":", omittingEmptySubsequences: false)
        guard !name.isEmpty, components.allSatisfy({ !$0.isEmpty }) else {
            return "'\(name)' is not an account name; expected components separated by ':', e.g. assets:receivables"
        }
        for component in components where JournalText.escape(String(component)) != component {
            return
                "'\(name)' holds '\(component)', which is not plain: use letters, digits, single spaces inside a name and - _ . , / & +"
        }
        return nil
    }
}

/// The one escaping rule of the hledger/Ledger syntax: every name and text from the books (account name components,
/// payees, codes, comments) goes through ``escape(_:)`` and so is data, never syntax.
public enum JournalText {
    /// `text` with every character that could be syntax written as `%XX`, the percent-encoding of its UTF-8 bytes
    /// (uppercase hex). Kept as they are: letters, digits and combining marks (any script), `- _ . , / & +`, and a
    /// space between two characters that are not spaces. Everything else (newlines and other controls, `;`, `:`, `%`,
    /// quotes, brackets, `|`, `@`, `=`, `*`, `!`, tabs, leading, trailing and doubled spaces, other symbols) is
    /// escaped: the result is one line, adds no directive, no comment, no account component.
    public static func escape(_ text: String) -> String {
        // Most identifiers and numbers need nothing: no scalar array, no new string.
        if text.utf8.allSatisfy({ $0 < 128 && isPlain(Unicode.Scalar($0)) }) { return text }
        let scalars = Array(text.unicodeScalars)
        var result = ""
        result.reserveCapacity(scalars.count)
        for (index, scalar) in scalars.enumerated() {
            let plain: Bool
            if scalar == " " {
                plain = index > 0 && index + 1 < scalars.count && scalars[index - 1] != " " && scalars[index + 1] != " "
            } else {
                plain = isPlain(scalar)
            }
            if plain {
                result.unicodeScalars.append(scalar)
            } else {
                for byte in String(scalar).utf8 {
                    result += "%"
                    result.unicodeScalars.append(hexDigits[Int(byte >> 4)])
                    result.unicodeScalars.append(hexDigits[Int(byte & 15)])
                }
            }
        }
        return result
    }

    private static let hexDigits = Array("0123456789ABCDEF".unicodeScalars)

    private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".", ",", "/", "&", "+": return true
            default: return false
            }
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .nonspacingMark,
            .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }
}

/// `books.journal`: the period's books as a double-entry journal in the syntax hledger and Ledger both read
/// (docs/exports.md), on the accrual basis.
///
/// An opening balance per client and currency at the period's start (every balance event before it), then each
/// event of the ``InvoicesCore/Ledger`` dated in the period up to the as-of date: a sent invoice (receivable against
/// revenue and tax payable per tax name and rate), a credit note (the same, reversed), a payment or refund
/// (receivable against the bank of the currency), a write-off (receivable against the expense). A credit note applied
/// to its invoice moves nothing between accounts (both are the client's receivable) and has no transaction. So each
/// client's receivable at the as-of date is its balance in the report (outstanding less credit), revenue and tax per
/// tax are taxes.csv's accrual figures, and the bank is the payments less refunds.
public struct BooksJournal: Sendable {
    /// The file's name beside `report.json`.
    public static let fileName = "books.journal"

    public let books: Books
    public let report: Report
    public let accounts: JournalAccounts

    public init(books: Books, report: Report, accounts: JournalAccounts = JournalAccounts()) {
        self.books = books
        self.report = report
        self.accounts = accounts
    }

    /// One transaction to write: what happened to which invoice on which day.
    private struct Entry {
        enum Kind: UInt8 { case invoice, creditNote, payment, writeOff }
        var day: CalendarDate
        var kind: Kind
        var invoice: Int32
        /// The payment's or write-off's row; for an invoice or credit note, its first tax line's row.
        var item: Int32
    }

    /// The journal's bytes, whole.
    public func data() -> [UInt8] {
        var bytes: [UInt8] = []
        write { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// The journal as text.
    public func text() -> String { String(decoding: data(), as: UTF8.self) }

    /// Hands the journal to `emit` in pieces of about a megabyte, each whole lines.
    public func write(into emit: ReportExports.Emit) {
        var out = Output()
        out.line("; books.journal: the books as a double-entry journal for hledger and Ledger (docs/exports.md).")
        out.line("; Names and texts from the books are escaped: characters other than letters, digits, - _ . , / & +")
        out.line("; and single inner spaces are written as %XX, their UTF-8 bytes.")
        guard let first = report.months.first, let asOf = report.asOf else {
            out.flush(into: emit)
            return
        }
        let start = first.firstDay
        let openingDay = min(start, asOf)
        out.line("; Period: \(start) to \(asOf) (the as-of date); accrual basis.")
        out.line("")

        // Every balance event of the ledger: before the start into the opening balances, then up to the as-of date.
        let currencyCount = max(books.currencies.count, 1)
        var opening: [Int: ExactSum] = [:]
        var entries: [Entry] = []
        var ledger = Ledger(books: books)
        var events: [BalanceEvent] = []
        var payment = 0
        var writeOff = 0
        var taxLine = 0
        for index in books.invoices.indices {
            let target = Int32(index)
            while payment < books.payments.count, books.payments[payment].invoiceIndex < target { payment += 1 }
            while writeOff < books.writeOffs.count, books.writeOffs[writeOff].invoiceIndex < target { writeOff += 1 }
            while taxLine < books.taxLines.count, books.taxLines[taxLine].invoiceIndex < target { taxLine += 1 }
            ledger.events(of: index, into: &events)
            let invoice = books.invoices[index]
            // The events list each invoice's payments and write-offs in the tables' order (a stable sort by day of
            // rows sorted by date): the n-th payment event is the invoice's n-th payment row.
            var nextPayment = payment
            var nextWriteOff = writeOff
            for event in events {
                let entry: Entry?
                switch event.kind {
                case .issued:
                    entry = Entry(
                        day: event.day, kind: invoice.kind == .invoice ? .invoice : .creditNote, invoice: target,
                        item: Int32(taxLine))
                case .payment:
                    entry = Entry(day: event.day, kind: .payment, invoice: target, item: Int32(nextPayment))
                    nextPayment += 1
                case .writeOff:
                    entry = Entry(day: event.day, kind: .writeOff, invoice: target, item: Int32(nextWriteOff))
                    nextWriteOff += 1
                case .credit:
                    entry = nil
                }
                guard event.day <= asOf else { continue }
                if event.day < start {
                    opening[Int(invoice.clientIndex) * currencyCount + Int(invoice.currencyIndex), default: ExactSum()]
                        .add(event.delta)
                } else if let entry {
                    entries.append(entry)
                }
            }
        }
        // By day, then invoice; within an invoice's day its issue first, then payments, then write-offs, in table
        // order.
        entries.sort {
            if $0.day != $1.day { return $0.day < $1.day }
            if $0.invoice != $1.invoice { return $0.invoice < $1.invoice }
            return $0.kind != $1.kind ? $0.kind.rawValue < $1.kind.rawValue : $0.item < $1.item
        }

        // Declarations: commodities with their decimals, then every account the transactions may name.
        for currency in books.currencies {
            out.line("commodity \(currency.code)")
            if currency.minorUnitDigits > 0 {
                out.line("    format 1000.\(String(repeating: "0", count: currency.minorUnitDigits)) \(currency.code)")
            }
        }
        // Each client's names, escaped once: a client has many transactions.
        var names = Names(
            receivables: Array(repeating: "", count: books.clients.count),
            payees: Array(repeating: "", count: books.clients.count))
        for totals in report.clients {
            let client = books.clients[totals.clientIndex]
            names.receivables[totals.clientIndex] = "\(accounts.receivables):\(JournalText.escape(client.number))"
            names.payees[totals.clientIndex] = JournalText.escape(client.name)
            out.line("account \(names.receivables[totals.clientIndex])")
        }
        for currency in books.currencies { out.line("account \(accounts.bank):\(currency.code)") }
        for tax in books.taxes.indices { out.line("account \(accounts.revenue):\(taxComponent(tax))") }
        out.line("account \(accounts.revenue):untaxed")
        for tax in books.taxes.indices { out.line("account \(accounts.tax):\(taxComponent(tax))") }
        out.line("account \(accounts.writeOffs)")
        out.line("account \(accounts.opening)")

        for key in opening.keys.sorted() {
            let sum = opening[key]!
            guard sum.parts.contains(where: { $0 != 0 }) else { continue }
            let client = Int32(key / currencyCount)
            let currency = books.currencies[key % currencyCount]
            out.line("")
            out.line("\(openingDay)" + (names.payees[Int(client)].isEmpty ? "" : " " + names.payees[Int(client)]))
            out.line("    ; opening balance")
            for part in sum.parts {
                out.posting(names.receivables[Int(client)], part, currency)
                out.posting(accounts.opening, part, currency, negated: true)
            }
        }
        for entry in entries {
            write(entry, names: names, to: &out)
            out.flush(into: emit, over: ReportExports.pieceSize)
        }
        out.flush(into: emit)
    }

    /// The escaped receivable account and payee of each client (``Report/clients`` order: those with invoices).
    private struct Names {
        var receivables: [String]
        var payees: [String]
    }

    private func write(_ entry: Entry, names: Names, to out: inout Output) {
        let invoice = books.invoices[Int(entry.invoice)]
        let currency = books.currencies[Int(invoice.currencyIndex)]
        let code = invoice.identifier.isEmpty ? "" : " (\(JournalText.escape(invoice.identifier)))"
        let payee = names.payees[Int(invoice.clientIndex)]
        out.line("")
        out.line("\(entry.day)\(code)" + (payee.isEmpty ? "" : " " + payee))
        let receivable = names.receivables[Int(invoice.clientIndex)]
        switch entry.kind {
        case .invoice, .creditNote:
            // An invoice credits revenue and tax payable per tax line; a credit note debits them. Revenue no tax line
            // covers (the net less the lines' nets) goes to `untaxed`.
            let reversed = entry.kind == .creditNote
            out.line("    ; \(reversed ? "credit note" : "invoice")")
            out.posting(receivable, invoice.amount, currency, negated: reversed)
            var untaxed = ExactSum()
            untaxed.add(invoice.net)
            var line = Int(entry.item)
            while line < books.taxLines.count, books.taxLines[line].invoiceIndex == entry.invoice {
                let tax = books.taxLines[line]
                let component = taxComponent(Int(tax.taxIndex))
                out.posting("\(accounts.revenue):\(component)", tax.net, currency, negated: !reversed)
                out.posting("\(accounts.tax):\(component)", tax.amount, currency, negated: !reversed)
                untaxed.add(0 &- tax.net)
                line += 1
            }
            for part in untaxed.parts where part != 0 {
                out.posting("\(accounts.revenue):untaxed", part, currency, negated: !reversed)
            }
        case .payment:
            let row = books.payments[Int(entry.item)]
            var comment = row.amount < 0 ? "refund" : "payment"
            if row.details >= 0 {
                let details = books.paymentDetails[Int(row.details)]
                for text in [details.method, details.reference] where !text.isEmpty {
                    comment += " " + JournalText.escape(text)
                }
            }
            out.line("    ; \(comment)")
            out.posting("\(accounts.bank):\(currency.code)", row.amount, currency)
            out.posting(receivable, row.amount, currency, negated: true)
        case .writeOff:
            let row = books.writeOffs[Int(entry.item)]
            out.line("    ; write-off" + (row.reason.isEmpty ? "" : " " + JournalText.escape(row.reason)))
            out.posting(accounts.writeOffs, row.amount, currency)
            out.posting(receivable, row.amount, currency, negated: true)
        }
    }

    /// A tax's account component: its escaped name, a space and its rate with `%` (`VAT 20%`), or the rate alone.
    private func taxComponent(_ index: Int) -> String {
        let tax = books.taxes[index]
        return tax.name.isEmpty ? "\(tax.percent)%" : "\(JournalText.escape(tax.name)) \(tax.percent)%"
    }

    /// A sum of amounts kept exact without overflow: a part that would overflow starts a new one (the journal writes
    /// one posting per part, and the tools add them in arbitrary precision).
    private struct ExactSum {
        var parts: [Int64] = [0]

        mutating func add(_ value: Int64) {
            let (sum, overflow) = parts[parts.count - 1].addingReportingOverflow(value)
            if overflow { parts.append(value) } else { parts[parts.count - 1] = sum }
        }
    }

    /// The bytes written so far, handed out in pieces.
    private struct Output {
        var bytes: [UInt8] = []

        mutating func line(_ text: String) {
            bytes.append(contentsOf: text.utf8)
            bytes.append(10)
        }

        /// A posting line: the account, two spaces, the amount (negated when asked) with the currency's decimals and
        /// code.
        mutating func posting(_ account: String, _ minorUnits: Int64, _ currency: CurrencyCode, negated: Bool = false) {
            var amount = Money.decimalString(minorUnits, digits: currency.minorUnitDigits)
            if negated, minorUnits != 0 { amount = minorUnits < 0 ? String(amount.dropFirst()) : "-" + amount }
            line("    \(account)  \(amount) \(currency.code)")
        }

        mutating func flush(into emit: ReportExports.Emit, over size: Int = 0) {
            guard bytes.count > size, !bytes.isEmpty else { return }
            bytes.withUnsafeBytes(emit)
            bytes.removeAll(keepingCapacity: true)
        }
    }
}
