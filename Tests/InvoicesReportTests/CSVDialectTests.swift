import Foundation
import InvoicesCore
import InvoicesReport
import Testing

/// Spreadsheet-ready CSV (issue 45, item 4): `csv_dialect: excel` writes a byte order mark, and `;` between fields
/// and `,` in decimals where the locale writes decimals with a comma; the default stays RFC 4180, plain and exact.
struct CSVDialectTests {
    static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Text that a spreadsheet could take for a formula or that needs quoting in one dialect or the other.
    static let awkward = [
        "=1+2", "@a,b", "-x", "-12,50", "-12.50", "+1", "a;b", "x,y", "say \"hi\"", "two\r\nlines", "\tcmd", "1.5", "Acme",
    ]

    /// The values of `data` read by `dialect`: the byte order mark checked and dropped, fields split at the dialect's
    /// separator, and the decimal separator of `decimalColumns` read back as `.`.
    static func values(_ data: Data, _ dialect: CSVDialect, decimalColumns: Set<String>) throws -> [[String]] {
        let bytes = [UInt8](data)
        #expect(bytes.starts(with: bom) == dialect.byteOrderMark)
        let document = try CSVDocument(bytes: bytes, separator: dialect.fieldSeparator)
        let decimal = String(UnicodeScalar(dialect.decimalSeparator))
        return [document.header] + document.records.map { record in
            #expect(record.fields.count == document.header.count, "line \(record.line)")
            return zip(document.header, record.fields).map { name, value in
                decimalColumns.contains(name) ? value.replacingOccurrences(of: decimal, with: ".") : value
            }
        }
    }

    @Test(arguments: [
        ("de_DE", true), ("de-DE", true), ("fr_FR", true), ("nl_NL", true), ("es_ES", true),
        ("en_US", false), ("en_GB", false), ("de_CH", false), ("en_US_POSIX", false),
    ])
    func theSpreadsheetDialectFollowsTheLocalesDecimalSeparator(locale: String, decimalComma: Bool) {
        let excel = CSVDialect(.excel, locale: locale)
        #expect(excel.name == .excel && excel.byteOrderMark)
        #expect(excel.fieldSeparator == UInt8(ascii: decimalComma ? ";" : ","))
        #expect(excel.decimalSeparator == UInt8(ascii: decimalComma ? "," : "."))
        // The default ignores the locale.
        #expect(CSVDialect(.rfc4180, locale: locale) == .rfc4180)
    }

    @Test func onlyDecimalColumnsTakeTheDecimalComma() {
        var csv = CSVWriter(header: ["id", "amount", "issued", "invoices", "rate"], dialect: CSVDialect(.excel, locale: "de_DE"), decimalColumns: ["amount", "rate"])
        csv.append(["INV-1.2", "-1234.50", "2025-01-02", "3", "7.7"])
        csv.append(["3.5", "98765", "2025-12-31", "12", "20"])
        #expect(Array(csv.text.utf8) == Self.bom + Array("id;amount;issued;invoices;rate\r\nINV-1.2;-1234,50;2025-01-02;3;7,7\r\n3.5;98765;2025-12-31;12;20\r\n".utf8))
        // With a decimal point, the spreadsheet dialect is the default's bytes after the byte order mark.
        var point = CSVWriter(header: ["id", "amount"], dialect: CSVDialect(.excel, locale: "en_US"), decimalColumns: ["amount"])
        point.append(["a;b", "-1234.50"])
        #expect(Array(point.text.utf8) == Self.bom + Array("id,amount\r\na;b,-1234.50\r\n".utf8))
    }

    /// Quoting follows the field separator; neutralising is decided on the value, so both dialects read back alike.
    @Test func formulaNeutralisingIsTheSameInBothDialects() throws {
        let excel = CSVDialect(.excel, locale: "de_DE")
        var plain = CSVWriter(header: ["text", "amount"], decimalColumns: ["amount"])
        var sheet = CSVWriter(header: ["text", "amount"], dialect: excel, decimalColumns: ["amount"])
        for value in Self.awkward {
            plain.append([value, "-12.50"])
            sheet.append([value, "-12.50"])
        }
        let expected = try Self.values(Data(plain.text.utf8), .rfc4180, decimalColumns: ["amount"])
        #expect(try Self.values(Data(sheet.text.utf8), excel, decimalColumns: ["amount"]) == expected)
        #expect(expected.dropFirst().map { $0[0] } == Self.awkward.map { "=+-@\t".contains($0.first!) && $0 != "-12.50" ? "'" + $0 : $0 })
        let lines = sheet.text.dropFirst().components(separatedBy: "\r\n")
        #expect(lines.contains("'=1+2;-12,50"))
        #expect(lines.contains("'@a,b;-12,50"))  // a comma needs no quotes between semicolons
        #expect(lines.contains("'-12,50;-12,50"))  // text, neutralised as in the default; the amount is a number
        #expect(lines.contains("\"a;b\";-12,50"))
    }

    /// Every export, in both spreadsheet dialects, reads back by its own dialect to exactly the default's values.
    @Test(arguments: ["de_DE", "en_US"])
    func everyExportReadsBackToTheDefaultValues(locale: String) throws {
        let dialect = CSVDialect(.excel, locale: locale)
        // The small store's awkward names, and a generated store with every kind of row (v2: taxes, refunds).
        for (books, generated) in [(try ExportsTests().books(), false), (try ExportsTests().generatedBooks(), true)] {
            let report = try Report(books: books)
            let plain = ReportExports(books: books, report: report)
            let sheet = ReportExports(books: books, report: report, csvDialect: dialect)
            for file in ReportExports.File.allCases where file != .json {
                let expected = try Self.values(plain.data(file), .rfc4180, decimalColumns: [])
                #expect(try Self.values(sheet.data(file), dialect, decimalColumns: ReportExports.decimalColumns) == expected, "\(file)")
                #expect(!generated || expected.count > 1, "\(file)")
                if dialect.decimalSeparator == UInt8(ascii: ",") {
                    #expect(sheet.data(file) != plain.data(file))
                } else {
                    #expect(sheet.data(file) == Data(Self.bom) + plain.data(file))
                }
            }
            #expect(sheet.data(.json) == plain.data(.json))
        }
    }
}
