import ArgumentParser
import Foundation
import InvoicesApp
import InvoicesCore
import InvoicesReport
import InvoicesSite
import InvoicesStore

/// The options `build`, `check` and `serve` share: where the project file is, and a flag for each of its keys.
///
/// A flag wins over the project file, which wins over the built-in default.
struct ProjectOptions: ParsableArguments {
    @Option(help: "The project file (YAML). Default: invoices.yaml in the current folder, when there is one.")
    var config: String?

    @Option(help: "The store (SQLite file) to read; required when there is no project file. It is opened read-only.")
    var store: String?

    @Option(help: "A folder of templates replacing the default ones of the same name.")
    var templates: String?

    @Option(help: "The folder to write the site into; it is replaced only when the new site is complete. Default: Output.")
    var output: String?

    @Option(help: "Which month to report: YYYY-MM, 'previous', 'current' or 'all'. Default: all.")
    var month: String?

    @Option(help: ArgumentHelp(
        "Report a fiscal quarter instead: YYYY-QN (e.g. 2025-Q1), 'previous' or 'current'.",
        discussion: "Quarters follow --fiscal-year-start; YYYY is the calendar year the fiscal year starts in, as on the quarter pages."))
    var quarter: String?

    @Option(help: ArgumentHelp(
        "Report a fiscal year instead: YYYY (e.g. 2025), 'previous' or 'current'.",
        discussion: "The year follows --fiscal-year-start and is named by the calendar year it starts in: with 04, 2025 is April 2025 to March 2026."))
    var year: String?

    @Option(help: "The date outstanding and overdue amounts are measured at: YYYY-MM-DD, 'today' or 'end-of-period' (the last day of the latest month reported; the default).")
    var asOf: String?

    @Option(help: ArgumentHelp(
        "Refuse to change the books on or before YYYY-MM-DD: every document and figure of that period must be as the previous build left them.",
        discussion: "The previous build's values are in .OUTPUT.trail beside the output folder (docs/cli.md, \"Closed periods\")."))
    var closedThrough: String?

    @Flag(help: "Build even when documents or figures of the closed period changed; the changes page records them.")
    var allowClosedChanges = false

    @Option(help: "The basis of the overview's tax summary: 'accrual' (by issue date; the default) or 'cash' (by payment date). The exports carry both.")
    var basis: String?

    @Option(help: "The month the fiscal year starts in, 01 to 12: quarter and year pages follow it. Default: 01.")
    var fiscalYearStart: String?

    @Option(help: "The rows of a long list's page (a month's clients in a currency, a fiscal quarter's invoices behind a tax), 10 to 100000. Default: 1000.")
    var pageSize: String?

    @Option(help: "The report's title. Default: Invoices report.")
    var title: String?

    @Option(help: "The locale amounts are formatted for, e.g. de_DE. Default en_US_POSIX: stable output.")
    var locale: String?

    @Option(help: "The report's language, a BCP 47 tag, e.g. de, fr-CH: the words of every page (docs/templates.md), and its dates and amounts unless --locale is set. Default: en.")
    var language: String?

    @Option(help: "How the CSV files are written: 'rfc4180' (plain, exact; the default) or 'excel' (a byte order mark, and ';' and decimal commas where --locale writes decimals with a comma).")
    var csvDialect: String?

    @Option(help: "The aging buckets: increasing days past due, comma-separated, at most 8. Default: 30,60,90.")
    var agingBuckets: String?

    @Option(help: "The absolute address the site is published at, e.g. https://example.com/reports/. Adds feed.xml, sitemap.xml and canonical links.")
    var baseURL: String?

    @Option(help: "A CSV file of exchange rates (date,from,to,rate) to also show totals converted into --base-currency.")
    var rates: String?

    @Option(help: "The ISO 4217 currency converted totals are shown in; needs --rates.")
    var baseCurrency: String?

    @Option(help: "For a Core Data store: the Invoice attribute holding the issue date. Default: issuedAt, issueDate or date.")
    var issueDateAttribute: String?

    @Option(help: "For a Core Data store: the Invoice attribute holding the due date. Default: dueAt or dueDate.")
    var dueDateAttribute: String?

    @Option(help: "For a Core Data store: the Invoice attribute holding the paid date. Default: paidAt or paidDate.")
    var paidDateAttribute: String?

    @Option(help: ArgumentHelp(
        "For a Core Data store whose model names things differently: the store's name for an entity or attribute, as KEY=NAME (repeatable).",
        discussion: "KEY is Client, Invoice, Client.number, Client.name, ..., Invoice.identifier, Invoice.client, Invoice.amount, Invoice.currency, Invoice.notes, Payment, Payment.invoice, Payment.amount, Payment.date, Payment.method or Payment.reference.",
        valueName: "KEY=NAME"))
    var coreDataName: [String] = []

    @Option(help: "For a Core Data store whose Invoice entity has no currency attribute: the ISO 4217 currency of every invoice.")
    var defaultCurrency: String?

    @Flag(name: .customLong("public"), help: "Let search engines index the pages and pages load resources from other sites (default: private: noindex, same-site resources only).")
    var isPublic = false

    @Option(help: "A label for this build written into every page's head, e.g. the CI run or the commit.")
    var buildID: String?

    @Option(help: ArgumentHelp(
        "Also write each client's statement and page at c/<token>/, the token made from this secret: a key file, or env:NAME for an environment variable (never the key itself).",
        valueName: "key-file|env:NAME"))
    var clientLinks: String?

    func validate() throws {
        if let month, MonthPolicy(month) == nil {
            throw ValidationError("--month '\(month)' is not a month; expected YYYY-MM, e.g. 2025-06, or 'previous', 'current', 'all'")
        }
        if let quarter, QuarterPolicy(quarter) == nil {
            throw ValidationError("--quarter '\(quarter)' is not a quarter; expected YYYY-QN, e.g. 2025-Q1 (the first quarter of the fiscal year starting in 2025), or 'previous', 'current'")
        }
        if let year, YearPolicy(year) == nil {
            throw ValidationError("--year '\(year)' is not a year; expected YYYY, e.g. 2025 (the fiscal year starting in 2025), or 'previous', 'current'")
        }
        let periodFlags = [("--month", month), ("--quarter", quarter), ("--year", year)].filter { $0.1 != nil }.map(\.0)
        if periodFlags.count > 1 {
            throw ValidationError("\(periodFlags.joined(separator: " and ")) both choose the report's period; give only one of --month, --quarter and --year")
        }
        if let closedThrough, CalendarDate(iso: closedThrough) == nil {
            throw ValidationError("--closed-through '\(closedThrough)' is not a date; expected YYYY-MM-DD, e.g. 2025-09-30")
        }
        if let asOf, AsOfPolicy(asOf) == nil {
            throw ValidationError("--as-of '\(asOf)' is not a date; expected YYYY-MM-DD, e.g. 2025-06-30, or 'today', 'end-of-period'")
        }
        if let fiscalYearStart, SiteOptions.fiscalYearStart(fiscalYearStart) == nil {
            throw ValidationError("--fiscal-year-start '\(fiscalYearStart)' is not a month; expected 01 to 12, e.g. 04 for a year from April")
        }
        if let pageSize, SiteOptions.pageSize(pageSize) == nil {
            throw ValidationError("--page-size '\(pageSize)' must be a whole number of rows from 10 to 100000, e.g. 1000")
        }
        if let basis, TaxBasis(rawValue: basis) == nil {
            throw ValidationError("--basis '\(basis)' is not a tax basis; expected 'accrual' or 'cash'")
        }
        for (name, value) in [("--store", store), ("--output", output), ("--title", title), ("--locale", locale), ("--language", language)] where value == "" {
            throw ValidationError("\(name) cannot be empty")
        }
        var mapping = CoreDataMapping()
        if let problem = mapping.addNames(coreDataName) { throw ValidationError("--core-data-name \(problem)") }
        if let defaultCurrency, (try? CurrencyCode(defaultCurrency)) == nil {
            throw ValidationError("--default-currency '\(defaultCurrency)' is not an ISO 4217 currency code, e.g. EUR")
        }
        if let locale, !locale.isEmpty, let problem = LocaleName.problem(with: locale) {
            throw ValidationError("--locale \(problem)")
        }
        if let language, let problem = LanguageTag.pageLanguageProblem(with: language) {
            throw ValidationError("--language \(problem)")
        }
        if let csvDialect, CSVDialect.Name(rawValue: csvDialect) == nil {
            throw ValidationError("--csv-dialect '\(csvDialect)' is not a CSV dialect; expected 'rfc4180' or 'excel'")
        }
        if let agingBuckets, case .failure(let problem) = AgingBuckets.parse(agingBuckets) {
            throw ValidationError("--aging-buckets \(problem)")
        }
        if let baseURL, let problem = SiteOptions.baseURLProblem(baseURL) { throw ValidationError("--base-url \(problem)") }
        if buildID == "" { throw ValidationError("--build-id cannot be empty") }
        try validateConversion()
    }

    /// The project file to read: `--config`, else `invoices.yaml` in the current folder if it exists.
    var configPath: String? {
        if let config { return config }
        let local = FileManager.default.currentDirectoryPath + "/" + ProjectConfig.fileName
        return FileManager.default.fileExists(atPath: local) ? local : nil
    }

    /// Reads the project file, if any.
    /// - Throws: ``CommandError`` with exit 66 for a missing file, 65 for a bad one.
    func loadConfig() throws(CommandError) -> ProjectConfig? {
        guard let path = configPath else { return nil }
        do {
            return try ProjectConfig.load(path: path)
        } catch {
            throw CommandError(code: error.errors.contains(where: \.missing) ? .noInput : .dataError, message: error.description)
        }
    }

    /// The build the flags and the project file describe together.
    /// - Throws: ``CommandError``: exit 64 when no store is named at all.
    func resolve(with config: ProjectConfig?, today: CalendarDate = .today) throws(CommandError) -> ResolvedProject {
        guard let store = store ?? config?.path("store") else {
            throw CommandError(
                code: .usage,
                message: "no store to read: pass --store PATH, or run 'invoices init' to create a project with an \(ProjectConfig.fileName)")
        }
        // Flag values passed validate(); project file values passed ProjectConfig.load.
        let asOfPolicy = (asOf ?? config?["as_of"]).flatMap(AsOfPolicy.init) ?? .endOfPeriod
        let fiscalYearStart = (fiscalYearStart ?? config?["fiscal_year_start"]).flatMap(SiteOptions.fiscalYearStart) ?? 1
        var period = reportPeriod(config: config, fiscalYearStart: fiscalYearStart, today: today, asOf: asOfPolicy.date(today: today))
        if let text = agingBuckets ?? config?["aging_buckets"], case .success(let buckets) = AgingBuckets.parse(text) {
            period.agingBuckets = buckets
        }
        let baseURL = (self.baseURL ?? config?["base_url"]).flatMap(SiteOptions.normalizedBaseURL)
        var site = SiteOptions(
            title: title ?? config?["title"] ?? "Invoices report",
            locale: locale ?? config?["locale"] ?? "en_US_POSIX",
            period: period, baseURL: baseURL)
        site.localeFollowsLanguage = (locale ?? config?["locale"]) == nil
        site.titleFollowsLanguage = (title ?? config?["title"]) == nil
        site.language = language ?? config?["language"] ?? "en"
        site.conversion = try loadConversion()
        site.taxBasis = (basis ?? config?["basis"]).flatMap(TaxBasis.init(rawValue:)) ?? .accrual
        site.fiscalYearStart = fiscalYearStart
        site.csvDialect = CSVDialect((csvDialect ?? config?["csv_dialect"]).flatMap(CSVDialect.Name.init(rawValue:)) ?? .rfc4180, locale: site.locale)
        site.pageSize = (pageSize ?? config?["page_size"]).flatMap(SiteOptions.pageSize) ?? Pagination.defaultPageSize
        site.isPublic = isPublic || config?["public"] == "true"
        site.buildID = buildID ?? config?["build_id"]
        if let config, let name = config["payee.name"] {
            site.payee = Payee(
                name: name, iban: config["payee.iban"], bic: config["payee.bic"], paymentURL: config["payee.payment_url"],
                address: config.payeeAddress, qrBillIBAN: config["payee.qr_bill.iban"])
        }
        for key in JournalAccounts.keys { site.journalAccounts[key: key] = config?["journal.\(key)"] }
        // Values passed ProjectConfig.load, which requires adviser, client, chart and revenue together.
        if let config, let adviser = config["datev.adviser"].flatMap(Int.init), let client = config["datev.client"].flatMap(Int.init),
            let chart = config["datev.chart"]
        {
            func mapping(_ name: String) -> [String: Int] {
                var result: [String: Int] = [:]
                for (key, value) in config.values where key.hasPrefix("datev.\(name).") { result[String(key.dropFirst(name.count + 7))] = Int(value.text) }
                return result
            }
            var datev = DATEVSettings(adviser: adviser, client: client, chart: chart, revenue: mapping("revenue"))
            datev.debtors = mapping("debtors")
            datev.bank = config["datev.bank"].flatMap(Int.init)
            datev.writeOffs = config["datev.write_offs"].flatMap(Int.init)
            site.datev = datev
        }
        if let key = try loadClientLinkKey(config: config) {
            site.clientLinkToken = { @Sendable number in key.token(forClient: number) }
        }
        var configuration = BuildPipeline.Configuration(
            store: store, templates: templates ?? config?.path("templates"),
            output: output ?? config?.path("output") ?? "Output", site: site)
        // Flags win over the project file, name by name.
        var mapping = CoreDataMapping(
            issueDateAttribute: issueDateAttribute ?? config?["issue_date_attribute"],
            dueDateAttribute: dueDateAttribute ?? config?["due_date_attribute"],
            paidDateAttribute: paidDateAttribute ?? config?["paid_date_attribute"],
            defaultCurrency: (defaultCurrency ?? config?["default_currency"]).flatMap { try? CurrencyCode($0) })
        _ = mapping.addNames(CoreDataMapping.pairs(in: config?["core_data_names"] ?? ""))
        _ = mapping.addNames(coreDataName)
        configuration.coreDataMapping = mapping
        configuration.keeping = [config?.file].compactMap { $0 }
        configuration.closedThrough = (closedThrough ?? config?["closed_through"]).flatMap(CalendarDate.init(iso:))
        configuration.allowClosedChanges = allowClosedChanges
        return ResolvedProject(config: config, configuration: configuration, baseURL: baseURL)
    }
}

extension ProjectOptions {
    /// The report's period: a period flag (`--month`, `--quarter`, `--year`; validate() allows one) wins over the
    /// project file's `month`, `quarter` and `year` (of which load() allows one); every month by default.
    func reportPeriod(config: ProjectConfig?, fiscalYearStart start: Int, today: CalendarDate, asOf: CalendarDate?) -> ReportPeriod {
        let flagSet = month != nil || quarter != nil || year != nil
        let month = flagSet ? self.month : config?["month"]
        let quarter = flagSet ? self.quarter : config?["quarter"]
        let year = flagSet ? self.year : config?["year"]
        // Values passed validate() or ProjectConfig.load.
        if let policy = quarter.flatMap(QuarterPolicy.init) { return policy.period(fiscalYearStart: start, today: today, asOf: asOf) }
        if let policy = year.flatMap(YearPolicy.init) { return policy.period(fiscalYearStart: start, today: today, asOf: asOf) }
        return ReportPeriod(month: (month.flatMap(MonthPolicy.init) ?? .all).month(today: today), asOf: asOf)
    }
}

/// A build's settings after flags, project file and defaults are combined.
struct ResolvedProject: Sendable {
    var config: ProjectConfig?
    var configuration: BuildPipeline.Configuration
    /// The project file's `base_url`, checked to be an absolute http(s) URL.
    var baseURL: String?

    /// The files and folders whose changes call for a rebuild.
    var inputs: [String] {
        // A PostgreSQL store has no file to watch: serve rebuilds on changes to the project file and templates.
        [config?.file, configuration.isPostgres ? nil : configuration.store, configuration.templates].compactMap { $0 }
    }

    /// Lines for `--verbose`: where each setting came from.
    var settingsDescription: String {
        let c = configuration
        return """
            project file: \(config?.file ?? "(none)")
            store: \(c.displayStore)
            templates: \(c.templates ?? "(built-in)")
            output: \(c.output)
            title: \(c.site.pageTitle(templates: c.templates))
            locale: \(c.site.locale)
            language: \(c.site.language)
            period: \(c.site.period.month.map { "\($0)" } ?? c.site.period.months.map { "\($0.lowerBound) to \($0.upperBound)" } ?? "all")
            as of: \(c.site.period.asOf.map { "\($0)" } ?? "end of period")
            """
    }
}

/// A failure a command reports with a message and exits with.
struct CommandError: Error, Sendable, CustomStringConvertible {
    var code: ExitStatus
    var message: String
    var description: String { message }
}
