import Foundation
import InvoicesCore
import InvoicesImport
import InvoicesTesting
import Testing

/// Invoice Ninja v5 writes its export headers and statuses in the company's language (`ctrans`): the German and French
/// exports import to the same books as the English ones (issue 44). The words are Invoice Ninja's own
/// (`lang/de/texts.php`, `lang/fr/texts.php`): the entity's word, a space, the column's.
struct InvoiceNinjaLanguagesTests {
    static let german: [String: String] = [
        "Name": "Name", "Number": "Nummer", "Client Currency": "Kunde Währung", "Email": "E-Mail", "Street": "Straße",
        "Apt/Suite": "Adresszusatz", "City": "Stadt", "Postal Code": "Postleitzahl", "Country": "Land", "Client Name": "Kunde Name",
        "Invoice Invoice Number": "Rechnung Rechnungsnummer", "Invoice Amount": "Rechnung Betrag", "Invoice Balance": "Rechnung Saldo",
        "Invoice Paid to Date": "Rechnung Bereits gezahlt", "Invoice Date": "Rechnung Datum", "Invoice Due Date": "Rechnung Fälligkeitsdatum",
        "Invoice Status": "Rechnung Status", "Invoice Public Notes": "Rechnung Öffentliche Notizen", "Invoice Tax Amount": "Rechnung Steuerwert",
        "Invoice Uses Inclusive Taxes": "Rechnung Benutzt Inklusive Steuern",
        "Invoice Tax Name 1": "Rechnung Steuersatz Name 1", "Invoice Tax Rate 1": "Rechnung Steuersatz 1",
        "Invoice Tax Name 2": "Rechnung Steuersatz Name 2", "Invoice Tax Rate 2": "Rechnung Steuersatz 2",
        "Credit Credit Number": "Gutschrift Gutschriftnummer", "Credit Amount": "Gutschrift Betrag", "Credit Balance": "Gutschrift Saldo",
        "Credit Paid to Date": "Gutschrift Bereits gezahlt", "Credit Date": "Gutschrift Datum", "Credit Due Date": "Gutschrift Fälligkeitsdatum",
        "Credit Status": "Gutschrift Status", "Credit Public Notes": "Gutschrift Öffentliche Notizen", "Credit Tax Amount": "Gutschrift Steuerwert",
        "Payment Date": "Zahlung Datum", "Payment Amount": "Zahlung Betrag", "Payment Refunded": "Zahlung Erstattet",
        "Payment Currency": "Zahlung Währung", "Payment Status": "Zahlung Status", "Payment Method": "Zahlung Verfahren",
        "Payment Number": "Zahlung Nummer", "Payment Transaction Reference": "Zahlung Abwicklungsreferenz",
    ]
    static let germanStatuses: [String: String] = [
        "Draft": "Entwurf", "Sent": "Versendet", "Partial": "Teil-/Anzahlung", "Paid": "Bezahlt", "Cancelled": "Storniert",
        "Reversed": "Umgekehrt", "Applied": "Angewendet", "Completed": "Abgeschlossen", "Pending": "Ausstehend",
        "Partially Refunded": "Teilweise erstattet", "Refunded": "Erstattet", "Voided": "entwertet", "Failed": "Fehlgeschlagen",
    ]
    static let french: [String: String] = [
        "Client Name": "Client Nom", "Client Currency": "Client Devise", "Invoice Invoice Number": "Facture Numéro de facture",
        "Invoice Amount": "Facture Montant", "Invoice Balance": "Facture Solde", "Invoice Paid to Date": "Facture Payé à ce jour",
        "Invoice Date": "Facture Date", "Invoice Due Date": "Facture Date d'échéance", "Invoice Status": "Facture Statut",
        "Invoice Tax Amount": "Facture Montant de la taxe",
    ]
    static let frenchStatuses: [String: String] = ["Draft": "Brouillon", "Sent": "Envoyé", "Partial": "Acompte", "Paid": "Payé", "Cancelled": "Annulé", "Reversed": "Inversé"]

    /// `fixture` with its header cells and status cells translated, written to `folder`.
    static func translated(_ folder: TemporaryFolder, _ fixture: String, headers: [String: String], statuses: [String: String]) throws -> String {
        let document = try CSVDocument(bytes: [UInt8](try #require(Support.bytes(Support.fixture(fixture)))))
        let statusColumns = Set(["Invoice Status", "Credit Status", "Payment Status"].compactMap { document.header.firstIndex(of: $0) })
        func line(_ fields: [String]) -> String {
            fields.map { $0.contains(where: { ",\"\n".contains($0) }) ? "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : $0 }
                .joined(separator: ",")
        }
        var lines = [line(document.header.map { headers[$0] ?? $0 })]
        for record in document.records {
            lines.append(line(record.fields.enumerated().map { statusColumns.contains($0.offset) ? statuses[$0.element] ?? $0.element : $0.element }))
        }
        let path = folder.path((fixture as NSString).lastPathComponent)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(.temporaryFolder) func germanExportsImportAsTheEnglishOnes() throws {
        let folder = try TemporaryFolder.current
        let english = folder.path("english.sqlite")
        let german = folder.path("german.sqlite")
        try Support.importFixtures(InvoiceNinjaBooksTests.files, into: english)
        let sub = try TemporaryFolder()
        defer { sub.remove() }
        let files = try InvoiceNinjaBooksTests.files.map { try Self.translated(sub, $0, headers: Self.german, statuses: Self.germanStatuses) }
        let text = String(decoding: try #require(Support.bytes(files[1])), as: UTF8.self)
        let header = text.split(separator: "\n").first.map(String.init) ?? ""
        #expect(header.hasPrefix("Kunde Name,Kunde Währung,Rechnung Rechnungsnummer,Rechnung Betrag"))
        let summary = try ImportWriter.apply(try ImportReader().read(files: files), to: german)
        #expect(summary.invoices.added > 0)
        #expect(try Support.dump(german) == Support.dump(english))
    }

    @Test func aFrenchInvoicesExportImportsAsTheEnglishOne() throws {
        let sub = try TemporaryFolder()
        defer { sub.remove() }
        let fixture = InvoiceNinjaBooksTests.files[1]
        let path = try Self.translated(sub, fixture, headers: Self.french, statuses: Self.frenchStatuses)
        let clients = Support.fixture(InvoiceNinjaBooksTests.files[0])
        let french = try ImportReader().read(files: [clients, path])
        let english = try ImportReader().read(files: [clients, Support.fixture(fixture)])
        #expect(french.invoices.count == english.invoices.count && !french.invoices.isEmpty)
        for (a, b) in zip(french.invoices, english.invoices) {
            #expect(a.identifier == b.identifier && a.amount == b.amount && a.status == b.status && a.receipts == b.receipts && a.tax == b.tax, "\(a.identifier)")
        }
    }

    /// Newer Invoice Ninja versions write a partly paid invoice's status as `Partial/Deposit` in English too (`texts.partial`).
    @Test func theEnglishPartialDepositStatusIsRead() throws {
        let sub = try TemporaryFolder()
        defer { sub.remove() }
        let path = try Self.translated(sub, InvoiceNinjaBooksTests.files[1], headers: [:], statuses: ["Partial": "Partial/Deposit"])
        let batch = try ImportReader().read(files: [Support.fixture(InvoiceNinjaBooksTests.files[0]), path])
        #expect(!batch.invoices.isEmpty)
        let text = String(decoding: try #require(Support.bytes(path)), as: UTF8.self)
        #expect(text.contains("Partial/Deposit"))
    }
}
