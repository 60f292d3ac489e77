/// How a long list is cut into pages of a bounded size, on boundaries that stay put when rows come and go.
///
/// A row is an *anchor* when its key hashes to a multiple of the page size (content-defined boundaries, as rsync and
/// backup tools cut files into chunks). A page ends after an anchor that has no other anchor among the quarter page
/// of rows before it (and at least a quarter page from the list's start): whether a row ends a page depends on that
/// row and the quarter page before it, nothing else. So no page holds fewer than a quarter of the page size (the
/// floor; FastCDC keeps a minimum chunk size for the same reason), except the last. A stretch between two such
/// ends that is longer than twice the page size is cut by count: pages of twice the page size less the floor from
/// its start, the last of them taking the rest (more than the floor, at most twice the page size). Pages hold
/// about `pageSize` rows on average and at most twice that.
///
/// The guarantee: an insert or a deletion changes only the pages between the last content-defined end before it
/// and the first one at least a quarter page after it. That is its own page and at most the next, unless a stretch
/// there is cut by count (then any page of that stretch may change). Rows added after the last one (the usual case:
/// new invoices) change only the last page. `PaginationTests` checks all three over random lists and edits.
public enum Pagination {
    /// The default rows per page (`page_size`): about 250 bytes of HTML a row, so a page of twice the size stays near
    /// half a megabyte.
    public static let defaultPageSize = 1_000

    /// The fewest rows a page holds, except the last: a quarter of `pageSize`, rounded up.
    static func floor(pageSize: Int) -> Int { (pageSize + 3) / 4 }

    /// The rows of each page, in order; one page (possibly empty) when `count` fits in one page.
    static func pages(count: Int, pageSize: Int, key: (Int) -> String) -> [Range<Int>] {
        guard count > pageSize, pageSize > 0 else { return [0..<count] }
        // A stretch over twice the page size: pages of twice the page size less the floor while more than twice the
        // page size remains, so the rest keeps more than the floor whatever the stretch's length.
        let piece = 2 * pageSize - floor(pageSize: pageSize)
        var pages: [Range<Int>] = []
        var start = 0
        for end in contentDefinedEnds(count: count, pageSize: pageSize, key: key) + [count - 1] where end >= start {
            while end + 1 - start > 2 * pageSize {
                pages.append(start..<(start + piece))
                start += piece
            }
            pages.append(start..<(end + 1))
            start = end + 1
        }
        return pages
    }

    /// The rows that end a page because of their key (``pages(count:pageSize:key:)``), in order: anchors with no
    /// other anchor among the `floor - 1` rows before them, at least `floor - 1` rows from the start.
    static func contentDefinedEnds(count: Int, pageSize: Int, key: (Int) -> String) -> [Int] {
        guard pageSize > 0 else { return [] }
        let floor = floor(pageSize: pageSize)
        var ends: [Int] = []
        var lastAnchor = Int.min / 2
        for row in 0..<count {
            var fingerprint = Fingerprint()
            fingerprint.add(key(row))
            guard fingerprint.value % UInt64(pageSize) == 0 else { continue }
            if row - lastAnchor >= floor, row + 1 >= floor { ends.append(row) }
            lastAnchor = row
        }
        return ends
    }

    /// Whether lists of `counts` rows go to pages of their own: when together they are more than a page. A page
    /// holding several lists (a quarter's taxes, a month's currencies) stays under one page's rows either way.
    static func isPaged(_ counts: [Int], pageSize: Int) -> Bool { counts.reduce(0, +) > pageSize }
}
