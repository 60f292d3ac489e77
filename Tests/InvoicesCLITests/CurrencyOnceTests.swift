import Foundation
import InvoicesTesting
import Testing

/// A table of one currency names it once, in its amount columns' headings (`Charges (EUR)`), and its amounts are
/// bare numbers in the page's number form (issue 46 item 5, tenth session): statements and their pages of lines, a
/// quarter's tax list pages, a month's client list pages, a client's months, and a client's invoices when they are
/// all in one currency. Before, every amount carried its code (`EUR 1,234.50`: 5 bytes, 8.5 % of the HTML at S).
@Suite(.serialized)
struct CurrencyOnceTests {
    /// The tables of `html` whose class is `figures <kind>`, each as its lines.
    static func tables(_ html: String, kind: String) -> [[Substring]] {
        html.components(separatedBy: "<table class=\"figures \(kind)\"").dropFirst().map {
            $0.components(separatedBy: "</table>")[0].split(separator: "\n")
        }
    }

    /// The cells of a row line (`<tr><th>…<td>…`), without their tags.
    static func cells(_ row: Substring) -> [String] {
        row.split(separator: /<t[dh](?: [^>]*)?>/, omittingEmptySubsequences: false).dropFirst().map {
            String($0).replacing(#/<[^>]*>/#, with: "")
        }
    }

    /// A bare amount (`1,234.50`, `-39.886`, `+1,200.00`, `−30.00`, `0`) as minor units, or nil.
    static func minorUnits(_ text: String) -> Int64? {
        guard text.wholeMatch(of: #/[+−-]?\d{1,3}(,\d{3})*(\.\d+)?/#) != nil else { return nil }
        let negative = text.hasPrefix("-") || text.hasPrefix("−")
        let digits = text.filter(\.isNumber)
        guard let value = Int64(digits) else { return nil }
        return negative ? -value : value
    }

    @Test(.temporaryFolder) func oneCurrencyTablesNameItOnceInTheirHeadings() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        #expect(try CLI.run(["sample", "--clients", "12", "--invoices", "1600", "--seed", "3", "--output", store]).status == 0)
        let site = folder.path("site")
        let build = try CLI.run(["build", "--store", store, "--output", site, "--quiet", "--page-size", "10"])
        #expect(build.status == 0, "\(build.stderr)")
        let pages = try LeanTablesTests.pages(site)
        // The amount columns of each kind of table, by position among the cells of a row.
        let kinds: [(kind: String, where: (String) -> Bool, amounts: [Int])] = [
            ("statement", { $0.hasPrefix("statements/") }, [3, 4, 5]),
            ("tax-invoices", { $0.hasPrefix("quarters/") && $0.contains("/tax-") }, [3, 4, 5, 6]),
            ("month", { $0.hasPrefix("months/") && $0.split(separator: "/").count == 4 }, [1, 2, 3, 4, 5]),
            ("monthly", { $0.hasPrefix("clients/") && $0.split(separator: "/").count == 2 }, [1, 2, 3, 4]),
            ("invoices", { $0.hasPrefix("clients/") }, [4]),
        ]
        var counted: [String: Int] = [:]
        var statementsChecked = 0
        for (kind, chosen, amounts) in kinds {
            for page in pages where chosen(page) {
                let html = try String(contentsOfFile: site + "/" + page, encoding: .utf8)
                for table in Self.tables(html, kind: kind) {
                    guard let head = table.first(where: { $0.hasPrefix("<thead>") }) else { continue }
                    let heads = Self.cells(head)
                    // The currency named in the headings of the amount columns, the same in each.
                    let named = Set(amounts.compactMap { heads.indices.contains($0) ? heads[$0].firstMatch(of: #/ \(([A-Z]{3})\)$/#)?.output.1 : nil })
                    if kind == "invoices", named.isEmpty { continue }  // a client with invoices in several currencies
                    #expect(named.count == 1 && amounts.allSatisfy { heads[$0].hasSuffix(" (\(named.first ?? ""))") }, "\(page): \(head)")
                    var opening: Int64?, charges: Int64 = 0, credits: Int64 = 0, closing: Int64?
                    for row in table where row.hasPrefix("<tr") {
                        let cells = Self.cells(row)
                        for column in amounts where cells.indices.contains(column) {
                            let cell = cells[column]
                            #expect(
                                cell.isEmpty || cell == "no change" || Self.minorUnits(cell) != nil,
                                "\(page): an amount with more than its number: \(cell) in \(row)")
                            counted[kind, default: 0] += cell.isEmpty ? 0 : 1
                        }
                        // The statements whose lines are on the page: a statement with few lines, or the print view of a long one.
                        guard kind == "statement", page.split(separator: "/").count == 2 || page.hasSuffix("/print.html") else { continue }
                        if row.hasPrefix("<tr class=\"opening\">") {
                            opening = cells.last.flatMap(Self.minorUnits)
                        } else if row.hasPrefix("<tr class=\"closing\">") {
                            closing = cells.last.flatMap(Self.minorUnits)
                        } else if cells.count == 6 {
                            charges += Self.minorUnits(cells[3]) ?? 0
                            credits += Self.minorUnits(cells[4]) ?? 0
                        }
                    }
                    // Every figure is still there: opening balance plus charges minus credits is the closing balance.
                    if let opening, let closing, kind == "statement", charges != 0 || credits != 0 {
                        #expect(opening + charges - credits == closing, "\(page)")
                        statementsChecked += 1
                    }
                }
            }
        }
        #expect(statementsChecked >= 12, "\(statementsChecked) statements added up")
        for (kind, _, _) in kinds {
            #expect(counted[kind, default: 0] > 20, "\(kind): \(counted[kind, default: 0]) bare amounts")
        }
    }
}
