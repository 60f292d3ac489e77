public import InvoicesCore
import Foundation

/// The `datev:` settings (docs/cli.md): who the Buchungsstapel is for and the accounts it books to.
public struct DATEVSettings: Sendable, Hashable {
    /// Beraternummer, 1001 to 9999999.
    public var adviser: Int
    /// Mandantennummer, 1 to 99999.
    public var client: Int
    /// The chart of accounts: `SKR03` or `SKR04`.
    public var chart: String
    /// Revenue account per tax rate, keyed by the rate as ``InvoicesCore/TaxRate/percent`` writes it (`19`, `7`,
    /// `0`); the `0` account also takes revenue no tax line covers.
    public var revenue: [String: Int]
    /// Debtor account per client number, 10000 to 69999.
    public var debtors: [String: Int] = [:]
    /// The bank account of payments and refunds (1200 in SKR03, 1800 in SKR04 unless set).
    public var bank: Int?
    /// The expense account of write-offs (2400 in SKR03, 6930 in SKR04 unless set).
    public var writeOffs: Int?

    /// The keys of the `datev:` mapping; `revenue` and `debtors` are mappings themselves.
    public static let keys = ["adviser", "client", "chart", "revenue", "debtors", "bank", "write_offs"]

    public init(adviser: Int, client: Int, chart: String, revenue: [String: Int]) {
        self.adviser = adviser
        self.client = client
        self.chart = chart
        self.revenue = revenue
    }

    /// The bank account used.
    public var bankAccount: Int { bank ?? (chart == "SKR04" ? 1800 : 1200) }
    /// The write-off account used.
    public var writeOffAccount: Int { writeOffs ?? (chart == "SKR04" ? 6930 : 2400) }
}

/// A problem that keeps the Buchungsstapel from being written (exit 65): it names the client, invoice or rate.
public struct DATEVError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// `datev/EXTF_Buchungsstapel_<year>.csv`: the journal's transactions (``BooksJournal``, the same walk) as DATEV
/// Buchungsstapel files, one per fiscal year the period touches (docs/exports.md). EXTF header version 700, format
/// category 21, format version 13; Windows-1252, `;` separators, decimal commas, CRLF line ends.
public struct DATEVExport: Sendable {
    public static let folder = "datev"
    public let books: Books
    public let report: Report
    /// The journal's transactions (``BooksJournal/Transactions``), worked out once with the other figures.
    public let transactions: BooksJournal.Transactions
    public let settings: DATEVSettings
    public let fiscalYearStart: Int
    /// The exchange rates (`--rates`) that give a row in another currency than EUR its Kurs and Basisumsatz.
    public let rates: ExchangeRates?

    /// The files of `transactions`, which were worked out from `books` and `report` (``SiteFigures`` makes both,
    /// once per build, before any page renders).
    public init(
        books: Books, report: Report, transactions: BooksJournal.Transactions, settings: DATEVSettings, fiscalYearStart: Int,
        rates: ExchangeRates? = nil
    ) {
        self.books = books
        self.report = report
        self.transactions = transactions
        self.settings = settings
        self.fiscalYearStart = fiscalYearStart
        self.rates = rates
    }

    /// The 14 columns written, named as in the format description (of its 125; the rest are left out).
    public static let columns = [
        "Umsatz (ohne Soll/Haben-Kz)", "Soll/Haben-Kennzeichen", "WKZ Umsatz", "Kurs", "Basisumsatz",
        "WKZ Basisumsatz", "Konto", "Gegenkonto (ohne BU-Schlüssel)", "BU-Schlüssel", "Belegdatum", "Belegfeld 1",
        "Belegfeld 2", "Skonto", "Buchungstext",
    ]

    /// The debtor account of each client with invoices (index into ``InvoicesCore/Books/clients``): `datev.debtors`,
    /// else 10000 plus the number the client number's digits form when that is 1 to 59999.
    /// - Throws: ``DATEVError`` naming a client without an account, or the clients sharing one.
    public func debtorAccounts() throws(DATEVError) -> [Int: Int] {
        var accounts: [Int: Int] = [:]
        var owners: [Int: [Int]] = [:]
        for totals in report.clients {
            let client = books.clients[totals.clientIndex]
            var account = settings.debtors[client.number]
            if account == nil {
                let digits = client.number.unicodeScalars.filter { $0.isASCII && $0.properties.numericType != nil }
                if !digits.isEmpty, digits.count <= 5, let number = Int(String(String.UnicodeScalarView(digits))),
                    (1...59999).contains(number)
                {
                    account = 10000 + number
                }
            }
            guard let account else {
                throw DATEVError(
                    message: "client \(client.number) (\(client.name)) has no DATEV debtor account: its number's digits do not form 1 to 59999; set one under datev: debtors: in invoices.yaml")
            }
            accounts[totals.clientIndex] = account
            owners[account, default: []].append(totals.clientIndex)
        }
        for (account, clients) in owners.sorted(by: { $0.key < $1.key }) where clients.count > 1 {
            let names = clients.map { "\(books.clients[$0].number) (\(books.clients[$0].name))" }
            throw DATEVError(
                message: "clients \(names.joined(separator: " and ")) share the DATEV debtor account \(account); give each its own under datev: debtors: in invoices.yaml")
        }
        return accounts
    }

    /// The files, by path under the site (`datev/EXTF_Buchungsstapel_2025.csv`), each Windows-1252: ``check()``,
    /// then every piece of ``layouts(runs:)`` made.
    /// - Throws: ``DATEVError``: a client without a debtor account or sharing one, a tax rate without a revenue
    ///   account, an invoice identifier over 36 characters, a text Windows-1252 cannot hold (naming the client).
    public func files() throws(DATEVError) -> [DATEVFile] {
        try check()
        return try layouts().map { DATEVFile(path: $0.path, data: $0.layout.data()) }
    }

    /// Checks every row the files would hold without writing them: throws the refusal ``files()`` would, the
    /// first in the transactions' order, or nothing when the files can be written.
    public func check() throws(DATEVError) {
        guard let start = transactions.start, let asOf = transactions.asOf, start <= asOf else { return }
        let rows = DATEVRows(self, debtors: try debtorAccounts())
        for entry in transactions.entries { _ = try rows.lines(entry, make: false) }
    }

    /// One Buchungsstapel file as a head and pieces (``ExportFileLayout``).
    public typealias FileLayout = ExportFileLayout

    /// The files as heads and pieces, one per fiscal year the period touches (with or without rows). A head is the
    /// EXTF header line and the column names: what depends on the whole (the as-of date as Erzeugt am, the
    /// fiscal year's first day, the period's days within it, the settings), made on every build. The pieces are
    /// `runs` (consecutive ranges of ``BooksJournal/Transactions/entries`` covering them all, in order; by default
    /// ``BooksJournal/entryRuns(of:)``'s) cut at the fiscal years' ends: each piece is the rows of its run's
    /// transactions in the file's year, so its bytes depend only on those transactions (their invoices, clients,
    /// taxes, payments and write-offs, the clients' debtor accounts), the currencies, the rates and the settings.
    /// Making a piece assumes ``check()`` passed (a row it refuses is left out).
    /// - Throws: ``DATEVError`` for a client without a debtor account or sharing one.
    public func layouts(runs: [Range<Int>]? = nil) throws(DATEVError) -> [FileLayout] {
        guard let start = transactions.start, let asOf = transactions.asOf, start <= asOf else { return [] }
        let entries = transactions.entries
        let runs = runs ?? stride(from: 0, to: entries.count, by: 4096).map { $0..<min($0 + 4096, entries.count) }
        let rows = DATEVRows(self, debtors: try debtorAccounts())
        var files: [FileLayout] = []
        for part in transactions.fiscalYears(of: runs, startingIn: fiscalYearStart, through: asOf) {
            let (year, pieces) = (part.year, part.pieces)
            let head = header(year: year, start: start, asOf: asOf) + Self.columns.joined(separator: ";") + "\r\n"
            let layout = ExportLayout(head: Self.windows1252(head), count: pieces.count) { index, bytes in
                var text = ""
                for entry in entries[pieces[index]] {
                    // check() refused the files before any is written when a row cannot be made.
                    for line in (try? rows.lines(entry, make: true)) ?? [] {
                        text += line
                        text += "\r\n"
                    }
                }
                bytes.append(contentsOf: Self.windows1252(text))
            }
            files.append(FileLayout(path: "\(Self.folder)/EXTF_Buchungsstapel_\(year).csv", layout: layout, runs: part.runs))
        }
        return files
    }

    /// The EXTF header line of fiscal year `year`'s file, with its line end.
    private func header(year: Int, start: CalendarDate, asOf: CalendarDate) -> String {
        let yearStart = YearMonth(year: year, month: fiscalYearStart).firstDay
        let yearEnd = YearMonth(year: year + 1, month: fiscalYearStart).firstDay.adding(days: -1)
        let from = max(start, yearStart)
        let to = min(asOf, yearEnd)
        let header = [
            "\"EXTF\"", "700", "21", "\"Buchungsstapel\"", "13",
            // Erzeugt am: the as-of date, so a rebuild of the same books writes the same bytes.
            Self.compact(asOf) + "000000000", "", "\"RE\"", "\"invoices\"", "", String(settings.adviser),
            String(settings.client), Self.compact(yearStart), "4", Self.compact(from), Self.compact(to),
            "\"Rechnungen \(year)\"", "", "1", "0", "0", "\"EUR\"", "", "", "", "",
            "\"\(settings.chart == "SKR04" ? "04" : "03")\"", "", "", "", "",
        ]
        return header.joined(separator: ";") + "\r\n"
    }

    /// A text's Windows-1252 bytes; every text written was checked to be Windows-1252 (``text(_:limit:client:)``).
    static func windows1252(_ text: String) -> [UInt8] {
        Array(text.data(using: .windowsCP1252, allowLossyConversion: true) ?? Data())
    }

    /// `YYYYMMDD`.
    static func compact(_ day: CalendarDate) -> String { day.description.replacingOccurrences(of: "-", with: "") }

    /// Umsatz and Basisumsatz are `^\d{1,10},\d{2}$` in the format description: exactly two decimals and at most ten
    /// digits before them. An amount of a currency with fewer decimals gets trailing zeros (JPY 1234 is `1234,00`);
    /// one with more (KWD, three) is written only when its extra digits are zeros, and refused otherwise: DATEV
    /// cannot hold it exactly, and nothing is rounded here.
    static func umsatz(_ magnitude: Int64, currency: CurrencyCode, invoice: String) throws(DATEVError) -> String {
        Money.decimalString(try umsatzCents(magnitude, currency: currency, invoice: invoice), digits: 2).replacingOccurrences(of: ".", with: ",")
    }

    /// ``umsatz(_:currency:invoice:)``'s amount in hundredths, checked as it checks it.
    static func umsatzCents(_ magnitude: Int64, currency: CurrencyCode, invoice: String) throws(DATEVError) -> Int64 {
        let digits = currency.minorUnitDigits
        var cents = magnitude
        if digits > 2 {
            var divisor: Int64 = 1
            for _ in 0..<(digits - 2) { divisor *= 10 }
            guard magnitude % divisor == 0 else {
                throw DATEVError(
                    message: "invoice \(invoice): \(Money.decimalString(magnitude, digits: digits)) \(currency.code) has \(digits) decimals, and DATEV's Umsatz holds two; book it in a currency with at most two, or leave datev: out")
            }
            cents = magnitude / divisor
        } else {
            for _ in digits..<2 {
                let (product, overflow) = cents.multipliedReportingOverflow(by: 10)
                guard !overflow else { throw DATEVError(message: "invoice \(invoice): an amount is beyond DATEV's Umsatz of ten digits") }
                cents = product
            }
        }
        guard cents <= 999_999_999_999 else {
            throw DATEVError(
                message: "invoice \(invoice): \(Money.decimalString(magnitude, digits: digits)) \(currency.code) is beyond DATEV's Umsatz of ten digits before the comma")
        }
        return cents
    }

    /// Kurs and Basisumsatz of an amount in another currency than EUR, which the format requires together
    /// (fields 4 to 6): from the latest rate of `--rates` from the currency to EUR dated on or before the booking's
    /// day. Basisumsatz is the amount times that rate, rounded half to even to the cent (as the converted totals
    /// are); Kurs is the rate as DATEV quotes it, units of the currency per euro (1 / rate), to six decimals.
    func foreign(_ magnitude: Int64, currency: CurrencyCode, day: CalendarDate, invoice: String) throws(DATEVError) -> (kurs: String, basis: String) {
        // EUR is in ISO 4217's table, so this cannot fail.
        guard let euro = try? CurrencyCode("EUR") else { throw DATEVError(message: "EUR is not in the currency table") }
        guard let rate = rates?.latest(from: currency, to: euro, onOrBefore: day) else {
            throw DATEVError(
                message: "invoice \(invoice) is in \(currency.code): DATEV books another currency with its rate to EUR (Kurs, Basisumsatz), and --rates has no \(currency.code) to EUR rate dated on or before \(day); give one (docs/exports.md)")
        }
        guard let basis = ConvertedTotals.convert(magnitude, from: currency, rate: rate.rate, to: euro) else {
            throw DATEVError(message: "invoice \(invoice): its amount in EUR is beyond 64-bit minor units")
        }
        var one = Decimal(1), value = rate.rate, quotient = Decimal(), rounded = Decimal()
        guard NSDecimalDivide(&quotient, &one, &value, .plain) == .noError else {
            throw DATEVError(message: "invoice \(invoice): the \(currency.code) to EUR rate \(rate.rate) gives no Kurs")
        }
        NSDecimalRound(&rounded, &quotient, 6, .bankers)
        guard rounded > 0, rounded < 10000 else {
            throw DATEVError(
                message: "invoice \(invoice): the \(currency.code) to EUR rate of \(rate.date) gives a Kurs of \(rounded) \(currency.code) per euro, outside DATEV's Kurs (above 0, at most four digits before the comma)")
        }
        let kurs = Self.sixDecimals(rounded)
        return (kurs, try Self.umsatz(basis, currency: euro, invoice: invoice))
    }

    /// A positive decimal with exactly six decimals and a decimal comma (`1,085187`, `0,853400`).
    static func sixDecimals(_ value: Decimal) -> String {
        var scaled = Decimal(), value = value, million = Decimal(1_000_000)
        _ = NSDecimalMultiply(&scaled, &value, &million, .bankers)
        let units = Int64(NSDecimalNumber(decimal: scaled).stringValue) ?? 0
        return Money.decimalString(units, digits: 6).replacingOccurrences(of: ".", with: ",")
    }

    /// Belegfeld 1 is `^["][\w$%\-\/]{0,36}["]$` in the format description: letters, digits, `_`, `$`, `%`, `-`
    /// and `/`. DATEV matches open items by it, so an identifier outside that is refused, not rewritten (a rewritten
    /// one could meet another invoice's).
    static func checkBelegfeld(_ identifier: String, client: ClientSnapshot) throws(DATEVError) {
        let allowed = identifier.unicodeScalars.allSatisfy {
            $0.properties.isAlphabetic || $0.properties.numericType == .decimal || "_$%-/".unicodeScalars.contains($0)
        }
        guard allowed else {
            throw DATEVError(
                message: "invoice '\(identifier)' of client \(client.number): DATEV's Belegfeld 1 takes letters, digits and _ $ % - / only; rename the invoice in the store, or leave datev: out")
        }
    }

    /// An amount, or a refusal naming the invoice when it overflowed.
    func checked(_ result: (partialValue: Int64, overflow: Bool), _ invoice: String) throws(DATEVError) -> Int64 {
        guard !result.overflow else {
            throw DATEVError(message: "invoice \(invoice): an amount of its DATEV rows is beyond 64-bit minor units")
        }
        return result.partialValue
    }

    func revenueAccount(_ percent: String, invoice: String) throws(DATEVError) -> Int {
        guard let account = settings.revenue[percent] else {
            throw DATEVError(
                message: "invoice \(invoice) has revenue at \(percent)% but datev: revenue: in invoices.yaml names no account for '\(percent)'")
        }
        return account
    }

    /// A quoted text field: control characters as spaces, `"` doubled, cut to `limit` characters; refused when
    /// Windows-1252 cannot hold it, naming the client.
    static func text(_ value: String, limit: Int, client: ClientSnapshot) throws(DATEVError) -> String {
        var cleaned = String(String.UnicodeScalarView(value.unicodeScalars.map {
            $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" ? " " : $0
        }))
        if cleaned.count > limit { cleaned = String(cleaned.prefix(limit)) }
        guard cleaned.data(using: .windowsCP1252, allowLossyConversion: false) != nil else {
            throw DATEVError(
                message: "client \(client.number) ('\(client.name)'): '\(value)' has characters Windows-1252 cannot hold, which DATEV's Buchungsstapel requires; write it in Latin letters in the store")
        }
        return "\"" + cleaned.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// One Buchungsstapel file: its path under the site (`datev/EXTF_Buchungsstapel_2025.csv`) and its Windows-1252 bytes.
public struct DATEVFile: Sendable, Equatable {
    public var path: String
    public var data: [UInt8]

    public init(path: String, data: [UInt8]) {
        self.path = path
        self.data = data
    }
}

/// The DATEV files of a build (``SiteFigures/datev``): the settings and rates they are made with, and why they
/// cannot be written, if they cannot. The build stops on the refusal before it writes anything; the export page kind
/// makes the files then, in pieces (``DATEVExport/layouts(runs:)``), taking a piece whose inputs did not change from
/// the previous build's file.
public struct DATEVFiles: Sendable, Equatable {
    public var settings: DATEVSettings
    public var rates: ExchangeRates?
    /// ``DATEVExport/check()``'s refusal, or nil when the files can be written.
    public var refusal: DATEVError?

    /// Checks the files of `transactions` (over `books` and `report`) for fiscal years starting in month
    /// `fiscalYearStart`, without making them.
    public init(
        books: Books, report: Report, transactions: BooksJournal.Transactions, settings: DATEVSettings, fiscalYearStart: Int,
        rates: ExchangeRates?
    ) {
        self.settings = settings
        self.rates = rates
        let export = DATEVExport(
            books: books, report: report, transactions: transactions, settings: settings, fiscalYearStart: fiscalYearStart, rates: rates)
        do {
            try export.check()
            refusal = nil
        } catch {
            refusal = error
        }
    }

    /// The export of `transactions` (over `books` and `report`) with these settings and rates.
    public func export(books: Books, report: Report, transactions: BooksJournal.Transactions, fiscalYearStart: Int) -> DATEVExport {
        DATEVExport(books: books, report: report, transactions: transactions, settings: settings, fiscalYearStart: fiscalYearStart, rates: rates)
    }
}
