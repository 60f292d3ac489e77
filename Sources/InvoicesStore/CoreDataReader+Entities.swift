import Foundation
internal import GRDB
internal import InvoicesCore

extension CoreDataReader {
    /// Reads the Client entity and its sub-entities. A client without a number gets `Z-<Z_PK>`. The `language`
    /// attribute (`ZLANGUAGE`) is optional: without it, or NULL, the client has the report's language; a value must
    /// be a well-formed BCP 47 tag.
    mutating func loadClients(
        _ db: Database, table: CoreDataTable, loader: StoreLoader
    ) throws -> ([ClientSnapshot], [Int64: Int32]) {
        let attributes = ["number", "name", "email", "street", "city", "zip", "country", "language"]
        let stored = attributes.map { mapping.storeName("Client." + $0) }
        let statement = try db.makeStatement(
            sql: "SELECT Z_PK, " + stored.map(table.select).joined(separator: ", ")
                + " FROM \(table.name.quotedDatabaseIdentifier) WHERE \(table.entityFilter) ORDER BY Z_PK")
        var clients: [ClientSnapshot] = []
        var indexByPK: [Int64: Int32] = [:]
        var numbers: Set<String> = []
        var problems = self.problems
        defer { self.problems = problems }
        try loader.step(statement) { row in
            let pk = row.int64(0)
            var fields: [String] = []
            var valid = true
            var rowName = "Z_PK \(pk)"
            for (offset, attribute) in attributes.enumerated() {
                let column = Int32(offset + 1)
                if row.isNull(column) {
                    fields.append(attribute == "number" ? "Z-\(pk)" : "")
                } else if let text = row.text(column) {
                    fields.append(text)
                } else {
                    problems.add(table: table.name, row: rowName, column: "Z" + stored[offset].uppercased(), "is not valid UTF-8 text")
                    valid = false
                    fields.append("")
                }
                if offset == 0, valid { rowName = "'\(fields[0])'" }
            }
            if valid {
                for violation in ClientRules.violations(number: fields[0], name: fields[1]) {
                    // A NULL reads as "" here; say which it was.
                    let message = row.isNull(Int32((attributes.firstIndex(of: violation.attribute) ?? 0) + 1))
                        ? violation.message.replacingOccurrences(of: "is empty", with: "is NULL") : violation.message
                    let column = stored[attributes.firstIndex(of: violation.attribute) ?? 0]
                    problems.add(table: table.name, row: rowName, column: "Z" + column.uppercased(), message)
                    valid = false
                }
            }
            if valid, !fields[7].isEmpty, let problem = LanguageTag.problem(with: fields[7]) {
                problems.add(table: table.name, row: rowName, column: "Z" + stored[7].uppercased(), problem)
                valid = false
            }
            if valid, !numbers.insert(fields[0]).inserted {
                problems.add(table: table.name, row: rowName, column: "Z" + stored[0].uppercased(), "is used by more than one client")
                valid = false
            }
            guard valid else { return }
            indexByPK[pk] = Int32(clients.count)
            clients.append(
                ClientSnapshot(
                    id: pk, number: fields[0], name: fields[1], email: fields[2], street: fields[3], city: fields[4],
                    zip: fields[5], country: fields[6], language: fields[7]))
        }
        return (clients, indexByPK)
    }

    /// Reads the Invoice entity and its sub-entities, converting amounts to minor units and dates to calendar days.
    mutating func loadInvoices(
        _ db: Database, table: CoreDataTable, dates: (issue: String, due: String?, paid: String?),
        clientIndexByPK: [Int64: Int32], loader: StoreLoader
    ) throws -> ([InvoiceSnapshot], [CurrencyCode]) {
        let stored = ["identifier", "client", "amount", "currency", "notes"].map { mapping.storeName("Invoice." + $0) }
        // A model without a currency attribute reads every invoice in the mapping's default currency.
        let defaultCurrency = table.column(forAttribute: stored[3]) == nil ? mapping.defaultCurrency : nil
        let columns = stored.map(table.select) + [
            dates.issue.quotedDatabaseIdentifier, dates.due?.quotedDatabaseIdentifier ?? "NULL",
            dates.paid?.quotedDatabaseIdentifier ?? "NULL",
        ]
        let statement = try db.makeStatement(
            sql: "SELECT Z_PK, " + columns.joined(separator: ", ")
                + " FROM \(table.name.quotedDatabaseIdentifier) WHERE \(table.entityFilter) ORDER BY Z_PK")
        let name = table.name
        let columnNames = ["Z_PK"] + stored.map { table.column(forAttribute: $0) ?? "Z" + $0.uppercased() }
            + [dates.issue, dates.due ?? "", dates.paid ?? ""]
        var invoices: [InvoiceSnapshot] = []
        var currencies: [CurrencyCode] = []
        var currencyIndexByCode: [String: Int16] = [:]
        var identifiers: Set<String> = []
        var problems = self.problems
        var found: [StoreIssue] = []
        defer { self.problems = problems }
        try loader.step(statement) { row in
            let pk = row.int64(0)
            var valid = true
            var rowName = "Z_PK \(pk)"
            func fail(_ column: Int32, _ message: String) {
                problems.add(table: name, row: rowName, column: columnNames[Int(column)], message)
                valid = false
            }
            var identifier = ""
            if row.isNull(1) {
                fail(1, "is NULL; every invoice needs an identifier")
            } else if let text = row.text(1) {
                identifier = text
                rowName = "'\(text)'"
                if !identifiers.insert(text).inserted { fail(1, "is used by more than one invoice") }
            } else {
                fail(1, "is not valid UTF-8 text")
            }
            var clientIndex: Int32 = 0
            if row.isNull(2) {
                fail(2, "is NULL; every invoice needs a client")
            } else if let index = clientIndexByPK[row.int64(2)] {
                clientIndex = index
            } else {
                fail(2, "refers to client Z_PK \(row.int64(2)), which does not exist or is not valid")
            }
            var currency: CurrencyCode?
            var currencyIndex: Int16 = 0
            if let defaultCurrency {
                currency = defaultCurrency
                if currencies.isEmpty { currencies.append(defaultCurrency) }
            } else if row.isNull(4) {
                fail(4, "is NULL; every invoice needs a currency")
            } else if let code = row.text(4), let index = currencyIndexByCode[code] {
                currencyIndex = index
                currency = currencies[Int(index)]
            } else if let code = row.text(4), let known = try? CurrencyCode(code) {
                currencyIndex = Int16(currencies.count)
                currencyIndexByCode[code] = currencyIndex
                currencies.append(known)
                currency = known
            } else {
                fail(4, CurrencyError(code: row.text(4) ?? "?").description)
            }
            var amount: Int64 = 0
            if row.isNull(3) {
                fail(3, "is NULL; every invoice needs an amount")
            } else if !row.isNumber(3) {
                fail(3, "'\(row.text(3) ?? "?")' is not a number")
            } else if let currency {
                let value = row.double(3)
                if let converted = CoreDataReader.minorUnits(of: value, digits: currency.minorUnitDigits) {
                    amount = converted.minorUnits
                    if amount >= 0, !converted.exact {
                        let reported = Money(minorUnits: amount, currency: currency).decimalString
                        found.append(
                            StoreIssue(
                                kind: .inexactAmount, path: "", table: name, row: rowName, column: columnNames[3],
                                message: "\(value) \(currency) is not a whole number of minor units (\(currency) has "
                                    + "\(currency.minorUnitDigits) decimals); reported as \(reported) \(currency), "
                                    + "rounded half to even"))
                    }
                } else {
                    fail(3, "\(value) is not a finite amount that fits in 64-bit \(currency) minor units")
                }
            }
            var notes = ""
            if !row.isNull(5) {
                if let text = row.text(5) { notes = text } else { fail(5, "is not valid UTF-8 text") }
            }
            func date(_ column: Int32) -> CalendarDate? {
                if row.isNull(column) { return nil }
                if row.isNumber(column), let date = CoreDataReader.calendarDate(coreDataSeconds: row.double(column)) {
                    return date
                }
                fail(column, "'\(row.text(column) ?? "?")' is not a Core Data date (seconds since 2001-01-01 00:00:00 UTC)")
                return nil
            }
            let issued = date(6)
            if row.isNull(6) { fail(6, "is NULL; every invoice needs an issue date") }
            var due = date(7)
            let paid = date(8)
            if let issued, due == nil, dates.due != nil, row.isNull(7) {
                due = issued
                found.append(
                    StoreIssue(
                        kind: .assumedDueDate, path: "", table: name, row: rowName, column: columnNames[7],
                        message: "is NULL; the invoice is taken as due on its issue date \(issued)"))
            }
            if dates.due == nil { due = issued }
            let ruleColumns: [String: Int32] = ["identifier": 1, "amount": 3, "dueOn": 7, "paidOn": 8]
            let amountText = row.isNumber(3) ? String(row.double(3)) : nil
            for violation in InvoiceRules.violations(
                identifier: identifier, amount: amount, amountText: amountText, issued: issued, due: due, paid: paid)
            where !(violation.attribute == "identifier" && row.isNull(1)) {
                fail(ruleColumns[violation.attribute] ?? 1, violation.message)
            }
            guard valid, let issued, let due else { return }
            invoices.append(
                InvoiceSnapshot(
                    id: pk, identifier: identifier, clientIndex: clientIndex, currencyIndex: currencyIndex,
                    amount: amount, issued: issued, due: due, paid: paid, notes: notes))
        }
        for var warning in found {
            totalWarnings += 1
            warning.path = path
            if warnings.count < limit { warnings.append(warning) }
        }
        return (invoices, currencies)
    }
}
