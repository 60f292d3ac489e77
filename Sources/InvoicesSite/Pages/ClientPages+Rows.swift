internal import InvoicesCore

/// A client page's shorter lists given cell by cell (``Rows``), so that the default rows go in by the compiled row
/// path instead of through swift-mustache: the invoices whose balance is not all or nothing, and those set apart.
extension ClientPages {
    /// An invoice whose balance is not simply all or nothing: partly paid, credited, written off, overpaid.
    enum BalanceColumns: RowColumns { static var columns: [String] { ["identifier", "amount", "balance", "status", "statusText"] } }
    /// A draft or void invoice.
    enum SetAsideColumns: RowColumns { static var columns: [String] { ["identifier", "issued", "amount", "status", "statusText"] } }

    /// The balances of `invoices` (each with a balance in the report) at `asOf`.
    func balanceRows(_ invoices: [Int], asOf: CalendarDate) -> Rows<BalanceColumns> {
        Rows(count: invoices.count) { [self] row, column in
            let index = invoices[row]
            let invoice = books.invoices[index]
            let currency = books.currencies[Int(invoice.currencyIndex)]
            switch column {
            case 0: return invoice.identifier
            case 1: return site.money(invoice.amount, currency)
            case 2: return report.balances[index].map { site.money($0, currency) } ?? ""
            case 3: return site.invoiceStatus(index, asOf: asOf)
            default: return site.word("status." + site.invoiceStatus(index, asOf: asOf))
            }
        }
    }

    /// The drafts and void invoices among `invoices`.
    func setAsideRows(_ invoices: [Int]) -> Rows<SetAsideColumns> {
        Rows(count: invoices.count) { [self] row, column in
            let invoice = books.invoices[invoices[row]]
            switch column {
            case 0: return invoice.identifier
            case 1: return site.date(invoice.issued)
            case 2: return site.money(invoice.amount, books.currencies[Int(invoice.currencyIndex)])
            case 3: return invoice.status.name
            default: return site.word("status." + invoice.status.name)
            }
        }
    }
}
