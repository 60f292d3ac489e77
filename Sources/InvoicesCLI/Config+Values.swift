import Foundation
import InvoicesCore
import InvoicesStore
import InvoicesReport
import InvoicesSite

/// The values `month`, `quarter`, `year`, `as_of` and `base_url` accept, in the project file and as flags.
enum ConfigCheck {
    /// What is wrong with `value` for `key`, or nil when it is fine.
    static func problem(key: String, value: String) -> String? {
        switch key {
        case "month":
            return MonthPolicy(value) == nil
                ? "month '\(value)' is not a month; expected YYYY-MM (e.g. 2025-06), 'previous', 'current' or 'all'" : nil
        case "quarter":
            return QuarterPolicy(value) == nil
                ? "quarter '\(value)' is not a quarter; expected YYYY-QN (e.g. 2025-Q1, the first quarter of the fiscal year starting in 2025), 'previous' or 'current'" : nil
        case "year":
            return YearPolicy(value) == nil
                ? "year '\(value)' is not a year; expected YYYY (e.g. 2025, the fiscal year starting in 2025), 'previous' or 'current'" : nil
        case "closed_through":
            return CalendarDate(iso: value) == nil ? "closed_through '\(value)' is not a date; expected YYYY-MM-DD, e.g. 2025-09-30" : nil
        case "as_of":
            return AsOfPolicy(value) == nil
                ? "as_of '\(value)' is not a date; expected YYYY-MM-DD (e.g. 2025-06-30), 'end-of-period' or 'today'" : nil
        case "basis":
            return TaxBasis(rawValue: value) == nil ? "basis '\(value)' is not a tax basis; expected accrual or cash" : nil
        case "fiscal_year_start":
            return SiteOptions.fiscalYearStart(value) == nil
                ? "fiscal_year_start '\(value)' is not a month; expected 01 to 12 (e.g. 04 for a year from April)" : nil
        case "page_size":
            return SiteOptions.pageSize(value) == nil ? "page_size '\(value)' must be a whole number of rows from 10 to 100000, e.g. 1000" : nil
        case "aging_buckets":
            if case .failure(let problem) = AgingBuckets.parse(value) { return "aging_buckets \(problem)" }
            return nil
        case "csv_dialect":
            return CSVDialect.Name(rawValue: value) == nil ? "csv_dialect '\(value)' is not a CSV dialect; expected rfc4180 or excel" : nil
        case "base_url":
            return SiteOptions.baseURLProblem(value).map { "base_url \($0)" }
        case "locale":
            if value.isEmpty { return "locale cannot be empty" }
            return LocaleName.problem(with: value).map { "locale \($0)" }
        case "language":
            return LanguageTag.pageLanguageProblem(with: value).map { "language \($0)" }
        case "core_data_names":
            var mapping = CoreDataMapping()
            return mapping.addNames(CoreDataMapping.pairs(in: value)).map { "core_data_names: \($0)" }
        case "default_currency":
            return (try? CurrencyCode(value)) == nil ? "default_currency '\(value)' is not an ISO 4217 currency code, e.g. EUR" : nil
        case "store", "output", "title":
            return value.isEmpty ? "\(key) cannot be empty" : nil
        case "public":
            return ["true", "false"].contains(value) ? nil : "public '\(value)' must be true or false"
        case "build_id", "client_links":
            return value.isEmpty ? "\(key) cannot be empty" : nil
        case "publish":
            return "publish must be a mapping of settings, e.g. 'publish:' then an indented 'destination: ssh://deploy@www.example.com/srv/reports'"
        case "publish.keep", "publish.bcrypt_cost", "publish.bwlimit":
            return Int(value).map { $0 > 0 } == true ? nil : "\(key) '\(value)' must be a positive whole number"
        case "payee":
            return "payee must be a mapping of settings, e.g. 'payee:' then an indented 'name: Example Ltd' and 'iban: DE89 3704 0044 0532 0130 00'"
        case "payee.name":
            return Payee.nameProblem(value).map { "payee.name \($0)" }
        case "payee.iban":
            // The message never repeats the account number.
            return Payee.ibanProblem(value).map { "payee.iban \($0)" }
        case "payee.bic":
            return Payee.bicProblem(value).map { "payee.bic \($0)" }
        case "payee.payment_url":
            return Payee.paymentURLProblem(value).map { "payee.payment_url \($0)" }
        case "journal":
            return "journal must be a mapping of account names, e.g. 'journal:' then an indented 'revenue: income:services'"
        case _ where key.hasPrefix("journal."):
            return JournalAccounts.problem(value).map { "\(key) \($0)" }
        case "datev":
            return "datev must be a mapping, e.g. 'datev:' then indented 'adviser: 1001', 'client: 1', 'chart: SKR03' and 'revenue:'"
        case "datev.adviser":
            return Int(value).map { (1001...9_999_999).contains($0) } == true ? nil : "datev.adviser '\(value)' must be a Beraternummer from 1001 to 9999999"
        case "datev.client":
            return Int(value).map { (1...99999).contains($0) } == true ? nil : "datev.client '\(value)' must be a Mandantennummer from 1 to 99999"
        case "datev.chart":
            return ["SKR03", "SKR04"].contains(value) ? nil : "datev.chart '\(value)' must be SKR03 or SKR04"
        case "datev.bank", "datev.write_offs":
            return Int(value).map { (1000...9999).contains($0) } == true ? nil : "\(key) '\(value)' must be a four-digit account"
        case "publish.server":
            return ["nginx", "apache"].contains(value) ? nil : "publish.server '\(value)' must be nginx or apache"
        default:
            return nil
        }
    }
}

/// Which month to report: one month, one relative to today, or every month in the store.
enum MonthPolicy: Sendable, Equatable {
    case all, previous, current
    case month(YearMonth)

    init?(_ text: String) {
        switch text {
        case "all": self = .all
        case "previous": self = .previous
        case "current": self = .current
        default:
            guard let month = YearMonth(iso: text) else { return nil }
            self = .month(month)
        }
    }

    /// The month to report, `today` being the local calendar date.
    func month(today: CalendarDate) -> YearMonth? {
        switch self {
        case .all: nil
        case .previous: today.month.previous
        case .current: today.month
        case .month(let month): month
        }
    }
}

/// Which fiscal quarter to report (`--quarter`, key `quarter`): one named `YYYY-QN`, or the one before or containing
/// today. `YYYY` is the calendar year the fiscal year starts in, as on the quarter pages (`quarters/YYYY-QN.html`).
enum QuarterPolicy: Sendable, Equatable {
    case previous, current
    case quarter(year: Int, quarter: Int)

    init?(_ text: String) {
        switch text {
        case "previous": self = .previous
        case "current": self = .current
        default:
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].count == 4, parts[0].allSatisfy(\.isASCIIDigit), let year = Int(parts[0]), year > 0,
                parts[1].count == 2, parts[1].first == "Q", let quarter = Int(parts[1].dropFirst()), (1...4).contains(quarter)
            else { return nil }
            self = .quarter(year: year, quarter: quarter)
        }
    }

    /// The quarter's three months, fiscal years starting in month `start` and `today` being the local date.
    func period(fiscalYearStart start: Int, today: CalendarDate, asOf: CalendarDate?) -> ReportPeriod {
        let (year, quarter): (Int, Int)
        switch self {
        case .quarter(let named, let number): (year, quarter) = (named, number)
        case .current: (year, quarter) = today.month.fiscal(startingIn: start)
        case .previous:
            let now = today.month.fiscal(startingIn: start)
            (year, quarter) = now.quarter == 1 ? (now.year - 1, 4) : (now.year, now.quarter - 1)
        }
        return .fiscalQuarter(quarter, of: year, startingIn: start, asOf: asOf)
    }
}

/// Which fiscal year to report (`--year`, key `year`): one named `YYYY` (the calendar year it starts in, as on the
/// year pages), or the one before or containing today.
enum YearPolicy: Sendable, Equatable {
    case previous, current
    case year(Int)

    init?(_ text: String) {
        switch text {
        case "previous": self = .previous
        case "current": self = .current
        default:
            guard text.count == 4, text.allSatisfy(\.isASCIIDigit), let year = Int(text), year > 0 else { return nil }
            self = .year(year)
        }
    }

    /// The fiscal year's twelve months, fiscal years starting in month `start` and `today` being the local date.
    func period(fiscalYearStart start: Int, today: CalendarDate, asOf: CalendarDate?) -> ReportPeriod {
        let year: Int
        switch self {
        case .year(let named): year = named
        case .current: year = today.month.fiscal(startingIn: start).year
        case .previous: year = today.month.fiscal(startingIn: start).year - 1
        }
        return .fiscalYear(year, startingIn: start, asOf: asOf)
    }
}

/// The date outstanding and overdue amounts are measured at.
enum AsOfPolicy: Sendable, Equatable {
    /// The last day of the latest month reported (stable: the same store gives the same site).
    case endOfPeriod
    case today
    case date(CalendarDate)

    init?(_ text: String) {
        switch text {
        case "end-of-period": self = .endOfPeriod
        case "today": self = .today
        default:
            guard let date = CalendarDate(iso: text) else { return nil }
            self = .date(date)
        }
    }

    func date(today: CalendarDate) -> CalendarDate? {
        switch self {
        case .endOfPeriod: nil
        case .today: today
        case .date(let date): date
        }
    }
}

extension Character {
    /// `0` to `9` only (not other scripts' digits, signs or spaces).
    var isASCIIDigit: Bool { isASCII && isNumber }
}

extension CalendarDate {
    /// Today's date in the local time zone.
    static var today: CalendarDate {
        let parts = Calendar.current.dateComponents([.year, .month, .day], from: Date())
        return CalendarDate(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1) ?? CalendarDate(dayNumber: 0)
    }
}

extension ProjectConfig {
    /// The project file `invoices init` writes, with every key documented.
    static let template = """
        # invoices.yaml: the settings of this report project, read by `invoices build`, `check` and `serve`.
        # Paths are relative to this file. Every key can be overridden by the flag of the same name
        # (e.g. --output, --as-of); flags win. Remove a key or set it to ~ for the default.

        # The report's title, shown on every page.
        title: Invoices report
        # The store (SQLite file) to read. It is opened read-only.
        store: books.sqlite
        # Templates replacing the built-in ones of the same name (Markdown with Mustache placeholders).
        templates: templates
        # The folder the site is written into; it is replaced only when the new site is complete.
        output: Output
        # The absolute URL the output folder is published at, e.g. https://example.com/reports/ (for the feed,
        # the sitemap and canonical links; pages link to each other relatively and work without it).
        base_url: ~
        # The locale amounts are formatted for, which also decides how currencies are shown (symbol or code,
        # separators), e.g. de_DE (1.234,50 €) or en_GB (€1,234.50). en_US_POSIX, the default, spells the
        # currency code out and gives the same output on every machine: EUR 1,234.50.
        locale: en_US_POSIX
        # The report's language, a BCP 47 tag (en, de, de-CH, fr, nl, it, es, he...): the words of every page,
        # and its dates and amounts unless locale is set. A client with a language of its own gets its pages in
        # it. Tables and how to add a language: docs/templates.md.
        language: en
        # Which month to report: YYYY-MM, previous (last month, for a run early in the next month),
        # current, or all (every month in the store; the default).
        month: all
        # Or a fiscal quarter (following fiscal_year_start below): YYYY-QN, e.g. 2025-Q1, the first quarter of
        # the fiscal year that starts in 2025; previous; or current. Set at most one of month, quarter and year.
        quarter: ~
        # Or a fiscal year: YYYY, the calendar year it starts in (2025 is April 2025 to March 2026 when
        # fiscal_year_start is 04); previous; or current. Statements cover the period chosen.
        year: ~
        # The date outstanding and overdue amounts are measured at: end-of-period (the last day of the latest
        # month reported; the same store always gives the same site), today, or a date YYYY-MM-DD.
        as_of: end-of-period
        # The month the fiscal year starts in, 01 to 12 (e.g. 04 for April to March): the quarter and year pages,
        # and their tax summaries, follow it. A fiscal year is named by the calendar year it starts in.
        fiscal_year_start: 01

        """
}
