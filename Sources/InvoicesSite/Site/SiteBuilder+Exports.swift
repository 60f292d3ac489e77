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

    /// The machine-readable exports written beside the pages: `report.json`, `totals.csv`, `aging.csv`,
    /// `payments.csv`, `taxes.csv` (docs/exports.md).
    func exportFiles() -> [File] {
        let exports = self.exports
        return ReportExports.File.allCases.map { File(path: $0.rawValue, data: exports.data($0)) }
    }

    /// The exports, each written into `staging` piece by piece: at 2,000,000 invoices they are 670 MB together.
    func writeExports(to staging: SiteStaging) throws(SiteWriteError) -> [SiteManifest.File] {
        let exports = self.exports
        var files: [SiteManifest.File] = []
        for file in ReportExports.File.allCases {
            files.append(try staging.write(file.rawValue) { emit in exports.write(file, into: emit) })
        }
        return files
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
