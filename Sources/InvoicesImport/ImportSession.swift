internal import InvoicesCore
internal import InvoicesStore
internal import ObjectContexts

/// One import in a scratch-pad child context: resolves the batch against what the store holds and records the
/// differences as inserts and updates of `Client` and `Invoice` objects. Nothing reaches the store unless the
/// whole batch resolves and validates; throwing simply drops the child context.
struct ImportSession {
    var clients: [Client] = []
    var clientIndexByNumber: [String: Int] = [:]
    var clientIndexesByName: [String: [Int]] = [:]
    var problems: [ImportProblem] = []
    var summary = ImportSummary()
    /// Clients whose rows had problems: a reference to one is not reported again (``ImportBatch/rejectedClients``).
    var rejectedClients: Set<ClientReference> = []
    /// Identifiers of the invoices this import updated.
    var updated: Set<String> = []
    /// The store's schema version: a v1 store cannot hold drafts, voids, partial payments or taxes.
    var schemaVersion = Schema.version

    /// The stored payments, tax lines and write-offs of each invoice, by the invoice's to-many relationship name,
    /// fetched once before any change: a to-many lookup in a context with many pending rows scans them all, which
    /// made an import of thousands of payments quadratic.
    var details: [String: [ObjectID: [ManagedObject]]] = [:]

    init(context: isolated PrivateContext, schemaVersion: Int = Schema.version) throws {
        self.schemaVersion = schemaVersion
        for client in try context.fetch(Client.self).sorted(by: { $0.objectID < $1.objectID }) { remember(client) }
        for detail in InvoicesModel.details {
            var byInvoice: [ObjectID: [ManagedObject]] = [:]
            for row in try context.fetch(detail.entity).sorted(by: { $0.objectID < $1.objectID }) {
                if let invoice = row.objectID(forKey: "invoice") { byInvoice[invoice, default: []].append(row) }
            }
            details[detail.relationship] = byInvoice
        }
    }

    mutating func remember(_ client: Client) {
        clientIndexByNumber[client.number] = clients.count
        clientIndexesByName[client.name, default: []].append(clients.count)
        clients.append(client)
    }

    /// The stored client a reference names, or nil with a problem.
    mutating func clientIndex(_ reference: ClientReference, _ source: SourceLocation, column: String?) -> Int? {
        let unresolvedIsReported = !rejectedClients.contains(reference)
        switch reference {
        case .number(let number):
            if let index = clientIndexByNumber[number] { return index }
            guard unresolvedIsReported else { return nil }
            problems.append(
                ImportProblem(
                    location: source, column: column,
                    message: "client number '\(number)' is neither in the imported clients nor in the store; import its client too"))
        case .name(let name):
            let matches = clientIndexesByName[name] ?? []
            if matches.count == 1 { return matches[0] }
            guard unresolvedIsReported || !matches.isEmpty else { return nil }
            problems.append(
                ImportProblem(
                    location: source, column: column,
                    message: matches.isEmpty
                        ? "client '\(name)' is neither in the imported clients nor in the store; import the clients file too"
                        : "client '\(name)' matches \(matches.count) clients in the store; names must be unique to match"))
        }
        return nil
    }

    /// Sets what schema v2 adds when the source carries it: the status, the kind and a credit note's applied day,
    /// the net and tax lines, the write-offs. Payments and the corrected invoice are set apart. Whether anything
    /// changed.
    @discardableResult
    mutating func setV2(_ object: Invoice, _ invoice: ImportedInvoice, in context: isolated PrivateContext) throws -> Bool {
        var changed = false
        if let status = invoice.status { changed = try Self.set(object, "status", .text(status.name)) || changed }
        if let kind = invoice.kind {
            changed = try Self.set(object, "kind", .text(kind.name)) || changed
            changed = try Self.set(object, "appliedOn", invoice.applied.map { .integer(Int64($0.dayNumber)) } ?? .null) || changed
        }
        var counts = ImportSummary.Counts()
        let writeOffs = invoice.writeOffs ?? invoice.receipts.map { receipts in
            receipts.writtenOff.flatMap { amount in receipts.writtenOffOn.map { [ImportedWriteOff(date: $0, amount: amount)] } } ?? []
        }
        if let writeOffs {
            let desired: [[Value]] = writeOffs.map { [.integer(Int64($0.date.dayNumber)), .integer($0.amount), .text($0.reason)] }
            changed = try replaceRows(of: object, "writeOffs", WriteOff.self, with: desired, counts: &counts, in: context) || changed
        }
        if let tax = invoice.tax {
            changed = try Self.set(object, "net", tax.lines.isEmpty ? .null : .integer(tax.net)) || changed
            // A line levied on the invoice's net keeps NULL there (as every store reads it back).
            let desired: [[Value]] = tax.lines.map { line in
                [.text(line.name), .text(line.rate), line.net.flatMap { $0 == tax.net ? nil : Value.integer($0) } ?? .null, .integer(line.amount)]
            }
            changed = try replaceRows(of: object, "taxLines", TaxLine.self, with: desired, counts: &counts, in: context) || changed
        }
        return changed
    }

    /// Sets `key` to `value` when it differs; whether it did.
    @discardableResult
    static func set(_ object: ManagedObject, _ key: String, _ value: Value) throws -> Bool {
        guard object.value(forKey: key) != value else { return false }
        try object.setValue(value, forKey: key)
        return true
    }

    /// Applies `batch` to the context, or throws the references that resolve to no client (or to several), its
    /// rejected rows' references included; throws also when the batch has problems of its own.
    mutating func apply(_ batch: ImportBatch, in context: isolated PrivateContext) throws -> ImportSummary {
        rejectedClients = batch.rejectedClients
        for client in batch.clients { try apply(client, in: context) }
        // A v1 or v2 store has no language column: its clients keep the report's language (docs/store.md says how
        // to migrate it to version 3 first).
        let languages = batch.clients.filter { $0.language != nil }
        if schemaVersion < 3, let first = languages.first {
            summary.warnings.append(
                ImportProblem(
                    location: first.source,
                    message: "\(languages.count) client language(s) not stored: the store is schema version \(schemaVersion), which has no "
                        + "language column; migrate it to version 3 (docs/store.md, \"Migrating a version 2 store\") and import again"))
        }
        var invoices: [String: Invoice] = [:]
        for invoice in try context.fetch(Invoice.self) { invoices[invoice.identifier] = invoice }
        // The payments the batch names, per invoice: all of that invoice's payments.
        let explicit = Dictionary(grouping: batch.payments, by: \.invoice)
        var skipped: Set<String> = []
        // A credit note that may stand alone and whose invoice is neither imported nor stored: the client's unapplied
        // credit (no applied day; resolveCorrections leaves it uncorrected, with a warning).
        let imported = Set(batch.invoices.map(\.identifier))
        var batch = batch
        for index in batch.invoices.indices where batch.invoices[index].unappliedWhenUncorrected {
            if let corrects = batch.invoices[index].corrects, !imported.contains(corrects), invoices[corrects] == nil {
                batch.invoices[index].applied = nil
            }
        }
        for invoice in batch.invoices {
            // A v1 store has no status: drafts and voids are left out there, as before schema v2.
            if schemaVersion < 2, invoice.status.map({ $0 != .sent }) ?? false || invoice.kind == .creditNote {
                summary.skippedInvoices += 1
                skipped.insert(invoice.identifier)
                continue
            }
            guard let clientIndex = clientIndex(invoice.client, invoice.source, column: invoice.clientColumn) else {
                continue
            }
            let client = clients[clientIndex]
            let day = { (date: CalendarDate) in Value.integer(Int64(date.dayNumber)) }
            if let stored = invoices[invoice.identifier] {
                var changed = false
                changed = try Self.set(stored, "amount", .integer(invoice.amount.minorUnits)) || changed
                changed = try Self.set(stored, "currency", .text(invoice.amount.currency.code)) || changed
                if let notes = invoice.notes { changed = try Self.set(stored, "notes", .text(notes)) || changed }
                changed = try Self.set(stored, "issuedOn", day(invoice.issued)) || changed
                // A computed due date never replaces a stored one, unless the stored one is now before the issue date.
                if !(invoice.dueIsDerived && (stored.due.map { $0 >= invoice.issued } ?? false)) {
                    changed = try Self.set(stored, "dueOn", day(invoice.due)) || changed
                }
                if schemaVersion >= 2 { changed = try setV2(stored, invoice, in: context) || changed }
                if schemaVersion < 2, explicit[invoice.identifier] == nil {
                    changed = try Self.set(stored, "paidOn", invoice.paid.map(day) ?? .null) || changed
                } else if explicit[invoice.identifier] == nil {
                    changed = try settlePayments(of: stored, PaymentStatement(invoice), in: context) || changed
                }
                if stored.client?.objectID != client.objectID {
                    try stored.setClient(client)
                    changed = true
                }
                if changed {
                    summary.invoices.updated += 1
                    updated.insert(invoice.identifier)
                } else {
                    summary.invoices.unchanged += 1
                }
            } else {
                let created = try context.insert(Invoice.self)
                try Self.set(created, "identifier", .text(invoice.identifier))
                try Self.set(created, "amount", .integer(invoice.amount.minorUnits))
                try Self.set(created, "currency", .text(invoice.amount.currency.code))
                try Self.set(created, "notes", .text(invoice.notes ?? ""))
                try Self.set(created, "issuedOn", day(invoice.issued))
                try Self.set(created, "dueOn", day(invoice.due))
                try created.setClient(client)
                if schemaVersion >= 2 { try setV2(created, invoice, in: context) }
                if schemaVersion < 2, explicit[invoice.identifier] == nil {
                    try Self.set(created, "paidOn", invoice.paid.map(day) ?? .null)
                } else if explicit[invoice.identifier] == nil {
                    try settlePayments(of: created, PaymentStatement(invoice), in: context)
                }
                invoices[invoice.identifier] = created
                summary.invoices.added += 1
            }
        }
        for reference in batch.rejectedReferences {
            _ = clientIndex(reference.client, reference.source, column: reference.column)
        }
        if schemaVersion >= 2 { try resolveCorrections(batch, invoices) }
        if !batch.payments.isEmpty { try apply(batch.payments, to: invoices, skipping: skipped, in: context) }
        // A batch with problems of its own is never saved; ImportWriter lists those with these.
        if !problems.isEmpty || !batch.problems.isEmpty { throw ImportError(kind: .badData, problems: problems) }
        return summary
    }

    /// Points each imported credit note at the invoice it corrects (`corrects`, by identifier): an invoice, not a
    /// credit note, of the same client and currency, in the same import or in the store.
    mutating func resolveCorrections(_ batch: ImportBatch, _ invoices: [String: Invoice]) throws {
        for invoice in batch.invoices where invoice.kind != nil {
            guard let object = invoices[invoice.identifier], object.client != nil else { continue }
            var target: Invoice?
            if let identifier = invoice.corrects {
                let found = invoices[identifier]
                let problem: String? =
                    if let found {
                        if found.value(forKey: "kind") == .text(InvoiceKind.creditNote.name) {
                            "'\(identifier)' is a credit note; a credit note corrects an invoice"
                        } else if found.client?.objectID != object.client?.objectID || found.currencyCode != object.currencyCode {
                            "invoice '\(identifier)' is of client '\(found.client?.number ?? "")' in \(found.currencyCode); a credit note corrects an invoice of its own client and currency"
                        } else {
                            nil
                        }
                    } else if invoice.unappliedWhenUncorrected {
                        nil
                    } else {
                        "invoice '\(identifier)' is neither in the imported invoices nor in the store; import it too"
                    }
                if found == nil, problem == nil {
                    summary.warnings.append(
                        ImportProblem(
                            location: invoice.source,
                            message: "credit note \(invoice.identifier) corrects invoice '\(identifier)', which is neither imported nor in the "
                                + "store: it is kept as the client's unapplied credit"))
                }
                if let problem {
                    problems.append(ImportProblem(location: invoice.source, column: "corrects", message: problem))
                    continue
                }
                target = found
            }
            guard object.objectID(forKey: "corrects") != target?.objectID else { continue }
            try object.setObject(target, forKey: "corrects")
            if !object.isInserted, summary.invoices.unchanged > 0, !updated.contains(invoice.identifier) {
                summary.invoices.unchanged -= 1
                summary.invoices.updated += 1
            }
        }
    }

    mutating func apply(_ client: ImportedClient, in context: isolated PrivateContext) throws {
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
        let fields: [(String, String?)] = [
            ("email", client.email), ("street", client.street), ("city", client.city), ("zip", client.zip),
            ("country", client.country),
        ] + (schemaVersion >= 3 ? [("language", client.language)] : [])
        if let index = existing {
            let stored = clients[index]
            let oldName = stored.name
            var changed = try Self.set(stored, "name", .text(client.name))
            for (key, value) in fields {
                if let value { changed = try Self.set(stored, key, .text(value)) || changed }
            }
            if oldName != client.name {
                clientIndexesByName[oldName]?.removeAll { $0 == index }
                clientIndexesByName[client.name, default: []].append(index)
            }
            if changed { summary.clients.updated += 1 } else { summary.clients.unchanged += 1 }
            return
        }
        let created = try context.insert(Client.self)
        try Self.set(created, "number", .text(client.number ?? nextNumber()))
        try Self.set(created, "name", .text(client.name))
        for (key, value) in fields { try Self.set(created, key, .text(value ?? "")) }
        remember(created)
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
}
