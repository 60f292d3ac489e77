internal import GRDB
internal import InvoicesCore
internal import InvoicesStore

/// One import inside one write transaction: reads what the store holds, resolves the batch against it and
/// writes the differences. Throwing rolls the transaction back.
struct ImportSession {
    struct StoredClient: Equatable {
        var id: Int64
        var number: String
        var name: String
        var email: String
        var street: String
        var city: String
        var zip: String
        var country: String
    }

    struct StoredInvoice: Equatable {
        var id: Int64
        var clientId: Int64
        var amount: Int64
        var currency: String
        var notes: String
        var issuedOn: String
        var dueOn: String
        var paidOn: String?
    }

    let db: Database
    let store: String
    var clients: [StoredClient] = []
    var clientIndexByNumber: [String: Int] = [:]
    var clientIndexesByName: [String: [Int]] = [:]
    var problems: [ImportProblem] = []
    var summary = ImportSummary()

    init(db: Database, store: String) throws {
        self.db = db
        self.store = store
        let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
        var version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        if tables == 0, version == 0 {
            try db.execute(sql: Schema.createStatements)
            version = Schema.version
        }
        guard version == Schema.version else {
            throw ImportError(
                kind: .badData, file: store,
                message: "schema version \(version), expected \(Schema.version) (PRAGMA user_version); nothing was written")
        }
        for row in try Row.fetchAll(db, sql: "SELECT id, number, name, email, street, city, zip, country FROM client ORDER BY id") {
            remember(
                StoredClient(
                    id: row["id"], number: row["number"], name: row["name"], email: row["email"], street: row["street"],
                    city: row["city"], zip: row["zip"], country: row["country"]))
        }
    }

    mutating func remember(_ client: StoredClient) {
        clientIndexByNumber[client.number] = clients.count
        clientIndexesByName[client.name, default: []].append(clients.count)
        clients.append(client)
    }

    /// The stored client a reference names, or nil with a problem.
    mutating func clientIndex(_ reference: ClientReference, _ source: SourceLocation, column: String?) -> Int? {
        switch reference {
        case .number(let number):
            if let index = clientIndexByNumber[number] { return index }
            problems.append(
                ImportProblem(
                    location: source, column: column,
                    message: "client number '\(number)' is neither in the imported clients nor in the store; import its client too"))
        case .name(let name):
            let matches = clientIndexesByName[name] ?? []
            if matches.count == 1 { return matches[0] }
            problems.append(
                ImportProblem(
                    location: source, column: column,
                    message: matches.isEmpty
                        ? "client '\(name)' is neither in the imported clients nor in the store; import the clients file too"
                        : "client '\(name)' matches \(matches.count) clients in the store; names must be unique to match"))
        }
        return nil
    }

    mutating func apply(_ batch: ImportBatch) throws -> ImportSummary {
        for client in batch.clients { try apply(client) }
        let invoices = try loadInvoices()
        let insert = try db.makeStatement(
            sql: "INSERT INTO invoice (identifier, clientId, amount, currency, notes, issuedOn, dueOn, paidOn) VALUES (?,?,?,?,?,?,?,?)")
        let update = try db.makeStatement(
            sql: "UPDATE invoice SET clientId = ?, amount = ?, currency = ?, notes = ?, issuedOn = ?, dueOn = ?, paidOn = ? WHERE id = ?")
        for invoice in batch.invoices {
            guard let clientIndex = clientIndex(invoice.client, invoice.source, column: invoice.clientColumn) else {
                continue
            }
            let issued = invoice.issued.description
            var wanted = StoredInvoice(
                id: 0, clientId: clients[clientIndex].id, amount: invoice.amount.minorUnits,
                currency: invoice.amount.currency.code, notes: invoice.notes ?? "", issuedOn: issued,
                dueOn: invoice.due.description, paidOn: invoice.paid?.description)
            if let stored = invoices[invoice.identifier] {
                wanted.id = stored.id
                if invoice.notes == nil { wanted.notes = stored.notes }
                // A computed due date never replaces a stored one, unless the stored one is now before the issue date.
                if invoice.dueIsDerived, stored.dueOn >= issued { wanted.dueOn = stored.dueOn }
                if wanted == stored {
                    summary.invoices.unchanged += 1
                } else {
                    try update.execute(arguments: [
                        wanted.clientId, wanted.amount, wanted.currency, wanted.notes, wanted.issuedOn, wanted.dueOn,
                        wanted.paidOn, wanted.id,
                    ])
                    summary.invoices.updated += 1
                }
            } else {
                try insert.execute(arguments: [
                    invoice.identifier, wanted.clientId, wanted.amount, wanted.currency, wanted.notes, wanted.issuedOn,
                    wanted.dueOn, wanted.paidOn,
                ])
                summary.invoices.added += 1
            }
        }
        if !problems.isEmpty { throw ImportError(kind: .badData, problems: problems) }
        return summary
    }

    mutating func apply(_ client: ImportedClient) throws {
        var existing: Int?
        if let number = client.number {
            existing = clientIndexByNumber[number]
        } else {
            let matches = clientIndexesByName[client.name] ?? []
            if matches.count > 1 {
                problems.append(
                    ImportProblem(
                        location: client.source,
                        message: "client '\(client.name)' matches \(matches.count) clients in the store; names must be unique to match"))
                return
            }
            existing = matches.first
        }
        if let index = existing {
            let stored = clients[index]
            var wanted = stored
            wanted.name = client.name
            wanted.email = client.email ?? stored.email
            wanted.street = client.street ?? stored.street
            wanted.city = client.city ?? stored.city
            wanted.zip = client.zip ?? stored.zip
            wanted.country = client.country ?? stored.country
            if wanted == stored {
                summary.clients.unchanged += 1
                return
            }
            try db.execute(
                sql: "UPDATE client SET name = ?, email = ?, street = ?, city = ?, zip = ?, country = ? WHERE id = ?",
                arguments: [wanted.name, wanted.email, wanted.street, wanted.city, wanted.zip, wanted.country, wanted.id])
            if stored.name != wanted.name {
                clientIndexesByName[stored.name]?.removeAll { $0 == index }
                clientIndexesByName[wanted.name, default: []].append(index)
            }
            clients[index] = wanted
            summary.clients.updated += 1
            return
        }
        let number = client.number ?? nextNumber()
        try db.execute(
            sql: "INSERT INTO client (number, name, email, street, city, zip, country) VALUES (?,?,?,?,?,?,?)",
            arguments: [number, client.name, client.email ?? "", client.street ?? "", client.city ?? "", client.zip ?? "", client.country ?? ""])
        remember(
            StoredClient(
                id: db.lastInsertedRowID, number: number, name: client.name, email: client.email ?? "",
                street: client.street ?? "", city: client.city ?? "", zip: client.zip ?? "", country: client.country ?? ""))
        summary.clients.added += 1
    }

    /// The first free number `C-00001`, `C-00002`, ... for a client whose source has no numbers.
    func nextNumber() -> String {
        var candidate = clients.count + 1
        while true {
            let text = String(candidate)
            let number = "C-" + String(repeating: "0", count: max(0, 5 - text.count)) + text
            if clientIndexByNumber[number] == nil { return number }
            candidate += 1
        }
    }

    func loadInvoices() throws -> [String: StoredInvoice] {
        var invoices: [String: StoredInvoice] = [:]
        let rows = try Row.fetchCursor(
            db, sql: "SELECT id, identifier, clientId, amount, currency, notes, issuedOn, dueOn, paidOn FROM invoice")
        while let row = try rows.next() {
            invoices[row["identifier"]] = StoredInvoice(
                id: row["id"], clientId: row["clientId"], amount: row["amount"], currency: row["currency"],
                notes: row["notes"], issuedOn: row["issuedOn"], dueOn: row["dueOn"], paidOn: row["paidOn"])
        }
        return invoices
    }
}
