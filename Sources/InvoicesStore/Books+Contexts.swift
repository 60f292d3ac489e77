public import InvoicesCore
public import ObjectContexts

extension PrivateContext {
    /// Every client and invoice as this context sees them, as one Sendable value that may leave the context.
    ///
    /// When neither this context nor an ancestor has pending changes, these are the tables the ``BooksStore``
    /// fetched, shared without a copy; otherwise the rows are read through the context with its changes applied.
    public func books() throws -> Books {
        try Books(storeRows: storeRows(of:), enumerateRows: enumerateRows(of:_:))
    }
}

extension MainContext {
    /// Every client and invoice as this context sees them; see ``ObjectContexts/PrivateContext/books()``.
    public func books() throws -> Books {
        try Books(storeRows: storeRows(of:), enumerateRows: enumerateRows(of:_:))
    }
}

extension Books {
    /// The books a context sees: the store's own tables when nothing is pending, else its rows one by one.
    init(
        storeRows: (String) throws -> (any RowCollection)?,
        enumerateRows: (String, (RowView) throws -> Void) throws -> Void
    ) throws {
        if try storeRows("Client") is ClientRows, let invoices = try storeRows("Invoice") as? InvoiceRows {
            self = invoices.books
            return
        }
        typealias ClientField = InvoicesModel.ClientAttribute
        typealias InvoiceField = InvoicesModel.InvoiceAttribute
        var clients: [ClientSnapshot] = []
        var clientIndex: [ObjectID: Int32] = [:]
        // Rows not yet in the store have no row id; they get negative ids, in enumeration order.
        var unsaved: Int64 = 0
        func id(_ row: RowView) -> Int64 {
            if let key = row.primaryKey { return key }
            unsaved -= 1
            return unsaved
        }
        try enumerateRows("Client") { row in
            func text(_ field: ClientField) -> String { row.value(field.rawValue).textValue ?? "" }
            clientIndex[row.objectID] = Int32(clients.count)
            clients.append(
                ClientSnapshot(
                    id: id(row), number: text(.number), name: text(.name), email: text(.email), street: text(.street),
                    city: text(.city), zip: text(.zip), country: text(.country)))
        }
        var invoices: [InvoiceSnapshot] = []
        var currencies: [CurrencyCode] = []
        var currencyIndex: [String: Int16] = [:]
        try enumerateRows("Invoice") { row in
            let code = row.value(InvoiceField.currency.rawValue).textValue ?? ""
            guard let client = row.relatedObjectID(InvoicesModel.invoiceClientRelationship).flatMap({ clientIndex[$0] }),
                let issued = row.integer(InvoiceField.issuedOn.rawValue), let due = row.integer(InvoiceField.dueOn.rawValue)
            else { throw ContextError(.typeMismatch, "invoice \(row.objectID) has no client or no dates") }
            if currencyIndex[code] == nil {
                currencyIndex[code] = Int16(currencies.count)
                currencies.append(try CurrencyCode(code))
            }
            invoices.append(
                InvoiceSnapshot(
                    id: id(row), identifier: row.value(InvoiceField.identifier.rawValue).textValue ?? "",
                    clientIndex: client, currencyIndex: currencyIndex[code] ?? 0,
                    amount: row.integer(InvoiceField.amount.rawValue) ?? 0,
                    issued: CalendarDate(dayNumber: Int32(clamping: issued)), due: CalendarDate(dayNumber: Int32(clamping: due)),
                    paid: row.integer(InvoiceField.paidOn.rawValue).map { CalendarDate(dayNumber: Int32(clamping: $0)) },
                    notes: row.value(InvoiceField.notes.rawValue).textValue ?? ""))
        }
        // Currencies in code order, as a fetch gives them.
        let sorted = currencies.sorted()
        let remap = currencies.map { Int16(sorted.firstIndex(of: $0) ?? 0) }
        for index in invoices.indices { invoices[index].currencyIndex = remap[Int(invoices[index].currencyIndex)] }
        self.init(clients: clients, invoices: invoices, currencies: sorted)
    }
}
