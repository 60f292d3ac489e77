import InvoicesCore
@testable import InvoicesReport
import Testing

/// A plain identifier (``DATEVRows/isPlain(_:)``) skips Belegfeld 1's checks: it must be one they let through as it is.
struct DATEVRowsTests {
    static let client = ClientSnapshot(id: 1, number: "C-1", name: "One")

    @Test(arguments: ["INV-2025-000001", "", "a/b_c$d%e-F9", String(repeating: "7", count: 36)])
    func aPlainIdentifierIsWhatTheChecksWouldWrite(_ identifier: String) throws {
        #expect(DATEVRows.isPlain(identifier))
        try DATEVExport.checkBelegfeld(identifier, client: Self.client)
        #expect(try DATEVExport.text(identifier, limit: 36, client: Self.client) == "\"" + identifier + "\"")
    }

    /// Anything else goes through the checks: too long, a space or dot, a quote, a control character, letters
    /// beyond ASCII (allowed by Belegfeld 1, but checked for Windows-1252), a character Windows-1252 cannot hold.
    @Test(arguments: [String(repeating: "7", count: 37), "INV 1", "INV.1", "IN\"V", "IN\u{1}V", "Rechnung-Ä", "INV-ő"])
    func anyOtherIdentifierIsChecked(_ identifier: String) {
        #expect(!DATEVRows.isPlain(identifier))
    }
}
