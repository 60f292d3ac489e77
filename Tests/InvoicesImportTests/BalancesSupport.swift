import Foundation
import InvoicesCore
import InvoicesReport
import Testing

extension Support {
    /// What each client owes and has in credit, per currency, over the report's whole span, keyed `"name CUR"`: to
    /// compare with a service's own balances.
    static func reportBalances(_ books: Books) throws -> [String: (owed: Int64, credit: Int64)] {
        let report = try Report(books: books)
        var built: [String: (owed: Int64, credit: Int64)] = [:]
        for totals in report.clients {
            for currency in totals.currencies {
                built[books.clients[totals.clientIndex].name + " " + currency.currency.code] = (currency.period.outstanding, currency.period.credit)
            }
        }
        return built
    }

    /// The same from a built site's totals.csv: each client's and currency's row of its last month, keyed `"name CUR"`.
    static func siteBalances(_ totalsCSV: String) throws -> [String: (owed: Int64, credit: Int64)] {
        let csv = try CSVDocument(bytes: [UInt8](try #require(bytes(totalsCSV))))
        let column = { (name: String) in try #require(csv.header.firstIndex(of: name)) }
        let (name, currency, month, outstanding, credit) = (
            try column("client_name"), try column("currency"), try column("month"), try column("outstanding"), try column("credit"))
        var last: [String: (month: String, owed: Int64, credit: Int64)] = [:]
        for record in csv.records {
            let fields = record.fields
            let key = fields[name] + " " + fields[currency]
            guard last[key].map({ $0.month < fields[month] }) ?? true else { continue }
            let code = try CurrencyCode(fields[currency])
            last[key] = (fields[month], try Money(parsing: fields[outstanding], currency: code).minorUnits,
                         try Money(parsing: fields[credit], currency: code).minorUnits)
        }
        return last.mapValues { ($0.owed, $0.credit) }
    }
}
