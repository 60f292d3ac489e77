import ObjectContexts
import Testing

@Suite("Objects and identity")
struct ObjectTests {
    @Test("rollback restores committed values")
    func rollbackRestoresCommittedValues() throws {
        let root = PrivateContext(store: makeStore())
        try root.performAndWait { root in
            let first = try #require(root.existingObject(with: ann) as? Author)
            try first.setName("Changed")
            try first.setRating(9)
            let second = try root.existingObject(with: ben)
            try root.delete(second)
            let inserted = try root.insert(Author.self)
            try inserted.setName("Temp")
            #expect(first.isUpdated && second.isDeleted && inserted.isInserted)
            #expect(first.changedValues() == ["name": "Changed", "rating": 9])

            root.rollback()
            let stillChanged = root.hasChanges
            #expect(!stillChanged)
            #expect(first.name == "Ann" && first.rating == 0)
            #expect(!first.hasChanges && !second.isDeleted)
            #expect(root.registeredObject(for: inserted.objectID) == nil)
            #expect(try root.count(for: "Author") == 3)
        }
    }

    @Test("temporary IDs become permanent after the root saves")
    func temporaryIDsBecomePermanent() throws {
        let store = makeStore()
        let root = PrivateContext(store: store)
        let child = PrivateContext(parent: root)
        let temporary = try child.performAndWait { child in
            let author = try child.insert(Author.self)
            try author.setName("Jo")
            try child.save()
            return author.objectID
        }
        #expect(temporary.isTemporary && temporary.primaryKey == nil)
        let permanent = try root.performAndWait { root in
            let fetched = try root.fetch(Author.self) { $0.value(AuthorField.name) == "Jo" }
            let object = try #require(fetched.first)
            #expect(object.objectID == temporary)
            try root.save()
            #expect(root.registeredObject(for: temporary) == nil)
            return object.objectID
        }
        #expect(!permanent.isTemporary)
        #expect(permanent.primaryKey == 4)
        #expect(try storedValue(store, permanent, "name") == "Jo")
        try child.performAndWait { child in
            // The child adopts the permanent ID for the object it inserted.
            let adopted = try #require(child.registeredObject(for: permanent) as? Author)
            #expect(adopted.objectID == permanent)
            #expect(adopted.name == "Jo")
            #expect(child.registeredObject(for: temporary) == nil)
        }
    }

    @Test("object(with:) returns a fault or the registered object")
    func objectWithReturnsFaultOrRegistered() throws {
        let counting = CountingStore(makeStore())
        let root = PrivateContext(store: counting)
        try root.performAndWait { root in
            let reads = counting.readCount
            let fault = root.object(with: ann)
            #expect(fault.isFault)
            #expect(counting.readCount == reads)
            #expect(root.object(with: ann) === fault)
            #expect((fault as? Author)?.name == "Ann")
            #expect(!fault.isFault)
            #expect(counting.readCount == reads + 1)
            let inserted = try root.insert(Author.self)
            #expect(root.object(with: inserted.objectID) === inserted)
            #expect(!inserted.isFault)
        }
    }

    @Test("existingObject(with:) throws for a missing record")
    func existingObjectThrowsForMissingRecord() throws {
        let root = PrivateContext(store: makeStore())
        try root.performAndWait { root in
            let missing = ObjectID(entityName: "Author", primaryKey: 999)
            let error = #expect(throws: ContextError.self) { try root.existingObject(with: missing) }
            #expect(error?.code == .objectNotFound)
            #expect(error?.code.rawValue == "object_not_found")
            let found = try root.existingObject(with: ben)
            #expect(!found.isFault)
            #expect((found as? Author)?.name == "Ben")
            try root.delete(found)
            #expect(throws: ContextError.self) { try root.existingObject(with: ObjectID(entityName: "Book", primaryKey: 7)) }
        }
    }

    @Test("registeredObject(for:) returns nil without I/O")
    func registeredObjectReturnsNilWithoutIO() throws {
        let counting = CountingStore(makeStore())
        let root = PrivateContext(store: counting)
        root.performAndWait { root in
            let reads = counting.readCount
            #expect(root.registeredObject(for: ann) == nil)
            #expect(root.registeredObject(for: ObjectID(entityName: "Author", primaryKey: 999)) == nil)
            #expect(counting.readCount == reads)
            let fault = root.object(with: ann)
            #expect(root.registeredObject(for: ann) === fault)
            #expect(counting.readCount == reads)
        }
    }

    @Test("performAndWait is reentrant")
    func performAndWaitIsReentrant() async throws {
        let root = PrivateContext(store: makeStore())
        let names = try root.performAndWait { outer in
            _ = try outer.insert(Author.self).setName("Kim")
            return try root.performAndWait { inner in
                try root.performAndWait { innermost in
                    try innermost.fetch(Author.self).map(\.name).sorted()
                }
            }
        }
        #expect(names == ["Ann", "Ben", "Cid", "Kim"])
        let count = try await root.perform { context in
            try root.performAndWait { nested in try nested.count(for: "Author") }
        }
        #expect(count == 4)
    }

    @Test("a read-only context refuses each mutation (insert, update, delete, save)")
    func readOnlyContextRefusesMutations() throws {
        let store = makeStore()
        let reader = PrivateContext(store: store, readOnly: true)
        let codes = reader.performAndWait { reader -> [ContextError.Code?] in
            var codes: [ContextError.Code?] = []
            func code(_ body: () throws -> Void) -> ContextError.Code? {
                do { try body(); return nil } catch let error as ContextError { return error.code } catch { return nil }
            }
            codes.append(code { _ = try reader.insert("Author") })
            let existing = try? reader.existingObject(with: ann)
            codes.append(code { try existing?.setValue("x", forKey: "name") })
            codes.append(code { try reader.delete(existing!) })
            codes.append(code { try reader.save() })
            return codes
        }
        #expect(codes == [.readOnlyContext, .readOnlyContext, .readOnlyContext, .readOnlyContext])
        #expect(try storedValue(store, ann, "name") == "Ann")
        #expect(!reader.hasChanges)
    }

    @Test("a read-only main context refuses each mutation")
    @MainActor
    func readOnlyMainContextRefusesMutations() throws {
        let main = MainContext(store: makeStore(), readOnly: true)
        #expect(main.isReadOnly)
        #expect(throws: ContextError(.readOnlyContext, "cannot insert Author: the context is read-only")) {
            try main.insert("Author")
        }
        let author = try main.existingObject(with: ann)
        #expect((try? author.setValue("x", forKey: "name")) == nil)
        #expect((author as? Author)?.name == "Ann")
        #expect(throws: ContextError.self) { try main.delete(author) }
        #expect(throws: ContextError.self) { try main.save() }
        #expect(!main.hasChanges)
        #expect(try main.count(for: "Author") == 3)
    }

    @Test("inverse relationships stay consistent")
    func inverseRelationshipsStayConsistent() throws {
        let store = makeStore()
        let root = PrivateContext(store: store)
        try root.performAndWait { root in
            let first = try #require(root.existingObject(with: ann) as? Author)
            let second = try #require(root.existingObject(with: ben) as? Author)
            let existing = try #require(root.existingObject(with: alpha) as? Book)
            #expect(existing.author === first)
            #expect(first.books == [existing])

            let book = try root.insert(Book.self)
            try book.setTitle("Beta")
            try book.setAuthor(first)
            #expect(Set(first.books) == [existing, book])
            try book.setAuthor(second)
            #expect(first.books == [existing])
            #expect(second.books == [book])

            let third = try root.insert(Book.self)
            try third.setTitle("Gamma")
            try second.addObject(third, forKey: "books")
            #expect(third.author === second)
            #expect(Set(second.books) == [book, third])
            try second.removeObject(third, forKey: "books")
            #expect(third.author == nil)
            try root.delete(third)

            try root.delete(first)
            #expect(existing.author == nil)
            #expect(existing.isUpdated)
            try existing.setAuthor(second)
            try root.save()
        }
        #expect(try store.row(for: alpha)?.relationships == [2])
        #expect(store.rowCount(of: "Author") == 2)
        let child = PrivateContext(parent: PrivateContext(store: store))
        let titles = try child.performAndWait { child in
            try (child.existingObject(with: ben) as! Author).books.map(\.title).sorted()
        }
        #expect(titles == ["Alpha", "Beta"])
    }

    /// A to-many relationship is answered from an index of the pending rows that is made once per change of any
    /// layer (ContextStorage.overlayCache): a change in this context, or one a sibling saves into the parent, is seen
    /// at the next read, as without the index.
    @Test("to-many reads see every layer's changes after the index was made")
    func toManyReadsSeeChangesAfterTheIndexWasMade() throws {
        let store = makeStore()
        let parent = PrivateContext(store: store)
        let child = PrivateContext(parent: parent)
        try child.performAndWait { child in
            let author = try #require(child.existingObject(with: ann) as? Author)
            #expect(author.books.count == 1)
            let book = try child.insert(Book.self)
            try book.setTitle("Beta")
            try book.setAuthor(author)
            #expect(author.books.count == 2)
        }
        let sibling = PrivateContext(parent: parent)
        try sibling.performAndWait { sibling in
            let author = try #require(sibling.existingObject(with: ann) as? Author)
            let book = try sibling.insert(Book.self)
            try book.setTitle("Gamma")
            try book.setAuthor(author)
            try sibling.save()
        }
        let titles = try child.performAndWait { child in
            try (child.existingObject(with: ann) as! Author).books.map(\.title).sorted()
        }
        #expect(titles == ["Alpha", "Beta", "Gamma"])
    }
}
