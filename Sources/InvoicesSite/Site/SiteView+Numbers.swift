internal import InvoicesCore

/// Rates and counts as the pages write numbers (issue 43): on a page in another language than English in the page's
/// number form, with the separators its amounts have (``MoneyFormatter/number(_:fractionDigits:)``); English pages
/// keep the tool's forms (`7.7 %`, `1200`).
extension SiteView {
    /// A tax rate: `7.7 %`; `7,7 %` in German, `8,125 %`.
    func rate(_ tax: TaxRate) -> String {
        guard !language.tag.isEnglish else { return tax.percent + " %" }
        var units = Int64(tax.milliPercent)
        var digits = 3
        while digits > 0, units % 10 == 0 {
            units /= 10
            digits -= 1
        }
        return formatter.number(units, fractionDigits: digits) + " %"
    }

    /// A count: `1200`; `1.200` in German, `1 200` in French (a narrow no-break space).
    func count(_ value: Int) -> String {
        language.tag.isEnglish ? String(value) : formatter.number(Int64(value), fractionDigits: 0)
    }
}
