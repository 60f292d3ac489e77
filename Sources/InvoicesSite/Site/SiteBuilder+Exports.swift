internal import Foundation
internal import InvoicesCore
public import InvoicesReport

extension SiteBuilder {
    /// The grand totals converted into ``SiteOptions/conversion``'s base currency, or nil without rates.
    ///
    /// A converted amount that does not fit in 64-bit minor units leaves the conversion out rather than failing
    /// the build: the exact per-currency totals are the report; the conversion is only an aid.
    public func convertedTotals() -> ConvertedTotals? {
        guard let conversion = options.conversion else { return nil }
        return try? ConvertedTotals(report: report, rates: conversion.rates, base: conversion.base)
    }

    /// One of the machine-readable exports written beside the pages: `report.json`, `totals.csv`, `aging.csv`,
    /// `payments.csv`, `taxes.csv` (docs/exports.md).
    func exportFile(_ file: ReportExports.File) -> File { File(path: file.rawValue, data: exports.data(file)) }

    /// `file` written into `staging` piece by piece: `report.json` is 385 MB at 2,000,000 invoices.
    func writeExport(_ file: ReportExports.File, to staging: SiteStaging) throws(SiteWriteError) -> SiteManifest.File {
        let exports = self.exports
        return try staging.write(file.rawValue) { emit in exports.write(file, into: emit) }
    }

    private var exports: ReportExports {
        ReportExports(books: books, report: report, conversion: convertedTotals(), fiscalYearStart: options.fiscalYearStart)
    }
}

extension SiteBuilder {
    /// The overview's `conversion` section (Templates/conversion.md), empty without rates.
    func conversionContext() -> [String: Any] {
        guard let converted = convertedTotals() else { return [:] }
        let base = converted.base
        let lines: [[String: Any]] = converted.lines.map { line in
            let isBase = line.currency == base
            return [
                "currency": line.currency.code, "invoiced": money(line.figures.invoiced, line.currency),
                "outstanding": money(line.figures.outstanding, line.currency),
                "rate": line.rate.map { "\($0.rate)" } ?? (isBase ? "1" : "no rate"),
                "rateDate": line.rate?.date.description ?? (isBase ? "" : "not converted"),
                "convertedInvoiced": line.converted.map { money($0.invoiced, base) } ?? "",
                "convertedOutstanding": line.converted.map { money($0.outstanding, base) } ?? "",
            ]
        }
        return [
            "conversion": [
                "base": base.code, "asOf": converted.asOf?.description ?? "", "lines": lines,
                "totalInvoiced": money(converted.total.invoiced, base),
                "totalOutstanding": money(converted.total.outstanding, base),
            ] as [String: Any]
        ]
    }
}
