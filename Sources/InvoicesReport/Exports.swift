public import Foundation
public import InvoicesCore

/// The machine-readable files a build writes beside the HTML: `report.json`, `totals.csv`, `aging.csv`,
/// `payments.csv` and `taxes.csv`.
///
/// docs/exports.md documents the schema and the columns. Amounts are exact: CSV cells are plain decimals with
/// the currency's number of decimals (`1234.50`, `98765` for JPY, `12.345` for KWD); JSON gives each amount as
/// that decimal string and as integer minor units, with its currency code. The same report gives the same bytes.
///
/// ```swift
/// let exports = ReportExports(books: books, report: try Report(books: books))
/// try exports.totalsCSV().write(toFile: "totals.csv", atomically: true, encoding: .utf8)
/// ```
public struct ReportExports: Sendable {
    /// The version of the JSON schema, `schema_version` in `report.json`. Raised on incompatible changes.
    public static let schemaVersion = 2
    /// The columns of `totals.csv`, in order: v1's, then those v2 added, then the month's fiscal year and quarter.
    public static let totalsColumns = [
        "client_number", "client_name", "currency", "month", "invoiced", "paid", "outstanding", "overdue", "invoices",
        "net", "tax", "credited", "written_off", "credit", "fiscal_year", "fiscal_quarter",
    ]
    /// The columns of `payments.csv`, in order (the fiscal year and quarter of the payment's date last).
    public static let paymentsColumns = [
        "invoice", "client_number", "client_name", "currency", "date", "amount", "kind", "method", "reference", "fiscal_year",
        "fiscal_quarter",
    ]
    /// The columns of `taxes.csv`, in order (the fiscal year and quarter of the month last).
    public static let taxesColumns = [
        "currency", "tax", "rate", "month", "accrual_net", "accrual_tax", "cash_net", "cash_tax", "fiscal_year", "fiscal_quarter",
    ]
    /// The columns of `aging.csv` with the default buckets, in order.
    public static let agingColumns = agingColumns(.standard)

    /// The columns of `aging.csv` with `buckets`, in order: the bucket columns follow ``AgingBuckets/columnNames``.
    public static func agingColumns(_ buckets: AgingBuckets) -> [String] {
        ["client_number", "client_name", "currency", "as_of"] + buckets.columnNames
    }
    /// The columns of the CSV files that hold decimals (amounts, and the tax rate): written with the dialect's
    /// decimal separator (``CSVDialect``). Every other column is text, a date or a whole number.
    public static let decimalColumns: Set<String> = [
        "invoiced", "paid", "outstanding", "overdue", "net", "tax", "credited", "written_off", "credit", "amount", "rate",
        "accrual_net", "accrual_tax", "cash_net", "cash_tax", "not_due", "days_1_30", "days_31_60", "days_61_90", "days_over_90",
    ]

    /// ``decimalColumns`` and the bucket columns of this report's aging.
    var decimalColumnsWithAging: Set<String> { Self.decimalColumns.union(report.agingBuckets.columnNames) }

    public let books: Books
    public let report: Report
    /// Totals converted into a base currency, when exchange rates were given.
    public let conversion: ConvertedTotals?
    /// The month (1–12) fiscal years start in: the `fiscal_year` and `fiscal_quarter` columns of `totals.csv`,
    /// `payments.csv` and `taxes.csv`, and `report.json`'s `period.fiscal_year_start` and `period.fiscal_months`.
    public let fiscalYearStart: Int
    /// How the CSV files are written (`--csv-dialect`): RFC 4180 by default, or for a spreadsheet.
    public let csvDialect: CSVDialect

    public init(
        books: Books, report: Report, conversion: ConvertedTotals? = nil, fiscalYearStart: Int = 1, csvDialect: CSVDialect = .rfc4180
    ) {
        self.books = books
        self.report = report
        self.conversion = conversion
        self.fiscalYearStart = fiscalYearStart
        self.csvDialect = csvDialect
    }

    /// A writer of one of the CSV files, its first record `header`, in ``csvDialect``.
    func csvWriter(_ header: [String]) -> CSVWriter {
        CSVWriter(header: header, dialect: csvDialect, decimalColumns: decimalColumnsWithAging)
    }

    /// Receives an export piece by piece, in order; a piece is only valid during the call.
    public typealias Emit = (UnsafeRawBufferPointer) -> Void

    /// How large a piece grows before it is handed out: a 385 MB `report.json` is never in memory whole.
    static let pieceSize = 1 << 20

    /// The files, by name, in the order a build writes them.
    public enum File: String, CaseIterable, Sendable {
        case json = "report.json"
        case totals = "totals.csv"
        case aging = "aging.csv"
        case payments = "payments.csv"
        case taxes = "taxes.csv"
    }

    /// Hands `file` to `emit` piece by piece.
    public func write(_ file: File, into emit: Emit) {
        switch file {
        case .json: json(into: emit)
        case .totals: totalsCSV(into: emit)
        case .aging: agingCSV(into: emit)
        case .payments: paymentsCSV(into: emit)
        case .taxes: taxesCSV(into: emit)
        }
    }

    /// `file`'s bytes, whole.
    public func data(_ file: File) -> Data {
        var data = Data()
        write(file) { data.append(contentsOf: $0) }
        return data
    }

    /// `totals.csv`: one row per client, currency and month in which the client has an invoice issued, an invoice
    /// paid or a balance outstanding at the month's end (``Figures/isActive``). Outstanding and overdue are at the
    /// end of the month; the last two columns are the month's fiscal year and quarter.
    public func totalsCSV() -> String { String(decoding: data(.totals), as: UTF8.self) }

    /// ``totalsCSV()`` handed to `emit` in pieces of about a megabyte, each whole records.
    public func totalsCSV(into emit: Emit) { layout(.totals).write(into: emit) }

    /// `aging.csv`: one row per client and currency with a balance outstanding at the as-of date, the amounts by
    /// days past due.
    public func agingCSV() -> String { String(decoding: data(.aging), as: UTF8.self) }

    /// ``agingCSV()`` handed to `emit` in pieces of about a megabyte, each whole records.
    public func agingCSV(into emit: Emit) { layout(.aging).write(into: emit) }

    /// `payments.csv`: every payment in the store (refunds negative), by invoice (in store order), then date.
    /// Payments of drafts and void invoices are listed too: the money moved. The last two columns are the fiscal year
    /// and quarter of the payment's date.
    public func paymentsCSV() -> String { String(decoding: data(.payments), as: UTF8.self) }

    /// ``paymentsCSV()`` handed to `emit` in pieces of about a megabyte, each whole records.
    public func paymentsCSV(into emit: Emit) { layout(.payments).write(into: emit) }

    /// `taxes.csv`: per currency, tax and month with anything taxed, the net and the tax on both bases, and the
    /// fiscal year and quarter the month falls in.
    public func taxesCSV() -> String { String(decoding: data(.taxes), as: UTF8.self) }

    /// ``taxesCSV()`` handed to `emit` in pieces of about a megabyte, each whole records.
    public func taxesCSV(into emit: Emit) { layout(.taxes).write(into: emit) }

    /// The `fiscal_year` (`2024`: the calendar year the fiscal year starts in) and `fiscal_quarter` (`Q1`) cells of
    /// `month`.
    func fiscalCells(_ month: YearMonth) -> (year: String, quarter: String) {
        let fiscal = month.fiscal(startingIn: fiscalYearStart)
        return (String(fiscal.year), "Q\(fiscal.quarter)")
    }

    /// `report.json`: UTF-8, keys sorted, compact (no indentation).
    ///
    /// The small top of the document goes through `JSONEncoder`; the `clients` array, which holds nearly all of
    /// it, is written directly (``JSONRows``), producing exactly the bytes `JSONEncoder` would (a test compares
    /// the two) at a fraction of the cost.
    public func json() -> Data { data(.json) }

    /// ``json()`` handed to `emit` in pieces of about a megabyte.
    public func json(into emit: Emit) { layout(.json).write(into: emit) }

    /// `report.json` written entirely by `JSONEncoder`: the reference ``json()`` is tested against.
    func jsonThroughEncoder() -> Data { Self.encoder.encodeOrFail(jsonDocument()) }

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }

    func jsonDocument(includingClients: Bool = true) -> JSONReport {
        let months = report.months.map(\.description)
        let clients: [JSONReport.Client] = !includingClients ? [] : report.clients.map { totals in
            let client = books.clients[totals.clientIndex]
            return JSONReport.Client(
                number: client.number, name: client.name,
                currencies: totals.currencies.map {
                    entry($0.currency, months: $0.months, period: $0.period, aging: $0.aging, activeOnly: true)
                })
        }
        return JSONReport(
            schemaVersion: Self.schemaVersion,
            period: JSONReport.Period(
                firstMonth: months.first ?? "", lastMonth: months.last ?? "", months: months,
                asOf: report.asOf?.description, fiscalYearStart: fiscalYearStart,
                fiscalMonths: report.months.map {
                    let fiscal = $0.fiscal(startingIn: fiscalYearStart)
                    return JSONReport.FiscalMonth(month: $0.description, fiscalYear: fiscal.year, fiscalQuarter: "Q\(fiscal.quarter)")
                }),
            totals: report.currencies.map {
                entry($0.currency, months: $0.months, period: $0.period, aging: $0.aging, activeOnly: false)
            },
            clients: clients, conversion: conversion.map(JSONReport.Conversion.init),
            taxes: report.taxes.map { totals in
                let tax = books.taxes[totals.taxIndex]
                var months: [JSONReport.Tax.Figures] = []
                for (offset, figures) in totals.months.enumerated() where figures.isActive {
                    months.append(JSONReport.Tax.Figures(figures, totals.currency, month: report.months[offset].description))
                }
                return JSONReport.Tax(
                    currency: totals.currency.code, name: tax.name, rate: tax.percent, months: months,
                    period: JSONReport.Tax.Figures(totals.period, totals.currency, month: nil))
            })
    }

    func entry(_ currency: CurrencyCode, months: [Figures], period: Figures, aging: Aging, activeOnly: Bool)
        -> JSONReport.CurrencyEntry
    {
        var rows: [JSONReport.Figures] = []
        for (offset, figures) in months.enumerated() where !activeOnly || figures.isActive {
            rows.append(JSONReport.Figures(figures, currency, month: report.months[offset].description))
        }
        return JSONReport.CurrencyEntry(
            currency: currency.code, minorUnitDigits: currency.minorUnitDigits,
            period: JSONReport.Figures(period, currency, month: nil), aging: JSONReport.Aging(aging, report.agingBuckets, currency),
            months: rows)
    }
}

/// The shape of `report.json` (docs/exports.md). Keys are written in snake_case.
struct JSONReport: Encodable {
    struct Amount: Encodable {
        var currency: String
        var decimal: String
        var minorUnits: Int64

        init(_ minorUnits: Int64, _ currency: CurrencyCode) {
            self.currency = currency.code
            self.decimal = Money.decimalString(minorUnits, digits: currency.minorUnitDigits)
            self.minorUnits = minorUnits
        }
    }

    struct Figures: Encodable {
        var month: String?
        var invoiced: Amount
        var net: Amount
        var tax: Amount
        var paid: Amount
        var credited: Amount
        var writtenOff: Amount
        var outstanding: Amount
        var overdue: Amount
        var credit: Amount
        var invoices: Int

        init(_ figures: InvoicesReport.Figures, _ currency: CurrencyCode, month: String?) {
            self.month = month
            invoiced = Amount(figures.invoiced, currency)
            net = Amount(figures.net, currency)
            tax = Amount(figures.tax, currency)
            paid = Amount(figures.paid, currency)
            credited = Amount(figures.credited, currency)
            writtenOff = Amount(figures.writtenOff, currency)
            outstanding = Amount(figures.outstanding, currency)
            overdue = Amount(figures.overdue, currency)
            credit = Amount(figures.credit, currency)
            invoices = figures.invoices
        }
    }

    /// One tax (currency, name, rate) on both bases.
    struct Tax: Encodable {
        struct Figures: Encodable {
            var month: String?
            var accrualNet: Amount
            var accrualTax: Amount
            var cashNet: Amount
            var cashTax: Amount

            init(_ figures: TaxFigures, _ currency: CurrencyCode, month: String?) {
                self.month = month
                accrualNet = Amount(figures.accrualNet, currency)
                accrualTax = Amount(figures.accrualTax, currency)
                cashNet = Amount(figures.cashNet, currency)
                cashTax = Amount(figures.cashTax, currency)
            }
        }
        var currency: String
        var name: String
        var rate: String
        var months: [Figures]
        var period: Figures
    }

    /// The aging buckets by their column names (``AgingBuckets/columnNames``).
    struct Aging: Encodable {
        var amounts: [(name: String, amount: Amount)]

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(_ aging: InvoicesReport.Aging, _ buckets: AgingBuckets, _ currency: CurrencyCode) {
            amounts = zip(buckets.columnNames, aging.buckets).map { ($0, Amount($1, currency)) }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for (name, amount) in amounts { try container.encode(amount, forKey: Key(stringValue: name)) }
        }
    }

    struct CurrencyEntry: Encodable {
        var currency: String
        var minorUnitDigits: Int
        var period: Figures
        var aging: Aging
        var months: [Figures]
    }

    struct Client: Encodable {
        var number: String
        var name: String
        var currencies: [CurrencyEntry]
    }

    struct Period: Encodable {
        var firstMonth: String
        var lastMonth: String
        var months: [String]
        /// Absent when the report has no period (an empty store, no --month and no --as-of).
        var asOf: String?
        /// The month (1–12) fiscal years start in (`--fiscal-year-start`).
        var fiscalYearStart: Int
        /// Each reported month's fiscal year and quarter, in the order of `months`.
        var fiscalMonths: [FiscalMonth]
    }

    /// A reported month and the fiscal year (named by the calendar year it starts in) and quarter it falls in.
    struct FiscalMonth: Encodable {
        var month: String
        var fiscalYear: Int
        var fiscalQuarter: String
    }

    struct Conversion: Encodable {
        struct Line: Encodable {
            var currency: String
            var outstanding: Amount
            var invoiced: Amount
            var converted: Bool
            var rate: String?
            var rateDate: String?
            var convertedInvoiced: Amount?
            var convertedOutstanding: Amount?
        }
        var baseCurrency: String
        var asOf: String?
        var rounding: String
        var lines: [Line]
        var invoiced: Amount
        var outstanding: Amount
        var unconverted: [String]

        init(_ totals: ConvertedTotals) {
            baseCurrency = totals.base.code
            asOf = totals.asOf?.description
            rounding = "half-even to the base currency's minor unit, per currency, before adding"
            lines = totals.lines.map { line in
                Line(
                    currency: line.currency.code, outstanding: Amount(line.figures.outstanding, line.currency),
                    invoiced: Amount(line.figures.invoiced, line.currency), converted: line.converted != nil,
                    rate: line.rate.map { "\($0.rate)" }, rateDate: line.rate?.date.description,
                    convertedInvoiced: line.converted.map { Amount($0.invoiced, totals.base) },
                    convertedOutstanding: line.converted.map { Amount($0.outstanding, totals.base) })
            }
            invoiced = Amount(totals.total.invoiced, totals.base)
            outstanding = Amount(totals.total.outstanding, totals.base)
            unconverted = totals.unconverted.map(\.code)
        }
    }

    var schemaVersion: Int
    var period: Period
    var totals: [CurrencyEntry]
    var clients: [Client]
    var conversion: Conversion?
    var taxes: [Tax]
}
