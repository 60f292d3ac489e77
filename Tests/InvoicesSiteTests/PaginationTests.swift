@testable import InvoicesSite
import Testing

/// Content-defined pages (issue 30): bounded, complete, in order, and stable when rows come and go.
struct PaginationTests {
    static func keys(_ count: Int, prefix: String = "INV-") -> [String] { (0..<count).map { prefix + String($0) } }

    @Test(arguments: [1, 10, 100])
    func everyRowIsOnExactlyOnePageInOrderAndNoPageIsOverTwiceTheSize(pageSize: Int) {
        let keys = Self.keys(5_000)
        let pages = Pagination.pages(count: keys.count, pageSize: pageSize) { keys[$0] }
        #expect(pages.first?.lowerBound == 0 && pages.last?.upperBound == keys.count)
        #expect(zip(pages, pages.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound }, "contiguous: each row once, in order")
        #expect(pages.allSatisfy { !$0.isEmpty && $0.count <= 2 * pageSize })
        if pageSize == 100 {
            // About `pageSize` rows a page on average.
            #expect((25...75).contains(pages.count), "\(pages.count) pages")
        }
    }

    @Test func aShortListIsOnePage() {
        #expect(Pagination.pages(count: 0, pageSize: 10) { _ in "" } == [0..<0])
        #expect(Pagination.pages(count: 10, pageSize: 10) { _ in "" } == [0..<10])
    }

    /// A row added in the middle changes the page it lands on; every other page keeps exactly its rows.
    @Test func aRowAddedInTheMiddleChangesOnlyItsPage() {
        let keys = Self.keys(3_000)
        func pageKeys(_ keys: [String]) -> [[String]] {
            Pagination.pages(count: keys.count, pageSize: 50) { keys[$0] }.map { Array(keys[$0]) }
        }
        let before = pageKeys(keys)
        var moved = 0
        for added in ["INV-1500-a", "INV-700-b", "INV-2999-c"] {
            var changed = keys
            let position = changed.firstIndex(of: String(added.dropLast(2)))! + 1
            changed.insert(added, at: position)
            let after = pageKeys(changed)
            let kept = Set(before.map { $0.joined(separator: ",") }).intersection(after.map { $0.joined(separator: ",") })
            // At most the page it joined changes (two pages when the new row is itself a boundary and splits it).
            #expect(before.count - kept.count <= 1, "\(added): \(before.count - kept.count) pages changed")
            #expect(after.flatMap { $0 } == changed)
            moved += before.count - kept.count
        }
        #expect(moved >= 1)
    }
}
