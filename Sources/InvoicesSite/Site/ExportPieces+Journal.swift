internal import InvoicesCore
internal import InvoicesReport

extension SiteBuilder.Inputs {
    /// `books.journal`'s and `books.beancount`'s runs of transactions (``InvoicesReport/BooksJournal/Transactions``)
    /// and their keys, the same for both files (``pieceKey(_:_:)`` adds the file's name). A run ends after a
    /// transaction whose fingerprint of invoice identifier, kind and day is a multiple of 64 (so a transaction
    /// added, removed or changed changes its own run's key, and the runs around it keep theirs), or once it holds
    /// 4,096 transactions. A run's key is a fingerprint of what its lines show: per transaction its day and kind, the
    /// invoice's identifier, client number and name and currency, and by kind the invoice's amount, net and tax lines
    /// (each tax's name and rate, net and tax), the payment's amount, method and reference, or the write-off's amount
    /// and reason; and ``base`` (the options with the `journal:` accounts, the period, the currencies, the executable).
    func journalRuns(_ books: Books, _ transactions: BooksJournal.Transactions) -> (runs: [Range<Int>], keys: [UInt64]) {
        let clientKeys = Self.clientNameKeys(books)
        let taxKeys = books.taxes.map { tax in
            var fingerprint = Fingerprint()
            fingerprint.add(tax.name)
            fingerprint.add(tax.milliPercent)
            return fingerprint.value
        }
        var runs: [Range<Int>] = []
        var keys: [UInt64] = []
        var start = 0
        var key = Fingerprint(seed: base)
        // Each field read in place (`pointee`): a copy of the invoice would retain and release its texts.
        books.invoices.withUnsafeBufferPointer { invoices in
            // What every transaction of an invoice adds, worked out in one pass in the invoices' order: the
            // transactions come by day, across clients, and reading each one's invoice missed the cache (their
            // identifiers hashed once per transaction were most of this function's time).
            let shown = invoices.map { invoice in
                var identifier = Fingerprint()
                identifier.add(invoice.identifier)
                var shown = Fingerprint()
                shown.add(identifier.value)
                shown.add(clientKeys[Int(invoice.clientIndex)])
                shown.add(Int(invoice.currencyIndex))
                return (identifier: identifier, shown: shown.value)
            }
            for (index, entry) in transactions.entries.enumerated() {
                let invoice = invoices.baseAddress! + Int(entry.invoice)
                var identifier = shown[Int(entry.invoice)].identifier
                key.add(UInt64(entry.kind.rawValue) + 1)
                key.add(entry.day.dayNumber)
                key.add(shown[Int(entry.invoice)].shown)
                switch entry.kind {
                case .invoice, .creditNote:
                    key.add(invoice.pointee.amount)
                    key.add(invoice.pointee.net)
                    var line = Int(entry.item)
                    while line < books.taxLines.count, books.taxLines[line].invoiceIndex == entry.invoice {
                        let tax = books.taxLines[line]
                        key.add(taxKeys[Int(tax.taxIndex)])
                        key.add(tax.net)
                        key.add(tax.amount)
                        line += 1
                    }
                    key.add(line - Int(entry.item))
                case .payment:
                    let row = books.payments[Int(entry.item)]
                    key.add(row.amount)
                    key.add(row.details >= 0 ? books.paymentDetails[Int(row.details)] : nil) { $0.add($1.method); $0.add($1.reference) }
                case .writeOff:
                    let row = books.writeOffs[Int(entry.item)]
                    key.add(row.amount)
                    key.add(row.reason)
                }
                identifier.add(UInt64(entry.kind.rawValue))
                identifier.add(entry.day.dayNumber)
                if identifier.value % 64 == 0 || index + 1 - start >= 4096 {
                    runs.append(start..<index + 1)
                    keys.append(key.value)
                    start = index + 1
                    key = Fingerprint(seed: base)
                }
            }
        }
        if transactions.entries.count > start {
            runs.append(start..<transactions.entries.count)
            keys.append(key.value)
        }
        return (runs, keys)
    }
}
