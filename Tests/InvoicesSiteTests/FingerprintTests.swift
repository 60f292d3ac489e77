import Foundation
import InvoicesCore
@testable import InvoicesReport
import Testing

@testable import InvoicesSite

/// The fingerprints behind incremental builds: every stored property of what a page shows is fingerprinted, and
/// the manifest reads back what it wrote.
struct FingerprintTests {
    static func labels(_ value: Any) -> Set<String> { Set(Mirror(reflecting: value).children.compactMap(\.label)) }

    /// A property added to one of these types must be added to the fingerprints (``SiteBuilder/inputs``), or a
    /// rebuild would keep pages that show its old value.
    @Test func everyStoredPropertyIsFingerprinted() throws {
        let day = CalendarDate(dayNumber: 20_000)
        let eur = try CurrencyCode("EUR")
        let client = ClientSnapshot(id: 1, number: "C-1", name: "A")
        let invoice = InvoiceSnapshot(
            id: 1, identifier: "I-1", clientIndex: 0, currencyIndex: 0, amount: 1, issued: day, due: day, paid: nil, notes: "")
        let entry = Report.ClientCurrency(currency: eur, months: [], previousMonth: Figures(), period: Figures(), aging: Aging())
        let totals = Report.CurrencyTotals(currency: eur, months: [], previousMonth: Figures(), period: Figures(), aging: Aging())
        let values: [String: Any] = [
            "Books": Books(clients: [client], invoices: [invoice], currencies: [eur]),
            "ClientSnapshot": client, "InvoiceSnapshot": invoice,
            "Report": Report(months: [], asOf: day, clients: [], currencies: []),
            "ClientTotals": Report.ClientTotals(clientIndex: 0, currencies: []), "ClientCurrency": entry,
            "CurrencyTotals": totals, "Figures": Figures(), "Aging": Aging(), "SiteOptions": SiteOptions(),
            "PaymentSnapshot": PaymentSnapshot(invoiceIndex: 0, date: day, amount: 1),
            "PaymentDetails": PaymentDetails(method: "", reference: ""),
            "WriteOffSnapshot": WriteOffSnapshot(invoiceIndex: 0, date: day, amount: 1),
            "TaxLineSnapshot": TaxLineSnapshot(invoiceIndex: 0, taxIndex: 0, net: 1, amount: 1),
            "TaxRate": TaxRate(name: "VAT", milliPercent: 20_000),
            "TaxTotals": Report.TaxTotals(currency: eur, taxIndex: 0, months: [], period: TaxFigures()),
            "TaxFigures": TaxFigures(), "ReportPeriod": ReportPeriod(), "Payee": Payee(name: "A"), "Payee.Address": Payee.Address(),
            "JournalAccounts": JournalAccounts(), "AgingBuckets": AgingBuckets.standard,
        ]
        #expect(Set(values.keys) == Set(SiteBuilder.fingerprintedFields.keys))
        for (name, value) in values {
            #expect(Self.labels(value) == Set(SiteBuilder.fingerprintedFields[name] ?? []), "\(name)")
        }
    }

    @Test func fingerprintsAreStableAndTellValuesApart() {
        func of(_ parts: [String]) -> UInt64 {
            var fingerprint = Fingerprint()
            for part in parts { fingerprint.add(part) }
            return fingerprint.value
        }
        #expect(of(["ab", "c"]) != of(["a", "bc"]))
        #expect(of(["invoice"]) == of(["invoice"]))
        let long = String(repeating: "0123456789abcdef", count: 10)
        #expect(of([long]) != of([long + "x"]))
        #expect(of([long]) != of([String(long.dropLast()) + "e"]))
        // A fixed value: the fingerprint must not depend on the process (Swift's Hasher does).
        #expect(SiteManifest.hex(of(["EUR", "C-0042"])) == SiteManifest.hex(of(["EUR", "C-0042"])))
        let bytes = Array("the same bytes".utf8)
        #expect(bytes.withUnsafeBytes { Fingerprint.of($0) } == Array("the same bytes".utf8).withUnsafeBytes { Fingerprint.of($0) })
        #expect(bytes.withUnsafeBytes { Fingerprint.of($0) } != Array("the same bytez".utf8).withUnsafeBytes { Fingerprint.of($0) })
    }

    /// A file written or read in chunks gets the fingerprint of its whole content, wherever the chunks split it.
    @Test func piecesDoNotChangeABytesFingerprint() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 3) }
        let whole = bytes.withUnsafeBytes { Fingerprint.of($0) }
        for cuts in [[0, 1000], [1, 17, 999], [15, 16, 17, 32, 500], Array(stride(from: 0, through: 1000, by: 7)) + [1000]] {
            var pieces = Fingerprint.Bytes()
            var start = 0
            for cut in cuts + [1000] where cut >= start {
                bytes.withUnsafeBytes { pieces.add(UnsafeRawBufferPointer(rebasing: $0[start..<cut])) }
                start = cut
            }
            #expect(pieces.value == whole, "cut at \(cuts)")
        }
        // The length counts: trailing zero bytes change it.
        #expect((bytes + [0]).withUnsafeBytes { Fingerprint.of($0) } != whole)
        #expect([UInt8]().withUnsafeBytes { Fingerprint.of($0) } != [0].withUnsafeBytes { Fingerprint.of($0) })
    }

    @Test func theManifestReadsBackWhatItWrote() {
        let manifest = SiteManifest(units: [
            "client:C 1%\nx": .init(inputs: 42, files: [.init(path: "clients/a b.html", size: 10, hash: .max), .init(path: "c/t/index.html", size: 0, hash: 1)]),
            "exports": .init(inputs: 7, files: []),
        ])
        #expect(SiteManifest(text: manifest.text) == manifest)
        #expect(SiteManifest(text: "invoices-site-manifest 2\nU zz key\n") == nil)
        #expect(SiteManifest(text: "something else\n") == nil)
        #expect(SiteManifest(text: String(manifest.text.dropLast())) == nil)
    }
}
