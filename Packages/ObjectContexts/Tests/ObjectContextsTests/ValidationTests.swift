import ObjectContexts
import Testing

@Suite("Validation")
struct ValidationTests {
    @Test("validation errors name every failing object and field")
    func validationErrorsNameEveryFailure() throws {
        let store = makeStore()
        let root = PrivateContext(store: store)
        let (failures, authorID, bookID) = try root.performAndWait { root in
            let author = try root.insert(Author.self)
            try author.setValue("ben@example.com", forKey: "email")
            let book = try root.insert(Book.self)
            try book.setPrice(-5)
            let error = #expect(throws: ValidationError.self) { try root.save() }
            return (error?.failures ?? [], author.objectID, book.objectID)
        }
        let found = Set(failures.map { "\($0.objectID)|\($0.field ?? "-")|\($0.code.rawValue)" })
        #expect(found == [
            "\(authorID)|name|missing_value",
            "\(authorID)|email|not_unique",
            "\(bookID)|title|missing_value",
            "\(bookID)|author|missing_value",
            "\(bookID)|price|invalid_value",
        ])
        #expect(store.rowCount(of: "Author") == 3)
        #expect(root.hasChanges)
    }

    @Test("a child that fails validation pushes nothing")
    func failingChildPushesNothing() throws {
        let root = PrivateContext(store: makeStore())
        let child = PrivateContext(parent: root)
        try child.performAndWait { child in
            try (child.existingObject(with: ann) as! Author).setName("Valid change")
            let book = try child.insert(Book.self)
            try book.setTitle("No author")
            #expect(throws: ValidationError.self) { try child.save() }
        }
        #expect(child.hasChanges)
        #expect(!root.hasChanges)
        let name = try root.performAndWait { try ($0.existingObject(with: ann) as! Author).name }
        #expect(name == "Ann")
    }

    @Test("uniqueness is checked against the parent's rows and the pending changes")
    func uniquenessAgainstParentAndPending() throws {
        let root = PrivateContext(store: makeStore())
        try root.performAndWait { root in
            let author = try root.insert(Author.self)
            try author.setName("Lee")
            try author.setValue("lee@example.com", forKey: "email")
        }
        let child = PrivateContext(parent: root)
        let failures = try child.performAndWait { child in
            let twin = try child.insert(Author.self)
            try twin.setName("Lee twin")
            try twin.setValue("lee@example.com", forKey: "email")
            let error = #expect(throws: ValidationError.self) { try child.save() }
            // Freeing the address in the same save makes it valid: Ann gives up hers, the new object takes it.
            try twin.setValue("x@example.com", forKey: "email")
            try (child.existingObject(with: ann) as! Author).setValue(.null, forKey: "email")
            let newcomer = try child.insert(Author.self)
            try newcomer.setName("New Ann")
            try newcomer.setValue("ann@example.com", forKey: "email")
            try child.save()
            return error?.failures ?? []
        }
        #expect(failures.count == 1)
        #expect(failures.first?.code == .notUnique)
        #expect(failures.first?.field == "email")
    }
}
