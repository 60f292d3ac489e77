import Foundation
import InvoicesImport
import InvoicesTesting
import Testing

/// The CSV formats as a hostile data source (issue 41): sums past 64-bit minor units are refusals at their cell,
/// never traps; values quoted in problems reach the terminal escaped; text fields have bounds.
struct HostileImportTests {
    func problems(_ name: String, _ text: String) throws -> [ImportProblem] {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try ImportReader().read(files: [path])
            return []
        } catch {
            return error.problems
        }
    }

    /// Zoho's received amount is `Total − Balance − WriteOff Amount`: with a balance of minus the largest amount it
    /// trapped (exit 132); it is a problem at the row.
    @Test func aZohoBalancePast64BitsIsAProblemNotATrap() throws {
        let header = "Invoice Date,Invoice Number,Invoice Status,Customer Name,Due Date,Currency Code,Item Name,Item Total,SubTotal,Total,Balance,Last Payment Date\n"
        let row = "2025-04-01,INV-1,Sent,Initech,2025-04-15,USD,Work,92233720368547758.07,92233720368547758.07,92233720368547758.07,-92233720368547758.07,2025-04-02\n"
        let found = try problems("zoho.csv", header + row)
        #expect(found.contains { $0.column == "Balance" && $0.message.contains("does not fit in 64-bit minor units") }, "\(found)")
    }

    /// A Zoho tax of 92 trillion minor units without a rate column: the rate (tax / net, to 0.001 %) was computed as
    /// `tax * 100_000`, which trapped; it is computed in 128 bits.
    @Test(.temporaryFolder) func aZohoTaxPast92TrillionDoesNotTrap() throws {
        let header = "Invoice Date,Invoice Number,Invoice Status,Customer Name,Due Date,Currency Code,Item Name,Item Total,SubTotal,Total,Balance,Last Payment Date,Tax Amount,Tax Name\n"
        let row = "2025-04-01,INV-1,Sent,Initech,2025-04-15,USD,Work,1.00,1.00,92233720368547758.07,92233720368547758.07,,92233720368547.76,VAT\n"
        let folder = try TemporaryFolder.current
        let path = folder.path("zoho.csv")
        try (header + row).write(toFile: path, atomically: true, encoding: .utf8)
        let line = try #require(try ImportReader().read(files: [path]).invoices.first?.tax?.lines.first)
        // 9,223,372,036,854,776 on a net of 9,214,148,664,817,921,031 minor units: 0.1001 %, to 0.001 %.
        #expect(line.amount == 9_223_372_036_854_776 && line.rate == "0.1", "\(line)")
    }

    /// A cell with an escape sequence, a C1 control or a bidi override is quoted escaped in the problem.
    @Test func aValueQuotedInAProblemIsEscaped() throws {
        let text = "identifier,clientNumber,amount,currency,issuedOn,dueOn\nINV-1,C-1,10.00,\u{1B}]0;pwned\u{07}\u{9B}2J\u{202E},2025-01-01,2025-01-31\n"
        let found = try problems("invoices.csv", text)
        let all = found.map(\.description).joined(separator: "\n")
        #expect(!found.isEmpty)
        #expect(!all.unicodeScalars.contains { [0x1B, 0x07, 0x9B, 0x202E].contains($0.value) }, "\(all)")
        #expect(all.contains("\\u{1b}]0;PWNED\\u{7}\\u{9b}2J\\u{202e}"), "\(all)")
    }

    /// A note past 64 KB and a client name past 1 KB are problems at their row, naming the bound.
    @Test func textPastItsBoundIsAProblem() throws {
        let clients = "number,name\nC-1,\(String(repeating: "n", count: 1025))\n"
        let found = try problems("clients.csv", clients)
        #expect(found.contains { $0.message.contains("the client name is 1025 bytes long, more than 1 KB") }, "\(found)")
    }
}
