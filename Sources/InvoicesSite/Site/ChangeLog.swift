import Foundation
public import InvoicesCore
public import InvoicesReport

/// What changed in the books since the previous report, for `changes.html` and `changes.csv` (issue 32).
public struct ChangeLog: Sendable {
    /// Whether a previous build left a trail to compare with; without one the page says this is the first report.
    public var hasPrevious: Bool
    /// The differences, in the trail's order (documents by kind and key, then the figures that moved).
    public var changes: [Trail.Change]
    /// The day the books are closed through, if they are (changes on or before it are marked).
    public var closedThrough: CalendarDate?

    public init(hasPrevious: Bool = false, changes: [Trail.Change] = [], closedThrough: CalendarDate? = nil) {
        self.hasPrevious = hasPrevious
        self.changes = changes
        self.closedThrough = closedThrough
    }

    /// The columns of `changes.csv`.
    public static let columns = ["record", "name", "change", "field", "before", "after", "closed_period"]

    /// Every change as CSV (RFC 4180, CRLF), a header line first.
    public var csv: String { csv(dialect: .rfc4180) }

    /// Every change as CSV in `dialect`, a header line first. The values before and after are text as the trail
    /// holds them: their decimals keep their `.` in every dialect.
    public func csv(dialect: CSVDialect) -> String {
        var writer = CSVWriter(header: Self.columns, dialect: dialect)
        for change in changes {
            writer.append([
                change.kind.rawValue, change.name, change.what.rawValue, change.field, change.before, change.after,
                change.closed ? "yes" : "",
            ])
        }
        var data = Data()
        writer.flush { data.append(contentsOf: $0) }
        return String(decoding: data, as: UTF8.self)
    }
}

extension SiteBuilder {
    /// A fingerprint of everything the books' trail is made of (every document and figure) and more (the options,
    /// the executable): when it equals the previous build's, the books are the same and so is their trail.
    public func booksFingerprint() -> UInt64 {
        inputs.all
    }
}
