public import InvoicesCore

/// One row's columns as a store reader sees them, in the order of ``Schema/tables``: what ``BooksTables`` needs to
/// check a row and take its values, without a `Row` object or a `String` per repeated value.
///
/// The native SQLite reader implements it over a stepped statement, the PostgreSQL reader over a binary data row.
public protocol StoreRowColumns {
    func isNull(_ column: Int32) -> Bool
    /// The column as a 64-bit integer (only called when ``isInteger(_:)``).
    func int64(_ column: Int32) -> Int64
    /// Whether the column holds an integer (and not text or a floating-point number).
    func isInteger(_ column: Int32) -> Bool
    /// The column's text, or nil when it is not valid UTF-8.
    func text(_ column: Int32) -> String?
    /// A 3-byte text value (a currency code) as one integer, its bytes in order; nil when it has another length.
    func threeByteKey(_ column: Int32) -> UInt32?
    /// The column as a calendar date, or nil when it is not one (the message then quotes ``text(_:)``).
    func date(_ column: Int32) -> CalendarDate?
}

/// Builds ``InvoicesCore/Books`` from a store's rows, one row at a time, checking each against the model's rules
/// (``ClientRules``, ``InvoiceRules``) and collecting every problem: the one place where store rows become the
/// typed tables, whichever store they come from (native SQLite, PostgreSQL).
///
/// Feed every client row (ordered by number, then id) before the invoice rows (ordered by id), then call
/// ``books()``.
public struct BooksTables {
    var problems: Problems
    let clientNames: [String]
    let invoiceNames: [String]
    /// Whether the store lacks a UNIQUE index on the client number (or invoice identifier), so the rows must be checked.
    public var checkClientNumbers = true
    public var checkInvoiceIdentifiers = true
    private var clients: [ClientSnapshot] = []
    private var clientIndexByID: [Int64: Int32] = [:]
    private var numbers: Set<String> = []
    private var invoices: [InvoiceSnapshot] = []
    private var currencyIndexByKey: [UInt32: Int16] = [:]
    private var currencies: [CurrencyCode] = []
    private var identifiers: Set<String> = []

    /// - Parameters:
    ///   - path: The store as messages name it (a file, or a server address without its password).
    ///   - columnNames: How the store names each column of ``Schema/tables``, by table (default: the SQLite names).
    ///   - issueLimit: How many problems to keep (all are counted).
    public init(path: String, columnNames: (Schema.Column) -> String = \.name, issueLimit: Int = 100) {
        problems = Problems(path: path, limit: issueLimit)
        clientNames = Schema.table("client")!.columns.map(columnNames)
        invoiceNames = Schema.table("invoice")!.columns.map(columnNames)
    }

    /// Room for `count` invoices.
    public mutating func reserveInvoices(_ count: Int) {
        invoices.reserveCapacity(count)
        if checkInvoiceIdentifiers { identifiers.reserveCapacity(count) }
    }

    /// Checks one `client` row (`id, number, name, email, street, city, zip, country`) and keeps it when valid.
    public mutating func addClient(_ row: some StoreRowColumns) {
        let names = clientNames
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
        if valid, checkClientNumbers, !numbers.insert(fields[0]).inserted {
            problems.add(table: "client", row: rowName, column: names[1], "is used by more than one client")
            valid = false
        }
        guard valid else { return }
        clientIndexByID[id] = Int32(clients.count)
        clients.append(
            ClientSnapshot(
                id: id, number: fields[0], name: fields[1], email: fields[2], street: fields[3], city: fields[4],
                zip: fields[5], country: fields[6]))
    }

    /// Checks one `invoice` row (`id, identifier, clientId, amount, currency, notes, issuedOn, dueOn, paidOn`) and
    /// keeps it when valid.
    public mutating func addInvoice(_ row: some StoreRowColumns) {
        let names = invoiceNames
        let id = row.int64(0)
        var valid = true
        var rowName = "id \(id)"
        var identifier = ""
        if row.isNull(1) {
            problems.add(table: "invoice", row: rowName, column: names[1], "is NULL; every invoice needs an identifier")
            valid = false
        } else if let text = row.text(1) {
            identifier = text
            rowName = "'\(text)'"
            if checkInvoiceIdentifiers, !identifiers.insert(text).inserted {
                problems.add(table: "invoice", row: rowName, column: names[1], "is used by more than one invoice")
                valid = false
            }
        } else {
            problems.add(table: "invoice", row: rowName, column: names[1], "is not valid UTF-8 text")
            valid = false
        }
        var clientIndex: Int32 = 0
        if row.isNull(2) {
            problems.add(table: "invoice", row: rowName, column: names[2], "is NULL; every invoice needs a client")
            valid = false
        } else if let index = clientIndexByID[row.int64(2)] {
            clientIndex = index
        } else {
            problems.add(table: "invoice", row: rowName, column: names[2], "refers to client id \(row.int64(2)), which does not exist")
            valid = false
        }
        var amount: Int64 = 0
        if row.isNull(3) {
            problems.add(table: "invoice", row: rowName, column: names[3], "is NULL; every invoice needs an amount")
            valid = false
        } else if !row.isInteger(3) {
            problems.add(table: "invoice", row: rowName, column: names[3], "is not an integer count of minor units")
            valid = false
        } else {
            amount = row.int64(3)
        }
        var currencyIndex: Int16 = 0
        if row.isNull(4) {
            problems.add(table: "invoice", row: rowName, column: names[4], "is NULL; every invoice needs a currency")
            valid = false
        } else if let key = row.threeByteKey(4), let index = currencyIndexByKey[key] {
            currencyIndex = index
        } else if let key = row.threeByteKey(4), let text = row.text(4), let currency = try? CurrencyCode(text) {
            currencyIndex = Int16(currencies.count)
            currencyIndexByKey[key] = currencyIndex
            currencies.append(currency)
        } else {
            problems.add(table: "invoice", row: rowName, column: names[4], CurrencyError(code: row.text(4) ?? "?").description)
            valid = false
        }
        var notes = ""
        if !row.isNull(5) {
            if let text = row.text(5) { notes = text } else {
                problems.add(table: "invoice", row: rowName, column: names[5], "is not valid UTF-8 text")
                valid = false
            }
        }
        func date(_ column: Int32, required: Bool) -> CalendarDate? {
            let name = names[Int(column)]
            if row.isNull(column) {
                if required {
                    problems.add(table: "invoice", row: rowName, column: name, "is NULL; expected a date YYYY-MM-DD")
                    valid = false
                }
                return nil
            }
            if let date = row.date(column) { return date }
            problems.add(table: "invoice", row: rowName, column: name, "'\(row.text(column) ?? "?")' is not a date (expected YYYY-MM-DD, a real day)")
            valid = false
            return nil
        }
        let issued = date(6, required: true)
        let due = date(7, required: true)
        let paid = date(8, required: false)
        let violations = InvoiceRules.violations(identifier: identifier, amount: amount, issued: issued, due: due, paid: paid)
            .filter { !($0.attribute == "identifier" && row.isNull(1)) }
            .map { RuleViolation(attribute: storeName($0.attribute), message: $0.message) }
        problems.add(table: "invoice", row: rowName, violations)
        if !violations.isEmpty { valid = false }
        guard valid, let issued, let due else { return }
        invoices.append(
            InvoiceSnapshot(
                id: id, identifier: identifier, clientIndex: clientIndex, currencyIndex: currencyIndex,
                amount: amount, issued: issued, due: due, paid: paid, notes: notes))
    }

    /// The store's name for a model attribute of an invoice (the rules name the SQLite columns).
    private func storeName(_ attribute: String) -> String {
        Schema.table("invoice")!.columns.firstIndex { $0.name == attribute }.map { invoiceNames[$0] } ?? attribute
    }

    /// The typed tables, currencies in code order.
    /// - Throws: ``StoreIssues`` naming every row problem found.
    public consuming func books() throws(StoreIssues) -> Books {
        if problems.total > 0 { throw problems.error }
        // Currencies in code order, so every table built from them is ordered the same way on every run.
        let sorted = currencies.sorted()
        if sorted != currencies {
            let remap = currencies.map { Int16(sorted.firstIndex(of: $0)!) }
            for index in invoices.indices { invoices[index].currencyIndex = remap[Int(invoices[index].currencyIndex)] }
        }
        return Books(clients: clients, invoices: invoices, currencies: sorted)
    }
}
