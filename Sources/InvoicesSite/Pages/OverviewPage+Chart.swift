import Foundation
internal import InvoicesCore
internal import InvoicesReport

extension OverviewPage {
    /// An inline SVG bar chart of one currency's invoiced and paid amounts per month: no script, `role="img"`
    /// with a `<title>` and a `<desc>` naming the highest months; the overview's table of months holds every figure.
    ///
    /// The page gets it as an HTML token (``MarkdownValues/html(_:)``), put in after cmark.
    func chart(_ totals: Report.CurrencyTotals) -> String {
        let code = totals.currency.code
        let width = 720.0, height = 260.0, left = 56.0, right = 8.0, top = 12.0, bottom = 36.0
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let count = max(totals.months.count, 1)
        let highest = totals.months.reduce(Int64(0)) { max($0, $1.invoiced, $1.paid) }
        let (step, ticks) = Self.axisSteps(highest)
        let scale = step * Int64(ticks)
        func y(_ value: Int64) -> Double { top + plotHeight - plotHeight * Double(value) / Double(scale) }
        func number(_ value: Double) -> String { String(format: "%.1f", value) }

        var svg = "<svg class=\"chart\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-labelledby=\"chart-\(code)-title chart-\(code)-desc\">\n"
        svg += "<title id=\"chart-\(code)-title\">\(SiteBuilder.xml(site.word("chart.title", ["currency": code])))</title>\n"
        svg += "<desc id=\"chart-\(code)-desc\">\(SiteBuilder.xml(chartSummary(totals)))</desc>\n"
        for tick in 0...ticks {
            let value = step * Int64(tick)
            let lineY = number(y(value))
            svg += "<line class=\"grid\" x1=\"\(Int(left))\" x2=\"\(Int(width - right))\" y1=\"\(lineY)\" y2=\"\(lineY)\"/>"
            svg += "<text class=\"axis\" x=\"\(Int(left) - 6)\" y=\"\(lineY)\" text-anchor=\"end\" dominant-baseline=\"middle\">\(compact(value, totals.currency))</text>\n"
        }
        let group = plotWidth / Double(count)
        let bar = max(group * 0.36, 1)
        let labelEvery = Int((Double(count) / 12).rounded(.up))
        for (offset, figures) in totals.months.enumerated() {
            let x = left + group * Double(offset) + group * 0.14
            let month = report.months[offset]
            svg += "<rect class=\"invoiced\" x=\"\(number(x))\" y=\"\(number(y(figures.invoiced)))\" width=\"\(number(bar))\" height=\"\(number(y(0) - y(figures.invoiced)))\"/>"
            svg += "<rect class=\"paid\" x=\"\(number(x + bar))\" y=\"\(number(y(figures.paid)))\" width=\"\(number(bar))\" height=\"\(number(y(0) - y(figures.paid)))\"/>"
            if offset % labelEvery == 0 {
                let minor = offset % 6 == 0 ? "" : " minor"
                let names = site.language.shortMonthNames
                let label = "\(names[month.month - 1]) \(month.year % 100 < 10 ? "0" : "")\(month.year % 100)"
                svg += "<text class=\"axis\(minor)\" x=\"\(number(x + bar))\" y=\"\(Int(height - bottom) + 18)\" text-anchor=\"middle\">\(SiteBuilder.xml(label))</text>"
            }
            svg += "\n"
        }
        svg += "</svg>"
        return svg
    }

    /// The chart's text alternative: the months with the highest invoiced and paid amounts.
    func chartSummary(_ totals: Report.CurrencyTotals) -> String {
        guard !totals.months.isEmpty else { return site.word("chart.none") }
        let invoiced = totals.months.indices.max { totals.months[$0].invoiced < totals.months[$1].invoiced }!
        let paid = totals.months.indices.max { totals.months[$0].paid < totals.months[$1].paid }!
        return site.word(
            "chart.summary",
            [
                "first": site.monthLabel(report.months[0]), "last": site.monthLabel(report.months[totals.months.count - 1]),
                "invoicedMonth": site.monthLabel(report.months[invoiced]), "invoiced": site.money(totals.months[invoiced].invoiced, totals.currency),
                "paidMonth": site.monthLabel(report.months[paid]), "paid": site.money(totals.months[paid].paid, totals.currency),
            ])
    }

    /// A gridline step of 1, 2, 2.5 or 5 times a power of ten and the number of steps (3 to 6) that cover `value`.
    static func axisSteps(_ value: Int64) -> (step: Int64, ticks: Int) {
        guard value > 0 else { return (1, 4) }
        let target = max(value / 5, 1)
        var power: Int64 = 1
        while power <= Int64.max / 100, power * 10 < target { power *= 10 }
        var step = power * 10
        for candidate in [power, power * 2, power * 5 / 2, power * 5] where candidate >= target && candidate > 0 {
            step = candidate
            break
        }
        let ticks = Int((value + step - 1) / step)
        return (step, max(ticks, 1))
    }

    /// An axis label in major units, shortened: `250k`, `1.5M`, `0`.
    func compact(_ minorUnits: Int64, _ currency: CurrencyCode) -> String {
        var divisor = 1.0
        for _ in 0..<currency.minorUnitDigits { divisor *= 10 }
        let value = Double(minorUnits) / divisor
        for (size, suffix) in [(1e9, "B"), (1e6, "M"), (1e3, "k")] where abs(value) >= size {
            return Self.trimmed(value / size) + suffix
        }
        return Self.trimmed(value)
    }

    static func trimmed(_ value: Double) -> String {
        let text = String(format: "%.1f", value)
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}
