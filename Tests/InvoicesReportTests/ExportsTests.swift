import Foundation
import InvoicesCore
import InvoicesReport
import InvoicesStore
import InvoicesTesting
import Testing

/// A small RFC 4180 reader, written for the tests independently of ``CSVWriter``.
enum RFC4180 {
    struct Malformed: Error {}

    /// The records of `text`; every record must end with CRLF.
    static func records(_ text: String) throws -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var bytes = Array(text.utf8)[...]
        while let byte = bytes.popFirst() {
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if bytes.first == UInt8(ascii: "\"") {
                        field.append(byte)
                        bytes = bytes.dropFirst()
                    } else {
                        quoted = false
                        guard [UInt8(ascii: ","), 13].contains(bytes.first) else { throw Malformed() }
                    }
                } else {
                    field.append(byte)
                }
            } else if byte == UInt8(ascii: "\"") {
                guard field.isEmpty else { throw Malformed() }
                quoted = true
            } else if byte == UInt8(ascii: ",") {
                record.append(String(decoding: field, as: UTF8.self))
                field = []
            } else if byte == 13 {
                guard bytes.popFirst() == 10 else { throw Malformed() }
                record.append(String(decoding: field, as: UTF8.self))
                records.append(record)
                record = []
                field = []
            } else {
                guard byte != 10 else { throw Malformed() }  // a bare LF outside quotes
                field.append(byte)
            }
        }
        guard !quoted, field.isEmpty, record.isEmpty else { throw Malformed() }
        return records
    }
}

struct ExportsTests {
    static let awkwardName = "Smith, \"Jr\" & Co\nLtd"

    /// The small store plus a client with commas, quotes and a newline in its name, and one starting with '='.
    static let sql = StoreFixture.small + """

        INSERT INTO client (id, number, name) VALUES
          (3, 'C-003', 'Smith, "Jr" & Co' || char(10) || 'Ltd'),
          (4, 'C-004', '=HYPERLINK("http://x.example","y")');
        INSERT INTO invoice (id, identifier, clientId, amount, currency, issuedOn, dueOn, paidOn) VALUES
          (5, 'INV-5', 3, 987654, 'USD', '2025-01-10', '2025-01-20', NULL),
          (6, 'INV-6', 4, 7, 'JPY', '2025-02-28', '2025-02-28', NULL);
        """

    func books(_ sql: String = ExportsTests.sql) throws -> Books {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try StoreFixture.make(at: folder.path("s.sqlite"), sql: sql)
        return try BooksStore(path: folder.path("s.sqlite")).books
    }

    func generatedBooks() throws -> Books {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try SampleGenerator(clients: 25, invoices: 1_500, seed: 99).write(to: folder.path("g.sqlite"))
        return try BooksStore(path: folder.path("g.sqlite")).books
    }

    @Test func csvFieldsAreQuotedOnlyWhenNeeded() {
        #expect(CSVWriter.field("Acme") == "Acme")
        #expect(CSVWriter.field("a,b") == "\"a,b\"")
        #expect(CSVWriter.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSVWriter.field("two\r\nlines") == "\"two\r\nlines\"")
    }

    /// OWASP's CSV injection advice: text that starts like a formula gets a `'`; amounts stay numbers (issue 28).
    @Test func cellsThatStartLikeAFormulaAreNeutralisedAndAmountsAreNot() {
        for formula in ["=1+2", "+1", "-x", "@SUM(A1)", "\tcmd", "\rcmd", "-", "-1+1", "-2.5.1", "=HYPERLINK(\"x\")"] {
            #expect(CSVWriter.field(formula).hasPrefix("'") || CSVWriter.field(formula).hasPrefix("\"'"), "\(formula)")
        }
        #expect(CSVWriter.field("=1+2") == "'=1+2")
        #expect(CSVWriter.field("@a,b") == "\"'@a,b\"")
        for number in ["-12.50", "-7", "0.00", "12.345", "2025-Q1", "Acme = Inc"] {
            #expect(CSVWriter.field(number) == number)
        }
    }

    @Test func totalsCSVRowsAreTheReportsActiveCells() throws {
        for books in [try books(), try generatedBooks()] {
            let report = try Report(books: books)
            let text = ReportExports(books: books, report: report).totalsCSV()
            #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\r"))
            var records = try RFC4180.records(text)
            #expect(records.removeFirst() == ReportExports.totalsColumns)
            var expected: [[String]] = []
            for totals in report.clients {
                let client = books.clients[totals.clientIndex]
                for entry in totals.currencies {
                    for (offset, figures) in entry.months.enumerated() where figures.isActive {
                        // docs/exports.md: a name that starts like a formula gets a `'` in front.
                        let name = "=+-@\t\r".unicodeScalars.contains(client.name.unicodeScalars.first ?? " ") ? "'" + client.name : client.name
                        expected.append([
                            client.number, name, entry.currency.code, report.months[offset].description,
                            String(figures.invoiced), String(figures.paid), String(figures.outstanding),
                            String(figures.overdue), String(figures.invoices), String(figures.net), String(figures.tax),
                            String(figures.credited), String(figures.writtenOff), String(figures.credit),
                        ])
                    }
                }
            }
            #expect(records.count == expected.count)
            // Parse the amounts back into minor units and compare them with the report's.
            for (record, want) in zip(records, expected) {
                #expect(record.count == 16)
                // The month's fiscal year and quarter, with the default start (January): the calendar's.
                let month = Int(record[3].suffix(2))!
                #expect(record[14] == String(record[3].prefix(4)) && record[15] == "Q\((month - 1) / 3 + 1)")
                #expect(Array(record[0..<4]) == Array(want[0..<4]))
                let currency = try CurrencyCode(record[2])
                for column in [4, 5, 6, 7, 9, 10, 11, 12, 13] {
                    let cell = record[column]
                    let decimals = cell.split(separator: ".").dropFirst().first?.count ?? 0
                    #expect(decimals == currency.minorUnitDigits, "\(cell) in \(currency)")
                    #expect(String(try Money(parsing: cell, currency: currency).minorUnits) == want[column])
                }
                #expect(record[8] == want[8])
            }
        }
    }

    @Test func awkwardNamesSurviveTheRoundTrip() throws {
        let books = try books()
        let report = try Report(books: books)
        let exports = ReportExports(books: books, report: report)
        let totals = try RFC4180.records(exports.totalsCSV())
        let smith = try #require(totals.first { $0[0] == "C-003" })
        #expect(smith == ["C-003", Self.awkwardName, "USD", "2025-01", "9876.54",
            "0.00", "9876.54", "9876.54", "1", "9876.54", "0.00", "0.00", "0.00", "0.00", "2025", "Q1"])
        let formula = try #require(totals.first { $0[0] == "C-004" })
        // Neutralised for spreadsheets in the CSV; exact in report.json (below).
        #expect(formula[1] == "'=HYPERLINK(\"http://x.example\",\"y\")")
        #expect(formula[4] == "7")
        let json = try #require(try JSONSerialization.jsonObject(with: exports.json()) as? [String: Any])
        let clients = try #require(json["clients"] as? [[String: Any]])
        #expect(clients.compactMap { $0["name"] as? String }.contains(Self.awkwardName))
        #expect(clients.compactMap { $0["name"] as? String }.contains("=HYPERLINK(\"http://x.example\",\"y\")"))
        let aging = try RFC4180.records(exports.agingCSV())
        #expect(aging.first == ReportExports.agingColumns)
        #expect(aging.contains { $0[0] == "C-003" && $0[1] == Self.awkwardName })
    }

    @Test func agingCSVMatchesTheReport() throws {
        let books = try generatedBooks()
        let asOf = try #require(CalendarDate(iso: "2025-06-30"))
        let report = try Report(books: books, period: ReportPeriod(asOf: asOf))
        var records = try RFC4180.records(ReportExports(books: books, report: report).agingCSV())
        #expect(records.removeFirst() == ReportExports.agingColumns)
        var expected: [[Int64]] = []
        for totals in report.clients {
            for entry in totals.currencies where entry.period.outstanding != 0 { expected.append(entry.aging.buckets) }
        }
        #expect(records.count == expected.count)
        #expect(!records.isEmpty)
        for (record, want) in zip(records, expected) {
            #expect(record[3] == "2025-06-30")
            let currency = try CurrencyCode(record[2])
            #expect(try record[4...].map { try Money(parsing: $0, currency: currency).minorUnits } == want)
        }
    }

    @Test func jsonHasEveryFigureExactly() throws {
        let books = try generatedBooks()
        let report = try Report(books: books)
        let data = ReportExports(books: books, report: report).json()
        #expect(data == ReportExports(books: books, report: report).json())
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["schema_version"] as? Int == ReportExports.schemaVersion)
        let period = try #require(json["period"] as? [String: Any])
        #expect(period["as_of"] as? String == report.asOf?.description)
        #expect(period["months"] as? [String] == report.months.map(\.description))

        func check(_ amount: Any?, _ minorUnits: Int64, _ currency: CurrencyCode) throws {
            let object = try #require(amount as? [String: Any])
            #expect((object["minor_units"] as? NSNumber)?.int64Value == minorUnits)
            #expect(object["currency"] as? String == currency.code)
            let decimal = try #require(object["decimal"] as? String)
            #expect(try Money(parsing: decimal, currency: currency).minorUnits == minorUnits)
        }
        func check(_ object: [String: Any], _ figures: Figures, _ currency: CurrencyCode) throws {
            try check(object["invoiced"], figures.invoiced, currency)
            try check(object["paid"], figures.paid, currency)
            try check(object["outstanding"], figures.outstanding, currency)
            try check(object["overdue"], figures.overdue, currency)
            try check(object["net"], figures.net, currency)
            try check(object["tax"], figures.tax, currency)
            try check(object["credited"], figures.credited, currency)
            try check(object["written_off"], figures.writtenOff, currency)
            try check(object["credit"], figures.credit, currency)
            #expect(object["invoices"] as? Int == figures.invoices)
        }
        let totals = try #require(json["totals"] as? [[String: Any]])
        #expect(totals.count == report.currencies.count)
        for (object, want) in zip(totals, report.currencies) {
            #expect(object["currency"] as? String == want.currency.code)
            #expect(object["minor_unit_digits"] as? Int == want.currency.minorUnitDigits)
            try check(try #require(object["period"] as? [String: Any]), want.period, want.currency)
            let aging = try #require(object["aging"] as? [String: Any])
            let buckets = ["not_due", "days_1_30", "days_31_60", "days_61_90", "days_over_90"]
            for (name, value) in zip(buckets, want.aging.buckets) { try check(aging[name], value, want.currency) }
            let months = try #require(object["months"] as? [[String: Any]])
            #expect(months.count == report.months.count)
            for (index, month) in months.enumerated() {
                #expect(month["month"] as? String == report.months[index].description)
                try check(month, want.months[index], want.currency)
            }
        }
        let clients = try #require(json["clients"] as? [[String: Any]])
        #expect(clients.count == report.clients.count)
        for (object, want) in zip(clients, report.clients) {
            #expect(object["number"] as? String == books.clients[want.clientIndex].number)
            let currencies = try #require(object["currencies"] as? [[String: Any]])
            for (entry, wantEntry) in zip(currencies, want.currencies) {
                let months = try #require(entry["months"] as? [[String: Any]])
                let active = wantEntry.months.indices.filter { wantEntry.months[$0].isActive }
                #expect(months.map { $0["month"] as? String } == active.map { report.months[$0].description })
                for (month, index) in zip(months, active) { try check(month, wantEntry.months[index], wantEntry.currency) }
            }
        }
    }

    @Test func paymentsAndTaxesCSVListEveryPaymentAndTaxExactly() throws {
        let books = try generatedBooks()
        let report = try Report(books: books)
        let exports = ReportExports(books: books, report: report)
        var payments = try RFC4180.records(exports.paymentsCSV())
        #expect(payments.removeFirst() == ReportExports.paymentsColumns)
        #expect(payments.count == books.payments.count)
        for (record, payment) in zip(payments, books.payments) {
            let invoice = books.invoices[Int(payment.invoiceIndex)]
            #expect(record[0] == invoice.identifier)
            #expect(record[4] == payment.date.description)
            let currency = try CurrencyCode(record[3])
            #expect(try Money(parsing: record[5], currency: currency).minorUnits == payment.amount)
            #expect(record[6] == (payment.amount < 0 ? "refund" : "payment"))
            #expect(record[9] == String(payment.date.month.year) && record[10] == "Q\((payment.date.month.month - 1) / 3 + 1)")
        }
        #expect(payments.contains { $0[6] == "refund" })
        var taxes = try RFC4180.records(exports.taxesCSV())
        #expect(taxes.removeFirst() == ReportExports.taxesColumns)
        #expect(!taxes.isEmpty)
        // Per currency, tax and rate, the months add up to the report's period figures on both bases.
        for totals in report.taxes {
            let tax = books.taxes[totals.taxIndex]
            let rows = taxes.filter { $0[0] == totals.currency.code && $0[1] == tax.name && $0[2] == tax.percent }
            let sums = try (4..<8).map { column in
                try rows.reduce(Int64(0)) { $0 + (try Money(parsing: $1[column], currency: totals.currency).minorUnits) }
            }
            #expect(sums == [totals.period.accrualNet, totals.period.accrualTax, totals.period.cashNet, totals.period.cashTax])
        }
        // Each month's fiscal year and quarter: by the calendar, and with years from April.
        #expect(taxes.allSatisfy { row in
            let (year, month) = (Int(row[3].prefix(4))!, Int(row[3].suffix(2))!)
            return row[8] == String(year) && row[9] == "Q\((month - 1) / 3 + 1)"
        })
        let aprilExports = ReportExports(books: books, report: report, fiscalYearStart: 4)
        func fromApril(_ text: Substring, _ year: String, _ quarter: String) -> Bool {
            let (calendarYear, month) = (Int(text.prefix(4))!, Int(text.dropFirst(5).prefix(2))!)
            return year == String(month >= 4 ? calendarYear : calendarYear - 1) && quarter == "Q\((month + 8) % 12 / 3 + 1)"
        }
        let april = try RFC4180.records(aprilExports.taxesCSV()).dropFirst()
        #expect(!april.isEmpty && april.allSatisfy { fromApril($0[3][...], $0[8], $0[9]) })
        let aprilTotals = try RFC4180.records(aprilExports.totalsCSV()).dropFirst()
        #expect(!aprilTotals.isEmpty && aprilTotals.allSatisfy { fromApril($0[3][...], $0[14], $0[15]) })
        let aprilPayments = try RFC4180.records(aprilExports.paymentsCSV()).dropFirst()
        #expect(aprilPayments.count == books.payments.count && aprilPayments.allSatisfy { fromApril($0[4][...], $0[9], $0[10]) })
        // report.json: the start, and each reported month's fiscal year and quarter, in the order of `months`.
        let aprilJSON = try #require(try JSONSerialization.jsonObject(with: aprilExports.json()) as? [String: Any])
        let period = try #require(aprilJSON["period"] as? [String: Any])
        #expect(period["fiscal_year_start"] as? Int == 4)
        let fiscalMonths = try #require(period["fiscal_months"] as? [[String: Any]])
        #expect(fiscalMonths.map { $0["month"] as? String } == report.months.map(\.description))
        #expect(fiscalMonths.allSatisfy { entry in
            guard let month = entry["month"] as? String, let year = entry["fiscal_year"] as? Int, let quarter = entry["fiscal_quarter"] as? String
            else { return false }
            return fromApril(month[...], String(year), quarter)
        })
        let json = try #require(try JSONSerialization.jsonObject(with: exports.json()) as? [String: Any])
        #expect((json["taxes"] as? [[String: Any]])?.count == report.taxes.count)
    }
}
