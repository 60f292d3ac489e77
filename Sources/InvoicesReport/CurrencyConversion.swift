public import Foundation
public import InvoicesCore

/// One exchange rate: on `date`, one unit of `from` is worth `rate` units of `to`.
public struct ExchangeRate: Sendable, Hashable {
    public var date: CalendarDate
    public var from: CurrencyCode
    public var to: CurrencyCode
    /// Exact, as written in the rates file.
    public var rate: Decimal

    public init(date: CalendarDate, from: CurrencyCode, to: CurrencyCode, rate: Decimal) {
        self.date = date
        self.from = from
        self.to = to
        self.rate = rate
    }
}

/// Exchange rates read from a CSV file with the header `date,from,to,rate` (docs/exports.md).
///
/// ```
/// date,from,to,rate
/// 2025-12-31,USD,EUR,0.9215
/// 2025-12-31,JPY,EUR,0.00612
/// ```
public struct ExchangeRates: Sendable, Hashable {
    public var rates: [ExchangeRate]

    public init(_ rates: [ExchangeRate]) { self.rates = rates }

    /// Parses the rates file's text; `path` only names the file in errors.
    /// - Throws: ``ExchangeRateError`` at the first bad line, with its number.
    public init(csv text: String, path: String) throws(ExchangeRateError) {
        // The same RFC 4180 reader as import: quoted fields, CRLF, a byte order mark.
        let document: CSVDocument
        do {
            document = try CSVDocument(bytes: Array(text.utf8))
        } catch {
            throw ExchangeRateError(path: path, line: error.line, message: error.message)
        }
        let header = document.header.map { $0.trimmingCharacters(in: .whitespaces) }
        guard header == ["date", "from", "to", "rate"] else {
            throw ExchangeRateError(
                path: path, line: 1,
                message: "the first line must be the header 'date,from,to,rate', found '\(document.header.joined(separator: ","))'")
        }
        var rates: [ExchangeRate] = []
        var seen: Set<String> = []
        for record in document.records {
            func fail(_ message: String) -> ExchangeRateError { ExchangeRateError(path: path, line: record.line, message: message) }
            let fields = record.fields.map { $0.trimmingCharacters(in: .whitespaces) }
            if fields.allSatisfy(\.isEmpty) { continue }
            guard fields.count == 4 else { throw fail("expected 4 fields 'date,from,to,rate', found \(fields.count)") }
            guard let date = CalendarDate(iso: fields[0]) else {
                throw fail("'\(fields[0])' is not a date; expected YYYY-MM-DD, e.g. 2025-06-30")
            }
            let from: CurrencyCode
            let to: CurrencyCode
            do {
                from = try CurrencyCode(fields[1])
                to = try CurrencyCode(fields[2])
            } catch {
                throw fail(error.description)
            }
            guard let rate = Self.decimal(fields[3]) else {
                throw fail("'\(fields[3])' is not a positive decimal rate (expected e.g. '0.9215')")
            }
            guard seen.insert("\(date) \(from) \(to)").inserted else {
                throw fail("a second \(from) to \(to) rate for \(date); keep one")
            }
            rates.append(ExchangeRate(date: date, from: from, to: to, rate: rate))
        }
        self.rates = rates
    }

    /// The latest rate from `from` to `to` dated on or before `date`, or nil.
    public func latest(from: CurrencyCode, to: CurrencyCode, onOrBefore date: CalendarDate) -> ExchangeRate? {
        var best: ExchangeRate?
        for rate in rates where rate.from == from && rate.to == to && rate.date <= date {
            if best.map({ rate.date > $0.date }) ?? true { best = rate }
        }
        return best
    }

    /// A plain positive decimal (`0.9215`, `151`), exactly; nil for anything else (no exponents, no signs).
    static func decimal(_ text: String) -> Decimal? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard !text.isEmpty, parts.count <= 2, parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            !parts[0].isEmpty, parts.count == 1 || !parts[1].isEmpty,
            let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), value > 0
        else { return nil }
        return value
    }
}

/// A line of the rates file that could not be read.
public struct ExchangeRateError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var message: String

    public var description: String { "\(path):\(line): \(message)" }
}

/// The grand totals of a report converted into a base currency, for display beside the exact per-currency totals.
///
/// Each currency's period figures are converted with the latest rate to the base currency dated on or before the
/// report's as-of date, rounded half-even ("banker's rounding") to the base currency's minor unit, and only then
/// added. A currency without such a rate is listed unconverted and left out of the converted total: it is never
/// dropped from the report and never counted 1:1.
public struct ConvertedTotals: Sendable {
    public struct Line: Sendable {
        public var currency: CurrencyCode
        /// The period figures in their own currency.
        public var figures: Figures
        /// The rate used, or nil for the base currency itself and for currencies without a rate.
        public var rate: ExchangeRate?
        /// The figures in the base currency, or nil when there was no rate.
        public var converted: Figures?
    }

    public var base: CurrencyCode
    /// The report's as-of date (nil when the report has no period, and so no totals to convert).
    public var asOf: CalendarDate?
    /// One line per currency of the report, in code order.
    public var lines: [Line]
    /// The sum of the converted lines, in the base currency.
    public var total: Figures

    /// Currencies without a rate to ``base``.
    public var unconverted: [CurrencyCode] { lines.filter { $0.converted == nil }.map(\.currency) }

    /// Converts `report`'s grand totals into `base`.
    /// - Throws: ``ReportError`` when a converted amount or their sum does not fit in 64-bit minor units.
    public init(report: Report, rates: ExchangeRates, base: CurrencyCode) throws(ReportError) {
        self.base = base
        self.asOf = report.asOf
        var total = Figures()
        var lines: [Line] = []
        for totals in report.currencies {
            var line = Line(currency: totals.currency, figures: totals.period, rate: nil, converted: nil)
            if totals.currency == base {
                line.converted = totals.period
            } else if let asOf = report.asOf, let rate = rates.latest(from: totals.currency, to: base, onOrBefore: asOf) {
                line.rate = rate
                let period = totals.period
                func convert(_ amount: Int64) throws(ReportError) -> Int64 {
                    guard let value = Self.convert(amount, from: totals.currency, rate: rate.rate, to: base) else {
                        throw ReportError(client: nil, currency: base)
                    }
                    return value
                }
                line.converted = Figures(
                    invoiced: try convert(period.invoiced), paid: try convert(period.paid),
                    outstanding: try convert(period.outstanding), overdue: try convert(period.overdue),
                    invoices: period.invoices)
            }
            if let converted = line.converted {
                guard total.add(converted) else { throw ReportError(client: nil, currency: base) }
            }
            lines.append(line)
        }
        self.lines = lines
        self.total = total
    }

    /// `minorUnits` of `from` times `rate`, in minor units of `to`, rounded half-even; nil when it does not fit.
    public static func convert(_ minorUnits: Int64, from: CurrencyCode, rate: Decimal, to: CurrencyCode) -> Int64? {
        var amount = Decimal(minorUnits)
        var rate = rate
        var product = Decimal()
        guard NSDecimalMultiply(&product, &amount, &rate, .plain) == .noError else { return nil }
        // Move from `from`'s minor units to `to`'s: multiply by 10^(to digits - from digits), exactly.
        var scale = Decimal(sign: .plus, exponent: to.minorUnitDigits - from.minorUnitDigits, significand: 1)
        var scaled = Decimal()
        guard NSDecimalMultiply(&scaled, &product, &scale, .plain) == .noError else { return nil }
        var rounded = Decimal()
        NSDecimalRound(&rounded, &scaled, 0, .bankers)
        return Int64(NSDecimalNumber(decimal: rounded).stringValue)
    }
}

/// What to convert grand totals into: a base currency and the rates to it (`--base-currency`, `--rates`).
public struct CurrencyConversion: Sendable {
    public var base: CurrencyCode
    public var rates: ExchangeRates

    public init(base: CurrencyCode, rates: ExchangeRates) {
        self.base = base
        self.rates = rates
    }
}
