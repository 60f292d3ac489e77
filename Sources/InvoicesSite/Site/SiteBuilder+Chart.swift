import Foundation
internal import InvoicesCore
internal import InvoicesReport

extension SiteBuilder {
    /// An inline SVG bar chart of one currency's invoiced and paid amounts per month: no script, `role="img"`
    /// with a `<title>` and a `<desc>` naming the highest months; the overview's table of months holds every figure.
    ///
    /// The markup has no blank line, so it stays one raw HTML block in the Markdown template.
    func chart(_ totals: Report.CurrencyTotals) -> String {
        let code = totals.currency.code
        let width = 720.0, height = 260.0, left = 112.0, right = 8.0, top = 12.0, bottom = 36.0
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let count = max(totals.months.count, 1)
        let highest = totals.months.reduce(Int64(0)) { max($0, $1.invoiced, $1.paid) }
        let scale = Self.niceCeiling(highest)
        func y(_ value: Int64) -> Double { top + plotHeight - plotHeight * Double(value) / Double(scale) }
        func number(_ value: Double) -> String { String(format: "%.1f", value) }

        var svg = "<svg class=\"chart\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-labelledby=\"chart-\(code)-title chart-\(code)-desc\">\n"
        svg += "<title id=\"chart-\(code)-title\">Invoiced and paid per month, \(code)</title>\n"
        svg += "<desc id=\"chart-\(code)-desc\">\(Self.xml(chartSummary(totals)))</desc>\n"
        for step in 0...4 {
            let value = scale / 4 * Int64(step)
            let lineY = number(y(value))
            svg += "<line class=\"grid\" x1=\"\(Int(left))\" x2=\"\(Int(width - right))\" y1=\"\(lineY)\" y2=\"\(lineY)\"/>"
            svg += "<text class=\"axis\" x=\"\(Int(left) - 6)\" y=\"\(lineY)\" text-anchor=\"end\" dominant-baseline=\"middle\">\(Self.xml(money(value, totals.currency)))</text>\n"
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
                let names = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
                let label = "\(names[month.month - 1]) \(month.year % 100 < 10 ? "0" : "")\(month.year % 100)"
                svg += "<text class=\"axis\" x=\"\(number(x + bar))\" y=\"\(Int(height - bottom) + 18)\" text-anchor=\"middle\">\(label)</text>"
            }
            svg += "\n"
        }
        svg += "</svg>"
        return svg
    }

    /// The chart's text alternative: the months with the highest invoiced and paid amounts.
    func chartSummary(_ totals: Report.CurrencyTotals) -> String {
        guard !totals.months.isEmpty else { return "No months reported." }
        let invoiced = totals.months.indices.max { totals.months[$0].invoiced < totals.months[$1].invoiced }!
        let paid = totals.months.indices.max { totals.months[$0].paid < totals.months[$1].paid }!
        return "Bars per month from \(Self.monthLabel(report.months[0])) to \(Self.monthLabel(report.months[totals.months.count - 1])). "
            + "Most invoiced: \(Self.monthLabel(report.months[invoiced])), \(money(totals.months[invoiced].invoiced, totals.currency)). "
            + "Most paid: \(Self.monthLabel(report.months[paid])), \(money(totals.months[paid].paid, totals.currency))."
    }

    /// The smallest of 1, 2, 2.5 or 5 times a power of ten, times 4, that is at least `value` (1 for nothing).
    static func niceCeiling(_ value: Int64) -> Int64 {
        guard value > 0 else { return 4 }
        var power: Int64 = 1
        while power <= Int64.max / 100, power * 10 * 4 < value { power *= 10 }
        for factor: Int64 in [1, 2, 5, 10, 20, 50] where power.multipliedReportingOverflow(by: factor * 4).partialValue >= value {
            let (scale, overflow) = power.multipliedReportingOverflow(by: factor * 4)
            if !overflow { return scale }
        }
        return value
    }

    /// `text` escaped for XML text and attribute values.
    static func xml(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\u{0}"..."\u{8}", "\u{B}", "\u{C}", "\u{E}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
