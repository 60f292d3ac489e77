import Foundation
import InvoicesCore
@testable import InvoicesReport
@testable import InvoicesSite
import Testing

/// The trail's runs of records are taken from the previous trail by their keys (``SiteBuilder/Inputs/trailRuns``),
/// which list the values the lines show (``InvoicesReport/TrailLines``) apart from the lines. A value a line shows
/// and its run's key leaves out would be reused stale. These tests change every stored property of every record
/// the lines are made of, one at a time, and check that no run keeps its key with other lines; the list of changes
/// is checked against the types' stored properties, so a property added to a record fails here until it is listed
/// (and, if a line shows it, put in the key).
struct TrailKeyCoverageTests {
    /// One change of one stored property: of the books (the report is computed again), or of the report's figures.
    struct Change: Sendable, CustomTestStringConvertible {
        enum Apply: Sendable {
            case books(@Sendable (inout Books) throws -> Void)
            case report(@Sendable (inout Report) -> Void)
        }

        var type: String
        var property: String
        /// Whether the trail shows the property (in its record's line, or in the figures computed from it): the
        /// trail must change.
        var shown: Bool
        var apply: Apply

        var testDescription: String { "\(type).\(property)" }
    }

    static func day(_ year: Int, _ month: Int, _ day: Int) -> CalendarDate { CalendarDate(year: year, month: month, day: day)! }

    /// Two clients, an EUR invoice paid with a method and reference and taxed, a JPY invoice part paid and part
    /// written off, a credit note applied to the first invoice: every kind of record and every optional value.
    static func books() throws -> Books {
        let invoices = [
            InvoiceSnapshot(
                id: 1, identifier: "INV-1", clientIndex: 0, currencyIndex: 0, amount: 10_770, issued: day(2025, 1, 10),
                due: day(2025, 2, 9), paid: day(2025, 1, 20), notes: "first", net: 10_000),
            InvoiceSnapshot(
                id: 2, identifier: "INV-2", clientIndex: 1, currencyIndex: 1, amount: 5_000, issued: day(2025, 2, 3),
                due: day(2025, 3, 5), paid: nil, notes: ""),
            InvoiceSnapshot(
                id: 3, identifier: "CN-1", clientIndex: 0, currencyIndex: 0, amount: 1_077, issued: day(2025, 1, 12),
                due: day(2025, 1, 12), paid: nil, notes: "refund", kind: .creditNote, net: 1_000, corrects: 0,
                applied: day(2025, 1, 15)),
        ]
        return Books(
            clients: [ClientSnapshot(id: 1, number: "C-1", name: "One"), ClientSnapshot(id: 2, number: "C-2", name: "Two")],
            invoices: invoices, currencies: [try CurrencyCode("EUR"), try CurrencyCode("JPY")],
            payments: [
                PaymentSnapshot(invoiceIndex: 0, date: day(2025, 1, 20), amount: 9_693, details: 0),
                PaymentSnapshot(invoiceIndex: 1, date: day(2025, 2, 10), amount: 2_000),
            ],
            paymentDetails: [PaymentDetails(method: "bank transfer", reference: "REF-1")],
            writeOffs: [WriteOffSnapshot(invoiceIndex: 1, date: day(2025, 3, 1), amount: 500, reason: "bad debt")],
            taxLines: [
                TaxLineSnapshot(invoiceIndex: 0, taxIndex: 0, net: 10_000, amount: 770),
                TaxLineSnapshot(invoiceIndex: 2, taxIndex: 0, net: 1_000, amount: 77),
            ],
            taxes: [TaxRate(name: "MWST", milliPercent: 7_700), TaxRate(name: "VAT", milliPercent: 20_000)], schemaVersion: 3)
    }

    /// A change of the books: `type`'s `property`.
    static func books(
        _ type: String, _ property: String, shown: Bool = true, _ body: @escaping @Sendable (inout Books) throws -> Void
    ) -> Change {
        Change(type: type, property: property, shown: shown, apply: .books(body))
    }

    /// Every stored property of the records the trail is made of, each with a change. A property that is not
    /// shown is listed too (`shown: false`): the list must name them all.
    static let changes: [Change] = [
        // ClientSnapshot: the trail shows a client's number only (on its invoices' lines and its figures').
        books("ClientSnapshot", "id", shown: false) { $0.clients[0].id = 9 },
        books("ClientSnapshot", "number") { $0.clients[0].number = "C-0" },
        books("ClientSnapshot", "name", shown: false) { $0.clients[0].name = "Uno" },
        books("ClientSnapshot", "email", shown: false) { $0.clients[0].email = "a@b.example" },
        books("ClientSnapshot", "street", shown: false) { $0.clients[0].street = "Main St 1" },
        books("ClientSnapshot", "city", shown: false) { $0.clients[0].city = "Bern" },
        books("ClientSnapshot", "zip", shown: false) { $0.clients[0].zip = "3000" },
        books("ClientSnapshot", "country", shown: false) { $0.clients[0].country = "CH" },
        books("ClientSnapshot", "language", shown: false) { $0.clients[0].language = "de" },
        // InvoiceSnapshot.
        books("InvoiceSnapshot", "id", shown: false) { $0.invoices[1].id = 20 },
        books("InvoiceSnapshot", "identifier") { $0.invoices[1].identifier = "INV-9" },
        books("InvoiceSnapshot", "clientIndex") { $0.invoices[1].clientIndex = 0 },
        books("InvoiceSnapshot", "currencyIndex") { $0.invoices[1].currencyIndex = 0 },
        books("InvoiceSnapshot", "status") { $0.invoices[1].status = .draft },
        books("InvoiceSnapshot", "kind") { $0.invoices[1].kind = .creditNote },
        books("InvoiceSnapshot", "amount") { $0.invoices[1].amount += 1 },
        books("InvoiceSnapshot", "net") { $0.invoices[1].net -= 1 },
        books("InvoiceSnapshot", "issued") { $0.invoices[1].issued = day(2025, 2, 4) },
        books("InvoiceSnapshot", "due") { $0.invoices[1].due = day(2025, 3, 6) },
        // The settled day is not on the invoice's line; it is in no figure the trail shows either.
        books("InvoiceSnapshot", "paid", shown: false) { $0.invoices[0].paid = day(2025, 1, 21) },
        books("InvoiceSnapshot", "corrects") { $0.invoices[2].corrects = 1 },
        books("InvoiceSnapshot", "applied") { $0.invoices[2].applied = day(2025, 1, 16) },
        books("InvoiceSnapshot", "notes") { $0.invoices[1].notes = "second" },
        // PaymentSnapshot.
        books("PaymentSnapshot", "invoiceIndex") { $0.payments[1].invoiceIndex = 0 },
        books("PaymentSnapshot", "date") { $0.payments[1].date = day(2025, 2, 11) },
        books("PaymentSnapshot", "amount") { $0.payments[1].amount += 1 },
        books("PaymentSnapshot", "details") { $0.payments[1].details = 0 },
        // PaymentDetails.
        books("PaymentDetails", "method") { $0.paymentDetails[0].method = "card" },
        books("PaymentDetails", "reference") { $0.paymentDetails[0].reference = "REF-2" },
        // WriteOffSnapshot.
        books("WriteOffSnapshot", "invoiceIndex") { $0.writeOffs[0].invoiceIndex = 0 },
        books("WriteOffSnapshot", "date") { $0.writeOffs[0].date = day(2025, 3, 2) },
        books("WriteOffSnapshot", "amount") { $0.writeOffs[0].amount += 1 },
        books("WriteOffSnapshot", "reason") { $0.writeOffs[0].reason = "gone" },
        // TaxLineSnapshot.
        books("TaxLineSnapshot", "invoiceIndex") { $0.taxLines[1].invoiceIndex = 1 },
        books("TaxLineSnapshot", "taxIndex") { $0.taxLines[1].taxIndex = 1 },
        books("TaxLineSnapshot", "net") { $0.taxLines[1].net += 1 },
        books("TaxLineSnapshot", "amount") { $0.taxLines[1].amount += 1 },
        // TaxRate.
        books("TaxRate", "name") { $0.taxes[0].name = "MWSt" },
        books("TaxRate", "milliPercent") { $0.taxes[0].milliPercent = 8_100 },
        // CurrencyCode: its digits come with its code (ISO 4217), so each change is of the code; JPY's 0 digits
        // become BHD's 3.
        books("CurrencyCode", "code") { $0.currencies[0] = try CurrencyCode("CHF") },
        books("CurrencyCode", "minorUnitDigits") { $0.currencies[1] = try CurrencyCode("BHD") },
        // Books: a record of each kind added; a currency or tax no record uses, and the schema, are not shown.
        books("Books", "clients", shown: false) { $0.clients.append(ClientSnapshot(id: 3, number: "C-3", name: "Three")) },
        books("Books", "invoices") {
            $0.invoices.append(
                InvoiceSnapshot(
                    id: 4, identifier: "INV-3", clientIndex: 1, currencyIndex: 1, amount: 7, issued: day(2025, 3, 1), due: day(2025, 3, 1),
                    paid: nil, notes: ""))
        },
        books("Books", "currencies", shown: false) { $0.currencies.append(try CurrencyCode("USD")) },
        books("Books", "payments") { $0.payments.append(PaymentSnapshot(invoiceIndex: 1, date: day(2025, 2, 12), amount: 1)) },
        books("Books", "paymentDetails", shown: false) { $0.paymentDetails.append(PaymentDetails(method: "cash", reference: "")) },
        books("Books", "writeOffs") { $0.writeOffs.append(WriteOffSnapshot(invoiceIndex: 1, date: day(2025, 3, 3), amount: 1)) },
        books("Books", "taxLines") { $0.taxLines.append(TaxLineSnapshot(invoiceIndex: 1, taxIndex: 1, net: 10, amount: 2)) },
        books("Books", "taxes", shown: false) { $0.taxes.append(TaxRate(name: "ZZ", milliPercent: 1_000)) },
        books("Books", "schemaVersion", shown: false) { $0.schemaVersion = 2 },
    ] + figuresChanges + taxFiguresChanges

    /// Each figure of a client's month (the first client's first currency, January), changed in the report. The
    /// count of movements is not on the line: it only makes a month with no sums active.
    static let figuresChanges: [Change] = [
        figures("invoiced") { $0.invoiced += 1 }, figures("net") { $0.net += 1 }, figures("tax") { $0.tax += 1 },
        figures("paid") { $0.paid += 1 }, figures("credited") { $0.credited += 1 }, figures("writtenOff") { $0.writtenOff += 1 },
        figures("outstanding") { $0.outstanding += 1 }, figures("overdue") { $0.overdue += 1 }, figures("credit") { $0.credit += 1 },
        figures("invoices") { $0.invoices += 1 }, figures("movements", shown: false) { $0.movements += 1 },
    ]

    static func figures(_ name: String, shown: Bool = true, _ change: @escaping @Sendable (inout Figures) -> Void) -> Change {
        Change(type: "Figures", property: name, shown: shown, apply: .report { change(&$0.clients[0].currencies[0].months[0]) })
    }

    /// Each figure of a tax's month (the first tax's January), changed in the report.
    static let taxFiguresChanges: [Change] = [
        taxFigures("accrualNet") { $0.accrualNet += 1 }, taxFigures("accrualTax") { $0.accrualTax += 1 },
        taxFigures("cashNet") { $0.cashNet += 1 }, taxFigures("cashTax") { $0.cashTax += 1 },
    ]

    static func taxFigures(_ name: String, _ change: @escaping @Sendable (inout TaxFigures) -> Void) -> Change {
        Change(type: "TaxFigures", property: name, shown: true, apply: .report { change(&$0.taxes[0].months[0]) })
    }

    /// A run's key and its lines.
    struct Piece: Equatable {
        var key: UInt64
        var bytes: [UInt8]
    }

    /// The trail of `books` and `report` in runs, as the build writes it in pieces.
    static func pieces(_ books: Books, _ report: Report) -> [Piece] {
        let order = Trail.Order(books: books, report: report)
        let (runs, keys) = SiteBuilder.Inputs.trailRuns(books, report, order)
        let lines = TrailLines(books: books, report: report, order: order)
        return zip(runs, keys).map { run, key in
            var bytes: [UInt8] = []
            lines.forEach(in: run) { line in
                bytes.append(contentsOf: line)
                bytes.append(0x0A)
            }
            return Piece(key: key, bytes: bytes)
        }
    }

    /// The stored properties of a value, by name (as `Mirror` lists them).
    static func storedProperties(_ value: Any) -> Set<String> { Set(Mirror(reflecting: value).children.compactMap(\.label)) }

    /// The list of changes names every stored property of each type, and no other: a property added to a record
    /// fails here until a change of it is listed.
    @Test func everyStoredPropertyHasAChange() throws {
        let books = try Self.books()
        let report = try Report(books: books)
        let samples: [(String, Any)] = [
            ("ClientSnapshot", books.clients[0]), ("InvoiceSnapshot", books.invoices[0]), ("PaymentSnapshot", books.payments[0]),
            ("PaymentDetails", books.paymentDetails[0]), ("WriteOffSnapshot", books.writeOffs[0]), ("TaxLineSnapshot", books.taxLines[0]),
            ("TaxRate", books.taxes[0]), ("CurrencyCode", books.currencies[0]), ("Books", books),
            ("Figures", report.clients[0].currencies[0].months[0]), ("TaxFigures", report.taxes[0].months[0]),
        ]
        for (type, sample) in samples {
            let listed = Set(Self.changes.filter { $0.type == type }.map(\.property))
            #expect(listed == Self.storedProperties(sample), "\(type): list a change for each stored property")
        }
        #expect(Set(Self.changes.map(\.type)) == Set(samples.map(\.0)))
    }

    /// Each change: a run whose key is one of the trail's before the change has the lines it had (so taking it from
    /// the previous trail gives the same file); a shown value changes the trail, one not shown leaves it.
    @Test(arguments: changes) func noRunKeepsItsKeyWithOtherLines(_ change: Change) throws {
        let books = try Self.books()
        let report = try Report(books: books)
        let before = Self.pieces(books, report)
        var changedBooks = books
        var changedReport = report
        switch change.apply {
        case .books(let apply):
            try apply(&changedBooks)
            changedReport = try Report(books: changedBooks)
        case .report(let apply):
            apply(&changedReport)
        }
        let after = Self.pieces(changedBooks, changedReport)
        let previous = Dictionary(before.map { ($0.key, $0.bytes) }, uniquingKeysWith: { first, _ in first })
        for piece in after {
            guard let old = previous[piece.key] else { continue }
            let (oldLines, newLines) = (String(decoding: old, as: UTF8.self), String(decoding: piece.bytes, as: UTF8.self))
            #expect(oldLines == newLines, "a run kept its key with other lines")
        }
        if change.shown {
            #expect(before.flatMap(\.bytes) != after.flatMap(\.bytes), "the trail shows \(change.testDescription): its lines change")
        } else {
            #expect(before.flatMap(\.bytes) == after.flatMap(\.bytes), "the trail does not show \(change.testDescription): its lines stay")
        }
    }
}
