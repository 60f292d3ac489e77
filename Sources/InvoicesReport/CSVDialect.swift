internal import Foundation

/// How the CSV files are written: plain RFC 4180 (the default), or for a spreadsheet (`csv_dialect: excel`).
///
/// The default is exact and the same on every machine: no byte order mark, fields separated by `,`, decimals with
/// `.`. The spreadsheet dialect starts every file with a UTF-8 byte order mark (so a spreadsheet reads it as
/// UTF-8) and follows the report's locale: where Foundation's number formatter gives the locale a decimal comma
/// (de_DE, fr_FR, nl_NL and most of Europe), fields are separated by `;` and decimal fields use `,`; elsewhere `,`
/// and `.`. Only the fields a writer marks as decimals change (``CSVWriter/init(header:dialect:decimalColumns:)``);
/// identifiers, dates and whole numbers stay as they are, and no dialect has thousands separators. Formula
/// neutralising is the same in both (docs/exports.md).
///
/// ```swift
/// let dialect = CSVDialect(.excel, locale: "de_DE")   // BOM, `;`, `1234,50`
/// var csv = CSVWriter(header: ["client", "amount"], dialect: dialect, decimalColumns: ["amount"])
/// ```
public struct CSVDialect: Sendable, Hashable {
    /// The dialects `--csv-dialect` and the key `csv_dialect` name.
    public enum Name: String, Sendable, CaseIterable {
        /// RFC 4180, plain and exact: the default.
        case rfc4180
        /// For a spreadsheet: a byte order mark, and the separators of the report's locale.
        case excel
    }

    public var name: Name
    /// Whether every file starts with the UTF-8 byte order mark (EF BB BF).
    public var byteOrderMark: Bool
    /// The byte between fields: `,` or `;`.
    public var fieldSeparator: UInt8
    /// The byte decimal fields are written with: `.` or `,`.
    public var decimalSeparator: UInt8

    /// RFC 4180: no byte order mark, `,` between fields, `.` in decimals.
    public static let rfc4180 = CSVDialect(name: .rfc4180, byteOrderMark: false, fieldSeparator: UInt8(ascii: ","), decimalSeparator: UInt8(ascii: "."))

    /// The dialect `name` for a report in `locale` (an identifier such as `de_DE` or `de-DE`): the default ignores the
    /// locale; `excel` takes `;` and `,` where the locale's decimal separator is a comma, else `,` and `.`.
    public init(_ name: Name, locale: String) {
        switch name {
        case .rfc4180:
            self = .rfc4180
        case .excel:
            let comma = Self.hasDecimalComma(locale)
            self.init(
                name: .excel, byteOrderMark: true, fieldSeparator: UInt8(ascii: comma ? ";" : ","),
                decimalSeparator: UInt8(ascii: comma ? "," : "."))
        }
    }

    init(name: Name, byteOrderMark: Bool, fieldSeparator: UInt8, decimalSeparator: UInt8) {
        self.name = name
        self.byteOrderMark = byteOrderMark
        self.fieldSeparator = fieldSeparator
        self.decimalSeparator = decimalSeparator
    }

    /// Whether Foundation's number formatter writes decimals in `locale` with a comma.
    static func hasDecimalComma(_ locale: String) -> Bool {
        let formatter = NumberFormatter()
        formatter.locale = Locale(identifier: locale.replacingOccurrences(of: "-", with: "_"))
        formatter.numberStyle = .decimal
        return formatter.decimalSeparator == ","
    }
}
