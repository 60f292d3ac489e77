internal import InvoicesCore

/// Rates and counts as the pages write numbers (issue 43): on a page in another language than English in the page's
/// number form, with the separators its amounts have (``MoneyFormatter/number(_:fractionDigits:)``); English pages
/// keep the tool's forms (`7.7 %`, `1200`) unless `locale` is set, as their amounts do.
extension SiteView {
    /// Whether numbers keep the tool's own forms: an English page in the default locale.
    private var plainNumbers: Bool { language.tag.isEnglish && language.formatLocale == SiteOptions.defaultLocale }

    /// A tax rate: `7.7 %`; `7,7 %` in German, `8,125 %`.
    func rate(_ tax: TaxRate) -> String {
        guard !plainNumbers else { return tax.percent + " %" }
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
        plainNumbers ? String(value) : formatter.number(Int64(value), fractionDigits: 0)
    }
}
