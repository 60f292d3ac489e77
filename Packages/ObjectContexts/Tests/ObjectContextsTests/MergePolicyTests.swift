import ObjectContexts
import Testing

/// The same conflict for every policy: the parent holds Ann (name "Ann", note "orig", rating 0).
/// Sibling A changes name -> "A" and rating -> 1 and saves first; sibling B then changes
/// name -> "B" and note -> "B" and saves with `policy`.
private func conflict(_ policy: MergePolicy) throws -> (parent: [Value], b: [Value], bHasChanges: Bool, error: (any Error)?) {
    let root = PrivateContext(store: makeStore())
    let first = PrivateContext(parent: root)
    let second = PrivateContext(parent: root)
    try first.performAndWait { _ = try $0.existingObject(with: ann) }
    try second.performAndWait { _ = try $0.existingObject(with: ann) }
    try first.performAndWait { first in
        let author = first.object(with: ann) as! Author
        try author.setName("A")
        try author.setRating(1)
        try first.save()
    }
    let (bValues, thrown) = try second.performAndWait { second -> ([Value], (any Error)?) in
        second.mergePolicy = policy
        let author = second.object(with: ann) as! Author
        try author.setName("B")
        try author.setNote("B")
        var thrown: (any Error)?
        do { try second.save() } catch { thrown = error }
        return ([author.value(forKey: "name"), author.value(forKey: "note"), author.value(forKey: "rating")], thrown)
    }
    let parentValues = try root.performAndWait { root -> [Value] in
        let author = try root.existingObject(with: ann)
        return [author.value(forKey: "name"), author.value(forKey: "note"), author.value(forKey: "rating")]
    }
    return (parentValues, bValues, second.hasChanges, thrown)
}

@Suite("Merge policies")
struct MergePolicyTests {
    @Test("merge policy error throws with the conflicting IDs and pushes nothing")
    func errorPolicy() throws {
        let result = try conflict(.error)
        let error = try #require(result.error as? MergeConflictError)
        #expect(error.objectIDs == [ann])
        #expect(result.parent == ["A", "orig", 1])
        #expect(result.b == ["B", "B", 0])
        #expect(result.bHasChanges)
    }

    @Test("merge policy objectTrump: properties changed here win, others come from the parent")
    func objectTrumpPolicy() throws {
        let result = try conflict(.objectTrump)
        #expect(result.error == nil)
        #expect(result.parent == ["B", "B", 1])
        #expect(result.b == ["B", "B", 1])
        #expect(!result.bHasChanges)
    }

    @Test("merge policy storeTrump: the other side wins conflicting properties, our other changes apply")
    func storeTrumpPolicy() throws {
        let result = try conflict(.storeTrump)
        #expect(result.error == nil)
        #expect(result.parent == ["A", "B", 1])
        #expect(result.b == ["A", "B", 1])
    }

    @Test("merge policy overwrite: this context's whole object state wins")
    func overwritePolicy() throws {
        let result = try conflict(.overwrite)
        #expect(result.error == nil)
        #expect(result.parent == ["B", "B", 0])
        #expect(result.b == ["B", "B", 0])
    }

    @Test("merge policy rollback: this context's changes to conflicting objects are discarded")
    func rollbackPolicy() throws {
        let result = try conflict(.rollback)
        #expect(result.error == nil)
        #expect(result.parent == ["A", "orig", 1])
        #expect(result.b == ["A", "orig", 1])
        #expect(!result.bHasChanges)
    }

    @Test("a root save detects store version conflicts")
    func rootDetectsStoreVersionConflicts() throws {
        let store = makeStore()
        let first = PrivateContext(store: store)
        let second = PrivateContext(store: store)
        try second.performAndWait { _ = try $0.existingObject(with: ann) }
        try first.performAndWait { first in
            try (first.existingObject(with: ann) as! Author).setRating(5)
            try first.save()
        }
        #expect(try store.row(for: ann)?.version == 2)
        try second.performAndWait { second in
            let author = second.object(with: ann) as! Author
            try author.setName("Second")
            let error = #expect(throws: MergeConflictError.self) { try second.save() }
            #expect(error?.objectIDs == [ann])
            second.mergePolicy = .objectTrump
            try second.save()
            #expect(author.rating == 5)
        }
        #expect(try storedValue(store, ann, "name") == "Second")
        #expect(try storedValue(store, ann, "rating") == 5)
        #expect(try store.row(for: ann)?.version == 3)
    }
}
