import ObjectContexts
import Testing

@Suite("Did-save notifications")
struct NotificationTests {
    @Test("did-save notifications carry the change set and mergeChanges applies it")
    func didSaveCarriesChangeSetAndMergeApplies() async throws {
        let store = makeStore()
        let saver = PrivateContext(store: store)
        let other = PrivateContext(store: store)
        var firstSubscriber = saver.changes().makeAsyncIterator()
        var secondSubscriber = saver.didSave.makeAsyncIterator()
        try await other.perform { other in
            _ = try other.existingObject(with: ann).value(forKey: "name")
            _ = try other.existingObject(with: ben)
        }
        let insertedTemporary = try await saver.perform { saver in
            try (saver.existingObject(with: ann) as! Author).setName("Merged")
            try saver.delete(saver.existingObject(with: ben))
            let book = try saver.insert(Book.self)
            try book.setTitle("Delta")
            try book.setAuthor(saver.existingObject(with: cid) as? Author)
            let temporary = book.objectID
            try saver.save()
            #expect(!book.objectID.isTemporary)
            return temporary
        }
        let changeSet = try #require(await firstSubscriber.next())
        let again = try #require(await secondSubscriber.next())
        #expect(again.updatedObjectIDs == changeSet.updatedObjectIDs)
        let delta = try #require(changeSet.permanentIDs[insertedTemporary])
        #expect(changeSet.insertedObjectIDs == [delta])
        #expect(changeSet.updatedObjectIDs == [ann])
        #expect(changeSet.deleted == [ben])
        #expect(changeSet.value(forKey: "name", of: ann, in: testModel) == "Merged")
        #expect(changeSet.inserted[delta]?.relationships == [cid])

        let (name, benGone, deltaTitle, hasChanges) = await other.perform { other in
            other.mergeChanges(fromDidSave: changeSet)
            let author = other.registeredObject(for: ann) as? Author
            let book = other.registeredObject(for: delta) as? Book
            return (author?.name, other.registeredObject(for: ben) == nil, book?.title, other.hasChanges)
        }
        #expect(name == "Merged")
        #expect(benGone)
        #expect(deltaTitle == "Delta")
        #expect(!hasChanges)
    }

    @Test("a child's save notifies with the pushed changes")
    @MainActor
    func childSaveNotifies() async throws {
        let main = MainContext(store: makeStore())
        let child = MainContext(parent: main)
        var stream = child.changes().makeAsyncIterator()
        try (child.existingObject(with: cid) as! Author).setRating(3)
        try child.save()
        let changeSet = try #require(await stream.next())
        #expect(changeSet.updatedObjectIDs == [cid])
        #expect(changeSet.value(forKey: "rating", of: cid, in: main.model) == 3)
        #expect(main.hasChanges)
        #expect(main.updatedObjects.map(\.objectID) == [cid])
    }
}
