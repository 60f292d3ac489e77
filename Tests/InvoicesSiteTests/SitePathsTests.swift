import Foundation
@testable import InvoicesSite
import Testing

/// Every link between two pages is made by ``SitePaths`` (issue 42): from any page to any page, it leads to the
/// target, as a browser resolves it, and it is the link the pages have always had.
struct SitePathsTests {
    /// Pages at every depth the site has, and the folders of paged lists.
    static let pages = [
        "index.html", "clients.html", "clients/c-1.html", "clients/pages/2.html", "clients/c-1/invoices/3.html",
        "statements/c-1.html", "statements/c-1/EUR/1.html", "statements/c-1/print.html", "months/2025-06.html",
        "months/2025-06/EUR/1.html", "years/2024.html", "quarters/2024-Q3.html", "quarters/2024-Q3/tax-EUR-1/2.html",
        "collections.html", "collections/overdue-EUR/1.html", "c/token/index.html",
    ]

    @Test func aLinkFromAnyPageToAnyPageLeadsThere() throws {
        let site = try #require(URL(string: "https://example.com/reports/"))
        for from in Self.pages {
            let base = try #require(URL(string: from, relativeTo: site))
            for target in Self.pages + ["quarters/2024-Q3.html#tax-EUR-1", "quarters/2024-Q3.csv"] {
                let links = SitePaths.Links(from: from)
                for link in [SitePaths.link(from: from, to: target), links(target), links.throughRoot(target)] {
                    #expect(!link.hasPrefix("/"), "\(from) → \(target): \(link)")
                    let resolved = try #require(URL(string: link, relativeTo: base)).absoluteString
                    #expect(resolved == site.absoluteString + target, "\(from) → \(target): \(link)")
                }
            }
        }
    }

    @Test func linksAreTheShortestThroughTheFoldersThePagesShare() {
        #expect(SitePaths.link(from: "months/2025-06.html", to: "clients/c-1.html") == "../clients/c-1.html")
        #expect(SitePaths.link(from: "months/2025-06.html", to: "months/2025-05.html") == "2025-05.html")
        #expect(SitePaths.link(from: "months/2025-06/EUR/", to: "months/2025-06.html#clients-EUR") == "../../2025-06.html#clients-EUR")
        #expect(SitePaths.link(from: "statements/c-1/EUR/", to: "statements/c-1/print.html") == "../print.html")
        #expect(SitePaths.link(from: "statements/c-1.html", to: "statements/c-1/print.html") == "c-1/print.html")
        #expect(SitePaths.link(from: "quarters/2024-Q3/tax-EUR-1/2.html", to: "clients/c-1.html") == "../../../clients/c-1.html")
        #expect(SitePaths.link(from: "clients.html", to: "clients/pages/1.html") == "clients/pages/1.html")
        #expect(SitePaths.link(from: "monthsX/a.html", to: "months/b.html") == "../months/b.html")
        #expect(SitePaths.Links(from: "clients/pages/2.html").throughRoot("clients/c-1.html") == "../../clients/c-1.html")
        #expect(SitePaths.root(of: "index.html") == "" && SitePaths.root(of: "quarters/2024-Q3/tax-EUR-1/2.html") == "../../../")
    }
}
