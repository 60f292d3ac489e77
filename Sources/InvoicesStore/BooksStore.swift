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
        indexes = RowIndexes(books: books)
    }

    /// The warnings as lines to print, with a last line counting those left out.
    public var warningLines: [String] {
        var lines = warnings.map(\.description)
        if totalWarnings > warnings.count { lines.append("... and \(totalWarnings - warnings.count) more warnings") }
        return lines
    }

    public func rows(of entity: String) throws -> any RowCollection {
        switch entity {
        case "Client": clientRows
        case "Invoice": invoiceRows
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
        default: throw ContextError(.unknownEntity, "the books have no entity '\(id.entityName)'")
        }
        guard let index, let entity = model.entity(named: id.entityName) else { return nil }
        return StoredRow(
            attributes: entity.attributes.indices.map { collection.value(attribute: $0, at: index) },
            relationships: entity.relationships.indices.map { collection.relatedPrimaryKey(relationship: $0, at: index) },
            version: 1)
    }

    public func primaryKeys(of entity: String, relationship: Int, referencing primaryKey: Int64) throws -> [Int64] {
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
        case .received:
            let payments = payments(index)
            return payments.isEmpty ? nil : books.payments[payments].reduce(Int64(0)) { $0 &+ $1.amount }
        case .receivedOn: return payments(index).last.map { Int64(books.payments[$0].date.dayNumber) }
        case .writtenOff:
            let writeOffs = writeOffs(index)
            return writeOffs.isEmpty ? nil : books.writeOffs[writeOffs].reduce(Int64(0)) { $0 &+ $1.amount }
        case .writtenOffOn: return writeOffs(index).last.map { Int64(books.writeOffs[$0].date.dayNumber) }
        case .taxAmount: return taxLines(index).first.map { books.taxLines[$0].amount }
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
    private func payments(_ index: Int) -> Range<Int> { rows(books.payments, \.invoiceIndex, index) }
    private func writeOffs(_ index: Int) -> Range<Int> { rows(books.writeOffs, \.invoiceIndex, index) }
    private func taxLines(_ index: Int) -> Range<Int> { rows(books.taxLines, \.invoiceIndex, index) }
    func value(attribute: Int, at index: Int) -> Value {
        switch InvoicesModel.InvoiceAttribute(rawValue: attribute) {
        case .identifier: return .text(books.invoices[index].identifier)
        case .currency: return .text(currencyCodes[Int(books.invoices[index].currencyIndex)])
        case .notes: return .text(books.invoices[index].notes)
        case .status: return .text(books.invoices[index].status.name)
        case .taxName: return .text(taxLines(index).first.map { books.taxes[Int(books.taxLines[$0].taxIndex)].name } ?? "")
        case .taxRate: return .text(taxLines(index).first.map { books.taxes[Int(books.taxLines[$0].taxIndex)].percent } ?? "")
        case .amount, .issuedOn, .dueOn, .paidOn, .net, .received, .receivedOn, .writtenOff, .writtenOffOn, .taxAmount:
            return integer(attribute: attribute, at: index).map(Value.integer) ?? .null
        case nil: return .null
        }
    }
    func relatedPrimaryKey(relationship: Int, at index: Int) -> Int64? {
        relationship == InvoicesModel.invoiceClientRelationship ? clientIDs[Int(books.invoices[index].clientIndex)] : nil
    }
}
