import Foundation
internal import InvoicesCore

/// Reads the dates of an import: `YYYY-MM-DD` always, and one `--date-format` pattern when given.
///
/// A pattern is a ``DatePattern`` (`dd/MM/yyyy`, `MM/dd/yyyy`, `d MMM yyyy`: day, month and year fields only)
/// read by Foundation's `DateFormatter` with the `en_US_POSIX` locale in UTC, not leniently: a date must format
/// back to the same text, so `31/02/2025` and `2025-01-05` are refused rather than guessed at. Two-digit years
/// (`yy`) are read as POSIX `strptime` reads them: 69–99 are 1969–1999, 00–68 are 2000–2068.
final class DateReader {
    let pattern: String?
    private let formatter: DateFormatter?
    private var calendar = Calendar(identifier: .gregorian)

    init(pattern: String?) {
        self.pattern = pattern
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let pattern else {
            formatter = nil
            return
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.calendar = calendar
        formatter.isLenient = false
        formatter.dateFormat = pattern
        formatter.twoDigitStartDate = calendar.date(from: DateComponents(year: 1969, month: 1, day: 1))
        self.formatter = formatter
    }

    /// The expected form, for messages.
    var expected: String { pattern.map { "a date YYYY-MM-DD or '\($0)' (--date-format)" } ?? "a date YYYY-MM-DD; for other forms use --date-format, e.g. --date-format dd/MM/yyyy" }

    /// The date `text` names, or nil.
    func date(_ text: String) -> CalendarDate? {
        if let date = CalendarDate(iso: text) { return date }
        guard let formatter else { return nil }
        guard let date = formatter.date(from: text), formatter.string(from: date) == text else { return nil }
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        guard let year = parts.year, let month = parts.month, let day = parts.day else { return nil }
        return CalendarDate(year: year, month: month, day: day)
    }
}
