internal import InvoicesCore

/// The dates of a service's export (Xero, QuickBooks Online, Invoice Ninja, Wave) as the service or a spreadsheet
/// writes them: `d/M/yyyy` in the organisation's order, day first or month first. The order is read from the file
/// when one of its dates has a first number past 12 (day first) or a second one past 12 (month first); otherwise `--date-format` decides (a pattern starting with `d` is day first, with `M` month first). ISO dates and
/// dates in the `--date-format` pattern are read too.
struct ServiceDates {
    enum Order { case dayFirst, monthFirst }
    let order: Order?
    let fallback: DateReader
    /// Why the order could not be told, at the first ambiguous date.
    let problem: (SourceLocation, String)?

    /// The order of the dates in `columns` of `rows` (Xero's by default).
    init(rows: [CSVTable.Row], fallback: DateReader, columns: [String] = ["InvoiceDate", "DueDate"]) {
        self.fallback = fallback
        var dayFirst: (SourceLocation, String)?
        var monthFirst: (SourceLocation, String)?
        var ambiguous: (SourceLocation, String)?
        for row in rows {
            for column in columns {
                guard let (a, b, _) = Self.parts(row[column]).map({ ($0.0, $0.1, $0.2) }) else { continue }
                if a > 12, dayFirst == nil { dayFirst = (row.location, row[column]) }
                if b > 12, monthFirst == nil { monthFirst = (row.location, row[column]) }
                if ambiguous == nil { ambiguous = (row.location, row[column]) }
            }
        }
        let pattern = fallback.pattern?.first
        switch (dayFirst, monthFirst) {
        case (let day?, let month?):
            order = nil
            problem = (month.0, "'\(month.1)' is month first, but '\(day.1)' on line \(day.0.line ?? 0) is day first; a file's dates have one order")
        case (.some, nil): (order, problem) = (.dayFirst, nil)
        case (nil, .some): (order, problem) = (.monthFirst, nil)
        case (nil, nil):
            if pattern == "d" { (order, problem) = (.dayFirst, nil) } else if pattern == "M" { (order, problem) = (.monthFirst, nil) } else {
                order = nil
                problem = ambiguous.map { location, text in
                    (location, "'\(text)' and every other date of the file read day first or month first alike; give --date-format dd/MM/yyyy or MM/dd/yyyy")
                }
            }
        }
    }

    /// The three numbers of `a/b/yyyy` (one or two digits, then four).
    static func parts(_ text: String) -> (Int, Int, Int)? {
        let fields = text.split(separator: "/", omittingEmptySubsequences: false)
        guard fields.count == 3, fields[0].count <= 2, fields[1].count <= 2, fields[2].count == 4,
            fields.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let a = Int(fields[0]), let b = Int(fields[1]), let year = Int(fields[2])
        else { return nil }
        return (a, b, year)
    }

    var expected: String {
        switch order {
        case .dayFirst: "a date d/M/yyyy (day first, as the file's other dates)"
        case .monthFirst: "a date M/d/yyyy (month first, as the file's other dates)"
        case nil: fallback.expected
        }
    }

    func date(_ text: String) -> CalendarDate? {
        if let (a, b, year) = Self.parts(text) {
            switch order {
            case .dayFirst: return CalendarDate(year: year, month: b, day: a)
            case .monthFirst: return CalendarDate(year: year, month: a, day: b)
            case nil: return nil
            }
        }
        return fallback.date(text)
    }
}

extension RowContext {
    /// The date in `column` of `row`, read in the order `reader` found for the file; an empty cell as ``date(_:_:_:required:)``.
    mutating func serviceDate(_ row: CSVTable.Row, _ column: String, _ reader: ServiceDates, required: Bool) -> CalendarDate?? {
        let text = row[column]
        if text.isEmpty { return date(text, row.location, column, required: required) }
        if let date = reader.date(text) { return .some(date) }
        problem(row.location, column, "'\(text)' is not \(reader.expected), naming a real day")
        return nil
    }
}
