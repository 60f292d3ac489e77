import Foundation
import ObjectContexts

/// Test entity: an author with books (to-many, inverse of Book.author).
final class Author: ManagedObject {
    var name: String { value(forKey: "name").textValue ?? "" }
    var note: String? { value(forKey: "note").textValue }
    var rating: Int64 { value(forKey: "rating").integerValue ?? 0 }
    var books: [Book] { objects(forKey: "books").compactMap { $0 as? Book } }

    func setName(_ name: String) throws { try setValue(.text(name), forKey: "name") }
    func setNote(_ note: String) throws { try setValue(.text(note), forKey: "note") }
    func setRating(_ rating: Int64) throws { try setValue(.integer(rating), forKey: "rating") }
}

/// Test entity: a book with a required author and a non-negative price (checked by `validateForSave`).
final class Book: ManagedObject {
    var title: String { value(forKey: "title").textValue ?? "" }
    var price: Double { value(forKey: "price").doubleValue ?? 0 }
    var author: Author? { object(forKey: "author") as? Author }

    func setTitle(_ title: String) throws { try setValue(.text(title), forKey: "title") }
    func setPrice(_ price: Double) throws { try setValue(.double(price), forKey: "price") }
    func setAuthor(_ author: Author?) throws { try setObject(author, forKey: "author") }

    override func validateForSave() -> [ValidationFailure] {
        price < 0 ? [validationFailure("price", "price must not be negative")] : []
    }
}

enum AuthorField {
    static let name = 0, note = 1, rating = 2, email = 3
}

enum BookField {
    static let title = 0, price = 1
    static let author = 0
}

let testModel = ObjectModel(entities: [
    EntityDescription(
        name: "Author",
        attributes: [
            AttributeDescription(name: "name", type: .text),
            AttributeDescription(name: "note", type: .text, isOptional: true),
            AttributeDescription(name: "rating", type: .integer, defaultValue: 0),
            AttributeDescription(name: "email", type: .text, isOptional: true),
        ],
        relationships: [RelationshipDescription(name: "books", destination: "Book", isToMany: true, inverse: "author")],
        objectClass: Author.self,
        uniqueAttributes: [["email"]]
    ),
    EntityDescription(
        name: "Book",
        attributes: [
            AttributeDescription(name: "title", type: .text),
            AttributeDescription(name: "price", type: .double, defaultValue: 0.0),
        ],
        relationships: [RelationshipDescription(name: "author", destination: "Author", inverse: "books", isOptional: false)],
        objectClass: Book.self
    ),
])

/// A store with authors Ann (p1), Ben (p2), Cid (p3); Ann has one book "Alpha" (p1).
func makeStore() -> InMemoryStore {
    let store = InMemoryStore(model: testModel)
    store.seed("Author", attributes: ["Ann", "orig", 0, "ann@example.com"])
    store.seed("Author", attributes: ["Ben", "orig", 0, "ben@example.com"])
    store.seed("Author", attributes: ["Cid", "orig", 0, .null])
    store.seed("Book", attributes: ["Alpha", 10.0], relationships: [1])
    return store
}

let ann = ObjectID(entityName: "Author", primaryKey: 1)
let ben = ObjectID(entityName: "Author", primaryKey: 2)
let cid = ObjectID(entityName: "Author", primaryKey: 3)
let alpha = ObjectID(entityName: "Book", primaryKey: 1)

/// The stored attribute `key` of `id`, read straight from the store.
func storedValue(_ store: InMemoryStore, _ id: ObjectID, _ key: String) throws -> Value? {
    guard let row = try store.row(for: id),
          let index = testModel.entity(named: id.entityName)?.attributeIndex(named: key) else { return nil }
    return row.attributes[index]
}

/// Wraps a store and counts reads, to prove that an operation does no I/O.
final class CountingStore: PersistentStore, @unchecked Sendable {
    // Safe: `reads` is only touched while holding `lock`; `base` is thread-safe.
    let base: InMemoryStore
    private let lock = NSLock()
    private var reads = 0

    init(_ base: InMemoryStore) { self.base = base }

    var readCount: Int { lock.lock(); defer { lock.unlock() }; return reads }
    private func countRead() { lock.lock(); reads += 1; lock.unlock() }

    var model: ObjectModel { base.model }
    var isReadOnly: Bool { base.isReadOnly }
    func rows(of entity: String) throws -> any RowCollection { countRead(); return try base.rows(of: entity) }
    func row(for id: ObjectID) throws -> StoredRow? { countRead(); return try base.row(for: id) }
    func save(_ changes: StoreChanges) throws -> [ObjectID: ObjectID] { try base.save(changes) }
}

/// Deterministic pseudo-random numbers (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
