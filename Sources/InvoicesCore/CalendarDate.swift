/// A calendar date (year, month, day) with no time and no time zone, stored as a day number.
///
/// Dates in the store are `YYYY-MM-DD` text; they are calendar dates and are never shifted by the machine's
/// time zone.
public struct CalendarDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01 (negative before).
    public var dayNumber: Int32

    public init(dayNumber: Int32) { self.dayNumber = dayNumber }

    /// The date for a year, month and day, or nil when there is no such day (2025-02-30).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1,
            day <= CalendarDate.daysIn(year: year, month: month)
        else { return nil }
        // Days from civil (H. Hinnant's algorithm, proleptic Gregorian calendar).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        self.dayNumber = Int32(era * 146097 + doe - 719468)
    }

    /// Parses `YYYY-MM-DD`; nil when the text is not exactly that or names no real day.
    public init?(iso text: String) {
        var text = text
        guard let date = text.withUTF8({ CalendarDate(isoBytes: $0) }) else { return nil }
        self = date
    }

    /// Parses `YYYY-MM-DD` from UTF-8 bytes.
    public init?(isoBytes bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let digit = Int(bytes[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// Year, month and day.
    public var components: (year: Int, month: Int, day: Int) {
        let z = Int(dayNumber) + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The month this date falls in.
    public var month: YearMonth {
        let c = components
        return YearMonth(year: c.year, month: c.month)
    }

    /// This date plus `days` days.
    public func adding(days: Int) -> CalendarDate { CalendarDate(dayNumber: dayNumber + Int32(days)) }

    /// `YYYY-MM-DD`.
    public var description: String {
        let c = components
        guard (0...9999).contains(c.year) else {
            return YearMonth.pad(c.year, 4) + "-" + YearMonth.pad(c.month, 2) + "-" + YearMonth.pad(c.day, 2)
        }
        return String(unsafeUninitializedCapacity: 10) { buffer in
            func put(_ value: Int, _ at: Int, _ width: Int) {
                var value = value
                for offset in stride(from: width - 1, through: 0, by: -1) {
                    buffer[at + offset] = UInt8(48 + value % 10)
                    value /= 10
                }
            }
            put(c.year, 0, 4)
            buffer[4] = UInt8(ascii: "-")
            put(c.month, 5, 2)
            buffer[7] = UInt8(ascii: "-")
            put(c.day, 8, 2)
            return 10
        }
    }

    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool { lhs.dayNumber < rhs.dayNumber }

    static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// A calendar month, `YYYY-MM`.
public struct YearMonth: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int

    public init(year: Int, month: Int) {
        self.year = year
        self.month = month
    }

    /// Parses `YYYY-MM`; nil for anything else.
    public init?(iso text: String) {
        guard let date = CalendarDate(iso: text + "-01") else { return nil }
        self = date.month
    }

    /// A running month number (year * 12 + month - 1), for arrays indexed by month.
    public var index: Int { year * 12 + month - 1 }

    /// The month with running number `index`.
    public init(index: Int) { self.init(year: index / 12, month: index % 12 + 1) }

    /// The first day of the month.
    public var firstDay: CalendarDate { CalendarDate(year: year, month: month, day: 1)! }
    /// The last day of the month.
    public var lastDay: CalendarDate { CalendarDate(year: year, month: month, day: CalendarDate.daysIn(year: year, month: month))! }
    /// The month before.
    public var previous: YearMonth { YearMonth(index: index - 1) }
    /// The month after.
    public var next: YearMonth { YearMonth(index: index + 1) }

    /// `YYYY-MM`.
    public var description: String { YearMonth.pad(year, 4) + "-" + YearMonth.pad(month, 2) }

    public static func < (lhs: YearMonth, rhs: YearMonth) -> Bool { lhs.index < rhs.index }

    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
