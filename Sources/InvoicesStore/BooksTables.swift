public import InvoicesCore

/// One row's columns as a store reader sees them, in the order of ``BooksTables/columns(of:version:)``: what
/// ``BooksTables`` needs to check a row and take its values, without a `Row` object or a `String` per repeated value.
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
    /// Calls `body` with the column's raw text bytes (empty for NULL), valid only inside `body`.
    func withBytes<R>(_ column: Int32, _ body: (UnsafeRawBufferPointer) -> R) -> R
    /// Whether ``text(_:)`` is always ``withBytes(_:_:)``'s bytes when they are valid UTF-8 (SQLite's columns, where
    /// a blob or a number reads as its text): then a repeated text is looked up by its bytes before a string is made.
    var textIsItsBytes: Bool { get }
    /// The column as a calendar date, or nil when it is not one (the message then quotes ``text(_:)``).
    func date(_ column: Int32) -> CalendarDate?
}

extension StoreRowColumns {
    /// False unless a reader says so: a PostgreSQL row's non-text columns have other bytes than their text.
    public var textIsItsBytes: Bool { false }

    /// A 3-byte text value (a currency code) as one integer, its bytes in order; nil when it has another length.
    func threeByteKey(_ column: Int32) -> UInt32? {
        withBytes(column) { code in code.count == 3 ? UInt32(code[0]) << 16 | UInt32(code[1]) << 8 | UInt32(code[2]) : nil }
    }

    /// Whether the column's text is exactly `text`'s UTF-8 bytes (no string made).
    func textEquals(_ column: Int32, _ text: String) -> Bool {
        withBytes(column) { bytes in
            // Lengths first, then the bytes: the generic elementsEqual was 1.3 % of an S load's samples.
            text.utf8.count == bytes.count && text.utf8.withContiguousStorageIfAvailable { $0.elementsEqual(bytes) } ?? text.utf8.elementsEqual(bytes)
        }
    }
}

/// Builds ``InvoicesCore/Books`` from a store's rows, one row at a time, checking each against the model's rules
/// (``ClientRules``, ``InvoiceRules``, ``BooksRules``) and collecting every problem: the one place where store rows
/// become the typed tables, whichever store they come from (native SQLite, PostgreSQL).
///
/// Feed every client row (ordered by number, then id), then the invoice rows (ordered by id), then, for schema 2,
/// the payment, write-off and tax-line rows (any order); then call ``books()``. Each `add` takes the columns
/// ``columns(of:version:)`` lists.
public struct BooksTables {
    var problems: Problems
    let version: Int
    /// The store's name for a table or column of the SQLite schema (a PostgreSQL store's are snake_case).
    let storeName: (String) -> String
    /// Whether the store lacks a UNIQUE index on the client number (or invoice identifier), so the rows must be checked.
    public var checkClientNumbers = true
    public var checkInvoiceIdentifiers = true
    private var clients: [ClientSnapshot] = []
    private var clientIndexByID: [Int64: Int32] = [:]
    private var numbers: Set<String> = []
    private var invoices: [InvoiceSnapshot] = []
    private var correctsIDs: [Int64?] = []
    private var currencyIndexByKey: [UInt32: Int16] = [:]
    private var currencies: [CurrencyCode] = []
    private var identifiers: Set<String> = []
    /// The invoices' row ids once every invoice is read (row-id order: an id becomes an index by binary search).
    private var invoiceIDs: [Int64]?
    private var payments: [PaymentSnapshot] = []
    private var details: [PaymentDetails] = []
    private var writeOffs: [WriteOffSnapshot] = []
    private var taxLines: [TaxLineSnapshot] = []
    private var taxes: [TaxRate] = []
    /// The taxes seen so far, by their raw name and rate bytes: a few entries, compared without a string per line.
    private var taxBytes: [(name: [UInt8], rate: [UInt8], index: Int32)] = []
    /// The notes, payment methods and write-off reasons, each text kept once however many rows repeat it.
    private var repeated = RepeatedTexts()

    /// The columns each `add` function takes, by their SQLite names, for a store of `version`; nil stands for a
    /// column the version lacks (select NULL).
    public static func columns(of table: String, version: Int) -> [String?] {
        switch table {
        case "client": version >= 3 ? clientColumns : Array(clientColumns.dropLast()) + [nil]
        case "invoice":
            version >= 2
                ? ["id", "identifier", "clientId", "amount", "currency", "notes", "issuedOn", "dueOn", nil, "net", "status", "kind", "correctsId", "appliedOn"]
                : ["id", "identifier", "clientId", "amount", "currency", "notes", "issuedOn", "dueOn", "paidOn"]
        case "payment": ["id", "invoiceId", "paidOn", "amount", "currency", "method", "reference"]
        case "writeOff": ["id", "invoiceId", "writtenOffOn", "amount", "reason"]
        case "taxLine": ["id", "invoiceId", "name", "rate", "net", "amount"]
        default: []
        }
    }

    static let clientColumns = ["id", "number", "name", "email", "street", "city", "zip", "country", "language"]

    /// - Parameters:
    ///   - path: The store as messages name it (a file, or a server address without its password).
    ///   - version: The store's schema version (``Schema/readableVersions``).
    ///   - storeName: How the store names a table or column of the SQLite schema (default: the SQLite names).
    ///   - issueLimit: How many problems to keep (all are counted).
    public init(path: String, version: Int, storeName: @escaping (String) -> String = { $0 }, issueLimit: Int = 100) {
        problems = Problems(path: path, limit: issueLimit)
        self.version = version
        self.storeName = storeName
    }

    /// Room for `count` invoices.
    public mutating func reserveInvoices(_ count: Int) {
        invoices.reserveCapacity(count)
        if checkInvoiceIdentifiers { identifiers.reserveCapacity(count) }
    }

    /// Room for `payments` payments and their details and `taxLines` tax lines, when their counts are known before
    /// their rows: no table grown by doubling, which copies it whole each time.
    public mutating func reserveDetails(payments: Int, taxLines: Int) {
        self.payments.reserveCapacity(payments)
        details.reserveCapacity(payments)
        self.taxLines.reserveCapacity(taxLines)
    }

    private mutating func add(table: String, row: String, column: String, _ message: String) {
        problems.add(table: storeName(table), row: row, column: storeName(column), message)
    }

    private mutating func add(table: String, row: String, _ violations: [RuleViolation]) {
        for violation in violations { add(table: table, row: row, column: violation.attribute, violation.message) }
    }

    /// Checks one `client` row and keeps it when valid.
    public mutating func addClient(_ row: some StoreRowColumns) {
        let names = Self.clientColumns
        let id = row.int64(0)
        let rowName = row.isNull(1) ? "id \(id)" : "'\(row.text(1) ?? "id \(id)")'"
        var fields: [String] = []
        var valid = true
        for column in 1...8 {
            if row.isNull(Int32(column)) {
                if column <= 2 {
                    add(table: "client", row: rowName, column: names[column], "is NULL; every client needs a \(storeName(names[column]))")
                    valid = false
                }
                fields.append("")
            } else if let text = row.text(Int32(column)) {
                fields.append(text)
            } else {
                add(table: "client", row: rowName, column: names[column], "is not valid UTF-8 text")
                valid = false
                fields.append("")
            }
        }
        if valid {
            let violations = ClientRules.violations(number: fields[0], name: fields[1])
            add(table: "client", row: rowName, violations)
            valid = violations.isEmpty
        }
        if valid, !fields[7].isEmpty, let problem = LanguageTag.problem(with: fields[7]) {
            add(table: "client", row: rowName, column: "language", problem)
            valid = false
        }
        if valid, checkClientNumbers, !numbers.insert(fields[0]).inserted {
            add(table: "client", row: rowName, column: "number", "is used by more than one client")
            valid = false
        }
        guard valid else { return }
        clientIndexByID[id] = Int32(clients.count)
        clients.append(
            ClientSnapshot(
                id: id, number: fields[0], name: fields[1], email: fields[2], street: fields[3], city: fields[4],
                zip: fields[5], country: fields[6], language: fields[7]))
    }

    /// Checks one `invoice` row and keeps it when valid. A credit note's `correctsId` is resolved to an index once
    /// every invoice is read.
    public mutating func addInvoice(_ row: some StoreRowColumns) {
        let id = row.int64(0)
        var valid = true
        var identifier = ""
        // The row's name is only made for a message: no string per row otherwise.
        var named = false
        func rowName() -> String { named ? "'\(identifier)'" : "id \(id)" }
        if row.isNull(1) {
            add(table: "invoice", row: rowName(), column: "identifier", "is NULL; every invoice needs an identifier")
            valid = false
        } else if let text = row.text(1) {
            identifier = text
            named = true
            if checkInvoiceIdentifiers, !identifiers.insert(text).inserted {
                add(table: "invoice", row: rowName(), column: "identifier", "is used by more than one invoice")
                valid = false
            }
        } else {
            add(table: "invoice", row: rowName(), column: "identifier", "is not valid UTF-8 text")
            valid = false
        }
        var clientIndex: Int32 = 0
        if row.isNull(2) {
            add(table: "invoice", row: rowName(), column: "clientId", "is NULL; every invoice needs a client")
            valid = false
        } else if let index = clientIndexByID[row.int64(2)] {
            clientIndex = index
        } else {
            add(table: "invoice", row: rowName(), column: "clientId", "refers to client id \(row.int64(2)), which does not exist")
            valid = false
        }
        var amount: Int64 = 0
        if row.isNull(3) {
            add(table: "invoice", row: rowName(), column: "amount", "is NULL; every invoice needs an amount")
            valid = false
        } else if !row.isInteger(3) {
            add(table: "invoice", row: rowName(), column: "amount", "is not an integer count of minor units")
            valid = false
        } else {
            amount = row.int64(3)
        }
        var currencyIndex: Int16 = 0
        if row.isNull(4) {
            add(table: "invoice", row: rowName(), column: "currency", "is NULL; every invoice needs a currency")
            valid = false
        } else if let key = row.threeByteKey(4), let index = currencyIndexByKey[key] {
            currencyIndex = index
        } else if let key = row.threeByteKey(4), let text = row.text(4), let currency = try? CurrencyCode(text) {
            currencyIndex = Int16(currencies.count)
            currencyIndexByKey[key] = currencyIndex
            currencies.append(currency)
        } else {
            add(table: "invoice", row: rowName(), column: "currency", CurrencyError(code: row.text(4) ?? "?").description)
            valid = false
        }
        var notes = ""
        if !row.isNull(5) {
            if let text = keptText(row, 5) { notes = text } else {
                add(table: "invoice", row: rowName(), column: "notes", "is not valid UTF-8 text")
                valid = false
            }
        }
        func date(_ column: Int32, _ name: String, required: Bool) -> CalendarDate? {
            if row.isNull(column) {
                if required {
                    add(table: "invoice", row: rowName(), column: name, "is NULL; expected a date YYYY-MM-DD")
                    valid = false
                }
                return nil
            }
            if let date = row.date(column) { return date }
            add(table: "invoice", row: rowName(), column: name, "'\(row.text(column) ?? "?")' is not a date (expected YYYY-MM-DD, a real day)")
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
        if version >= 2 {
            if !row.isNull(9) {
                if row.isInteger(9) { net = row.int64(9) } else {
                    add(table: "invoice", row: rowName(), column: "net", "is not an integer count of minor units")
                    valid = false
                }
            }
            // Compared as bytes: no string per row for two words.
            if let value = InvoiceStatus.allCases.first(where: { row.textEquals(10, $0.name) }) { status = value } else {
                add(table: "invoice", row: rowName(), column: "status", "'\(row.text(10) ?? "?")' is not a status (draft, sent or void)")
                valid = false
            }
            if let value = InvoiceKind.allCases.first(where: { row.textEquals(11, $0.name) }) { kind = value } else {
                add(table: "invoice", row: rowName(), column: "kind", "'\(row.text(11) ?? "?")' is not a kind (invoice or credit)")
                valid = false
            }
            if !row.isNull(12) { correctsID = row.int64(12) }
            applied = date(13, "appliedOn", required: false)
            violations += BooksRules.violations(kind: kind, issued: issued, applied: applied, hasCorrects: correctsID != nil)
        }
        add(table: "invoice", row: rowName(), violations)
        if !violations.isEmpty { valid = false }
        guard valid, let issued, let due else { return }
        invoices.append(
            InvoiceSnapshot(
                id: id, identifier: identifier, clientIndex: clientIndex, currencyIndex: currencyIndex,
                amount: amount, issued: issued, due: due, paid: paid, notes: notes, status: status, kind: kind,
                net: net, applied: applied))
        if version >= 2 { correctsIDs.append(correctsID) }
    }

    /// The column's text through ``RepeatedTexts`` (looked up by its bytes when the reader's text is its bytes), or
    /// nil when it is not valid UTF-8.
    private mutating func keptText(_ row: some StoreRowColumns, _ column: Int32) -> String? {
        guard row.textIsItsBytes else { return row.text(column).map { repeated.keep($0) } }
        return row.withBytes(column) { bytes in repeated.keep(bytes) { row.text(column) } }
    }

    /// Checks one `payment` row and keeps it when valid.
    public mutating func addPayment(_ row: some StoreRowColumns) {
        guard let invoice = owner(row, table: "payment") else { return }
        let issued = invoices[invoice].issued
        // The row's name is only built for a message: no string per row otherwise.
        let rowName = { [invoices] in "id \(row.int64(0)) of invoice '\(invoices[invoice].identifier)'" }
        let day = day(row, 2, table: "payment", row: rowName, column: "paidOn")
        let amount = integer(row, 3, table: "payment", row: rowName, column: "amount")
        let violations = BooksRules.paymentViolations(
            amount: amount ?? 1, date: day, issued: issued,
            currency: row.isNull(4) ? nil : (row.text(4) ?? "?"),
            invoiceCurrency: row.isNull(4) ? nil : currencies[Int(invoices[invoice].currencyIndex)].code)
        if !violations.isEmpty { add(table: "payment", row: rowName(), violations) }
        guard violations.isEmpty, let day, let amount else { return }
        var detailIndex: Int32 = -1
        if row.withBytes(5, \.count) > 0 || row.withBytes(6, \.count) > 0 {
            detailIndex = Int32(details.count)
            details.append(PaymentDetails(method: keptText(row, 5) ?? "", reference: row.text(6) ?? ""))
        }
        payments.append(PaymentSnapshot(invoiceIndex: Int32(invoice), date: day, amount: amount, details: detailIndex))
    }

    /// Checks one `writeOff` row and keeps it when valid.
    public mutating func addWriteOff(_ row: some StoreRowColumns) {
        guard let invoice = owner(row, table: "writeOff") else { return }
        let rowName = { [invoices] in "id \(row.int64(0)) of invoice '\(invoices[invoice].identifier)'" }
        let day = day(row, 2, table: "writeOff", row: rowName, column: "writtenOffOn")
        let amount = integer(row, 3, table: "writeOff", row: rowName, column: "amount")
        let violations = BooksRules.writeOffViolations(amount: amount ?? 1, date: day, issued: invoices[invoice].issued)
        if !violations.isEmpty { add(table: "writeOff", row: rowName(), violations) }
        guard violations.isEmpty, let day, let amount else { return }
        writeOffs.append(WriteOffSnapshot(invoiceIndex: Int32(invoice), date: day, amount: amount, reason: keptText(row, 4) ?? ""))
    }

    /// Checks one `taxLine` row and keeps it when valid.
    public mutating func addTaxLine(_ row: some StoreRowColumns) {
        guard let invoice = owner(row, table: "taxLine") else { return }
        let rowName = { [invoices] in "id \(row.int64(0)) of invoice '\(invoices[invoice].identifier)'" }
        let net = row.isNull(4) ? invoices[invoice].net : integer(row, 4, table: "taxLine", row: rowName, column: "net")
        let amount = integer(row, 5, table: "taxLine", row: rowName, column: "amount")
        var index = Int32(-1)
        row.withBytes(2) { name in
            row.withBytes(3) { rate in
                for known in taxBytes where known.name.elementsEqual(name) && known.rate.elementsEqual(rate) {
                    index = known.index
                    break
                }
            }
        }
        let rate = index >= 0 ? "0" : (row.text(3) ?? "")
        let violations = BooksRules.taxLineViolations(rate: rate, net: net ?? 0, amount: amount ?? 0)
        if !violations.isEmpty { add(table: "taxLine", row: rowName(), violations) }
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
            taxBytes.append((row.withBytes(2) { Array($0) }, row.withBytes(3) { Array($0) }, index))
        }
        taxLines.append(TaxLineSnapshot(invoiceIndex: Int32(invoice), taxIndex: index, net: net, amount: amount))
    }

    /// After the last invoice row: credit notes resolved to the invoices they correct (of the same client and
    /// currency), and the row ids kept for the rows that belong to an invoice.
    private mutating func finishInvoices() -> [Int64] {
        if let invoiceIDs { return invoiceIDs }
        let ids = invoices.map(\.id)
        invoiceIDs = ids
        func name(_ index: Int) -> String { "'\(invoices[index].identifier)'" }
        for (index, correctsID) in correctsIDs.enumerated() {
            guard let correctsID else { continue }
            guard let target = Self.index(of: correctsID, in: ids) else {
                add(table: "invoice", row: name(index), column: "correctsId", "refers to invoice id \(correctsID), which does not exist")
                continue
            }
            let note = invoices[index]
            let corrected = invoices[target]
            if corrected.kind != .invoice {
                add(table: "invoice", row: name(index), column: "correctsId", "refers to \(name(target)), a credit note; a credit note corrects an invoice")
            } else if corrected.clientIndex != note.clientIndex || corrected.currencyIndex != note.currencyIndex {
                add(
                    table: "invoice", row: name(index), column: "correctsId",
                    "refers to \(name(target)), of another client or currency; a credit note corrects an invoice of its own client in its currency")
            } else {
                invoices[index].corrects = Int32(target)
            }
        }
        return ids
    }

    /// The index of `id` in the ascending `ids`, by binary search.
    private static func index(of id: Int64, in ids: [Int64]) -> Int? {
        var low = 0
        var high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low < ids.count && ids[low] == id ? low : nil
    }

    /// The index of the invoice a row of `table` belongs to (column 1, `invoiceId`), or nil after reporting it.
    private mutating func owner(_ row: some StoreRowColumns, table: String) -> Int? {
        let ids = finishInvoices()
        if row.isNull(1) {
            add(table: table, row: "id \(row.int64(0))", column: "invoiceId", "is NULL; every \(storeName(table)) row belongs to an invoice")
            return nil
        }
        guard let index = Self.index(of: row.int64(1), in: ids) else {
            add(table: table, row: "id \(row.int64(0))", column: "invoiceId", "refers to invoice id \(row.int64(1)), which does not exist")
            return nil
        }
        return index
    }

    private mutating func day(_ row: some StoreRowColumns, _ column: Int32, table: String, row rowName: () -> String, column name: String) -> CalendarDate? {
        if row.isNull(column) {
            add(table: table, row: rowName(), column: name, "is NULL; expected a date YYYY-MM-DD")
            return nil
        }
        if let date = row.date(column) { return date }
        add(table: table, row: rowName(), column: name, "'\(row.text(column) ?? "?")' is not a date (expected YYYY-MM-DD, a real day)")
        return nil
    }

    private mutating func integer(_ row: some StoreRowColumns, _ column: Int32, table: String, row rowName: () -> String, column name: String) -> Int64? {
        guard row.isInteger(column) else {
            add(
                table: table, row: rowName(), column: name,
                row.isNull(column) ? "is NULL; expected an integer count of minor units" : "is not an integer count of minor units")
            return nil
        }
        return row.int64(column)
    }

    /// The typed tables: currencies and taxes in order, payments and write-offs by invoice then day, every invoice's
    /// gross checked against its net and taxes, settled dates set.
    /// The rows move into the books (the tables are left empty): mutated in place, they are never copied (a
    /// consuming method copied every invoice when its caller still held the tables, 200 MB at 2,000,000 invoices).
    /// - Throws: ``StoreIssues`` naming every row problem found.
    public mutating func books() throws(StoreIssues) -> Books {
        if version >= 2 { checkTaxes() }
        if problems.total > 0 { throw problems.error }
        // Currencies in code order, so every table built from them is ordered the same way on every run.
        let sorted = currencies.sorted()
        if sorted != currencies {
            let remap = currencies.map { Int16(sorted.firstIndex(of: $0)!) }
            for index in invoices.indices { invoices[index].currencyIndex = remap[Int(invoices[index].currencyIndex)] }
        }
        var books = version < 2
            ? Books(clients: clients, invoices: invoices, currencies: sorted)
            : Books(
                clients: clients, invoices: invoices, currencies: sorted, payments: payments, paymentDetails: details,
                writeOffs: writeOffs, taxLines: taxLines, taxes: taxes, schemaVersion: version)
        (clients, invoices, payments, details, writeOffs, taxLines) = ([], [], [], [], [], [])
        if version >= 2 { books.settle() }
        return books
    }

    /// Orders payments, write-offs and tax lines, and checks gross = net + taxes for every invoice.
    private mutating func checkTaxes() {
        _ = finishInvoices()
        // Read in row-id order (a plain table scan, no sort in SQLite); ordered here by invoice, then day, stably.
        payments = Self.sorted(payments) { ($0.invoiceIndex, $0.date.dayNumber) < ($1.invoiceIndex, $1.date.dayNumber) }
        writeOffs = Self.sorted(writeOffs) { ($0.invoiceIndex, $0.date.dayNumber) < ($1.invoiceIndex, $1.date.dayNumber) }
        // Taxes in order, so every table built from them is ordered the same way on every run.
        let sortedTaxes = taxes.sorted()
        if sortedTaxes != taxes {
            let remap = taxes.map { Int32(sortedTaxes.firstIndex(of: $0)!) }
            for index in taxLines.indices { taxLines[index].taxIndex = remap[Int(taxLines[index].taxIndex)] }
            taxes = sortedTaxes
        }
        taxLines.sort { $0.invoiceIndex != $1.invoiceIndex ? $0.invoiceIndex < $1.invoiceIndex : $0.taxIndex < $1.taxIndex }
        var line = 0
        var lineAmounts: [Int64] = []
        for index in invoices.indices {
            lineAmounts.removeAll(keepingCapacity: true)
            while line < taxLines.count, taxLines[line].invoiceIndex == Int32(index) {
                lineAmounts.append(taxLines[line].amount)
                line += 1
            }
            let violations = BooksRules.taxViolations(gross: invoices[index].amount, net: invoices[index].net, taxes: lineAmounts)
            if !violations.isEmpty { add(table: "invoice", row: "'\(invoices[index].identifier)'", violations) }
        }
    }

    /// `rows` stably sorted by `less`; already sorted rows (the usual case: written in invoice order) are not moved.
    static func sorted<T>(_ rows: [T], by less: (T, T) -> Bool) -> [T] {
        if zip(rows, rows.dropFirst()).allSatisfy({ !less($1, $0) }) { return rows }
        return rows.enumerated().sorted { less($0.element, $1.element) || (!less($1.element, $0.element) && $0.offset < $1.offset) }.map(\.element)
    }
}

// The invoice table checked in two parts at once (issue 46 item 4): the rows above a row id on a second connection,
// into tables of their own, joined after the loader's own rows as if one connection had read them all.
extension BooksTables {
    /// A run of invoice rows checked by other tables, in row order: what ``join(_:checkedBy:)`` appends.
    struct InvoicePart {
        var invoices: [InvoiceSnapshot]
        var correctsIDs: [Int64?]
    }

    /// Tables that check more invoice rows against these clients: no problems, no invoices yet; the clients, their
    /// numbers and the currencies seen so far are shared (copies that are never written).
    func forMoreInvoices() -> BooksTables {
        var tables = self
        tables.problems = Problems(path: problems.path, limit: problems.limit)
        tables.invoices = []
        tables.correctsIDs = []
        return tables
    }

    /// Tables to check the payments and write-offs against on another thread, once every invoice is read (and
    /// joined): the invoices resolved here first (a credit note's `correctsId` problems added to these tables, where
    /// one scan adds them), then shared, never written, with no problems of their own yet. ``take(paymentsAndWriteOffs:)``
    /// takes back what they checked.
    mutating func forDetails() -> BooksTables {
        _ = finishInvoices()
        var tables = self
        tables.problems = Problems(path: problems.path, limit: problems.limit)
        return tables
    }

    /// Takes the payments, their details and the write-offs `other` (``forDetails()``'s, with no tax lines) checked,
    /// and appends its problems after these tables' own: these tables have none of those rows yet. `other` is
    /// consumed, so the invoices it shared are these tables' alone again before ``books()`` changes them.
    mutating func take(paymentsAndWriteOffs other: consuming BooksTables) {
        problems.append(other.problems)
        payments = other.payments
        details = other.details
        writeOffs = other.writeOffs
    }

    /// How many invoices are kept so far.
    var invoiceCount: Int { invoices.count }

    /// Checks the detail rows `body` adds (after every invoice row) with problems of their own, returned instead of
    /// added: ``Problems/append(_:)`` puts them where one scan would have reported them, after the tables read
    /// before them (the loader checks the tax lines while the second connection still reads the payments: docs/
    /// performance.md, "Why the two-part load did not shorten the wall"). The invoices' own problems (a credit note's
    /// `correctsId`) are added first, as the first detail row of one scan adds them.
    mutating func checkingApart(_ body: (inout BooksTables) throws -> Void) rethrows -> Problems {
        _ = finishInvoices()
        let kept = problems
        problems = Problems(path: kept.path, limit: kept.limit)
        defer { problems = kept }
        try body(&self)
        return problems
    }

    /// The invoices kept so far, taken out (these tables keep the room for `reserving` more).
    mutating func takeInvoices(reserving: Int) -> InvoicePart {
        let part = InvoicePart(invoices: invoices, correctsIDs: correctsIDs)
        invoices = []
        correctsIDs = []
        invoices.reserveCapacity(reserving)
        if version >= 2 { correctsIDs.reserveCapacity(reserving) }
        return part
    }

    /// Appends `parts` (taken from `other`, which checked the rows after all of these tables' rows, with its own
    /// currencies) as if these tables had checked them: its problems after these tables' own (within the limit, all
    /// counted), its currencies added to these, its invoices' currency indexes made these tables'. Each part is let
    /// go once appended, so at most one part is held twice.
    mutating func join(_ parts: inout [InvoicePart], checkedBy other: BooksTables) {
        problems.append(other.problems)
        var remap = [Int16](repeating: 0, count: other.currencies.count)
        var same = true
        for (key, index) in other.currencyIndexByKey.sorted(by: { $0.value < $1.value }) {
            let mine: Int16
            if let known = currencyIndexByKey[key] {
                mine = known
            } else {
                mine = Int16(currencies.count)
                currencyIndexByKey[key] = mine
                currencies.append(other.currencies[Int(index)])
            }
            remap[Int(index)] = mine
            if mine != index { same = false }
        }
        parts.reverse()
        while var part = parts.popLast() {
            if !same {
                for index in part.invoices.indices { part.invoices[index].currencyIndex = remap[Int(part.invoices[index].currencyIndex)] }
            }
            invoices.append(contentsOf: part.invoices)
            if version >= 2 { correctsIDs.append(contentsOf: part.correctsIDs) }
        }
    }
}
