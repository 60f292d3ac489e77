import Foundation
public import InvoicesCore
public import ObjectContexts

/// A read-only ``ObjectContexts/PersistentStore`` serving the books loaded from a store file.
///
/// Rows come straight from the compact tables of ``InvoicesCore/Books`` (no object, no allocation per row);
/// objects are materialized only when a context asks for them. Primary keys are the store's row ids. Saving
/// throws: building a report can never change the books.
///
/// ```swift
/// let main = MainContext(store: BooksStore(books: books), readOnly: true)
/// ```
public final class BooksStore: PersistentStore {
    public let books: Books
    public var model: ObjectModel { InvoicesModel.model }
    public var isReadOnly: Bool { true }
    private let clientRows: ClientRows
    private let invoiceRows: InvoiceRows
    private let clientIndexByID: [Int64: Int]
    private let invoiceIndexByID: [Int64: Int]

    public init(books: Books) {
        self.books = books
        clientRows = ClientRows(books)
        invoiceRows = InvoiceRows(books)
        var clients: [Int64: Int] = [:]
        for (index, client) in books.clients.enumerated() { clients[client.id] = index }
        clientIndexByID = clients
        var invoices: [Int64: Int] = [:]
        invoices.reserveCapacity(books.invoices.count)
        for (index, invoice) in books.invoices.enumerated() { invoices[invoice.id] = index }
        invoiceIndexByID = invoices
    }

    /// The index of a client in ``books`` by its primary key.
    public func clientIndex(primaryKey: Int64) -> Int? { clientIndexByID[primaryKey] }

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
        case "Client": (collection, index) = (clientRows, clientIndexByID[key])
        case "Invoice": (collection, index) = (invoiceRows, invoiceIndexByID[key])
        default: throw ContextError(.unknownEntity, "the books have no entity '\(id.entityName)'")
        }
        guard let index else { return nil }
        let entity = try model.entity(named: id.entityName).orThrow()
        return StoredRow(
            attributes: entity.attributes.indices.map { collection.value(attribute: $0, at: index) },
            relationships: entity.relationships.indices.map { collection.relatedPrimaryKey(relationship: $0, at: index) },
            version: 1)
    }

    public func primaryKeys(of entity: String, relationship: Int, referencing primaryKey: Int64) throws -> [Int64] {
        guard entity == "Invoice", relationship == InvoicesModel.invoiceClientRelationship,
            let client = clientIndexByID[primaryKey]
        else { return [] }
        return books.invoices.lazy.filter { Int($0.clientIndex) == client }.map(\.id)
    }

    public func save(_ changes: StoreChanges) throws -> [ObjectID: ObjectID] {
        throw ContextError(.readOnlyStore, "the books are read-only: a report build never changes the store")
    }
}

extension Optional {
    fileprivate func orThrow() throws -> Wrapped {
        guard let self else { throw ContextError(.unknownEntity, "unknown entity") }
        return self
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

/// Invoice rows over ``Books/invoices``.
final class InvoiceRows: RowCollection, Sendable {
    let invoices: [InvoiceSnapshot]
    let currencyCodes: [String]
    let clientIDs: [Int64]
    init(_ books: Books) {
        invoices = books.invoices
        currencyCodes = books.currencies.map(\.code)
        clientIDs = books.clients.map(\.id)
    }
    var count: Int { invoices.count }
    func primaryKey(at index: Int) -> Int64 { invoices[index].id }
    func version(at index: Int) -> Int64 { 1 }
    func value(attribute: Int, at index: Int) -> Value {
        switch InvoicesModel.InvoiceAttribute(rawValue: attribute) {
        case .identifier: return .text(invoices[index].identifier)
        case .amount: return .integer(invoices[index].amount)
        case .currency: return .text(currencyCodes[Int(invoices[index].currencyIndex)])
        case .notes: return .text(invoices[index].notes)
        case .issuedOn: return .integer(Int64(invoices[index].issued.dayNumber))
        case .dueOn: return .integer(Int64(invoices[index].due.dayNumber))
        case .paidOn: return invoices[index].paid.map { .integer(Int64($0.dayNumber)) } ?? .null
        case nil: return .null
        }
    }
    func relatedPrimaryKey(relationship: Int, at index: Int) -> Int64? {
        relationship == InvoicesModel.invoiceClientRelationship ? clientIDs[Int(invoices[index].clientIndex)] : nil
    }
}
