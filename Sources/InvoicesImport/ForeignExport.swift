/// Exports of invoicing services that `invoices import` does not read, recognised by their header rows so that
/// the message says what the file is and what to do with it instead of only "matches no import format".
///
/// The column names are those of the services' real exports (as kept in Invoice Ninja's import tests); a file
/// is recognised when its header has every column of a ``signature`` and none of ``absent``. docs/import.md
/// lists them under "Files it does not read".
struct ForeignExport: Sendable {
    /// What the file looks like, as a noun phrase: "a Wave transactions export".
    let what: String
    /// Columns that all appear in the header.
    let signature: [String]
    /// Columns whose absence is the point (Zoho Books without `Currency Code`).
    let absent: [String]
    /// What the user can do next.
    let advice: String

    init(_ what: String, signature: [String], absent: [String] = [], advice: String) {
        self.what = what
        self.signature = signature
        self.absent = absent
        self.advice = advice
    }

    static let convertInvoices =
        "convert its invoices to the invoices CSV format (identifier, clientNumber, amount, currency, issuedOn, "
        + "dueOn, paidOn, notes; see docs/import.md) and import that"
    static let convertClients =
        "convert it to the clients CSV format (number, name, email, street, city, zip, country; see docs/import.md) "
        + "and import that"

    /// The exports we know, most specific first.
    static let known: [ForeignExport] = [
        ForeignExport(
            "a Zoho invoices export without the 'Currency Code' column (as Zoho Books writes it)",
            signature: ["Invoice Number", "Customer Name", "Invoice Date", "Due Date", "Total", "Balance"],
            absent: ["Currency Code"],
            advice: "the store needs each invoice's currency: add a 'Currency Code' column with the ISO 4217 code "
                + "(e.g. USD) on every line, or export again with the currency included, and import that"),
        ForeignExport(
            "Xero's sales invoice import template (its required columns marked '*')",
            signature: ["*ContactName", "*InvoiceNumber", "*InvoiceDate", "*DueDate"],
            advice: "it is a file for importing into Xero, with no status, payments or balances; export the invoices from "
                + "Xero (Business › Invoices › Export) and import that (xero-invoices)"),
        ForeignExport(
            "a Zoho contacts export", signature: ["Display Name", "Contact Type"],
            advice: "Zoho's clients are read from its invoices export, which names each customer with the billing "
                + "address: import the invoices export instead (zoho-invoices)"),
        ForeignExport(
            "a Wave vendors export", signature: ["vendor_name", "vendor_currency"],
            advice: "vendors are suppliers, not clients, so there is nothing in it to import; leave the file out"),
        ForeignExport(
            "an Invoice2go invoices export",
            signature: ["DocumentNumber", "DocumentDate", "TotalAmount", "BalanceDueAmount"],
            advice: "invoices import does not read Invoice2go; " + convertInvoices),
        ForeignExport(
            "an Invoicely invoices export", signature: ["Date", "Due", "Details", "Client", "Status", "Total"],
            advice: "it has no invoice numbers and no currency, which the store needs, and invoices import does not "
                + "read Invoicely; " + convertInvoices),
        ForeignExport(
            "an Invoicely or Invoice2go clients export", signature: ["Client Name", "Email", "Phone", "Country"],
            advice: "invoices import does not read them; " + convertClients),
    ]

    /// The export `header` belongs to, or nil.
    static func recognize(header: [String]) -> ForeignExport? {
        let columns = Set(header)
        return known.first { export in
            export.signature.allSatisfy(columns.contains) && !export.absent.contains(where: columns.contains)
        }
    }

    /// The message for a file with this header: "looks like …, which …; advice".
    var message: String { "looks like \(what); \(advice)" }
}
