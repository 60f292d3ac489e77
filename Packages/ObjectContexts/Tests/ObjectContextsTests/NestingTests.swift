import ObjectContexts
import Testing

@Suite("Nested contexts")
struct NestingTests {
    @Test("save pushes one level up and not to the store")
    func savePushesOneLevelUp() throws {
        let store = makeStore()
        let root = PrivateContext(store: store)
        let child = PrivateContext(parent: root)
        try child.performAndWait { child in
            let author = try child.insert(Author.self)
            try author.setName("Dee")
            try child.save()
            #expect(!child.hasChanges)
        }
        #expect(root.hasChanges)
        #expect(try root.performAndWait { try $0.count(for: "Author") } == 4)
        #expect(try root.performAndWait { root in try root.fetch(Author.self).map(\.name) }.contains("Dee"))
        #expect(store.rowCount(of: "Author") == 3)
    }

    @Test("the store changes only when the root saves")
    func storeChangesOnlyOnRootSave() throws {
        let store = makeStore()
        let root = PrivateContext(store: store)
        let middle = PrivateContext(parent: root)
        let leaf = PrivateContext(parent: middle)
        try leaf.performAndWait { leaf in
            try (leaf.existingObject(with: ann) as! Author).setName("Ann 2")
            try leaf.save()
        }
        #expect(try storedValue(store, ann, "name") == "Ann")
        try middle.performAndWait { try $0.save() }
        #expect(try storedValue(store, ann, "name") == "Ann")
        #expect(root.hasChanges)
        try root.performAndWait { try $0.save() }
        #expect(try storedValue(store, ann, "name") == "Ann 2")
        #expect(!root.hasChanges)
    }

    @Test("a parent's later save is not pushed down into an existing child")
    func parentSaveNotPushedDown() throws {
        let store = makeStore()
        let root = PrivateContext(store: store)
        let child = PrivateContext(parent: root)
        #expect(try child.performAndWait { try ($0.existingObject(with: ann) as! Author).name } == "Ann")
        try root.performAndWait { root in
            try (root.existingObject(with: ann) as! Author).setName("Annie")
            _ = try root.insert(Author.self).setName("Eve")
            try root.save()
        }
        #expect(try storedValue(store, ann, "name") == "Annie")
        try child.performAndWait { child in
            let registered = try #require(child.registeredObject(for: ann) as? Author)
            #expect(registered.name == "Ann")
            #expect(!child.hasChanges)
        }
    }

    @Test("siblings do not see each other's changes until they fetch again")
    func siblingsIsolatedUntilRefetch() throws {
        let root = PrivateContext(store: makeStore())
        let first = PrivateContext(parent: root)
        let second = PrivateContext(parent: root)
        #expect(try second.performAndWait { try ($0.existingObject(with: ann) as! Author).name } == "Ann")
        try first.performAndWait { first in
            try (first.existingObject(with: ann) as! Author).setName("Zed")
            try first.save()
        }
        try second.performAndWait { second in
            let registered = try #require(second.registeredObject(for: ann) as? Author)
            #expect(registered.name == "Ann")
            let fetched = try second.fetch(Author.self) { $0.objectID == ann }
            #expect(fetched.count == 1)
            #expect(fetched.first === registered)
            #expect(registered.name == "Zed")
        }
    }

    @Test("a child fetch sees the parent's unsaved inserts")
    func childSeesParentInserts() throws {
        let root = PrivateContext(store: makeStore())
        let insertedID = try root.performAndWait { root in
            let author = try root.insert(Author.self)
            try author.setName("Fay")
            try author.setRating(4)
            return author.objectID
        }
        let child = PrivateContext(parent: root)
        try child.performAndWait { child in
            let found = try child.fetch(Author.self) { $0.value(AuthorField.name) == "Fay" }
            #expect(found.count == 1)
            #expect(found.first?.objectID == insertedID)
            #expect(found.first?.rating == 4)
            #expect(try child.count(for: "Author") == 4)
            #expect(!child.hasChanges)
        }
    }

    @Test("discarding a child leaves the parent clean")
    func discardingChildLeavesParentClean() throws {
        let root = PrivateContext(store: makeStore())
        var child: PrivateContext? = PrivateContext(parent: root)
        try child?.performAndWait { child in
            _ = try child.insert(Author.self).setName("Gus")
            try (child.existingObject(with: ann) as! Author).setName("changed")
        }
        child = nil
        let rolledBack = PrivateContext(parent: root)
        try rolledBack.performAndWait { child in
            try child.delete(child.existingObject(with: ben))
            _ = try child.insert(Author.self).setName("Hal")
            child.rollback()
            #expect(!child.hasChanges)
        }
        #expect(!root.hasChanges)
        let (count, name) = try root.performAndWait { root in
            (try root.count(for: "Author"), try (root.existingObject(with: ann) as! Author).name)
        }
        #expect(count == 3)
        #expect(name == "Ann")
    }

    @Test("every context of a line reports the store at its root")
    @MainActor
    func everyContextReportsTheRootsStore() {
        let store = makeStore(), other = makeStore()
        let main = MainContext(store: store)
        let child = PrivateContext(parent: main)
        let grandchild = PrivateContext(parent: child)
        #expect(main.persistentStore === store && child.persistentStore === store && grandchild.persistentStore === store)
        #expect(PrivateContext(store: other).persistentStore === other)
    }

    @Test("the main actor can await and block on a child without deadlock")
    @MainActor
    func mainActorAwaitsChild() async throws {
        let main = MainContext(store: makeStore())
        let child = PrivateContext(parent: main)
        try await child.perform { child in
            _ = try child.insert(Author.self).setName("Ivy")
            try child.save()
        }
        #expect(main.hasChanges)
        try child.performAndWait { child in
            try (child.existingObject(with: ben) as! Author).setName("Benny")
            try child.save()
        }
        let names = try main.fetch(Author.self).map(\.name).sorted()
        #expect(names == ["Ann", "Benny", "Cid", "Ivy"])
        try main.save()
        #expect(!main.hasChanges)
    }
}
