internal import InvoicesCore
internal import GRDB
internal import GRDBSQLite

extension StoreLoader {
    /// Reads a v2 store's payments, write-offs and tax lines, resolves credit notes to the invoices they correct,
    /// checks gross = net + taxes per invoice and sets the settled dates: the whole ``Books``.
    ///
    /// Invoices are in row-id order, so an invoice id becomes an index by binary search, without a dictionary; each
    /// table is read by a plain scan and sorted by invoice index (then day) as ``Books`` keeps them.
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
            sql: "SELECT id, invoiceId, paidOn, amount, currency, method, reference FROM payment ORDER BY id")
        try step(paymentStatement) { row in
            guard let invoice = self.owner(row, table: "payment", indexOf: indexOf, problems: &problems) else { return }
            // The row's name is only built for a message: no string per row otherwise.
            func rowName() -> String { "id \(row.int64(0)) of invoice \(name(invoice))" }
            let day = self.day(row, 2, table: "payment", row: rowName, column: "paidOn", problems: &problems)
            let amount = self.integer(row, 3, table: "payment", row: rowName, column: "amount", problems: &problems)
            let violations = BooksRules.paymentViolations(
                amount: amount ?? 1, date: day, issued: invoices[invoice].issued,
                currency: row.isNull(4) ? nil : (row.text(4) ?? "?"),
                invoiceCurrency: row.isNull(4) ? nil : currencies[Int(invoices[invoice].currencyIndex)].code)
            if !violations.isEmpty { problems.add(table: "payment", row: rowName(), violations) }
            guard violations.isEmpty, let day, let amount else { return }
            var detailIndex: Int32 = -1
            if row.bytes(5).count > 0 || row.bytes(6).count > 0 {
                let method = row.text(5) ?? ""
                let reference = row.text(6) ?? ""
                detailIndex = Int32(details.count)
                details.append(PaymentDetails(method: method, reference: reference))
            }
            payments.append(PaymentSnapshot(invoiceIndex: Int32(invoice), date: day, amount: amount, details: detailIndex))
        }

        var writeOffs: [WriteOffSnapshot] = []
        let writeOffStatement = try db.makeStatement(
            sql: "SELECT id, invoiceId, writtenOffOn, amount, reason FROM writeOff ORDER BY id")
        try step(writeOffStatement) { row in
            guard let invoice = self.owner(row, table: "writeOff", indexOf: indexOf, problems: &problems) else { return }
            func rowName() -> String { "id \(row.int64(0)) of invoice \(name(invoice))" }
            let day = self.day(row, 2, table: "writeOff", row: rowName, column: "writtenOffOn", problems: &problems)
            let amount = self.integer(row, 3, table: "writeOff", row: rowName, column: "amount", problems: &problems)
            let violations = BooksRules.writeOffViolations(amount: amount ?? 1, date: day, issued: invoices[invoice].issued)
            if !violations.isEmpty { problems.add(table: "writeOff", row: rowName(), violations) }
            guard violations.isEmpty, let day, let amount else { return }
            writeOffs.append(WriteOffSnapshot(invoiceIndex: Int32(invoice), date: day, amount: amount, reason: row.text(4) ?? ""))
        }

        var taxLines: [TaxLineSnapshot] = []
        var taxes: [TaxRate] = []
        // The taxes seen so far, by their raw name and rate bytes: a few entries, compared without a string per line.
        var taxBytes: [(name: [UInt8], rate: [UInt8], index: Int32)] = []
        let taxStatement = try db.makeStatement(sql: "SELECT id, invoiceId, name, rate, net, amount FROM taxLine ORDER BY id")
        try step(taxStatement) { row in
            guard let invoice = self.owner(row, table: "taxLine", indexOf: indexOf, problems: &problems) else { return }
            func rowName() -> String { "id \(row.int64(0)) of invoice \(name(invoice))" }
            let net = row.isNull(4)
                ? invoices[invoice].net : self.integer(row, 4, table: "taxLine", row: rowName, column: "net", problems: &problems)
            let amount = self.integer(row, 5, table: "taxLine", row: rowName, column: "amount", problems: &problems)
            let nameBytes = row.bytes(2)
            let rateBytes = row.bytes(3)
            var index = Int32(-1)
            for known in taxBytes where known.name.elementsEqual(nameBytes) && known.rate.elementsEqual(rateBytes) {
                index = known.index
                break
            }
            let rate = index >= 0 ? "0" : (row.text(3) ?? "")
            let violations = BooksRules.taxLineViolations(rate: rate, net: net ?? 0, amount: amount ?? 0)
            if !violations.isEmpty { problems.add(table: "taxLine", row: rowName(), violations) }
            guard violations.isEmpty, let net, let amount else { return }
            if index < 0 {
                guard let tax = TaxRate(name: row.text(2) ?? "", percent: rate) else { return }
                // Two spellings of one rate (7.7 and 7.70) are one tax.
                if let same = taxes.firstIndex(of: tax) {
                    index = Int32(same)
                } else {
                    index = Int32(taxes.count)
                    taxes.append(tax)
                }
                taxBytes.append((Array(nameBytes), Array(rateBytes), index))
            }
            taxLines.append(TaxLineSnapshot(invoiceIndex: Int32(invoice), taxIndex: index, net: net, amount: amount))
        }
        // Read in row-id order (a plain table scan, no sort in SQLite); ordered here by invoice, then day, stably.
        payments = Self.sorted(payments) { ($0.invoiceIndex, $0.date.dayNumber) < ($1.invoiceIndex, $1.date.dayNumber) }
        writeOffs = Self.sorted(writeOffs) { ($0.invoiceIndex, $0.date.dayNumber) < ($1.invoiceIndex, $1.date.dayNumber) }
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

    /// `rows` stably sorted by `less`; already sorted rows (the usual case: written in invoice order) are not moved.
    static func sorted<T>(_ rows: [T], by less: (T, T) -> Bool) -> [T] {
        if zip(rows, rows.dropFirst()).allSatisfy({ !less($1, $0) }) { return rows }
        return rows.enumerated().sorted { less($0.element, $1.element) || (!less($1.element, $0.element) && $0.offset < $1.offset) }.map(\.element)
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

    private func day(_ row: Columns, _ column: Int32, table: String, row rowName: () -> String, column name: String, problems: inout Problems) -> CalendarDate? {
        if row.isNull(column) {
            problems.add(table: table, row: rowName(), column: name, "is NULL; expected a date YYYY-MM-DD")
            return nil
        }
        if let date = CalendarDate(isoBytes: row.bytes(column)) { return date }
        problems.add(table: table, row: rowName(), column: name, "'\(row.text(column) ?? "?")' is not a date (expected YYYY-MM-DD, a real day)")
        return nil
    }

    private func integer(_ row: Columns, _ column: Int32, table: String, row rowName: () -> String, column name: String, problems: inout Problems) -> Int64? {
        guard row.isInteger(column) else {
            problems.add(table: table, row: rowName(), column: name, row.isNull(column) ? "is NULL; expected an integer count of minor units" : "is not an integer count of minor units")
            return nil
        }
        return row.int64(column)
    }
}
