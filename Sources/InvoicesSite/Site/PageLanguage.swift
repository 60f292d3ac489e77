import Foundation
internal import InvoicesCore

/// The language a page is written in: its words (a ``Translation``), its `lang` and `dir`, and how it writes dates,
/// months and amounts.
///
/// English pages keep the tool's stable formats: ISO dates, English month names and the `locale` option's amounts
/// (`en_US_POSIX` by default). A page in another language takes its month and quarter names from Foundation's CLDR
/// data and writes dates and amounts for its language, or for `locale` when that option is set.
struct PageLanguage: Sendable {
    let translation: Translation
    /// The locale amounts (and in another language than English, dates and months) are written for.
    let formatLocale: String
    /// The month names (format context), January first; English: the tool's own.
    let monthNames: [String]
    /// The abbreviated month names, for the chart's axis.
    let shortMonthNames: [String]
    /// The abbreviated quarter names (`Q1`; CLDR's `T1`, `K1`...).
    let quarterNames: [String]
    /// How a month is named (`MMMM y`), and a date written (`dd.MM.y`); nil: ISO 8601 dates.
    let monthPattern: DatePattern
    let datePattern: DatePattern?

    var tag: LanguageTag { translation.tag }
    /// `rtl` for a language written right to left, else nil.
    var direction: String? { tag.isRightToLeft ? "rtl" : nil }

    static let englishMonths = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
    ]
    static let englishShortMonths = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The page language of `translation`, its formats for `options` (``SiteOptions/formatLocale(for:)``).
    init(_ translation: Translation, options: SiteOptions) {
        self.translation = translation
        let tag = translation.tag
        formatLocale = options.formatLocale(for: tag)
        guard !tag.isEnglish else {
            monthNames = Self.englishMonths
            shortMonthNames = Self.englishShortMonths
            quarterNames = ["Q1", "Q2", "Q3", "Q4"]
            monthPattern = DatePattern("MMMM y")
            datePattern = nil
            return
        }
        let locale = Locale(identifier: formatLocale)
        let formatter = DateFormatter()
        formatter.locale = locale
        monthNames = formatter.monthSymbols
        shortMonthNames = formatter.shortStandaloneMonthSymbols.map { $0.replacingOccurrences(of: ".", with: "") }
        quarterNames = formatter.shortQuarterSymbols
        monthPattern = DatePattern(DateFormatter.dateFormat(fromTemplate: "MMMMy", options: 0, locale: locale) ?? "MMMM y")
        datePattern = DatePattern(DateFormatter.dateFormat(fromTemplate: "ddMMyyyy", options: 0, locale: locale) ?? "y-MM-dd")
    }

    /// The text of `key` with its `{name}` placeholders filled.
    func text(_ key: String, _ values: [String: String] = [:]) -> String { translation.text(key, values) }

    /// A date as the page writes it: ISO 8601 (`2025-03-31`) in English, else in the language's numeric form
    /// (`31.03.2025`, `31/03/2025`).
    func date(_ date: CalendarDate) -> String {
        guard let datePattern else { return date.description }
        let (year, month, day) = date.components
        return datePattern.format(year: year, month: month, day: day, months: monthNames)
    }

    /// A month's name with its year: `March 2025`, `März 2025`, `mars 2025`.
    func monthLabel(_ month: YearMonth) -> String {
        monthPattern.format(year: month.year, month: month.month, day: 1, months: monthNames)
    }

    /// A month's name alone (1–12).
    func monthName(_ month: Int) -> String { monthNames[month - 1] }
}

/// A CLDR date pattern (`dd.MM.y`, `MMMM 'de' y`), parsed once: its fields (`y`, `M`, `d` runs) and literal text.
struct DatePattern: Sendable {
    enum Part: Sendable { case literal(String), year(Int), month(Int), day(Int) }
    let parts: [Part]

    init(_ pattern: String) {
        var parts: [Part] = []
        var characters = Substring(pattern)
        var literal = ""
        func flush() {
            if !literal.isEmpty { parts.append(.literal(literal)) }
            literal = ""
        }
        while let character = characters.first {
            if character == "'" {
                // 'quoted text', '' is a quote.
                characters = characters.dropFirst()
                if characters.first == "'" {
                    literal.append("'")
                    characters = characters.dropFirst()
                    continue
                }
                while let next = characters.first {
                    characters = characters.dropFirst()
                    if next == "'" {
                        if characters.first == "'" {
                            literal.append("'")
                            characters = characters.dropFirst()
                            continue
                        }
                        break
                    }
                    literal.append(next)
                }
            } else if "yMLd".contains(character) {
                let run = characters.prefix { $0 == character }.count
                flush()
                switch character {
                case "y": parts.append(.year(run))
                case "d": parts.append(.day(run))
                default: parts.append(.month(run))
                }
                characters = characters.dropFirst(run)
            } else if character.isLetter {
                // A field the tool does not write (an era, a weekday): left out.
                characters = characters.drop { $0 == character }
            } else {
                literal.append(character)
                characters = characters.dropFirst()
            }
        }
        flush()
        self.parts = parts
    }

    func format(year: Int, month: Int, day: Int, months: [String]) -> String {
        var result = ""
        func padded(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
        }
        for part in parts {
            switch part {
            case .literal(let text): result += text
            case .year(let width): result += width == 2 ? padded(year % 100, 2) : padded(year, width)
            case .month(let width): result += width >= 3 ? months[month - 1] : padded(month, width)
            case .day(let width): result += padded(day, width)
            }
        }
        return result
    }
}

extension SiteOptions {
    /// The locale a page in `language` formats amounts for (and, in another language than English, dates): the
    /// `locale` option when it is set, else English pages keep `locale`'s default (`en_US_POSIX`, stable output) and
    /// other pages take their language's own (`de-CH`: `de_CH`).
    func formatLocale(for language: LanguageTag) -> String {
        localeFollowsLanguage && !language.isEnglish ? language.localeIdentifier : locale
    }
}
