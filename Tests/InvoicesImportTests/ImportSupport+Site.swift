import Foundation
import InvoicesCore
import InvoicesImport
import InvoicesTesting
import Testing

extension Support {
    /// Imports `files` with the command, builds the site, and reads its totals.csv: per "client name currency", the
    /// outstanding and credit of the client's last month, in minor units. The services' tests compare these with the
    /// balances each service shows.
    static func builtTotals(importing files: [String], in folder: TemporaryFolder) throws -> [String: (owed: Int64, credit: Int64)] {
        let store = folder.path("books.sqlite")
        let imported = try CLI.run(["import", "--store", store] + files)
        #expect(imported.status == 0, "\(imported.stderr)")
        let build = try CLI.run(["build", "--store", store, "--output", folder.path("site"), "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        let csv = try CSVDocument(bytes: [UInt8](try #require(bytes(folder.path("site/totals.csv")))))
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
