/// A `--date-format` pattern, checked to name a day, a month and a year and nothing else.
///
/// The fields allowed are those of a Unicode date pattern that name a calendar day: `d` `dd` (day of the month),
/// `M` `MM` `MMM` `MMMM` (month: number, `Mar`, `March`), `y` `yy` `yyyy` (year). Every other character that is
/// not an ASCII letter is a literal separator (`/`, `.`, `-`, space, `,`); literal letters are quoted (`'de'`,
/// and `''` for an apostrophe). Each of day, month and year appears exactly once. Anything else is refused with
/// a suggestion, because `DateFormatter` would read it without a word and store the wrong day:
///
/// ```swift
/// try DatePattern("dd/MM/yyyy")   // fine
/// try DatePattern("dd/mm/yyyy")   // --date-format 'dd/mm/yyyy': mm is minutes; did you mean MM?
/// ```
public struct DatePattern: Sendable, Hashable, CustomStringConvertible {
    /// Why a pattern is refused; ``description`` is the message for the user.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// The pattern as given.
        public var pattern: String
        /// What is wrong, and what to write instead.
        public var message: String

        public var description: String { "--date-format '\(pattern)': \(message)" }
    }

    /// The pattern's text, as given.
    public let text: String

    public var description: String { text }

    /// Checks `text`.
    /// - Throws: ``Problem`` for a field that is not a day, month or year, a field missing or repeated, an
    ///   unclosed quote, or an empty pattern.
    public init(_ text: String) throws(Problem) {
        func refuse(_ message: String) -> Problem { Problem(pattern: text, message: message) }
        guard !text.isEmpty else { throw refuse("is empty; name a pattern such as dd/MM/yyyy") }
        var fields: [String: [String]] = [:]  // "day"/"month"/"year" → the fields found
        var characters = Array(text)[...]
        while let first = characters.first {
            if first == "'" {
                // Quoted literal text, up to the next lone quote; '' is an apostrophe.
                characters = characters.dropFirst()
                if characters.first == "'" {
                    characters = characters.dropFirst()
                    continue
                }
                var closed = false
                while let next = characters.popFirst() {
                    if next == "'" {
                        if characters.first == "'" {
                            characters = characters.dropFirst()
                            continue
                        }
                        closed = true
                        break
                    }
                }
                guard closed else {
                    throw refuse("a quote (') is never closed; quote literal text as in 'de', and write '' for an apostrophe")
                }
                continue
            }
            guard first.isASCII, first.isLetter else {
                characters = characters.dropFirst()
                continue
            }
            let run = String(characters.prefix { $0 == first })
            characters = characters.dropFirst(run.count)
            if let kind = Self.allowed[run] {
                fields[kind, default: []].append(run)
            } else {
                throw refuse(Self.refusal(of: run))
            }
        }
        for (kind, example) in [("day", "dd"), ("month", "MM"), ("year", "yyyy")] {
            let found = fields[kind] ?? []
            if found.isEmpty { throw refuse("has no \(kind); add \(example), e.g. dd/MM/yyyy") }
            if found.count > 1 {
                let fields = found.joined(separator: ", ")
                throw refuse("has \(found.count) \(kind) fields (\(fields)); name the \(kind) once")
            }
        }
        self.text = text
    }

    /// The fields allowed, and what each names.
    static let allowed: [String: String] = [
        "d": "day", "dd": "day",
        "M": "month", "MM": "month", "MMM": "month", "MMMM": "month",
        "y": "year", "yy": "year", "yyyy": "year",
    ]

    /// What a refused run of one pattern letter means, and what to write instead.
    static func refusal(of run: String) -> String {
        let letter = run.first!
        let count = run.count
        func repeated(_ letter: Character, _ count: Int) -> String { String(repeating: letter, count: count) }
        let removeIt = "only day, month and year are allowed (d, dd, M, MM, MMM, MMMM, y, yy, yyyy); remove it"
        switch letter {
        case "d": return "\(run) is not a day field; did you mean dd?"
        case "M": return "\(run) is not a month field; did you mean \(count > 4 ? "MMMM" : "MM")?"
        case "y": return "\(run) is not a year field; did you mean yyyy?"
        case "m": return "\(run) is minutes; did you mean \(repeated("M", min(count, 4)))?"
        case "D": return "\(run) is the day of the year; did you mean \(repeated("d", min(count, 2)))?"
        case "Y": return "\(run) is the year of a week-based calendar; did you mean \(count == 2 ? "yy" : "yyyy")?"
        case "u", "U", "r": return "\(run) is not the calendar year; did you mean \(count == 2 ? "yy" : "yyyy")?"
        case "L": return "\(run) is the stand-alone month; did you mean \(repeated("M", min(count, 4)))?"
        case "h", "H", "k", "K": return "\(run) is an hour; \(removeIt)"
        case "s": return "\(run) is seconds; \(removeIt)"
        case "S", "A": return "\(run) is a fraction of a second; \(removeIt)"
        case "a", "b", "B": return "\(run) is the time of day (AM/PM); \(removeIt)"
        case "E", "e", "c": return "\(run) is the day of the week; \(removeIt)"
        case "G": return "\(run) is the era; \(removeIt)"
        case "Q", "q": return "\(run) is the quarter; \(removeIt)"
        case "w", "W", "F": return "\(run) is a week; \(removeIt)"
        case "z", "Z", "v", "V", "O", "X", "x": return "\(run) is a time zone; \(removeIt)"
        default:
            return "\(run) is not a day, month or year field; quote literal letters, as in '\(run)', "
                + "or use d, dd, M, MM, MMM, MMMM, y, yy, yyyy"
        }
    }
}
