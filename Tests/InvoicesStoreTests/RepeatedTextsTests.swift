import Foundation
import InvoicesCore
@testable import InvoicesStore
import InvoicesTesting
import Testing

/// Issue 46 (peak ≤ 1 GB at 2,000,000 invoices): a text many rows repeat (an invoice's notes, a payment's method, a
/// write-off's reason) is held once, not once per row, and keeps each row's bytes (docs/performance.md, "The peak
/// at L under 1 GB").
struct RepeatedTextsTests {
    /// Where a string's UTF-8 bytes are: the same address for two strings that share one copy.
    static func storage(_ text: String) -> UnsafeRawPointer? {
        text.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
    }

    static let note = "Thanks for your business, see you next quarter!"

    @Test(.temporaryFolder) func equalLongTextsShareOneCopy() throws {
        let path = try TemporaryFolder.current.path("books.sqlite")
        // The same note and reason on every row; "café" once precomposed and once as e + combining accent: equal
        // strings to Swift, other bytes in the store, so each must keep its own.
        let composed = "Prix du café, selon le devis signé", decomposed = "Prix du cafe\u{301}, selon le devis signé"
        try StoreFixture.make(
            at: path,
            sql: """
                INSERT INTO client (id, number, name) VALUES (1, 'C-1', 'Acme');
                INSERT INTO invoice (id, identifier, clientId, amount, net, currency, issuedOn, dueOn, notes) VALUES
                  (1, 'INV-1', 1, 1000, 1000, 'EUR', '2025-01-10', '2025-02-10', '\(Self.note)'),
                  (2, 'INV-2', 1, 1000, 1000, 'EUR', '2025-01-11', '2025-02-11', '\(Self.note)'),
                  (3, 'INV-3', 1, 1000, 1000, 'EUR', '2025-01-12', '2025-02-12', '\(Self.note)'),
                  (4, 'INV-4', 1, 1000, 1000, 'EUR', '2025-01-13', '2025-02-13', '\(composed)'),
                  (5, 'INV-5', 1, 1000, 1000, 'EUR', '2025-01-14', '2025-02-14', '\(decomposed)');
                INSERT INTO payment (id, invoiceId, paidOn, amount, method, reference) VALUES
                  (1, 1, '2025-01-20', 100, 'bank transfer (SEPA instant)', 'R-1'),
                  (2, 2, '2025-01-20', 100, 'bank transfer (SEPA instant)', 'R-2');
                INSERT INTO writeOff (id, invoiceId, writtenOffOn, amount, reason) VALUES
                  (1, 1, '2025-03-01', 900, 'client went out of business, no assets'),
                  (2, 2, '2025-03-01', 900, 'client went out of business, no assets');
                """,
            version: 2)
        let books = try BooksStore(path: path).books
        let notes = books.invoices.map(\.notes)
        #expect(Array(notes.prefix(3)) == Array(repeating: Self.note, count: 3))
        let shared = Set(notes.prefix(3).map(Self.storage))
        #expect(shared.count == 1 && shared.first != nil, "three equal notes held in \(shared.count) copies")
        #expect(Array(notes[3].utf8) == Array(composed.utf8))
        #expect(Array(notes[4].utf8) == Array(decomposed.utf8))
        let methods = books.paymentDetails.map(\.method)
        #expect(methods.count == 2 && Self.storage(methods[0]) == Self.storage(methods[1]))
        let reasons = books.writeOffs.map(\.reason)
        #expect(reasons.count == 2 && reasons[0] == reasons[1] && Self.storage(reasons[0]) == Self.storage(reasons[1]))
    }

    /// Past ``RepeatedTexts/limit`` distinct texts a new one is not kept, and every text still comes back as it was.
    @Test func pastTheLimitTextsAreTheirOwn() {
        var texts = RepeatedTexts()
        let all = (0..<(RepeatedTexts.limit + 10)).map { "a text long enough for the heap, number \($0)" }
        for text in all { #expect(texts.keep(text) == text) }
        let late = String(decoding: Array(all[all.count - 1].utf8), as: UTF8.self)
        #expect(Self.storage(texts.keep(late)) == Self.storage(late))
        let early = String(decoding: Array(all[0].utf8), as: UTF8.self)
        #expect(Self.storage(texts.keep(early)) == Self.storage(all[0]))
    }

    /// A text already kept is found by its bytes: no string is made for it (issue 46 item 4: the notes were made a
    /// string, hashed and let go on every row).
    @Test func aKeptTextIsFoundByItsBytesWithoutMakingAString() {
        var texts = RepeatedTexts()
        var made = 0
        func keep(_ text: String) -> String? {
            Array(text.utf8).withUnsafeBytes { bytes in
                texts.keep(bytes) {
                    made += 1
                    return String(decoding: bytes, as: UTF8.self)
                }
            }
        }
        let first = keep(Self.note)
        #expect(made == 1 && first == Self.note)
        let again = keep(Self.note)
        #expect(made == 1, "a string was made for a kept text")
        #expect(again.map(Self.storage) == first.map(Self.storage))
        // Other bytes, even of a text Swift calls equal, are made and kept apart; short texts are always made.
        #expect(keep("Prix du cafe\u{301}, selon le devis") != nil && keep("Prix du caf\u{E9}, selon le devis") != nil)
        #expect(made == 3)
        _ = keep("short")
        _ = keep("short")
        #expect(made == 5)
    }

    /// Invalid UTF-8 in a long note after an equal-looking valid one is still refused, with the row named.
    @Test(.temporaryFolder) func aLongInvalidNoteIsStillRefused() throws {
        let path = try TemporaryFolder.current.path("books.sqlite")
        let hex = Array(Self.note.utf8).map { String(format: "%02x", $0) }.joined()
        try StoreFixture.make(
            at: path,
            sql: """
                INSERT INTO client (id, number, name) VALUES (1, 'C-1', 'Acme');
                INSERT INTO invoice (id, identifier, clientId, amount, net, currency, issuedOn, dueOn, notes) VALUES
                  (1, 'INV-1', 1, 1000, 1000, 'EUR', '2025-01-10', '2025-02-10', '\(Self.note)'),
                  (2, 'INV-2', 1, 1000, 1000, 'EUR', '2025-01-11', '2025-02-11', CAST(x'\(hex)ff' AS TEXT));
                """,
            version: 2)
        #expect {
            _ = try BooksStore(path: path)
        } throws: { error in
            "\(error)".contains("invoice 'INV-2' column notes: is not valid UTF-8 text")
        }
    }
}
