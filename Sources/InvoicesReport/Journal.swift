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

/// The escaping rules of the beancount syntax (`books.beancount`, docs/exports.md): account components and quoted
/// strings from the books go through them and so are data, never syntax.
public enum BeancountText {
    /// `text` as one account component. Kept as it is when it is ASCII, starts with an uppercase letter other than
    /// `X` or a digit, and holds only letters, digits and `-` (`C-1`, `EUR`). Anything else is written as `X`
    /// followed by its UTF-8 bytes, each ASCII letter or digit as it is and every other byte as `-XX` (uppercase hex):
    /// `VAT 20%` is `XVAT-2020-25`, `c-1` is `Xc-2D1`, `X1` is `XX1`. Each escaped component starts with `X` and no
    /// kept one does, so two values never share a component.
    public static func component(_ text: String) -> String {
        let bytes = Array(text.utf8)
        if let first = bytes.first, first != UInt8(ascii: "X"), isUpper(first) || isDigit(first),
            bytes.allSatisfy({ isUpper($0) || isLower($0) || isDigit($0) || $0 == UInt8(ascii: "-") })
        {
            return text
        }
        var result = "X"
        for byte in bytes {
            if isUpper(byte) || isLower(byte) || isDigit(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "-" + hex(byte)
            }
        }
        return result
    }

    /// `text` for the inside of a double-quoted string: `\` and `"` preceded by `\`; `%`, control characters and
    /// line or paragraph separators as `%XX`, their UTF-8 bytes in uppercase hex. The result is one line.
    public static func string(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 >= 32 && $0 < 127 && $0 != UInt8(ascii: "%") && $0 != UInt8(ascii: "\\")
            && $0 != UInt8(ascii: "\"") })
        {
            return text
        }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\", "\"":
                result += "\\"
                result.unicodeScalars.append(scalar)
            case "%":
                result += "%25"
            default:
                switch scalar.properties.generalCategory {
                case .control, .lineSeparator, .paragraphSeparator, .format:
                    for byte in String(scalar).utf8 { result += "%" + hex(byte) }
                default:
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".unicodeScalars)
        return String(String.UnicodeScalarView([digits[Int(byte >> 4)], digits[Int(byte & 15)]]))
    }

    private static func isUpper(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
    private static func isLower(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
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
///
/// The same transactions, from the same walk, are written in one of two syntaxes (``Syntax``): hledger/Ledger
/// (`books.journal`) or beancount (`books.beancount`); only the names, headers and declarations differ.
public struct BooksJournal: Sendable {
    /// The file's name beside `report.json`.
    public static let fileName = "books.journal"
    /// The beancount file's name beside `report.json`.
    public static let beancountFileName = "books.beancount"
    /// The folder beside them that holds each fiscal year's transactions (`books/2025.journal`,
    /// `books/2025.beancount`), which the two files include.
    public static let folder = "books"

    /// The syntax the transactions are written in.
    public enum Syntax: Sendable {
        /// hledger and Ledger: the `journal:` account names, ``JournalText`` escapes, the code in parentheses and
        /// what happened in a comment line.
        case ledger
        /// beancount 3: fixed account names under its root accounts, ``BeancountText`` escapes, `open` directives,
        /// the payee and narration in quotes, the code as `code:` metadata.
        case beancount
    }

    public let books: Books
    public let report: Report
    /// The transactions to write, worked out with the report's other figures (``SiteFigures/journal``).
    public let transactions: Transactions
    public let accounts: JournalAccounts
    public let syntax: Syntax
    /// The month (1–12) the fiscal year starts in: each fiscal year's transactions are a file of their own.
    public let fiscalYearStart: Int

    /// The journal of `transactions`, which were worked out from `books` and `report`
    /// (``Transactions/init(books:report:)``, once per build, in ``SiteFigures``): this type only writes them.
    public init(
        books: Books, report: Report, transactions: Transactions, accounts: JournalAccounts = JournalAccounts(), syntax: Syntax = .ledger,
        fiscalYearStart: Int = 1
    ) {
        self.books = books
        self.report = report
        self.transactions = transactions
        self.syntax = syntax
        self.fiscalYearStart = fiscalYearStart
        // beancount's accounts are fixed: its roots are Assets, Liabilities, Equity, Income and Expenses.
        if syntax == .beancount {
            var fixed = JournalAccounts()
            fixed.receivables = "Assets:Receivables"
            fixed.bank = "Assets:Bank"
            fixed.revenue = "Income:Sales"
            fixed.tax = "Liabilities:Tax"
            fixed.writeOffs = "Expenses:Write-Offs"
            fixed.opening = "Equity:Opening-Balances"
            self.accounts = fixed
        } else {
            self.accounts = accounts
        }
    }

    /// The file's name for ``syntax``.
    public var fileName: String { syntax == .ledger ? Self.fileName : Self.beancountFileName }

    /// One transaction to write: what happened to which invoice on which day.
    public struct Entry: Sendable, Equatable {
        public enum Kind: UInt8, Sendable { case invoice, creditNote, payment, writeOff }
        public var day: CalendarDate
        public var kind: Kind
        /// Index into ``InvoicesCore/Books/invoices``.
        public var invoice: Int32
        /// The payment's or write-off's row; for an invoice or credit note, its first tax line's row.
        public var item: Int32
    }

    /// The journal's transactions, a figure of the books: the opening balances at the period's start and every
    /// transaction dated in the period up to the as-of date, in order. ``BooksJournal`` (both syntaxes) and
    /// ``DATEVExport`` write the same ones; a build works them out once, in ``SiteFigures``.
    public struct Transactions: Sendable, Equatable {
        /// The period's first day and the as-of date; nil when the report has no months or no as-of date.
        public var start: CalendarDate?
        public var asOf: CalendarDate?
        /// Every balance event before ``start``, summed per client and currency (keyed by client index times the
        /// currency count plus the currency index).
        public var opening: [Int: ExactSum]
        /// The transactions from ``start`` to ``asOf``: by day, then invoice; within an invoice's day its issue
        /// first, then payments, then write-offs, in table order.
        public var entries: [Entry]

        /// Walks `books`' ledger over `report`'s period.
        public init(books: Books, report: Report) {
            guard let first = report.months.first, let asOf = report.asOf else {
                self.init(start: nil, asOf: nil, opening: [:], entries: [])
                return
            }
            let walk = BooksJournal.walk(books: books, start: first.firstDay, asOf: asOf)
            self.init(start: first.firstDay, asOf: asOf, opening: walk.opening, entries: walk.entries)
        }

        public init(start: CalendarDate?, asOf: CalendarDate?, opening: [Int: ExactSum], entries: [Entry]) {
            self.start = start
            self.asOf = asOf
            self.opening = opening
            self.entries = entries
        }

        /// One fiscal year's part of the entries, cut from runs of them.
        public struct FiscalYear {
            /// The calendar year the fiscal year starts in.
            public let year: Int
            /// The runs that meet the year's entries, each cut to them, in order.
            public let pieces: [Range<Int>]
            /// The index in the runs of each piece's run (a run that crosses a year's end gives a piece to each year).
            public let runs: [Int]
        }

        /// `runs` (consecutive ranges of ``entries`` covering them all, in order) cut at the fiscal years' ends, for
        /// every fiscal year from ``start``'s to `last`'s, with or without entries. The entries come by day, so each
        /// year's are consecutive.
        public func fiscalYears(of runs: [Range<Int>], startingIn fiscalYearStart: Int, through last: CalendarDate) -> [FiscalYear] {
            guard let start else { return [] }
            var years: [FiscalYear] = []
            var year = start.month.fiscal(startingIn: fiscalYearStart).year
            let lastYear = last.month.fiscal(startingIn: fiscalYearStart).year
            var first = 0
            var run = 0
            while year <= lastYear {
                var end = first
                while end < entries.count, entries[end].day.month.fiscal(startingIn: fiscalYearStart).year <= year { end += 1 }
                var pieces: [Range<Int>] = []
                var pieceRuns: [Int] = []
                while run < runs.count, runs[run].lowerBound < end {
                    let cut = runs[run].clamped(to: first..<end)
                    if !cut.isEmpty {
                        pieces.append(cut)
                        pieceRuns.append(run)
                    }
                    if runs[run].upperBound > end { break }
                    run += 1
                }
                years.append(FiscalYear(year: year, pieces: pieces, runs: pieceRuns))
                first = end
                year += 1
            }
            return years
        }
    }

    /// One file of the journal, the main one or a year's, as a head and pieces (``ExportFileLayout``).
    public typealias FileLayout = ExportFileLayout

    /// The journal's files with their bytes, whole, in ``layouts(runs:)``'s order (for tests and callers that do
    /// not write in pieces).
    public func files() -> [(path: String, data: [UInt8])] { layouts().map { ($0.path, $0.layout.data()) } }

    /// The transactions of ``Transactions/entries`` in runs of `size` (the last shorter): a layout for a caller
    /// that does not choose its own runs.
    public func entryRuns(of size: Int = 4096) -> [Range<Int>] {
        let count = transactions.entries.count
        return stride(from: 0, to: count, by: size).map { $0..<min($0 + size, count) }
    }

    /// The journal's files as heads and pieces (``ExportLayout``, no separator, no tail): first the main file
    /// (``fileName``), then one per fiscal year the period touches (with or without transactions), in
    /// ``folder``, which the main file includes in order (`include books/2025.journal`, beancount
    /// `include "books/2025.beancount"`; both tools read an included path from the including file's folder).
    ///
    /// The main file is a head alone, made every build: what depends on every client and the whole period, the
    /// comment lines, the declarations, the opening balances and the includes. A year's file is a comment line
    /// and pieces: `runs` (consecutive ranges of ``Transactions/entries`` covering them all, in order; by default
    /// ``entryRuns(of:)``) cut at the fiscal years' ends, each piece its transactions in that year, each starting
    /// with an empty line. A piece's bytes depend only on its transactions' invoices, clients, taxes, payments and
    /// write-offs, the currencies and ``accounts``; so a change to the books rewrites the years it falls in.
    public func layouts(runs: [Range<Int>]? = nil) -> [FileLayout] {
        var out = Output()
        if syntax == .ledger {
            out.line("; books.journal: the books as a double-entry journal for hledger and Ledger (docs/exports.md).")
            out.line("; Names and texts from the books are escaped: characters other than letters, digits, - _ . , / & +")
            out.line("; and single inner spaces are written as %XX, their UTF-8 bytes.")
        } else {
            out.line("; books.beancount: the books as a double-entry ledger for beancount 3 (docs/exports.md).")
            out.line("; Account components from the books that are not plain are written X and their bytes, -XX")
            out.line("; for each that is not a letter or digit; in strings, % and control characters are %XX.")
        }
        guard let start = transactions.start, let asOf = transactions.asOf else {
            return [FileLayout(path: fileName, layout: ExportLayout(head: out.bytes, count: 0) { _, _ in }, runs: [])]
        }
        let openingDay = min(start, asOf)
        out.line("; Period: \(start) to \(asOf) (the as-of date); accrual basis.")
        out.line("")
        let currencyCount = max(books.currencies.count, 1)
        let opening = transactions.opening, entries = transactions.entries

        // Declarations: commodities with their decimals, then every account the transactions may name (beancount:
        // opened on the first day any transaction has).
        let open = syntax == .ledger ? "account " : "\(openingDay) open "
        for currency in books.currencies {
            if syntax == .beancount {
                out.line("\(openingDay) commodity \(currency.code)")
                continue
            }
            out.line("commodity \(currency.code)")
            if currency.minorUnitDigits > 0 {
                out.line("    format 1000.\(String(repeating: "0", count: currency.minorUnitDigits)) \(currency.code)")
            }
        }
        // Each client's names, escaped once: a client has many transactions.
        var names = Names(
            receivables: Array(repeating: "", count: books.clients.count),
            payees: Array(repeating: "", count: books.clients.count),
            revenues: books.taxes.indices.map { "\(accounts.revenue):\(taxComponent($0))" },
            taxes: books.taxes.indices.map { "\(accounts.tax):\(taxComponent($0))" },
            untaxed: "\(accounts.revenue):\(untaxedComponent)",
            banks: books.currencies.map { "\(accounts.bank):\($0.code)" })
        for totals in report.clients {
            let client = books.clients[totals.clientIndex]
            names.receivables[totals.clientIndex] = "\(accounts.receivables):\(component(client.number))"
            names.payees[totals.clientIndex] = syntax == .ledger ? JournalText.escape(client.name) : quoted(client.name)
            out.line(open + names.receivables[totals.clientIndex])
        }
        for currency in books.currencies { out.line(open + "\(accounts.bank):\(currency.code)") }
        for tax in books.taxes.indices { out.line(open + "\(accounts.revenue):\(taxComponent(tax))") }
        out.line(open + "\(accounts.revenue):\(untaxedComponent)")
        for tax in books.taxes.indices { out.line(open + "\(accounts.tax):\(taxComponent(tax))") }
        out.line(open + accounts.writeOffs)
        out.line(open + accounts.opening)

        for key in opening.keys.sorted() {
            let sum = opening[key]!
            guard sum.parts.contains(where: { $0 != 0 }) else { continue }
            let client = Int32(key / currencyCount)
            let currency = books.currencies[key % currencyCount]
            out.line("")
            header(day: openingDay, code: "", payee: names.payees[Int(client)], what: "opening balance", to: &out)
            for part in sum.parts {
                out.posting(names.receivables[Int(client)], part, currency)
                out.posting(accounts.opening, part, currency, negated: true)
            }
        }
        let runs = runs ?? entryRuns()
        precondition(runs.first?.lowerBound ?? 0 == 0 && runs.last?.upperBound ?? 0 == entries.count, "runs cover the entries")
        // Captured as a constant: a captured variable is boxed and handed to each transaction's write as a copy.
        let made = names
        let fileExtension = syntax == .ledger ? "journal" : "beancount"
        var files: [FileLayout] = []
        var includes = Output()
        for part in transactions.fiscalYears(of: runs, startingIn: fiscalYearStart, through: max(start, asOf)) {
            let (year, pieces) = (part.year, part.pieces)
            let path = "\(Self.folder)/\(year).\(fileExtension)"
            let yearStart = YearMonth(year: year, month: fiscalYearStart).firstDay
            let yearEnd = YearMonth(year: year + 1, month: fiscalYearStart).firstDay.adding(days: -1)
            var head = Output()
            head.line(
                "; \(path): the transactions from \(max(start, yearStart)) to \(min(max(start, asOf), yearEnd)), fiscal year \(year); "
                    + "included by \(fileName).")
            var piece = Output()
            let layout = ExportLayout(head: head.bytes, count: pieces.count) { index, bytes in
                swap(&piece.bytes, &bytes)
                for entry in entries[pieces[index]] { write(entry, names: made, to: &piece) }
                swap(&piece.bytes, &bytes)
            }
            files.append(FileLayout(path: path, layout: layout, runs: part.runs))
            includes.line(syntax == .ledger ? "include \(path)" : "include \"\(path)\"")
        }
        out.line("")
        out.bytes.append(contentsOf: includes.bytes)
        return [FileLayout(path: fileName, layout: ExportLayout(head: out.bytes, count: 0) { _, _ in }, runs: [])] + files
    }

    /// Every balance event of the ledger: those before `start` summed into the opening balances (keyed by client
    /// index times the currency count plus the currency index), then the transactions up to `asOf`, sorted.
    static func walk(books: Books, start: CalendarDate, asOf: CalendarDate) -> (opening: [Int: ExactSum], entries: [Entry]) {
        let currencyCount = max(books.currencies.count, 1)
        var opening: [Int: ExactSum] = [:]
        // At most one transaction per invoice, payment and write-off: reserved at once, the list is not grown by
        // doubling to up to twice its size, which a build holds through the render (docs/performance.md).
        var entries: [Entry] = []
        entries.reserveCapacity(books.invoices.count + books.payments.count + books.writeOffs.count)
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
        return (opening, entries)
    }

    /// A transaction's first lines. hledger/Ledger: the day, the code in parentheses and the payee, then what
    /// happened as a comment line. beancount: the day, `*`, the payee and what happened as quoted strings, then the
    /// code as `code:` metadata. `payee` is written already; `code` and the details (a payment's method and reference,
    /// a write-off's reason; empty ones left out) are the books' texts.
    private func header(
        day: CalendarDate, code: String, payee: String, what: String, details first: String = "", _ second: String = "",
        to out: inout Output
    ) {
        // Appended piece by piece into the bytes: no joined or interpolated line per transaction. The texts are
        // escaped one by one as before (a beancount string's escape maps each scalar alone, so escaping the words
        // one by one gives the bytes of escaping them joined).
        out.append(day.description)
        switch syntax {
        case .ledger:
            if !code.isEmpty {
                out.append(" (")
                out.append(JournalText.escape(code))
                out.append(")")
            }
            if !payee.isEmpty {
                out.append(" ")
                out.append(payee)
            }
            out.append("\n    ; ")
            out.append(what)
            if !first.isEmpty {
                out.append(" ")
                out.append(JournalText.escape(first))
            }
            if !second.isEmpty {
                out.append(" ")
                out.append(JournalText.escape(second))
            }
            out.append("\n")
        case .beancount:
            out.append(" * \"")
            out.append(payee)
            out.append("\" \"")
            out.append(quoted(what))
            if !first.isEmpty {
                out.append(" ")
                out.append(quoted(first))
            }
            if !second.isEmpty {
                out.append(" ")
                out.append(quoted(second))
            }
            out.append("\"\n")
            if !code.isEmpty {
                out.append("    code: \"")
                out.append(quoted(code))
                out.append("\"\n")
            }
        }
    }

    /// One account component from the books (a client number, a tax name) in ``syntax``.
    private func component(_ text: String) -> String {
        syntax == .ledger ? JournalText.escape(text) : BeancountText.component(text)
    }

    /// A text from the books for the inside of a beancount string.
    private func quoted(_ text: String) -> String { BeancountText.string(text) }

    /// The revenue account's component for the net no tax line covers.
    private var untaxedComponent: String { syntax == .ledger ? "untaxed" : "Untaxed" }

    /// The escaped receivable account and payee of each client (``Report/clients`` order: those with invoices), and
    /// the accounts every transaction names, made once per layout: each tax's revenue and tax payable account, the
    /// untaxed revenue account and each currency's bank (per posting they cost an escape and an interpolation).
    private struct Names {
        var receivables: [String]
        var payees: [String]
        var revenues: [String] = []
        var taxes: [String] = []
        var untaxed = ""
        var banks: [String] = []
    }

    private func write(_ entry: Entry, names: Names, to out: inout Output) {
        // The invoice's fields read in place: a copy of the row retains and releases each of its texts.
        let index = Int(entry.invoice)
        let currencyIndex = Int(books.invoices[index].currencyIndex)
        let clientIndex = Int(books.invoices[index].clientIndex)
        let code = books.invoices[index].identifier
        let currency = books.currencies[currencyIndex]
        let payee = names.payees[clientIndex]
        out.line("")
        let receivable = names.receivables[clientIndex]
        switch entry.kind {
        case .invoice, .creditNote:
            // An invoice credits revenue and tax payable per tax line; a credit note debits them. Revenue no tax line
            // covers (the net less the lines' nets) goes to `untaxed`.
            let reversed = entry.kind == .creditNote
            header(
                day: entry.day, code: code, payee: payee, what: reversed ? "credit note" : "invoice",
                to: &out)
            out.posting(receivable, books.invoices[index].amount, currency, negated: reversed)
            var untaxed = ExactSum()
            untaxed.add(books.invoices[index].net)
            var line = Int(entry.item)
            while line < books.taxLines.count, books.taxLines[line].invoiceIndex == entry.invoice {
                let tax = books.taxLines[line]
                out.posting(names.revenues[Int(tax.taxIndex)], tax.net, currency, negated: !reversed)
                out.posting(names.taxes[Int(tax.taxIndex)], tax.amount, currency, negated: !reversed)
                untaxed.add(0 &- tax.net)
                line += 1
            }
            for part in untaxed.parts where part != 0 {
                out.posting(names.untaxed, part, currency, negated: !reversed)
            }
        case .payment:
            let row = books.payments[Int(entry.item)]
            var method = "", reference = ""
            if row.details >= 0 {
                method = books.paymentDetails[Int(row.details)].method
                reference = books.paymentDetails[Int(row.details)].reference
            }
            header(
                day: entry.day, code: code, payee: payee, what: row.amount < 0 ? "refund" : "payment",
                details: method, reference, to: &out)
            out.posting(names.banks[currencyIndex], row.amount, currency)
            out.posting(receivable, row.amount, currency, negated: true)
        case .writeOff:
            let row = books.writeOffs[Int(entry.item)]
            header(
                day: entry.day, code: code, payee: payee, what: "write-off", details: row.reason, to: &out)
            out.posting(accounts.writeOffs, row.amount, currency)
            out.posting(receivable, row.amount, currency, negated: true)
        }
    }

    /// A tax's account component: its escaped name, a space and its rate with `%` (`VAT 20%`), or the rate alone.
    private func taxComponent(_ index: Int) -> String {
        let tax = books.taxes[index]
        if syntax == .beancount {
            return BeancountText.component(tax.name.isEmpty ? "\(tax.percent)%" : "\(tax.name) \(tax.percent)%")
        }
        return tax.name.isEmpty ? "\(tax.percent)%" : "\(JournalText.escape(tax.name)) \(tax.percent)%"
    }

    /// A sum of amounts kept exact without overflow: a part that would overflow starts a new one (the journal writes
    /// one posting per part, and the tools add them in arbitrary precision).
    public struct ExactSum: Sendable, Equatable {
        public var parts: [Int64] = [0]

        public init() {}

        mutating func add(_ value: Int64) {
            let (sum, overflow) = parts[parts.count - 1].addingReportingOverflow(value)
            if overflow { parts.append(value) } else { parts[parts.count - 1] = sum }
        }
    }

    /// The bytes of the head or of a piece.
    private struct Output {
        var bytes: [UInt8] = []

        mutating func line(_ text: String) {
            bytes.append(contentsOf: text.utf8)
            bytes.append(10)
        }

        /// `text`'s bytes, no line end.
        mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

        /// A posting line: the account, two spaces, the amount (negated when asked) with the currency's decimals and
        /// code. The sign is written apart from the digits: negated, a positive amount gets a `-`, a negative one loses
        /// its own, zero has none.
        mutating func posting(_ account: String, _ minorUnits: Int64, _ currency: CurrencyCode, negated: Bool = false) {
            bytes.append(contentsOf: "    ".utf8)
            bytes.append(contentsOf: account.utf8)
            bytes.append(contentsOf: "  ".utf8)
            let amount = Money.decimalString(minorUnits, digits: currency.minorUnitDigits)
            if !negated || minorUnits == 0 {
                bytes.append(contentsOf: amount.utf8)
            } else if minorUnits > 0 {
                bytes.append(UInt8(ascii: "-"))
                bytes.append(contentsOf: amount.utf8)
            } else {
                bytes.append(contentsOf: amount.utf8.dropFirst())
            }
            bytes.append(UInt8(ascii: " "))
            bytes.append(contentsOf: currency.code.utf8)
            bytes.append(10)
        }
    }
}
