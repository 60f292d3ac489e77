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
        return try siteBalances(folder.path("site/totals.csv"))
    }
}
