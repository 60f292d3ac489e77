/// How a long list is cut into pages of a bounded size, on boundaries that stay put when rows come and go.
///
/// A page ends after a row whose key hashes to a multiple of the page size (content-defined boundaries, as rsync and
/// backup tools cut files into chunks), or when it reaches twice the page size. So pages hold `pageSize` rows on
/// average and at most twice that, and a row added, changed or removed changes the page it is on: the other pages
/// keep their rows (unless the new row is itself a boundary, which splits its page in two, once in `pageSize`
/// additions). Rows added after the last one (the usual case: new invoices) only ever touch the last pages.
public enum Pagination {
    /// The default rows per page (`page_size`): about 250 bytes of HTML a row, so a page of twice the size stays near
    /// half a megabyte.
    public static let defaultPageSize = 1_000

    /// The rows of each page, in order; one page (possibly empty) when `count` fits in one page.
    static func pages(count: Int, pageSize: Int, key: (Int) -> String) -> [Range<Int>] {
        guard count > pageSize, pageSize > 0 else { return [0..<count] }
        let limit = 2 * pageSize
        var pages: [Range<Int>] = []
        var start = 0
        for row in 0..<count {
            var fingerprint = Fingerprint()
            fingerprint.add(key(row))
            if fingerprint.value % UInt64(pageSize) == 0 || row + 1 - start >= limit {
                pages.append(start..<(row + 1))
                start = row + 1
            }
        }
        if start < count { pages.append(start..<count) }
        return pages
    }

    /// Whether lists of `counts` rows go to pages of their own: when together they are more than a page. A page
    /// holding several lists (a quarter's taxes, a month's currencies) stays under one page's rows either way.
    static func isPaged(_ counts: [Int], pageSize: Int) -> Bool { counts.reduce(0, +) > pageSize }
}
