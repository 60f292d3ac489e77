import ObjectContexts
import Testing

@Suite("Bulk row enumeration")
struct RowEnumerationTests {
    @Test("bulk row enumeration reflects pending changes of the context and its ancestors")
    func enumerationReflectsPendingChanges() throws {
        let root = PrivateContext(store: makeStore())
        try root.performAndWait { root in
            try (root.existingObject(with: ann) as! Author).setRating(50)
            try root.delete(root.existingObject(with: ben))
        }
        let child = PrivateContext(parent: root)
        let newID = try child.performAndWait { child in
            try (child.existingObject(with: cid) as! Author).setRating(9)
            let author = try child.insert(Author.self)
            try author.setName("Nia")
            try author.setRating(7)
            let book = try child.insert(Book.self)
            try book.setTitle("Omega")
            try book.setAuthor(author)
            try (child.existingObject(with: alpha) as! Book).setPrice(12.5)
            return author.objectID
        }
        let grandchild = PrivateContext(parent: child)
        for context in [child, grandchild] {
            let (authors, books) = try context.performAndWait { context in
                var authors: [String: Int64] = [:]
                try context.enumerateRows(of: "Author") { row in
                    authors[row.value(AuthorField.name).textValue ?? "?"] = row.value(AuthorField.rating).integerValue
                }
                var books: [String: (Double, ObjectID?)] = [:]
                try context.enumerateRows(of: "Book") { row in
                    books[row.value(forKey: "title").textValue ?? "?"] = (row.value(BookField.price).doubleValue ?? -1,
                                                                          row.relatedObjectID(BookField.author))
                }
                return (authors, books.mapValues { "\($0.0) \($0.1?.description ?? "nil")" })
            }
            #expect(authors == ["Ann": 50, "Cid": 9, "Nia": 7])
            #expect(books == ["Alpha": "12.5 \(ann)", "Omega": "0.0 \(newID)"])
        }
        let rootView = try root.performAndWait { root in
            var names: [String] = []
            try root.enumerateRows(of: "Author") { names.append($0.value(forKey: "name").textValue ?? "?") }
            return names
        }
        #expect(rootView == ["Ann", "Cid"])
    }

    @Test("typed integer reads and the store's own snapshot follow the pending changes of the line")
    func typedReadsAndStoreSnapshot() throws {
        let root = PrivateContext(store: makeStore())
        let child = PrivateContext(parent: root)
        let before = try child.performAndWait { child in
            var ratings: [Int64?] = []
            try child.enumerateRows(of: "Author") { ratings.append($0.integer(AuthorField.rating)) }
            return (ratings, try child.storeRows(of: "Author")?.count)
        }
        #expect(before.1 == 3)
        try root.performAndWait { root in try (root.existingObject(with: ann) as! Author).setRating(77) }
        let after = try child.performAndWait { child in
            var ratings: [Int64?] = []
            try child.enumerateRows(of: "Author") { ratings.append($0.integer(AuthorField.rating)) }
            return (ratings, try child.storeRows(of: "Author") == nil, try child.storeRows(of: "Book") != nil)
        }
        #expect(after.0.contains(77) && !before.0.contains(77))
        #expect(after.0.count == before.0.count)
        // A pending change anywhere in the line hides the store's snapshot of that entity only.
        #expect(after.1 && after.2)
    }

    @Test("bulk enumeration over 2,000,000 columnar rows stays close to a plain array loop")
    func enumerationPerformance() throws {
        // Measured on the 2-core Linux dev box (Swift 6.3.1), summing one Double column of 2,000,000 rows:
        //   release (`swift test -c release`): plain [Double] loop ~1.1 ms; enumerateRows ~9.5 ms
        //     (~4.7 ns/row: one closure call + one existential call per value, no allocation, no refcounting);
        //     with one pending change (overlay path) ~11 ms.
        //   debug (`swift test`): plain loop ~30 ms; enumerateRows ~94 ms; with a pending change ~95 ms.
        // The figures of each run are printed below.
        let rowCount = 2_000_000
        let store = ColumnarInvoiceStore(rowCount: rowCount)
        let context = PrivateContext(store: store)
        let clock = ContinuousClock()

        var plainTotal = 0.0
        let plain = clock.measure {
            for index in 0..<store.amounts.count { plainTotal += store.amounts[index] }
        }
        let (enumeratedTotal, rows, enumerated) = try context.performAndWait { context in
            var total = 0.0
            var rows = 0
            let duration = try clock.measure {
                try context.enumerateRows(of: "Invoice") { row in
                    total += row.value(0).doubleValue ?? 0
                    rows += 1
                }
            }
            return (total, rows, duration)
        }
        #expect(rows == rowCount)
        #expect(enumeratedTotal == plainTotal)

        let (overlayTotal, overlayDuration) = try context.performAndWait { context in
            try context.existingObject(with: ObjectID(entityName: "Invoice", primaryKey: 1)).setValue(.double(1_000_000), at: 0)
            var total = 0.0
            let duration = try clock.measure {
                try context.enumerateRows(of: "Invoice") { total += $0.value(0).doubleValue ?? 0 }
            }
            return (total, duration)
        }
        var expectedOverlayTotal = 1_000_000.0
        for index in 1..<store.amounts.count { expectedOverlayTotal += store.amounts[index] }
        #expect(overlayTotal == expectedOverlayTotal)
        print("2M rows: plain loop \(plain), enumerateRows \(enumerated), with a pending change \(overlayDuration)")
    }
}

/// A read-only store serving invoices from compact columns, like the real SQLite-backed store.
final class ColumnarInvoiceStore: PersistentStore {
    static let model = ObjectModel(entities: [
        EntityDescription(name: "Client", attributes: [AttributeDescription(name: "name", type: .text)],
                          relationships: [RelationshipDescription(name: "invoices", destination: "Invoice", isToMany: true, inverse: "client")]),
        EntityDescription(name: "Invoice", attributes: [AttributeDescription(name: "amount", type: .double)],
                          relationships: [RelationshipDescription(name: "client", destination: "Client", inverse: "invoices")]),
    ])

    let amounts: [Double]
    let clientKeys: [Int64]
    var model: ObjectModel { Self.model }
    var isReadOnly: Bool { true }

    init(rowCount: Int) {
        var generator = SeededGenerator(state: 42)
        amounts = (0..<rowCount).map { _ in Double(generator.next() % 100_000) / 100 }
        clientKeys = (0..<rowCount).map { Int64($0 % 1000 + 1) }
    }

    func rows(of entity: String) throws -> any RowCollection {
        entity == "Invoice" ? Columns(amounts: amounts, clientKeys: clientKeys) : Columns(amounts: [], clientKeys: [])
    }

    func row(for id: ObjectID) throws -> StoredRow? {
        guard id.entityName == "Invoice", let key = id.primaryKey, key >= 1, key <= amounts.count else { return nil }
        let index = Int(key - 1)
        return StoredRow(attributes: [.double(amounts[index])], relationships: [clientKeys[index]], version: 1)
    }

    func save(_ changes: StoreChanges) throws -> [ObjectID: ObjectID] {
        throw ContextError(.readOnlyStore, "read-only test store")
    }

    final class Columns: RowCollection {
        let amounts: [Double]
        let clientKeys: [Int64]
        init(amounts: [Double], clientKeys: [Int64]) {
            self.amounts = amounts
            self.clientKeys = clientKeys
        }
        var count: Int { amounts.count }
        func primaryKey(at index: Int) -> Int64 { Int64(index + 1) }
        func version(at index: Int) -> Int64 { 1 }
        func value(attribute: Int, at index: Int) -> Value { .double(amounts[index]) }
        func relatedPrimaryKey(relationship: Int, at index: Int) -> Int64? { clientKeys[index] }
    }
}
