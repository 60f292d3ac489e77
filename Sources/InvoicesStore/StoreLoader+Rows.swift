internal import InvoicesCore
internal import GRDB
internal import GRDBSQLite

/// Reads one row's columns straight from SQLite, without a `Row` or a `String` per repeated value.
struct Columns {
    let statement: OpaquePointer

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

    func isInteger(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_INTEGER }

    /// The column's text, or nil when it is not valid UTF-8.
    func text(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(statement, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(validating: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// The column's raw bytes, valid until the next step.
    func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8> {
        guard let pointer = sqlite3_column_text(statement, column) else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(statement, column)))
    }
}

extension StoreLoader {
    func step(_ statement: Statement, _ body: (Columns) -> Void) throws {
        let pointer = statement.sqliteStatement
        let columns = Columns(statement: pointer)
        while true {
            let code = sqlite3_step(pointer)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(pointer))))
            }
            body(columns)
        }
        sqlite3_reset(pointer)
    }

    /// Whether `table` has a UNIQUE index on exactly `column`.
    func hasUniqueIndex(_ db: Database, table: String, column: String) throws -> Bool {
        for index in try Row.fetchAll(db, sql: "PRAGMA index_list(\(table))") where (index["unique"] as Int?) == 1 {
            let name: String = index["name"]
            let columns = try Row.fetchAll(db, sql: "PRAGMA index_info(\(name.quotedDatabaseIdentifier))").map { $0["name"] as String? }
            if columns == [column] { return true }
        }
        return false
    }

    func loadClients(_ db: Database, problems: inout Problems) throws -> ([ClientSnapshot], [Int64: Int32]) {
        let statement = try db.makeStatement(
            sql: "SELECT id, number, name, email, street, city, zip, country FROM client ORDER BY number, id")
        var clients: [ClientSnapshot] = []
        var indexByID: [Int64: Int32] = [:]
        var numbers: Set<String> = []
        let checkNumbers = try !hasUniqueIndex(db, table: "client", column: "number")
        let names = ["id", "number", "name", "email", "street", "city", "zip", "country"]
        try step(statement) { row in
            let id = row.int64(0)
            let rowName = row.isNull(1) ? "id \(id)" : "'\(row.text(1) ?? "id \(id)")'"
            var fields: [String] = []
            var valid = true
            for column in 1...7 {
                if row.isNull(Int32(column)) {
                    if column <= 2 {
                        problems.add(table: "client", row: rowName, column: names[column], "is NULL; every client needs a \(names[column])")
                        valid = false
                    }
                    fields.append("")
                } else if let text = row.text(Int32(column)) {
                    fields.append(text)
                } else {
                    problems.add(table: "client", row: rowName, column: names[column], "is not valid UTF-8 text")
                    valid = false
                    fields.append("")
                }
            }
            if valid {
                let violations = ClientRules.violations(number: fields[0], name: fields[1])
                problems.add(table: "client", row: rowName, violations)
                valid = violations.isEmpty
            }
            if valid, checkNumbers, !numbers.insert(fields[0]).inserted {
                problems.add(table: "client", row: rowName, column: "number", "is used by more than one client")
                valid = false
            }
            guard valid else { return }
            indexByID[id] = Int32(clients.count)
            clients.append(
                ClientSnapshot(
                    id: id, number: fields[0], name: fields[1], email: fields[2], street: fields[3], city: fields[4],
                    zip: fields[5], country: fields[6]))
        }
        return (clients, indexByID)
    }

    /// Reads the invoice table. A v2 store's credit notes are returned with their `correctsId` in
    /// ``InvoiceSnapshot/corrects`` as a row id still; ``loadV2Rows`` resolves it to an index.
    func loadInvoices(
        _ db: Database, version: Int = 1, clientIndexByID: [Int64: Int32], problems: inout Problems
    ) throws -> ([InvoiceSnapshot], [CurrencyCode], correctsIDs: [Int64?]) {
        let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM invoice") ?? 0
        let v2 = version >= 2
        let statement = try db.makeStatement(
            sql: v2
                ? "SELECT id, identifier, clientId, amount, currency, notes, issuedOn, dueOn, NULL, net, status, kind, correctsId, appliedOn FROM invoice ORDER BY id"
                : "SELECT id, identifier, clientId, amount, currency, notes, issuedOn, dueOn, paidOn FROM invoice ORDER BY id")
        var correctsIDs: [Int64?] = []
        var invoices: [InvoiceSnapshot] = []
        invoices.reserveCapacity(count)
        var currencyIndexByKey: [UInt32: Int16] = [:]
        var currencies: [CurrencyCode] = []
        // A UNIQUE index already guarantees distinct identifiers; only a store without one needs the check here.
        let checkIdentifiers = try !hasUniqueIndex(db, table: "invoice", column: "identifier")
        var identifiers: Set<String> = []
        if checkIdentifiers { identifiers.reserveCapacity(count) }
        try step(statement) { row in
            let id = row.int64(0)
            var valid = true
            var rowName = "id \(id)"
            var identifier = ""
            if row.isNull(1) {
                problems.add(table: "invoice", row: rowName, column: "identifier", "is NULL; every invoice needs an identifier")
                valid = false
            } else if let text = row.text(1) {
                identifier = text
                rowName = "'\(text)'"
                if checkIdentifiers, !identifiers.insert(text).inserted {
                    problems.add(table: "invoice", row: rowName, column: "identifier", "is used by more than one invoice")
                    valid = false
                }
            } else {
                problems.add(table: "invoice", row: rowName, column: "identifier", "is not valid UTF-8 text")
                valid = false
            }
            var clientIndex: Int32 = 0
            if row.isNull(2) {
                problems.add(table: "invoice", row: rowName, column: "clientId", "is NULL; every invoice needs a client")
                valid = false
            } else if let index = clientIndexByID[row.int64(2)] {
                clientIndex = index
            } else {
                problems.add(table: "invoice", row: rowName, column: "clientId", "refers to client id \(row.int64(2)), which does not exist")
                valid = false
            }
            var amount: Int64 = 0
            if row.isNull(3) {
                problems.add(table: "invoice", row: rowName, column: "amount", "is NULL; every invoice needs an amount")
                valid = false
            } else if !row.isInteger(3) {
                problems.add(table: "invoice", row: rowName, column: "amount", "is not an integer count of minor units")
                valid = false
            } else {
                amount = row.int64(3)
            }
            var currencyIndex: Int16 = 0
            let code = row.bytes(4)
            if row.isNull(4) {
                problems.add(table: "invoice", row: rowName, column: "currency", "is NULL; every invoice needs a currency")
                valid = false
            } else if code.count == 3 {
                let key = UInt32(code[0]) << 16 | UInt32(code[1]) << 8 | UInt32(code[2])
                if let index = currencyIndexByKey[key] {
                    currencyIndex = index
                } else if let text = row.text(4), let currency = try? CurrencyCode(text) {
                    currencyIndex = Int16(currencies.count)
                    currencyIndexByKey[key] = currencyIndex
                    currencies.append(currency)
                } else {
                    problems.add(table: "invoice", row: rowName, column: "currency", CurrencyError(code: row.text(4) ?? "?").description)
                    valid = false
                }
            } else {
                problems.add(table: "invoice", row: rowName, column: "currency", CurrencyError(code: row.text(4) ?? "?").description)
                valid = false
            }
            var notes = ""
            if !row.isNull(5) {
                if let text = row.text(5) { notes = text } else {
                    problems.add(table: "invoice", row: rowName, column: "notes", "is not valid UTF-8 text")
                    valid = false
                }
            }
            func date(_ column: Int32, _ name: String, required: Bool) -> CalendarDate? {
                if row.isNull(column) {
                    if required {
                        problems.add(table: "invoice", row: rowName, column: name, "is NULL; expected a date YYYY-MM-DD")
                        valid = false
                    }
                    return nil
                }
                if let date = CalendarDate(isoBytes: row.bytes(column)) { return date }
                problems.add(table: "invoice", row: rowName, column: name, "'\(row.text(column) ?? "?")' is not a date (expected YYYY-MM-DD, a real day)")
                valid = false
                return nil
            }
            let issued = date(6, "issuedOn", required: true)
            let due = date(7, "dueOn", required: true)
            let paid = date(8, "paidOn", required: false)
            var violations = InvoiceRules.violations(identifier: identifier, amount: amount, issued: issued, due: due, paid: paid)
                .filter { !($0.attribute == "identifier" && row.isNull(1)) }
            var status = InvoiceStatus.sent
            var kind = InvoiceKind.invoice
            var net: Int64?
            var correctsID: Int64?
            var applied: CalendarDate?
            if v2 {
                if !row.isNull(9) {
                    if row.isInteger(9) { net = row.int64(9) } else {
                        problems.add(table: "invoice", row: rowName, column: "net", "is not an integer count of minor units")
                        valid = false
                    }
                }
                // Compared as bytes: no string per row for two words.
                if let value = InvoiceStatus.allCases.first(where: { $0.name.utf8.elementsEqual(row.bytes(10)) }) { status = value } else {
                    problems.add(table: "invoice", row: rowName, column: "status", "'\(row.text(10) ?? "?")' is not a status (draft, sent or void)")
                    valid = false
                }
                if let value = InvoiceKind.allCases.first(where: { $0.name.utf8.elementsEqual(row.bytes(11)) }) { kind = value } else {
                    problems.add(table: "invoice", row: rowName, column: "kind", "'\(row.text(11) ?? "?")' is not a kind (invoice or credit)")
                    valid = false
                }
                if !row.isNull(12) { correctsID = row.int64(12) }
                applied = date(13, "appliedOn", required: false)
                violations += BooksRules.violations(kind: kind, issued: issued, applied: applied, hasCorrects: correctsID != nil)
            }
            problems.add(table: "invoice", row: rowName, violations)
            if !violations.isEmpty { valid = false }
            guard valid, let issued, let due else { return }
            invoices.append(
                InvoiceSnapshot(
                    id: id, identifier: identifier, clientIndex: clientIndex, currencyIndex: currencyIndex,
                    amount: amount, issued: issued, due: due, paid: paid, notes: notes, status: status, kind: kind,
                    net: net, applied: applied))
            if v2 { correctsIDs.append(correctsID) }
        }
        // Currencies in code order, so every table built from them is ordered the same way on every run.
        let sorted = currencies.sorted()
        if sorted != currencies {
            let remap = currencies.map { Int16(sorted.firstIndex(of: $0)!) }
            for index in invoices.indices { invoices[index].currencyIndex = remap[Int(invoices[index].currencyIndex)] }
        }
        return (invoices, sorted, correctsIDs)
    }
}
