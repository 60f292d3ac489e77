@testable import InvoicesSite
import InvoicesStore
import Testing

/// Content-defined pages (issues 30 and 42): bounded above and below, complete, in order, and stable when rows come
/// and go. The properties run over many random lists and edits from a fixed seed.
struct PaginationTests {
    static func keys(_ count: Int, prefix: String = "INV-") -> [String] { (0..<count).map { prefix + String($0) } }

    static func pages(_ keys: [String], _ pageSize: Int) -> [Range<Int>] {
        Pagination.pages(count: keys.count, pageSize: pageSize) { keys[$0] }
    }

    /// Random keys shaped like invoice identifiers, none twice.
    static func randomKeys(_ count: Int, _ random: inout SplitMix64) -> [String] {
        (0..<count).map { index in "INV-\(random.next() % 1_000_000)-\(index)" }
    }

    /// Page sizes from 1 to 200: small ones have quarter-page floors of one row, `10` is the demo's `--page-size`.
    static let pageSizes = [1, 2, 3, 5, 8, 10, 16, 40, 100, 200]

    @Test(arguments: [1, 10, 100])
    func everyRowIsOnExactlyOnePageInOrderAndNoPageIsOverTwiceTheSizeOrUnderAQuarter(pageSize: Int) {
        let keys = Self.keys(5_000)
        let pages = Self.pages(keys, pageSize)
        #expect(pages.first?.lowerBound == 0 && pages.last?.upperBound == keys.count)
        #expect(zip(pages, pages.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound }, "contiguous: each row once, in order")
        #expect(pages.allSatisfy { !$0.isEmpty && $0.count <= 2 * pageSize })
        #expect(pages.dropLast().allSatisfy { 4 * $0.count >= pageSize }, "\(pages.filter { 4 * $0.count < pageSize }.count) pages under a quarter")
        if pageSize == 100 {
            // About `pageSize` rows a page on average.
            #expect((25...75).contains(pages.count), "\(pages.count) pages")
        }
    }

    @Test func aShortListIsOnePage() {
        #expect(Pagination.pages(count: 0, pageSize: 10) { _ in "" } == [0..<0])
        #expect(Pagination.pages(count: 10, pageSize: 10) { _ in "" } == [0..<10])
    }

    /// The floor, over 2,000 random lists of up to 3,000 rows: no page but the last holds fewer than a quarter of the
    /// page size, none holds more than twice it, and the pages hold every row once, in order.
    @Test func noPageButTheLastIsUnderAQuarterOfThePageSizeOrOverTwiceIt() {
        var random = SplitMix64(seed: 42)
        for _ in 0..<2_000 {
            let pageSize = Self.pageSizes[Int(random.next() % UInt64(Self.pageSizes.count))]
            let keys = Self.randomKeys(Int(random.next() % 3_000), &random)
            let pages = Self.pages(keys, pageSize)
            #expect(pages.first?.lowerBound == 0 && pages.last?.upperBound == keys.count)
            #expect(zip(pages, pages.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
            #expect(pages.allSatisfy { $0.count <= 2 * pageSize })
            let small = pages.dropLast().filter { 4 * $0.count < pageSize }
            #expect(small.isEmpty, "page size \(pageSize), \(keys.count) rows: pages of \(small.map(\.count)) rows")
            if small.count > 0 { return }
        }
    }

    /// The guarantee, over 4,000 random lists and edits (an insert or a deletion at a random place): the pages
    /// before the last content-defined end before the edit, and after the first one a quarter page past it, are
    /// kept exactly; when neither the edit's page nor the next is cut by count, only those two pages change.
    @Test func anInsertOrADeletionChangesOnlyItsOwnPageAndTheNext() {
        var random = SplitMix64(seed: 7)
        var twoPageCases = 0
        var changedNext = 0
        for _ in 0..<4_000 {
            let pageSize = Self.pageSizes[Int(random.next() % UInt64(Self.pageSizes.count))]
            // More than a page before and after the edit: a list of one page is one page whatever its keys.
            let keys = Self.randomKeys(pageSize + 2 + Int(random.next() % UInt64(12 * pageSize)), &random)
            var edited = keys
            let x = Int(random.next() % UInt64(keys.count))
            let inserting = random.next() % 2 == 0
            if inserting { edited.insert("NEW-\(random.next())", at: x) } else { edited.remove(at: x) }
            let before = Self.pages(keys, pageSize).map { Array(keys[$0]) }
            let after = Self.pages(edited, pageSize).map { Array(edited[$0]) }
            // The last content-defined end before the edit (old rows), and the first a quarter page after it.
            let ends = Pagination.contentDefinedEnds(count: keys.count, pageSize: pageSize) { keys[$0] }
            let floor = Pagination.floor(pageSize: pageSize)
            let first = ends.last { $0 < x }.map { $0 + 1 } ?? 0
            let last = ends.first { $0 >= x + floor }.map { $0 + 1 } ?? keys.count
            var row = 0
            let keptBefore = before.prefix { page in
                row += page.count
                return row <= first
            }.count
            row = keys.count
            let keptAfter = before.reversed().prefix { page in
                row -= page.count
                return row >= last
            }.count
            let what = "\(inserting ? "insert" : "deletion") at \(x) of \(keys.count) rows, page size \(pageSize)"
            #expect(Array(after.prefix(keptBefore)) == Array(before.prefix(keptBefore)), "\(what): a page before it changed")
            #expect(Array(after.suffix(keptAfter)) == Array(before.suffix(keptAfter)), "\(what): a page after it changed")
            // Its own page: the old page holding the deleted row, or the row the new one went before.
            var own = 0
            row = before[0].count
            while row <= min(x, keys.count - 1) {
                own += 1
                row += before[own].count
            }
            let contentDefined = Set(ends).union([keys.count - 1])
            // Both the edit's page and the next are whole stretches between content-defined ends (or the list's end).
            let start = own == 0 ? -1 : before[..<own].reduce(0) { $0 + $1.count } - 1
            let whole = (start == -1 || contentDefined.contains(start)) && (own..<min(own + 2, before.count)).allSatisfy { index in
                contentDefined.contains(before[...index].reduce(0) { $0 + $1.count } - 1)
            }
            guard whole else { continue }
            twoPageCases += 1
            let later = max(0, before.count - own - 2)
            #expect(Array(after.prefix(own)) == Array(before.prefix(own)), "\(what): a page before its own changed")
            #expect(Array(after.suffix(later)) == Array(before.suffix(later)), "\(what): a page after the next changed")
            if own + 1 < before.count, !after.contains(before[own + 1]) { changedNext += 1 }
        }
        // Most edits fall between content-defined ends; some of them change the next page too.
        #expect(twoPageCases > 2_000, "\(twoPageCases)")
        #expect(changedNext > 0, "\(changedNext)")
    }

    /// Rows added after the last one (new invoices) change only the last page; the pages before it stay.
    @Test func rowsAddedAtTheEndChangeOnlyTheLastPage() {
        var random = SplitMix64(seed: 11)
        for _ in 0..<1_000 {
            let pageSize = Self.pageSizes[Int(random.next() % UInt64(Self.pageSizes.count))]
            var keys = Self.randomKeys(pageSize + 1 + Int(random.next() % UInt64(20 * pageSize)), &random)
            let before = Self.pages(keys, pageSize).map { Array(keys[$0]) }
            keys.append("NEW-\(random.next())")
            let after = Self.pages(keys, pageSize).map { Array(keys[$0]) }
            #expect(Array(after.prefix(before.count - 1)) == Array(before.dropLast()), "page size \(pageSize), \(keys.count) rows")
        }
    }
}
