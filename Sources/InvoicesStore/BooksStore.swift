import Foundation
public import InvoicesCore
public import ObjectContexts

/// The read-only ``ObjectContexts/PersistentStore`` of a store file: what Core Data's coordinator is to its SQLite
/// file, for the contexts a build runs on.
///
/// Opening the store is its fetch: the file (a native store or the Invoices app's Core Data store) is read once,
/// in one read transaction, into typed tables (``InvoicesCore/Books``: integer amounts and day numbers, currencies
/// and clients as small interned indexes, no object per row). Rows are served from those tables by index, and
/// ``ObjectContexts/RowView/integer(_:)`` reads amounts and days without building a value, so enumerating two
/// million invoices in a child context costs about as much as a loop over arrays. Saving throws: building a
/// report never changes the books.
///
/// ```swift
/// let store = try BooksStore(path: "books.sqlite")
/// let main = MainContext(store: store, readOnly: true)
/// let books = try await PrivateContext(parent: main, readOnly: true).perform { try $0.books() }
/// ```
public final class BooksStore: PersistentStore {
    /// The books as fetched: every client and invoice of the file.
    public let books: Books
    /// The warnings of the fetch: values the report uses after an assumption or a rounding (Core Data stores).
    public let warnings: [StoreIssue]
    /// How many warnings there were in all (``warnings`` holds the first ones).
    public let totalWarnings: Int
    /// The kind of store the file holds.
    public let format: StoreFormat
    public var model: ObjectModel { InvoicesModel.model }
    public var isReadOnly: Bool { true }
    let clientRows: ClientRows
    let invoiceRows: InvoiceRows
    /// `Payment`, `TaxLine` and `WriteOff` rows, by entity name.
    let detailRows: [String: DetailRows]
    private let indexes: RowIndexes

    /// Opens and fetches the store file at `path`.
    /// - Parameters:
    ///   - coreDataMapping: Which attributes hold the dates when the file is a Core Data store.
    ///   - issueLimit: How many issues of each severity to keep (all are counted).
    /// - Throws: ``StoreIssues`` naming every error found: a missing file, not SQLite, locked, corrupt, a wrong
    ///   schema, invalid values.
    public convenience init(path: String, coreDataMapping: CoreDataMapping = CoreDataMapping(), issueLimit: Int = 100) throws(StoreIssues) {
        var loader = StoreLoader(path: path)
        loader.coreDataMapping = coreDataMapping
        loader.issueLimit = issueLimit
        let fetched = try loader.fetch()
        self.init(books: fetched.books, warnings: fetched.warnings, totalWarnings: fetched.totalWarnings, format: fetched.format)
    }

    /// A store over books already in memory (tests, and stores that fetched them another way).
    public init(books: Books, warnings: [StoreIssue] = [], totalWarnings: Int? = nil, format: StoreFormat = .native) {
        self.books = books
        self.warnings = warnings
        self.totalWarnings = totalWarnings ?? warnings.count
        self.format = format
        clientRows = ClientRows(books)
        invoiceRows = InvoiceRows(books)
        detailRows = Dictionary(uniqueKeysWithValues: InvoicesModel.details.compactMap { detail in DetailRows(detail.entity, books).map { (detail.entity, $0) } })
        indexes = RowIndexes(books: books)
    }

    /// The warnings as lines to print, with a last line counting those left out.
    public var warningLines: [String] {
        var lines = warnings.map(\.description)
        if totalWarnings > warnings.count { lines.append("... and \(totalWarnings - warnings.count) more warnings") }
        return lines
    }

    public func rows(of entity: String) throws -> any RowCollection {
        if let rows = detailRows[entity] { return rows }
        switch entity {
        case "Client": return clientRows
        case "Invoice": return invoiceRows
        default: throw ContextError(.unknownEntity, "the books have no entity '\(entity)'")
        }
    }

    public func row(for id: ObjectID) throws -> StoredRow? {
        guard let key = id.primaryKey else { return nil }
        let collection: any RowCollection
        let index: Int?
        switch id.entityName {
        case "Client": (collection, index) = (clientRows, indexes.client(key))
        case "Invoice": (collection, index) = (invoiceRows, indexes.invoice(key))
        case let name where detailRows[name] != nil:
            let rows = detailRows[name]!
            (collection, index) = (rows, key >= 1 && key <= rows.count ? Int(key - 1) : nil)
        default: throw ContextError(.unknownEntity, "the books have no entity '\(id.entityName)'")
        }
        guard let index, let entity = model.entity(named: id.entityName) else { return nil }
        return StoredRow(
            attributes: entity.attributes.indices.map { collection.value(attribute: $0, at: index) },
            relationships: entity.relationships.indices.map { collection.relatedPrimaryKey(relationship: $0, at: index) },
            version: 1)
    }

    public func primaryKeys(of entity: String, relationship: Int, referencing primaryKey: Int64) throws -> [Int64] {
        if let rows = detailRows[entity] {
            guard relationship == InvoicesModel.detailInvoiceRelationship, let invoice = indexes.invoice(primaryKey) else { return [] }
            return rows.keys(ofInvoiceAt: invoice)
        }
        guard entity == "Invoice", relationship == InvoicesModel.invoiceClientRelationship,
            let client = indexes.client(primaryKey)
        else { return [] }
        return books.invoices.lazy.filter { Int($0.clientIndex) == client }.map(\.id)
    }

    public func save(_ changes: StoreChanges) throws -> [ObjectID: ObjectID] {
        throw ContextError(.readOnlyStore, "the books are read-only: a report build never changes the store")
    }
}

/// Row index by primary key, built on the first lookup by key (a build enumerates and never needs them).
private final class RowIndexes: @unchecked Sendable {
    // @unchecked Sendable: the dictionaries are written once, under `lock`, and only read under it afterwards.
    private let books: Books
    private let lock = NSLock()
    private var clients: [Int64: Int]?
    private var invoices: [Int64: Int]?

    init(books: Books) { self.books = books }

    func client(_ key: Int64) -> Int? {
        lock.withLock {
            if clients == nil { clients = Dictionary(books.clients.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a }) }
            return clients?[key]
        }
    }

    func invoice(_ key: Int64) -> Int? {
        lock.withLock {
            if invoices == nil {
                var map: [Int64: Int] = [:]
                map.reserveCapacity(books.invoices.count)
                for (index, invoice) in books.invoices.enumerated() { map[invoice.id] = index }
                invoices = map
            }
            return invoices?[key]
        }
    }
}

/// Client rows over ``Books/clients``.
final class ClientRows: RowCollection, Sendable {
    let clients: [ClientSnapshot]
    init(_ books: Books) { clients = books.clients }
    var count: Int { clients.count }
    func primaryKey(at index: Int) -> Int64 { clients[index].id }
    func version(at index: Int) -> Int64 { 1 }
    func value(attribute: Int, at index: Int) -> Value {
        let client = clients[index]
        switch InvoicesModel.ClientAttribute(rawValue: attribute) {
        case .number: return .text(client.number)
        case .name: return .text(client.name)
        case .email: return .text(client.email)
        case .street: return .text(client.street)
        case .city: return .text(client.city)
        case .zip: return .text(client.zip)
        case .country: return .text(client.country)
        case .language: return .text(client.language)
        case nil: return .null
        }
    }
    func relatedPrimaryKey(relationship: Int, at index: Int) -> Int64? { nil }
}

/// Invoice rows over ``Books/invoices``; integers are read from the typed fields without building a ``Value``.
final class InvoiceRows: RowCollection, Sendable {
    let books: Books
    let currencyCodes: [String]
    let clientIDs: [Int64]
    init(_ books: Books) {
        self.books = books
        currencyCodes = books.currencies.map(\.code)
        clientIDs = books.clients.map(\.id)
    }
    var count: Int { books.invoices.count }
    func primaryKey(at index: Int) -> Int64 { books.invoices[index].id }
    func version(at index: Int) -> Int64 { 1 }
    func integer(attribute: Int, at index: Int) -> Int64? {
        switch InvoicesModel.InvoiceAttribute(rawValue: attribute) {
        case .amount: return books.invoices[index].amount
        case .issuedOn: return Int64(books.invoices[index].issued.dayNumber)
        case .dueOn: return Int64(books.invoices[index].due.dayNumber)
        case .paidOn: return books.invoices[index].paid.map { Int64($0.dayNumber) }
        case .net: return taxLines(index).isEmpty ? nil : books.invoices[index].net
        case .appliedOn: return books.invoices[index].applied.map { Int64($0.dayNumber) }
        default: return nil
        }
    }

    /// The rows of invoice `index` in a table sorted by invoice index: a binary search, no index kept.
    private func rows<T>(_ table: [T], _ invoice: (T) -> Int32, _ index: Int) -> Range<Int> {
        func bound(_ key: Int32) -> Int {
            var low = 0
            var high = table.count
            while low < high {
                let middle = (low + high) / 2
                if invoice(table[middle]) < key { low = middle + 1 } else { high = middle }
            }
            return low
        }
        return bound(Int32(index))..<bound(Int32(index) + 1)
    }
    private func taxLines(_ index: Int) -> Range<Int> { rows(books.taxLines, \.invoiceIndex, index) }
    func value(attribute: Int, at index: Int) -> Value {
        switch InvoicesModel.InvoiceAttribute(rawValue: attribute) {
        case .identifier: return .text(books.invoices[index].identifier)
        case .currency: return .text(currencyCodes[Int(books.invoices[index].currencyIndex)])
        case .notes: return .text(books.invoices[index].notes)
        case .status: return .text(books.invoices[index].status.name)
        case .kind: return .text(books.invoices[index].kind.name)
        case .amount, .issuedOn, .dueOn, .paidOn, .net, .appliedOn:
            return integer(attribute: attribute, at: index).map(Value.integer) ?? .null
        case nil: return .null
        }
    }
    func relatedPrimaryKey(relationship: Int, at index: Int) -> Int64? {
        switch relationship {
        case InvoicesModel.invoiceClientRelationship: return clientIDs[Int(books.invoices[index].clientIndex)]
        case InvoicesModel.invoiceCorrectsRelationship:
            let corrects = books.invoices[index].corrects
            return corrects >= 0 ? books.invoices[Int(corrects)].id : nil
        default: return nil
        }
    }
}

/// The rows of ``Books/payments``, ``Books/taxLines`` or ``Books/writeOffs`` as `Payment`, `TaxLine` or `WriteOff`
/// rows. Their primary keys are positions in that table (1, 2, ...), not the store's row ids: a build reads these
/// rows and never writes them (``SQLiteStore`` serves the row ids to imports).
final class DetailRows: RowCollection, Sendable {
    let count: Int
    let invoiceIndexes: @Sendable (Int) -> Int32
    let values: @Sendable (Int) -> [Value]
    let invoiceIDs: [Int64]

    init(count: Int, invoiceIDs: [Int64], invoiceIndex: @escaping @Sendable (Int) -> Int32, values: @escaping @Sendable (Int) -> [Value]) {
        self.count = count
        self.invoiceIDs = invoiceIDs
        self.invoiceIndexes = invoiceIndex
        self.values = values
    }

    /// The rows of `entity` in `books`, or nil for another entity.
    convenience init?(_ entity: String, _ books: Books) {
        let ids = books.invoices.map(\.id)
        switch entity {
        case "Payment":
            let payments = books.payments
            let details = books.paymentDetails
            self.init(count: payments.count, invoiceIDs: ids, invoiceIndex: { payments[$0].invoiceIndex }) { index in
                let payment = payments[index]
                let detail = payment.details >= 0 ? details[Int(payment.details)] : PaymentDetails(method: "", reference: "")
                return [.integer(Int64(payment.date.dayNumber)), .integer(payment.amount), .null, .text(detail.method), .text(detail.reference)]
            }
        case "TaxLine":
            let lines = books.taxLines
            let taxes = books.taxes
            let invoices = books.invoices
            self.init(count: lines.count, invoiceIDs: ids, invoiceIndex: { lines[$0].invoiceIndex }) { index in
                let line = lines[index]
                let tax = taxes[Int(line.taxIndex)]
                // NULL when levied on the invoice's net, as the import writes it.
                let net: Value = line.net == invoices[Int(line.invoiceIndex)].net ? .null : .integer(line.net)
                return [.text(tax.name), .text(tax.percent), net, .integer(line.amount)]
            }
        case "WriteOff":
            let writeOffs = books.writeOffs
            self.init(count: writeOffs.count, invoiceIDs: ids, invoiceIndex: { writeOffs[$0].invoiceIndex }) { index in
                [.integer(Int64(writeOffs[index].date.dayNumber)), .integer(writeOffs[index].amount), .text(writeOffs[index].reason)]
            }
        default:
            return nil
        }
    }

    func primaryKey(at index: Int) -> Int64 { Int64(index + 1) }
    func version(at index: Int) -> Int64 { 1 }
    func value(attribute: Int, at index: Int) -> Value { values(index)[attribute] }
    func relatedPrimaryKey(relationship: Int, at index: Int) -> Int64? {
        relationship == InvoicesModel.detailInvoiceRelationship ? invoiceIDs[Int(invoiceIndexes(index))] : nil
    }

    /// The keys of the rows of the invoice at `invoice` (an index in ``Books/invoices``).
    func keys(ofInvoiceAt invoice: Int) -> [Int64] {
        (0..<count).filter { Int(invoiceIndexes($0)) == invoice }.map { Int64($0 + 1) }
    }
}
