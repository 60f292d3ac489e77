import Foundation
import InvoicesCore
import InvoicesImport
import InvoicesReport
import InvoicesStore
import InvoicesTesting
import Testing

/// Stripe's API invoice list (`GET /v1/invoices`) as the API returns it: every status, a partial payment, an
/// uncollectible invoice written off, a draft without a number, jpy and eur and usd, three lines at two tax rates
/// (issue 44).
struct StripeBooksTests {
    static let fixture = "stripe-invoices.json"

    /// Stripe's own balances per (customer name, currency): the `amount_remaining` of each open or paid invoice
    /// (an uncollectible invoice's is written off, a draft's and a void's are owed by no one).
    static func stripeBalances(_ path: String) throws -> [String: Int64] {
        let bytes = try #require(Support.bytes(path))
        let root = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        var result: [String: Int64] = [:]
        for case let invoice as [String: Any] in try #require(root["data"] as? [Any]) {
            guard let status = invoice["status"] as? String, ["open", "paid"].contains(status) else { continue }
            let name = try #require(invoice["customer_name"] as? String)
            let currency = try #require(invoice["currency"] as? String)
            let key = name + " " + currency.uppercased()
            result[key, default: 0] += Int64(try #require(invoice["amount_remaining"] as? Int))
        }
        return result
    }

    @Test(.temporaryFolder) func theListWithEveryStatusImportsWithStripesOwnBalances() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let batch = try ImportReader().read(files: [Support.fixture(Self.fixture)])
        #expect(batch.warnings.map(\.message) == [
            "2 open or uncollectible invoice(s) with an amount_paid: each amount is recorded as one payment on the invoice's issue date; "
                + "Stripe's invoice object does not say when a partial payment was made"
        ])
        let summary = try ImportWriter.apply(batch, to: store)
        #expect(summary.invoices.added == 8 && summary.clients.added == 3)
        let books = try BooksStore(path: store).books
        func index(_ identifier: String) throws -> Int { try #require(books.invoices.firstIndex { $0.identifier == identifier }) }
        func invoice(_ identifier: String) throws -> InvoiceSnapshot { books.invoices[try index(identifier)] }

        // The draft without a number is named by its id; void is void; open, paid and uncollectible are sent.
        #expect(try invoice("in_1QdDraft0008").status == .draft && invoice("BSG-0007").status == .void)
        for sent in ["BSG-0001", "BSG-0002", "BSG-0003", "BSG-0004", "BSG-0005", "BSG-0006"] { #expect(try invoice(sent).status == .sent, "\(sent)") }
        // Dates: the finalization day in UTC (BSG-0001 was created on the 5th, finalized on the 6th); no due_date: 30 days.
        #expect(try invoice("BSG-0001").issued.description == "2025-01-06" && invoice("in_1QdDraft0008").issued.description == "2025-03-28")
        #expect(try invoice("BSG-0002").due.description == "2025-02-14" && invoice("BSG-0003").due.description == "2025-02-19")
        // Amounts in minor units: yen have none.
        #expect(try invoice("BSG-0005").amount == 110_000 && books.currencies[Int(invoice("BSG-0005").currencyIndex)].code == "JPY")
        #expect(try invoice("BSG-0003").amount == 210_600 && invoice("BSG-0003").net == 180_000)
        // Payments: a paid invoice's amount_paid on paid_at (23:30 UTC is still that day); the partial and the
        // uncollectible invoice's on the issue date.
        let payments = books.payments.map { "\(books.invoices[Int($0.invoiceIndex)].identifier) \($0.amount) \($0.date)" }.sorted()
        #expect(payments == [
            "BSG-0001 50000 2025-01-30", "BSG-0003 210600 2025-02-14", "BSG-0004 50000 2025-02-04", "BSG-0005 110000 2025-03-03",
            "BSG-0006 10000 2025-02-01",
        ])
        #expect(try invoice("BSG-0003").paid?.description == "2025-02-14" && invoice("BSG-0004").paid == nil)
        // Uncollectible: amount_remaining written off on marked_uncollectible_at.
        let writeOffs = books.writeOffs.map { "\(books.invoices[Int($0.invoiceIndex)].identifier) \($0.amount) \($0.date)" }
        #expect(writeOffs == ["BSG-0006 20000 2025-03-20"])

        // Three lines at two rates: one tax line per rate; the expanded rate's percentage, the other derived.
        let inv3 = Int32(try index("BSG-0003"))
        let lines = books.taxLines.filter { $0.invoiceIndex == inv3 }
            .map { "\(books.taxes[Int($0.taxIndex)].name) \(books.taxes[Int($0.taxIndex)].percent) \($0.net) \($0.amount)" }.sorted()
        #expect(lines == ["txr_1QdVAT07 7 30000 2100", "txr_1QdVAT19 19 150000 28500"])

        // The customer id is the client's number; the name with a comma and non-ASCII letters, the address lines joined.
        let client = try #require(books.clients.first { $0.number == "cus_QdA7oresund" })
        #expect(client.name == "Øresund Design, ApS" && client.street == "Strandgade 12\n3. sal" && client.city == "København K")
        #expect(books.clients.first { $0.number == "cus_QdC9yamada" }?.name == "山田商事株式会社")

        // The report's outstanding per client and currency is Stripe's amount_remaining summed.
        let report = try Report(books: books)
        var built: [String: Int64] = [:]
        for totals in report.clients {
            for currency in totals.currencies { built[books.clients[totals.clientIndex].name + " " + currency.currency.code] = currency.period.outstanding }
        }
        let stripe = try Self.stripeBalances(Support.fixture(Self.fixture))
        #expect(stripe == ["Øresund Design, ApS EUR": 82_900, "Harbor & Lane LLC USD": 0, "山田商事株式会社 JPY": 0])
        for (key, value) in stripe { #expect(built[key] == value, "\(key): \(String(describing: built[key])) vs \(value)") }

        // The same list again changes nothing.
        let before = try Support.dump(store)
        let again = try Support.importFixtures([Self.fixture], into: store)
        #expect(again.invoices == .init(unchanged: 8) && again.clients == .init(unchanged: 3))
        #expect(try Support.dump(store) == before)
    }

    /// The fixture (or `source`, another one) with `edit` applied to its text, written to `folder`.
    static func variant(_ folder: TemporaryFolder, _ name: String, of source: String = fixture, _ edit: (String) -> String) throws -> String {
        let text = String(decoding: try #require(Support.bytes(Support.fixture(source))), as: UTF8.self)
        let path = folder.path(name)
        let changed = edit(text)
        #expect(changed != text, "the edit changed nothing")
        try Data(changed.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The API's list with the customer's balance (`starting_balance`, `ending_balance`): the same cases as the Dashboard
    /// export's (StripeCSVBooksTests), read through the same model (docs/import.md, "Stripe's customer balance"): a negative
    /// total is a credit note with its taxes turned, the balance before the list a credit note of its own, a credit used is
    /// a pair of payments "Stripe customer balance", a total below the minimum charge stays owed until the next charge
    /// collects it. The outstanding and credit per client are Stripe's: `amount_remaining` of the open invoices plus a
    /// positive last `ending_balance`, and a negative one.
    @Test(.temporaryFolder) func aListWhoseInvoicesMovedTheCustomersBalanceImportsWithStripesOwnBalances() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let file = "stripe-invoices-customer-balance.json"
        let summary = try ImportWriter.apply(try ImportReader().read(files: [Support.fixture(file)]), to: store)
        #expect(summary.invoices.added == 10 && summary.clients.added == 3)
        let books = try BooksStore(path: store).books
        let note = try #require(books.invoices.first { $0.identifier == "D01DUNE0001" })
        #expect(note.kind == .creditNote && note.amount == 5_000 && note.net == 4_000)
        let payments = books.payments.map {
            "\(books.invoices[Int($0.invoiceIndex)].identifier) \($0.amount) \($0.date) \($0.details >= 0 ? books.paymentDetails[Int($0.details)].method : "")"
        }.sorted()
        #expect(payments == [
            "D01DUNE0001 -2000 2026-03-05 Stripe customer balance", "D01DUNE0001 -3000 2026-02-05 Stripe customer balance",
            "D02DUNE0002 3000 2026-02-05 Stripe customer balance", "D04DUNE0004 2000 2026-03-05 Stripe customer balance",
            "E01ELM0001 1000 2026-01-10 Stripe customer balance", "F01FERN0001 30 2026-02-20 ", "F02FERN0002 3900 2026-02-20 ",
            "cus_TdElm-starting-balance-usd -1000 2026-01-10 Stripe customer balance",
        ])
        let built = try Support.reportBalances(books)
        let expected: [String: (owed: Int64, credit: Int64)] = ["cus_TdDune EUR": (2_500, 0), "cus_TdElm USD": (0, 500), "cus_TdFern EUR": (40, 0)]
        for (key, value) in expected {
            #expect(built[key]?.owed == value.owed && built[key]?.credit == value.credit, "\(key): \(String(describing: built[key])) vs \(value)")
        }
        let before = try Support.dump(store)
        let again = try Support.importFixtures([file], into: store)
        #expect(again.invoices == .init(unchanged: 10))
        #expect(try Support.dump(store) == before)
    }

    static let outOfBand = "stripe-invoices-paid-out-of-band.json"

    /// Stripe's own balances per (customer name, currency), outstanding and credit: `amount_remaining` over the open and
    /// paid invoices, and the customer's balance after its latest finalized invoice (`ending_balance`: above 0 owed, below
    /// 0 a credit).
    static func stripeOwedAndCredit(_ path: String) throws -> [String: (owed: Int64, credit: Int64)] {
        var result = try stripeBalances(path).mapValues { (owed: $0, credit: Int64(0)) }
        let bytes = try #require(Support.bytes(path))
        let root = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        var latest: [String: (finalized: Int, ending: Int)] = [:]
        for case let invoice as [String: Any] in try #require(root["data"] as? [Any]) {
            guard let finalized = (invoice["status_transitions"] as? [String: Any])?["finalized_at"] as? Int,
                let ending = invoice["ending_balance"] as? Int, let name = invoice["customer_name"] as? String,
                let currency = invoice["currency"] as? String
            else { continue }
            let key = name + " " + currency.uppercased()
            if latest[key].map({ $0.finalized < finalized }) ?? true { latest[key] = (finalized, ending) }
        }
        for (key, value) in latest {
            result[key, default: (0, 0)].owed += Int64(max(value.ending, 0))
            result[key, default: (0, 0)].credit += Int64(max(-value.ending, 0))
        }
        return result
    }

    /// `paid_out_of_band` (API versions before 2025-03-31, whose `amount_paid` leaves out what was paid outside Stripe):
    /// a paid invoice marked paid outside Stripe has the rest of its total as one payment "paid outside Stripe" on its
    /// `status_transitions.paid_at` day, with a warning, as the Dashboard export's paid invoices with less paid than due
    /// have (`StripeCSVBooksTests.aPaidInvoicePaidLessThanItsTotalWasPaidOutsideStripe`); one paid wholly outside (BSG-0102),
    /// one whose customer's credit paid part first (BSG-0103). The built site's totals are Stripe's. Before it read
    /// `paid_out_of_band`, the list was refused at `data[2].amount_remaining` and `data[3].amount_remaining`.
    @Test(.temporaryFolder) func aPaidInvoiceMarkedPaidOutOfBandHasTheRestPaidOutsideStripe() throws {
        let folder = try TemporaryFolder.current
        let path = Support.fixture(Self.outOfBand)
        let batch = try ImportReader().read(files: [path])
        #expect(batch.warnings.map(\.description) == [
            "\(path): 2 paid invoice(s) marked paid outside Stripe (paid_out_of_band true) with an amount_paid below what was due: each rest "
                + "is a payment 'paid outside Stripe' on its status_transitions.paid_at day; the invoice object does not say how it was paid"
        ])
        let built = try Support.builtTotals(importing: [path], in: folder)
        let stripe = try Self.stripeOwedAndCredit(path)
        #expect(stripe.mapValues { [$0.owed, $0.credit] } == ["Marsk & Søn GmbH EUR": [23_800, 0], "Tern Harbor Co. USD": [5_000, 0]])
        #expect(built.mapValues { [$0.owed, $0.credit] } == stripe.mapValues { [$0.owed, $0.credit] })

        let books = try BooksStore(path: folder.path("books.sqlite")).books
        let payments = books.payments.map {
            "\(books.invoices[Int($0.invoiceIndex)].identifier) \($0.amount) \($0.date) \($0.details >= 0 ? books.paymentDetails[Int($0.details)].method : "")"
        }.sorted()
        #expect(payments == [
            "BSG-0101 59500 2025-02-10 ", "BSG-0102 119000 2025-03-20 paid outside Stripe", "BSG-0103 3000 2025-03-14 Stripe customer balance",
            "BSG-0103 7000 2025-03-15 paid outside Stripe", "cus_QgTern-starting-balance-usd -3000 2025-03-14 Stripe customer balance",
        ])
        let paid = books.invoices.filter { $0.paid != nil }.map { "\($0.identifier) \($0.paid!)" }.sorted()
        #expect(paid == ["BSG-0101 2025-02-10", "BSG-0102 2025-03-20", "BSG-0103 2025-03-15"])

        // The same list again changes nothing.
        let store = folder.path("books.sqlite")
        let before = try Support.dump(store)
        let again = try Support.importFixtures([Self.outOfBand], into: store)
        #expect(again.invoices == .init(unchanged: 6))
        #expect(try Support.dump(store) == before)
    }

    /// A paid invoice whose rest is unpaid and that Stripe does not say was paid outside it (`paid_out_of_band` false, or
    /// absent as from API 2025-03-31, whose `amount_paid` counts such payments) is refused at its `amount_remaining`, as
    /// before; a `paid_out_of_band` that is not a boolean at its own path.
    @Test(.temporaryFolder) func aPaidInvoiceWithLessPaidAndNoPaidOutOfBandIsRefusedAtAmountRemaining() throws {
        let folder = try TemporaryFolder.current
        let refusals = { (path: String) in
            [
                "\(path): data[2].amount_remaining: is 0, not total less amount_paid less what the customer's balance moved (ending_balance "
                    + "less starting_balance); something the invoice does not show settled it, so it is not imported",
                "\(path): data[3].amount_remaining: Stripe's balance 0.00 EUR is not total less amount_paid (1190.00 EUR); something the file "
                    + "does not show settled it (a credit note, the customer's balance), so it is not imported",
            ]
        }
        let unmarked = try Self.variant(folder, "false.json", of: Self.outOfBand) {
            $0.replacingOccurrences(of: "\"paid_out_of_band\": true", with: "\"paid_out_of_band\": false")
        }
        let missing = try Self.variant(folder, "missing.json", of: Self.outOfBand) {
            $0.replacingOccurrences(of: "\n      \"paid_out_of_band\": true,", with: "")
        }
        for path in [unmarked, missing] {
            let error = try #require(throws: ImportError.self) { try ImportReader().read(files: [path]) }
            #expect(error.problems.map(\.description) == refusals(path))
        }
        let store = folder.path("books.sqlite")
        let result = try CLI.run(["import", "--store", store, unmarked])
        #expect(result.status == 65 && !FileManager.default.fileExists(atPath: store))

        let text = try Self.variant(folder, "string.json", of: Self.outOfBand) {
            $0.replacingOccurrences(of: "\"paid_out_of_band\": true", with: "\"paid_out_of_band\": \"yes\"")
        }
        let error = try #require(throws: ImportError.self) { try ImportReader().read(files: [text]) }
        #expect(error.problems.map(\.description) == ["data[2]", "data[3]"].map {
            "\(text): \($0).paid_out_of_band: is the string \"yes\"; Stripe writes paid_out_of_band as true or false"
        })
    }

    @Test(.temporaryFolder) func anAmountWrittenAsAStringIsRefusedWithItsPathAndExit65() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        let bad = try Self.variant(folder, "stripe.json") { $0.replacingOccurrences(of: "\"total\": 110000,", with: "\"total\": \"1100.00\",") }
        let result = try CLI.run(["import", "--store", store, bad])
        #expect(result.status == 65)
        #expect(
            result.stderr.hasPrefix("Error: \(bad): data[3].total: is the string \"1100.00\"; Stripe writes total as a whole number"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test(.temporaryFolder) func aBalanceThatDisagreesIsReportedNotFixed() throws {
        let folder = try TemporaryFolder.current
        // BSG-0004: 1210.00 less 500.00 paid is 710.00, not Stripe's 700.00.
        let path = try Self.variant(folder, "stripe.json") { $0.replacingOccurrences(of: "\"amount_remaining\": 71000,", with: "\"amount_remaining\": 70000,") }
        let error = try #require(throws: ImportError.self) { try ImportReader().read(files: [path]) }
        #expect(error.problems.map(\.description) == [
            "\(path): data[4].amount_remaining: Stripe's balance 700.00 EUR is not total less amount_paid (710.00 EUR); something the file "
                + "does not show settled it (a credit note, the customer's balance), so it is not imported"
        ])
    }

    @Test(.temporaryFolder) func hasMoreIsAWarningThatTheFileIsOnePage() throws {
        let folder = try TemporaryFolder.current
        let path = try Self.variant(folder, "stripe.json") { $0.replacingOccurrences(of: "\n  \"has_more\": false,", with: "\n  \"has_more\": true,") }
        let batch = try ImportReader().read(files: [path])
        #expect(batch.warnings.map(\.description).contains(
            "\(path): has_more: is true: the file is one page of a longer list; fetch the next pages (starting_after the last id) and import them too"))
        #expect(batch.invoices.count == 8)
    }

    /// The newer API's `total_taxes` (2025-03-31 on) and Stripe's ISK, written in hundredths that are always 00.
    @Test(.temporaryFolder) func totalTaxesAndIcelandicKronurInHundredths() throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("stripe-isk.json")
        func invoice(_ id: String, total: Int, tax: Int) -> String {
            """
            {"id": "\(id)", "object": "invoice", "customer": "cus_Isk1", "customer_name": "Þór ehf.", "customer_email": null,
             "customer_address": null, "number": "IS-\(id)", "status": "open", "currency": "isk", "total": \(total),
             "amount_paid": 0, "amount_remaining": \(total), "total_excluding_tax": \(total - tax), "created": 1736899200,
             "due_date": null, "description": null, "lines": {"object": "list", "data": [], "has_more": false},
             "status_transitions": {"finalized_at": 1736899200, "paid_at": null, "marked_uncollectible_at": null, "voided_at": null},
             "total_taxes": [{"amount": \(tax), "tax_behavior": "exclusive", "taxability_reason": "standard_rated",
               "taxable_amount": \(total - tax), "type": "tax_rate_details", "tax_rate_details": {"tax_rate": "txr_IsVSK24"}}]}
            """
        }
        try Data("{\"object\": \"list\", \"has_more\": false, \"data\": [\(invoice("1", total: 1_240_000, tax: 240_000))]}".utf8)
            .write(to: URL(fileURLWithPath: path))
        let batch = try ImportReader().read(files: [path])
        let read = try #require(batch.invoices.first)
        #expect(read.amount.decimalString == "12400" && read.amount.currency.code == "ISK")
        #expect(read.tax == ImportedTax(net: 10_000, name: "txr_IsVSK24", rate: "24", amount: 2_400))
        #expect(read.issued.description == "2025-01-15" && read.due.description == "2025-02-14" && read.dueIsDerived)
        #expect(batch.clients.map(\.name) == ["Þór ehf."] && batch.clients.first?.number == "cus_Isk1")

        // Hundredths that are not 00 are refused at their path.
        try Data("{\"object\": \"list\", \"data\": [\(invoice("2", total: 1_240_050, tax: 240_000))]}".utf8).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: ImportError.self) { try ImportReader().read(files: [path]) }
        #expect(error.problems.map(\.description).first == "\(path): data[0].total: is 1240050; Stripe writes ISK in hundredths that are always 00")
    }

    @Test(.temporaryFolder) func aListOfOtherObjectsIsRefusedOnce() throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("customers.json")
        try Data(#"{"object": "list", "data": [{"id": "cus_1", "object": "customer"}, {"id": "cus_2", "object": "customer"}], "has_more": false}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: ImportError.self) { try ImportReader().read(files: [path]) }
        #expect(error.problems.map(\.description) == [
            "\(path): data[0].object: is \"customer\": a Stripe list of customer objects; only Stripe invoice lists (GET /v1/invoices) are imported"
        ])
    }
}
