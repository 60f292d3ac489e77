import InvoicesTesting
import Testing

@testable import InvoicesCore

/// `TaxRate.milliPercent` reads ASCII rates byte by byte (the loader reads one per tax line); what it accepts and the
/// value it gives are those of reading the text as characters, which it still does for any other text.
struct TaxRateTextTests {
    @Test func documentedRatesAndRefusals() {
        #expect(TaxRate.milliPercent("7.7") == 7_700)
        #expect(TaxRate.milliPercent("20") == 20_000)
        #expect(TaxRate.milliPercent("0") == 0)
        #expect(TaxRate.milliPercent("2.125") == 2_125)
        #expect(TaxRate.milliPercent("19.05") == 19_050)
        for refused in ["", ".5", "5.", "1000", "5.1234", "-1", "a", "5,5", " 5", "5 ", "1.2.3", "５"] {
            #expect(TaxRate.milliPercent(refused) == nil, "\(refused.debugDescription)")
        }
    }

    /// 200,000 texts from an alphabet of digits, dots, signs, letters, spaces and non-ASCII characters, up to seven
    /// characters, from a fixed seed: the same value (or none) both ways.
    @Test func bytesAndCharactersAgree() {
        let alphabet = ["0", "1", "5", "9", ".", ".", "+", "-", "a", " ", "é", "\r\n", "٣", "e\u{301}"]
        var generator = SeededRandom(seed: 46)
        var accepted = 0
        for _ in 0..<200_000 {
            let length = Int(generator.next() % 8)
            let text = (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }.joined()
            let value = TaxRate.milliPercent(text)
            #expect(value == TaxRate.characterMilliPercent(text), "\(text.debugDescription)")
            if value != nil { accepted += 1 }
        }
        #expect(accepted > 1_000)
    }

}
