public import InvoicesCore
public import ObjectContexts

extension PrivateContext {
    /// Every client and invoice as this context sees them, as one Sendable value that may leave the context.
    ///
    /// When neither this context nor an ancestor has pending changes, these are the tables the ``BooksStore``
    /// fetched, shared without a copy; otherwise the rows are read through the context with its changes applied,
    /// and checked and settled as a store's rows are (``BooksTables``).
    /// - Throws: ``StoreIssues`` naming every row that breaks a rule of the store.
    public func books() throws -> Books {
        try Books(context: name, store: persistentStore, storeRows: storeRows(of:), enumerateRows: enumerateRows(of:_:))
    }
}

extension MainContext {
    /// Every client and invoice as this context sees them; see ``ObjectContexts/PrivateContext/books()``.
    public func books() throws -> Books {
        try Books(context: name, store: persistentStore, storeRows: storeRows(of:), enumerateRows: enumerateRows(of:_:))
    }
}

/// A store that knows the schema version its rows follow (1, 2 or 3): what a context's rows are read as.
protocol SchemaVersioned {
    var schemaVersion: Int { get }
}

extension BooksStore: SchemaVersioned {
    var schemaVersion: Int { books.schemaVersion }
}

extension SQLiteStore: SchemaVersioned {}

extension Books {
    /// The entities of the books and the store tables they are rows of, in the order ``BooksTables`` takes them.
    static let entityTables = [("Client", "client"), ("Invoice", "invoice")] + InvoicesModel.details.map { ($0.entity, $0.table) }

    /// The books a context sees: the store's own tables when nothing is pending, else its rows one by one.
    ///
    /// The rows go through ``BooksTables`` as a store file's rows do: every column of the store's schema version
    /// (a v2 store's status, kind, net, credit notes, payments, write-offs and tax lines), checked by the same rules
    /// and settled the same way. A row not yet in the store gets the row id after the largest its table shows, in
    /// the order the rows were inserted (as SQLite numbers them on saving), so the books are the ones the store
    /// reads once the changes are saved.
    init(
        context: String, store: any PersistentStore,
        storeRows: (String) throws -> (any RowCollection)?,
        enumerateRows: (String, (RowView) throws -> Void) throws -> Void
    ) throws {
        if try storeRows("Client") is ClientRows, let invoices = try storeRows("Invoice") as? InvoiceRows,
            try InvoicesModel.details.allSatisfy({ try storeRows($0.entity) != nil })
        {
            self = invoices.books
            return
        }
        let version = (store as? any SchemaVersioned)?.schemaVersion ?? Schema.version
        var read: [String: [PendingRow]] = [:]
        var ids: [ObjectID: Int64] = [:]
        for (entity, table) in Self.entityTables where version >= 2 || entity == "Client" || entity == "Invoice" {
            guard let description = InvoicesModel.model.entity(named: entity) else { continue }
            // Each column of the table: an attribute of the same name, or (`clientId`, `invoiceId`, `correctsId`)
            // the target of the to-one relationship it names; `id` and the columns the version lacks are filled below.
            let columns: [PendingRow.Column] = BooksTables.columns(of: table, version: version).map { column in
                guard let column, column != "id" else { return .empty }
                if let attribute = description.attributeIndex(named: column) { return .attribute(attribute) }
                return description.relationshipIndex(named: String(column.dropLast(2))).map(PendingRow.Column.target) ?? .empty
            }
            var rows: [PendingRow] = []
            var largest: Int64 = 0
            try enumerateRows(entity) { row in
                if let key = row.primaryKey { largest = max(largest, key) }
                rows.append(PendingRow(id: row.objectID, columns: columns, row: row))
            }
            for row in rows where row.id.primaryKey == nil {
                largest += 1
                ids[row.id] = largest
            }
            read[entity] = rows
        }
        // A row inserted and deleted before the save has no id: 0, no row's (row ids start at 1), so the reference
        // is reported as one to a row that does not exist.
        func key(_ id: ObjectID) -> Int64 { id.primaryKey ?? ids[id] ?? 0 }
        var tables = BooksTables(path: "the books of context '\(context)'", version: version)
        for (entity, _) in Self.entityTables {
            var rows = (read[entity] ?? []).map { $0.columns(key: key) }
            // Clients in number order, then id; the rest in row-id order, as the store files are read.
            if entity == "Client" {
                rows.sort { ($0.values[1].textValue ?? "", $0.values[0].integerValue ?? 0) < ($1.values[1].textValue ?? "", $1.values[0].integerValue ?? 0) }
            } else {
                rows.sort { ($0.values[0].integerValue ?? 0) < ($1.values[0].integerValue ?? 0) }
            }
            for row in rows {
                switch entity {
                case "Client": tables.addClient(row)
                case "Invoice": tables.addInvoice(row)
                case "Payment": tables.addPayment(row)
                case "WriteOff": tables.addWriteOff(row)
                default: tables.addTaxLine(row)
                }
            }
        }
        self = try tables.books()
    }
}

/// A context's row copied out of its enumeration, with its relationships' targets still as object IDs (a target
/// inserted in the context has its row id only once every table is read).
private struct PendingRow {
    enum Column {
        case empty
        case attribute(Int)
        case target(Int)
    }

    let id: ObjectID
    var values: [Value] = []
    var targets: [(column: Int, id: ObjectID)] = []

    init(id: ObjectID, columns: [Column], row: RowView) {
        self.id = id
        for (index, column) in columns.enumerated() {
            switch column {
            case .empty: values.append(.null)
            case .attribute(let attribute): values.append(row.value(attribute))
            case .target(let relationship):
                values.append(.null)
                if let target = row.relatedObjectID(relationship) { targets.append((index, target)) }
            }
        }
    }

    /// The row's columns, its id first, each target as its row id.
    func columns(key: (ObjectID) -> Int64) -> ValueColumns {
        var values = values
        values[0] = .integer(key(id))
        for target in targets { values[target.column] = .integer(key(target.id)) }
        return ValueColumns(values: values)
    }
}

/// A row's columns as values: what ``BooksTables`` reads of a context's row. Dates are day numbers, as the model
/// keeps them.
private struct ValueColumns: StoreRowColumns {
    var values: [Value]

    func isNull(_ column: Int32) -> Bool { values[Int(column)].isNull }
    func int64(_ column: Int32) -> Int64 { values[Int(column)].integerValue ?? 0 }
    func isInteger(_ column: Int32) -> Bool { values[Int(column)].integerValue != nil }

    func text(_ column: Int32) -> String? {
        switch values[Int(column)] {
        case .text(let text): text
        case .null: ""
        case .integer(let value): String(value)
        case .double(let value): String(value)
        }
    }

    func withBytes<R>(_ column: Int32, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        guard case .text(var text) = values[Int(column)] else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }

    func date(_ column: Int32) -> CalendarDate? {
        values[Int(column)].integerValue.flatMap { Int32(exactly: $0) }.map(CalendarDate.init(dayNumber:))
    }
}
