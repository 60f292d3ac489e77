import Foundation
internal import InvoicesCore

/// Invoice Ninja's export headers and status words in German and French (docs/import.md, "Invoice Ninja (v5)"), mapped to
/// the English ones the reader knows. Invoice Ninja builds a header from its translations (`app/Export/CSV/BaseExport.php`,
/// `buildHeader()`: the entity's word, a space, the column's word, as `ctrans('texts.invoice') . " " . ctrans('texts.amount')`)
/// and writes statuses through them (`stringStatus`: `texts.draft`, `texts.payment_status_4`, ...). The words are those of
/// `lang/de/texts.php` and `lang/fr/texts.php` of invoiceninja/invoiceninja (commit a148eec09b), for the keys whose English
/// words make the columns and statuses read here; they are the file format's identifiers, as the English headers are.
enum NinjaTranslation {
    static let ninjaFormats: Set<ImportFormat> = [.invoiceNinjaClients, .invoiceNinjaInvoices, .invoiceNinjaCredits, .invoiceNinjaPayments]

    /// A header that is an Invoice Ninja export's in German or French becomes the English one, and the status cells of an
    /// Invoice Ninja export (in any language) English words; any other file is left as it is.
    static func translate(_ header: inout [String], _ document: inout CSVDocument, format: ImportFormat?) {
        guard format == nil || ninjaFormats.contains(format!) else { return }
        if ImportFormat.detect(header: header) == nil {
            let translated = header.map { headers[$0] ?? $0 }
            guard let found = ImportFormat.detect(header: translated), ninjaFormats.contains(found) else { return }
            header = translated
        } else if let found = ImportFormat.detect(header: header), !ninjaFormats.contains(found) {
            return
        }
        let columns = header.enumerated().compactMap { index, name -> (Int, [String: String])? in
            switch name {
            case "Invoice Status", "Credit Status": (index, documentStatuses)
            case "Payment Status": (index, paymentStatuses)
            default: nil
            }
        }
        guard !columns.isEmpty else { return }
        for record in document.records.indices {
            for (index, words) in columns where index < document.records[record].fields.count {
                let cell = document.records[record].fields[index].trimmingCharacters(in: .whitespaces)
                if let english = words[cell] { document.records[record].fields[index] = english }
            }
        }
    }

    /// Translated header to English header, German and French together (no translated header means two columns).
    static let headers: [String: String] = [
        "Adresszusatz": "Apt/Suite",
        "Appt/Bâtiment": "Apt/Suite",
        "Article Montant de la taxe": "Item Tax Amount",
        "Article Nom de la taxe 1": "Item Tax Name 1",
        "Article Nom de la taxe 2": "Item Tax Name 2",
        "Article Nom de taxe 3": "Item Tax Name 3",
        "Article Quantité": "Item Quantity",
        "Article Taux de taxe 1": "Item Tax Rate 1",
        "Article Taux de taxe 2": "Item Tax Rate 2",
        "Article Taux de taxe 3": "Item Tax Rate 3",
        "Article Total": "Item Line Total",
        "Article Total brut": "Item Gross Line Total",
        "Artikel Bruttozeilensumme": "Item Gross Line Total",
        "Artikel Menge": "Item Quantity",
        "Artikel Steuersatz 1": "Item Tax Rate 1",
        "Artikel Steuersatz 2": "Item Tax Rate 2",
        "Artikel Steuersatz 3": "Item Tax Rate 3",
        "Artikel Steuersatz Name 1": "Item Tax Name 1",
        "Artikel Steuersatz Name 2": "Item Tax Name 2",
        "Artikel Steuersatz Name 3": "Item Tax Name 3",
        "Artikel Steuerwert": "Item Tax Amount",
        "Artikel Summe": "Item Line Total",
        "Bereits gezahlt": "Paid to Date",
        "Betrag": "Amount",
        "Client Devise": "Client Currency",
        "Client Nom": "Client Name",
        "Code postal": "Postal Code",
        "Crédit Date": "Credit Date",
        "Crédit Date d'échéance": "Credit Due Date",
        "Crédit Montant": "Credit Amount",
        "Crédit Montant de la taxe": "Credit Tax Amount",
        "Crédit Note publique": "Credit Public Notes",
        "Crédit Numéro d'avoir": "Credit Credit Number",
        "Crédit Payé à ce jour": "Credit Paid to Date",
        "Crédit Solde": "Credit Balance",
        "Crédit Statut": "Credit Status",
        "E-Mail": "Email",
        "E-mail": "Email",
        "Facture Date": "Invoice Date",
        "Facture Date d'échéance": "Invoice Due Date",
        "Facture Montant": "Invoice Amount",
        "Facture Montant de la taxe": "Invoice Tax Amount",
        "Facture Nom de la taxe 1": "Invoice Tax Name 1",
        "Facture Nom de la taxe 2": "Invoice Tax Name 2",
        "Facture Nom de taxe 3": "Invoice Tax Name 3",
        "Facture Note publique": "Invoice Public Notes",
        "Facture Numéro de facture": "Invoice Invoice Number",
        "Facture Payé à ce jour": "Invoice Paid to Date",
        "Facture Solde": "Invoice Balance",
        "Facture Statut": "Invoice Status",
        "Facture Taux de taxe 1": "Invoice Tax Rate 1",
        "Facture Taux de taxe 2": "Invoice Tax Rate 2",
        "Facture Taux de taxe 3": "Invoice Tax Rate 3",
        "Facture Utiliser les taxes incluses": "Invoice Uses Inclusive Taxes",
        "Gutschrift Bereits gezahlt": "Credit Paid to Date",
        "Gutschrift Betrag": "Credit Amount",
        "Gutschrift Datum": "Credit Date",
        "Gutschrift Fälligkeitsdatum": "Credit Due Date",
        "Gutschrift Gutschriftnummer": "Credit Credit Number",
        "Gutschrift Saldo": "Credit Balance",
        "Gutschrift Status": "Credit Status",
        "Gutschrift Steuerwert": "Credit Tax Amount",
        "Gutschrift Öffentliche Notizen": "Credit Public Notes",
        "Kunde Name": "Client Name",
        "Kunde Währung": "Client Currency",
        "Land": "Country",
        "Montant": "Amount",
        "Name": "Name",
        "Nom": "Name",
        "Nummer": "Number",
        "Numéro": "Number",
        "Paiement Date": "Payment Date",
        "Paiement Devise": "Payment Currency",
        "Paiement Montant": "Payment Amount",
        "Paiement Méthode": "Payment Method",
        "Paiement Numéro": "Payment Number",
        "Paiement Remboursé": "Payment Refunded",
        "Paiement Référence transaction": "Payment Transaction Reference",
        "Paiement Statut": "Payment Status",
        "Pays": "Country",
        "Payé à ce jour": "Paid to Date",
        "Postleitzahl": "Postal Code",
        "Rechnung Benutzt Inklusive Steuern": "Invoice Uses Inclusive Taxes",
        "Rechnung Bereits gezahlt": "Invoice Paid to Date",
        "Rechnung Betrag": "Invoice Amount",
        "Rechnung Datum": "Invoice Date",
        "Rechnung Fälligkeitsdatum": "Invoice Due Date",
        "Rechnung Rechnungsnummer": "Invoice Invoice Number",
        "Rechnung Saldo": "Invoice Balance",
        "Rechnung Status": "Invoice Status",
        "Rechnung Steuersatz 1": "Invoice Tax Rate 1",
        "Rechnung Steuersatz 2": "Invoice Tax Rate 2",
        "Rechnung Steuersatz 3": "Invoice Tax Rate 3",
        "Rechnung Steuersatz Name 1": "Invoice Tax Name 1",
        "Rechnung Steuersatz Name 2": "Invoice Tax Name 2",
        "Rechnung Steuersatz Name 3": "Invoice Tax Name 3",
        "Rechnung Steuerwert": "Invoice Tax Amount",
        "Rechnung Öffentliche Notizen": "Invoice Public Notes",
        "Rue": "Street",
        "Saldo": "Balance",
        "Solde": "Balance",
        "Stadt": "City",
        "Straße": "Street",
        "Ville": "City",
        "Zahlung Abwicklungsreferenz": "Payment Transaction Reference",
        "Zahlung Betrag": "Payment Amount",
        "Zahlung Datum": "Payment Date",
        "Zahlung Erstattet": "Payment Refunded",
        "Zahlung Nummer": "Payment Number",
        "Zahlung Status": "Payment Status",
        "Zahlung Verfahren": "Payment Method",
        "Zahlung Währung": "Payment Currency",
    ]

    /// Invoice and credit statuses, translated (and the English `Partial/Deposit` that newer versions write) to English.
    static let documentStatuses: [String: String] = [
        "Acompte": "Partial",
        "Angewendet": "Applied",
        "Annulé": "Cancelled",
        "Bezahlt": "Paid",
        "Brouillon": "Draft",
        "Entwurf": "Draft",
        "Envoyé": "Sent",
        "Impayé": "Overdue",
        "Inversé": "Reversed",
        "Non payé": "Unpaid",
        "Partial/Deposit": "Partial",
        "Payé": "Paid",
        "Publié": "Applied",
        "Storniert": "Cancelled",
        "Teil-/Anzahlung": "Partial",
        "Umgekehrt": "Reversed",
        "Unbezahlt": "Unpaid",
        "Versendet": "Sent",
        "Überfällig": "Overdue",
    ]

    /// Payment statuses, translated to English.
    static let paymentStatuses: [String: String] = [
        "Abgeschlossen": "Completed",
        "Annulé": "Voided",
        "Ausstehend": "Pending",
        "Complété": "Completed",
        "En attente": "Pending",
        "Erstattet": "Refunded",
        "Fehlgeschlagen": "Failed",
        "Partiellement remboursé": "Partially Refunded",
        "Remboursement": "Refunded",
        "Teilweise erstattet": "Partially Refunded",
        "entwertet": "Voided",
        "Échoué": "Failed",
    ]
}
