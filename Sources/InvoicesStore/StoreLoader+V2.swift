internal import InvoicesCore
internal import GRDB
internal import GRDBSQLite

extension StoreLoader {
    /// Reads a v2 store's payments, write-offs and tax lines, resolves credit notes to the invoices they correct,
    /// checks gross = net + taxes per invoice and sets the settled dates: the whole ``Books``.
    ///
    /// Invoices are in row-id order, so each table is read in `invoiceId` order and its rows land sorted by invoice
    /// index, as ``Books`` keeps them; an invoice id becomes an index by binary search, without a dictionary.
    func loadV2Rows(
        _ db: Database, clients: [ClientSnapshot], invoices: inout [InvoiceSnapshot], currencies: [CurrencyCode],
        correctsIDs: [Int64?], problems: inout Problems
    ) throws -> Books {
        let ids = invoices.map(\.id)
        func indexOf(_ id: Int64) -> Int? {
            var low = 0
            var high = ids.count
            while low < high {
                let middle = (low + high) / 2
                if ids[middle] < id { low = middle + 1 } else { high = middle }
            }
            return low < ids.count && ids[low] == id ? low : nil
        }
        func name(_ index: Int) -> String { "'\(invoices[index].identifier)'" }

        // Credit notes: the invoice each corrects, of the same client and currency.
        for (index, correctsID) in correctsIDs.enumerated() {
            guard let correctsID else { continue }
            guard let target = indexOf(correctsID) else {
                problems.add(table: "invoice", row: name(index), column: "correctsId", "refers to invoice id \(correctsID), which does not exist")
                continue
            }
            let note = invoices[index]
            let corrected = invoices[target]
            if corrected.kind != .invoice {
                problems.add(table: "invoice", row: name(index), column: "correctsId", "refers to \(name(target)), a credit note; a credit note corrects an invoice")
            } else if corrected.clientIndex != note.clientIndex || corrected.currencyIndex != note.currencyIndex {
                problems.add(
                    table: "invoice", row: name(index), column: "correctsId",
                    "refers to \(name(target)), of another client or currency; a credit note corrects an invoice of its own client in its currency")
            } else {
                invoices[index].corrects = Int32(target)
            }
        }

        var payments: [PaymentSnapshot] = []
        var details: [PaymentDetails] = []
        let paymentStatement = try db.makeStatement(
            sql: "SELECT id, invoiceId, paidOn, amount, currency, method, reference FROM payment ORDER BY invoiceId, paidOn, id")
        try step(paymentStatement) { row in
            guard let invoice = self.owner(row, table: "payment", indexOf: indexOf, problems: &problems) else { return }
            let rowName = "id \(row.int64(0)) of invoice \(name(invoice))"
            let day = self.day(row, 2, table: "payment", row: rowName, column: "paidOn", problems: &problems)
            let amount = self.integer(row, 3, table: "payment", row: rowName, column: "amount", problems: &problems)
            let invoiceCurrency = currencies[Int(invoices[invoice].currencyIndex)].code
            let violations = BooksRules.paymentViolations(
                amount: amount ?? 1, date: day, issued: invoices[invoice].issued,
                currency: row.isNull(4) ? nil : (row.text(4) ?? "?"), invoiceCurrency: invoiceCurrency)
            problems.add(table: "payment", row: rowName, violations)
            let method = row.text(5) ?? ""
            let reference = row.text(6) ?? ""
            guard violations.isEmpty, let day, let amount else { return }
            var detailIndex: Int32 = -1
            if !method.isEmpty || !reference.isEmpty {
                detailIndex = Int32(details.count)
                details.append(PaymentDetails(method: method, reference: reference))
            }
            payments.append(PaymentSnapshot(invoiceIndex: Int32(invoice), date: day, amount: amount, details: detailIndex))
        }

        var writeOffs: [WriteOffSnapshot] = []
        let writeOffStatement = try db.makeStatement(
            sql: "SELECT id, invoiceId, writtenOffOn, amount, reason FROM writeOff ORDER BY invoiceId, writtenOffOn, id")
        try step(writeOffStatement) { row in
            guard let invoice = self.owner(row, table: "writeOff", indexOf: indexOf, problems: &problems) else { return }
            let rowName = "id \(row.int64(0)) of invoice \(name(invoice))"
            let day = self.day(row, 2, table: "writeOff", row: rowName, column: "writtenOffOn", problems: &problems)
            let amount = self.integer(row, 3, table: "writeOff", row: rowName, column: "amount", problems: &problems)
            let violations = BooksRules.writeOffViolations(amount: amount ?? 1, date: day, issued: invoices[invoice].issued)
            problems.add(table: "writeOff", row: rowName, violations)
            guard violations.isEmpty, let day, let amount else { return }
            writeOffs.append(WriteOffSnapshot(invoiceIndex: Int32(invoice), date: day, amount: amount, reason: row.text(4) ?? ""))
        }

        var taxLines: [TaxLineSnapshot] = []
        var taxes: [TaxRate] = []
        var taxIndex: [TaxRate: Int32] = [:]
        let taxStatement = try db.makeStatement(sql: "SELECT id, invoiceId, name, rate, net, amount FROM taxLine ORDER BY invoiceId, id")
        try step(taxStatement) { row in
            guard let invoice = self.owner(row, table: "taxLine", indexOf: indexOf, problems: &problems) else { return }
            let rowName = "id \(row.int64(0)) of invoice \(name(invoice))"
            let taxName = row.text(2) ?? ""
            let rate = row.text(3) ?? ""
            let net = row.isNull(4)
                ? invoices[invoice].net : self.integer(row, 4, table: "taxLine", row: rowName, column: "net", problems: &problems)
            let amount = self.integer(row, 5, table: "taxLine", row: rowName, column: "amount", problems: &problems)
            let violations = BooksRules.taxLineViolations(rate: rate, net: net ?? 0, amount: amount ?? 0)
            problems.add(table: "taxLine", row: rowName, violations)
            guard violations.isEmpty, let net, let amount, let tax = TaxRate(name: taxName, percent: rate) else { return }
            let index: Int32
            if let known = taxIndex[tax] { index = known } else {
                index = Int32(taxes.count)
                taxIndex[tax] = index
                taxes.append(tax)
            }
            taxLines.append(TaxLineSnapshot(invoiceIndex: Int32(invoice), taxIndex: index, net: net, amount: amount))
        }
        // Taxes in order, so every table built from them is ordered the same way on every run.
        let sortedTaxes = taxes.sorted()
        if sortedTaxes != taxes {
            let remap = taxes.map { Int32(sortedTaxes.firstIndex(of: $0)!) }
            for index in taxLines.indices { taxLines[index].taxIndex = remap[Int(taxLines[index].taxIndex)] }
        }
        taxLines.sort { $0.invoiceIndex != $1.invoiceIndex ? $0.invoiceIndex < $1.invoiceIndex : $0.taxIndex < $1.taxIndex }

        // Gross = net + taxes, exactly, for every invoice.
        var line = 0
        var lineAmounts: [Int64] = []
        for index in invoices.indices {
            lineAmounts.removeAll(keepingCapacity: true)
            while line < taxLines.count, taxLines[line].invoiceIndex == Int32(index) {
                lineAmounts.append(taxLines[line].amount)
                line += 1
            }
            problems.add(
                table: "invoice", row: name(index),
                BooksRules.taxViolations(gross: invoices[index].amount, net: invoices[index].net, taxes: lineAmounts))
        }

        var books = Books(
            clients: clients, invoices: invoices, currencies: currencies, payments: payments, paymentDetails: details,
            writeOffs: writeOffs, taxLines: taxLines, taxes: sortedTaxes, schemaVersion: 2)
        invoices = []
        books.settle()
        return books
    }

    /// The index of the invoice a row of `table` belongs to (column 1, `invoiceId`), or nil after reporting it.
    private func owner(_ row: Columns, table: String, indexOf: (Int64) -> Int?, problems: inout Problems) -> Int? {
        if row.isNull(1) {
            problems.add(table: table, row: "id \(row.int64(0))", column: "invoiceId", "is NULL; every \(table) row belongs to an invoice")
            return nil
        }
        guard let index = indexOf(row.int64(1)) else {
            problems.add(table: table, row: "id \(row.int64(0))", column: "invoiceId", "refers to invoice id \(row.int64(1)), which does not exist")
            return nil
        }
        return index
    }

    private func day(_ row: Columns, _ column: Int32, table: String, row rowName: String, column name: String, problems: inout Problems) -> CalendarDate? {
        if row.isNull(column) {
            problems.add(table: table, row: rowName, column: name, "is NULL; expected a date YYYY-MM-DD")
            return nil
        }
        if let date = CalendarDate(isoBytes: row.bytes(column)) { return date }
        problems.add(table: table, row: rowName, column: name, "'\(row.text(column) ?? "?")' is not a date (expected YYYY-MM-DD, a real day)")
        return nil
    }

    private func integer(_ row: Columns, _ column: Int32, table: String, row rowName: String, column name: String, problems: inout Problems) -> Int64? {
        guard row.isInteger(column) else {
            problems.add(table: table, row: rowName, column: name, row.isNull(column) ? "is NULL; expected an integer count of minor units" : "is not an integer count of minor units")
            return nil
        }
        return row.int64(column)
    }
}
