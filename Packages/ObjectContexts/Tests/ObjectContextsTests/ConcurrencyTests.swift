import ObjectContexts
import Testing

@Suite("Concurrency")
struct ConcurrencyTests {
    @Test("many concurrent child contexts saving into one parent lose no change")
    func concurrentChildrenLoseNoChange() async throws {
        let store = InMemoryStore(model: testModel)
        let childCount = 16, booksPerChild = 25
        var authorIDs: [ObjectID] = []
        for index in 0..<childCount {
            authorIDs.append(store.seed("Author", attributes: [.text("Author \(index)"), .null, 0, .null]))
        }
        let parent = PrivateContext(store: store)
        // Expected values, from the same seeds the children use.
        var expectedTotal = 0.0
        for index in 0..<childCount {
            var generator = SeededGenerator(state: UInt64(index))
            for _ in 0..<booksPerChild { expectedTotal += Double(generator.next() % 10_000) / 100 }
        }
        let authors = authorIDs
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<childCount {
                group.addTask {
                    let child = PrivateContext(parent: parent, name: "child-\(index)")
                    try await child.perform { child in
                        var generator = SeededGenerator(state: UInt64(index))
                        let author = try #require(child.existingObject(with: authors[index]) as? Author)
                        for number in 0..<booksPerChild {
                            let book = try child.insert(Book.self)
                            try book.setTitle("c\(index)-b\(number)")
                            try book.setPrice(Double(generator.next() % 10_000) / 100)
                            try book.setAuthor(author)
                        }
                        try author.setRating(Int64(index * 100 + booksPerChild))
                        try author.setNote("child \(index)")
                        try child.save()
                    }
                }
            }
            try await group.waitForAll()
        }
        try await parent.perform { parent in
            #expect(try parent.count(for: "Book") == childCount * booksPerChild)
            try parent.save()
        }
        #expect(store.rowCount(of: "Book") == childCount * booksPerChild)
        let check = PrivateContext(store: store)
        let (total, ratings, counts) = try await check.perform { check in
            var total = 0.0
            var counts: [Int64: Int] = [:]
            try check.enumerateRows(of: "Book") { row in
                total += row.value(BookField.price).doubleValue ?? 0
                counts[row.relatedPrimaryKey(BookField.author) ?? -1, default: 0] += 1
            }
            var ratings: [Int64] = []
            try check.enumerateRows(of: "Author") { ratings.append($0.value(AuthorField.rating).integerValue ?? -1) }
            return (total, ratings, counts)
        }
        #expect(abs(total - expectedTotal) < 1e-6)
        #expect(ratings == (0..<childCount).map { Int64($0 * 100 + booksPerChild) })
        #expect(counts == Dictionary(uniqueKeysWithValues: authorIDs.map { ($0.primaryKey!, booksPerChild) }))
    }
}
