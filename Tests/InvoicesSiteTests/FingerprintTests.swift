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

    /// The values the previous sites' manifests, pieces' indexes and trails were written with: a faster way of
    /// packing a short run's last bytes must give the same fingerprints (or every rebuild after an upgrade would
    /// find no file trustworthy). Pinned from the byte-at-a-time packing (7e11754), for lengths around each word.
    @Test func shortRunsKeepTheirFingerprints() {
        let text = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"
        let pinned: [(Int, UInt64, UInt64)] = [
            (0, 0xb318_e024_662d_a06e, 0xc3c3_701b_591e_3c72), (1, 0x4cc0_1fa4_2746_c41b, 0x771b_cec3_e2f8_162a),
            (2, 0xcffe_5d6f_7c84_77e6, 0x4f80_418a_1f4d_d965), (3, 0xe25a_589d_db70_0cb0, 0x3099_ac4f_83de_d609),
            (4, 0x2046_72e9_7ac9_22c7, 0x3f12_4515_361b_ebe5), (5, 0x9fda_4529_82c8_de4d, 0xfaa7_6567_ffb8_0663),
            (7, 0xefcc_2693_10a2_8201, 0x162a_31a3_41d2_48b7), (8, 0x4dbc_d201_f50b_16ed, 0x3846_30bf_3f54_7bdc),
            (9, 0x7cc5_5b4d_3654_f94f, 0x0139_8c04_ad11_2dd7), (11, 0xaa80_f0d4_6fa3_8d06, 0x7bdf_459c_47e2_5e8b),
            (12, 0x517d_1cc5_70c3_9350, 0x626a_b239_247e_6b09), (15, 0xfb6b_cf6c_9954_9303, 0xbbb3_68d5_0d61_756a),
            (16, 0x6110_e573_7676_fac0, 0x9c61_8bd2_aad1_35d4), (17, 0x9af4_62a0_370a_22db, 0xf84b_bc78_b96d_a9ad),
            (20, 0xff73_b433_ddaa_b80b, 0xa4aa_5880_aecc_4a16), (24, 0x04a4_a0a1_4636_3637, 0x3a33_363c_ab70_6e00),
            (31, 0xa9a1_05ca_8e20_cf54, 0x9f7f_c272_3ee0_e7ac), (33, 0x54a5_ac9c_ddab_7b2a, 0x90ab_272b_abdb_2631),
            (40, 0x56da_3fff_2bb8_fc43, 0x0b9d_a209_3230_e5d7),
        ]
        for (length, bytesValue, stringValue) in pinned {
            let part = String(text.prefix(length))
            #expect(Array(part.utf8).withUnsafeBytes { Fingerprint.of($0) } == bytesValue, "\(length) bytes")
            var fingerprint = Fingerprint(seed: 7)
            fingerprint.add(part)
            #expect(fingerprint.value == stringValue, "\(length) bytes as a string")
        }
        // Fed whole, a byte at a time (through the pending bytes) and cut in two anywhere: the same value.
        for count in 0...40 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let whole = bytes.withUnsafeBytes { Fingerprint.of($0) }
            var single = Fingerprint.Bytes()
            for byte in bytes { [byte].withUnsafeBytes { single.add($0) } }
            #expect(single.value == whole, "\(count) bytes one by one")
            for cut in 0...count {
                var two = Fingerprint.Bytes()
                bytes.withUnsafeBytes {
                    two.add(UnsafeRawBufferPointer(rebasing: $0[0..<cut]))
                    two.add(UnsafeRawBufferPointer(rebasing: $0[cut...]))
                }
                #expect(two.value == whole, "\(count) bytes cut at \(cut)")
            }
        }
    }

    /// The manifest is split on its bytes: a key or path whose first character is a combining mark (it follows
    /// the separating space) reads back; split as characters, the space and the mark were one character, the line
    /// had a field too few and the whole manifest was refused (every page rendered again).
    @Test func aKeyOrPathStartingWithACombiningMarkReadsBack() {
        let manifest = SiteManifest(
            units: [
                "\u{301}client": .init(inputs: 1, files: [.init(path: "\u{301}a.html", size: 3, hash: 9, stamp: .init(modified: -5, inode: 2, device: 3))]),
                "months": .init(inputs: 2, files: [.init(path: "m/a b.html", size: 0, hash: 0)]),
            ], source: 0xabc)
        #expect(SiteManifest(text: manifest.text) == manifest)
        #expect(SiteManifest(text: manifest.text + "x\n") == nil)
        #expect(SiteManifest(text: "invoices-site-manifest 3\nU 01 u\nF 1 01\n") == nil)
        #expect(SiteManifest(text: "invoices-site-manifest 3\nU 01 u\nF 1  01 a\n") == nil)
        #expect(SiteManifest(text: "invoices-site-manifest 3\nS zz\n") == nil)
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
