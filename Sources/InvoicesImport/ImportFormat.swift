/// The file formats `invoices import` reads. docs/import.md describes each.
public enum ImportFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    /// The tool's own clients CSV: `number,name,email,street,city,zip,country`.
    case clientsCSV = "clients-csv"
    /// The tool's own invoices CSV: `identifier,clientNumber,amount,currency,issuedOn,dueOn,paidOn,notes`.
    case invoicesCSV = "invoices-csv"
    /// The tool's own payments CSV: `invoice,paidOn,amount,currency,method,reference`, several rows per invoice.
    case paymentsCSV = "payments-csv"
    /// The tool's own JSON: `{"clients": [...], "invoices": [...]}` with the CSV formats' keys.
    case json
    /// FreshBooks' clients export.
    case freshBooksClients = "freshbooks-clients"
    /// FreshBooks' invoices export, one row per line item.
    case freshBooksInvoices = "freshbooks-invoices"
    /// FreshBooks' Payments Collected report, one row per payment.
    case freshBooksPayments = "freshbooks-payments"
    /// Zoho Invoice's invoices export, one row per line item.
    case zohoInvoices = "zoho-invoices"
    /// Xero's invoices export, one row per line item, credit notes among them.
    case xeroInvoices = "xero-invoices"
    /// QuickBooks Online's Invoice List report, title rows and totals included (RowContext+QuickBooks.swift).
    case quickBooksInvoiceList = "quickbooks-invoice-list"
    /// QuickBooks Online's Transaction List by Customer report (RowContext+QuickBooks.swift).
    case quickBooksTransactions = "quickbooks-transactions"
    /// Invoice Ninja v5's clients export (Reports › Clients › Export).
    case invoiceNinjaClients = "invoiceninja-clients"
    /// Invoice Ninja v5's invoices export, one row per invoice.
    case invoiceNinjaInvoices = "invoiceninja-invoices"
    /// Invoice Ninja v5's credits export, one row per credit.
    case invoiceNinjaCredits = "invoiceninja-credits"
    /// Invoice Ninja v5's payments export, one row per payment, with the invoice number column added.
    case invoiceNinjaPayments = "invoiceninja-payments"
    /// Wave's customers export: the customers and their currencies.
    case waveCustomers = "wave-customers"
    /// Wave's accounting transactions export: the ledger, invoices and payments among its lines.
    case waveTransactions = "wave-transactions"
    /// The Stripe Dashboard's invoices export (Invoices › Export), one row per invoice (RowContext+StripeCSV.swift).
    case stripeInvoicesCSV = "stripe-invoices-csv"
    /// The Stripe Dashboard's credit notes export, one row per credit note (RowContext+StripeCSV.swift).
    case stripeCreditNotesCSV = "stripe-credit-notes-csv"

    public var description: String { rawValue }

    /// Columns a file of this format must have (CSV formats).
    var requiredColumns: [String] {
        switch self {
        case .clientsCSV: ["number", "name"]
        case .invoicesCSV: ["identifier", "clientNumber", "amount", "currency", "issuedOn", "dueOn"]
        case .paymentsCSV: ["invoice", "paidOn", "amount", "currency"]
        case .json: []
        case .freshBooksClients: ["Organization", "First Name", "Last Name"]
        case .freshBooksInvoices:
            ["Client Name", "Invoice #", "Date Issued", "Invoice Status", "Date Paid", "Line Total", "Currency"]
        case .freshBooksPayments: ["Date", "Client", "Invoice #", "Method", "Amount", "Currency"]
        case .zohoInvoices:
            ["Invoice Date", "Invoice Number", "Customer Name", "Due Date", "Currency Code", "Total", "Balance",
             "Last Payment Date"]
        case .xeroInvoices:
            ["ContactName", "InvoiceNumber", "InvoiceDate", "DueDate", "Total", "TaxTotal", "InvoiceAmountPaid", "InvoiceAmountDue",
             "LineAmount", "TaxType", "TaxAmount", "Currency", "Type", "Status"]
        case .quickBooksInvoiceList, .quickBooksTransactions: QuickBooksReport.Kind(self).required
        case .invoiceNinjaClients, .invoiceNinjaInvoices, .invoiceNinjaCredits, .invoiceNinjaPayments: invoiceNinjaColumns
        case .waveCustomers: Self.waveCustomerColumns
        case .waveTransactions: Self.waveTransactionColumns
        case .stripeInvoicesCSV: Self.stripeInvoiceColumns
        case .stripeCreditNotesCSV: Self.stripeCreditNoteColumns
        }
    }

    /// The CSV format a header row belongs to, most specific first; nil when it is none of them.
    static func detect(header: [String]) -> ImportFormat? {
        let columns = Set(header)
        for format in [ImportFormat.invoiceNinjaInvoices, .invoiceNinjaCredits, .invoiceNinjaPayments, .invoiceNinjaClients, .waveTransactions, .waveCustomers, .stripeCreditNotesCSV, .stripeInvoicesCSV, .xeroInvoices, .zohoInvoices, .freshBooksInvoices, .freshBooksPayments, .freshBooksClients, .invoicesCSV, .paymentsCSV, .clientsCSV]
        where format.requiredColumns.allSatisfy(columns.contains) {
            return format
        }
        return nil
    }
}
