import Foundation
internal import InvoicesCore
internal import InvoicesReport

/// With a base URL: the Atom feed (`feed.xml`) and `sitemap.xml`, which list the pages by their addresses.
struct AddressFiles: SiteWidePageKind {
    let site: SiteView
    var key: String { "addresses" }
    /// Everything, and the words (the feed's summaries; among the assets' fingerprint, ``TranslationTables/fingerprintName``).
    func inputs(_ inputs: SiteBuilder.Inputs) -> UInt64 { fingerprint(inputs.all ^ templates.assetsFingerprint, templates: []) }
}

extension AddressFiles {
    static let rootNames = [SitePaths.feed, SitePaths.sitemap]
}

extension AddressFiles {
    /// With a base URL: the Atom feed (`feed.xml`, one entry per monthly report) and `sitemap.xml`.
    ///
    /// Both are deterministic: an entry's `updated` date is the latest day in its month on which an invoice was
    /// issued or paid (the month's first day when nothing happened), never the time of the build. A report without
    /// months (an empty store) has no feed: Atom needs an `updated` date, and there is none to give.
    func files() -> [File] {
        guard let baseURL = options.baseURL else { return [] }
        let updated = monthUpdates()
        let sitemap = sitemapFile(baseURL: baseURL)
        guard let latest = updated.max() else { return [sitemap] }
        let title = SiteBuilder.xml(options.title)
        // The feed's words are in the report's language (`feed.summary`, `feed.nothing`), named by `xml:lang` when it
        // is not English (an English feed stays as it was, without it).
        let tag = site.language.tag
        let lang = tag.isEnglish ? "" : " xml:lang=\"\(SiteBuilder.xml(tag.text))\""
        var feed = """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom"\(lang)>
            <title>\(title)</title>
            <id>\(SiteBuilder.xml(baseURL))</id>
            <link rel="self" href="\(SiteBuilder.xml(baseURL + SitePaths.feed))"/>
            <link rel="alternate" type="text/html" href="\(SiteBuilder.xml(baseURL))"/>
            <updated>\(Self.atomDate(latest))</updated>
            <author><name>\(title)</name></author>

            """
        for (offset, month) in report.months.enumerated().reversed() {
            let address = SiteBuilder.xml(baseURL + SitePaths.month(month))
            let summary = report.currencies.filter { $0.months[offset].isActive }.map {
                site.word(
                    "feed.summary",
                    [
                        "currency": $0.currency.code, "invoiced": site.money($0.months[offset].invoiced, $0.currency),
                        "paid": site.money($0.months[offset].paid, $0.currency),
                    ])
            }
            feed += """
                <entry>
                <title>\(SiteBuilder.xml(site.monthLabel(month)))</title>
                <id>\(address)</id>
                <link rel="alternate" type="text/html" href="\(address)"/>
                <updated>\(Self.atomDate(updated[offset]))</updated>
                <summary>\(SiteBuilder.xml(summary.isEmpty ? site.word("feed.nothing") : summary.joined(separator: "; ") + "."))</summary>
                </entry>

                """
        }
        feed += "</feed>\n"
        return [File(path: SitePaths.feed, data: Data(feed.utf8)), sitemap]
    }

    /// `sitemap.xml`: the pages each kind lists (``PageKind/sitemap(in:)``), kind by kind (``PageKinds``).
    func sitemapFile(baseURL: String) -> File {
        var sitemap = """
            <?xml version="1.0" encoding="utf-8"?>
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">

            """
        for entry in site.kinds.sitemap(in: site) {
            let address = entry.path == SitePaths.overview ? baseURL : baseURL + entry.path
            sitemap += "<url><loc>\(SiteBuilder.xml(address))</loc>" + (entry.lastModified.map { "<lastmod>\($0)</lastmod>" } ?? "") + "</url>\n"
        }
        sitemap += "</urlset>\n"
        return File(path: SitePaths.sitemap, data: Data(sitemap.utf8))
    }

    /// For each reported month, the latest day in it on which an invoice was issued or paid, or its first day.
    func monthUpdates() -> [CalendarDate] {
        guard let first = report.months.first else { return [] }
        var latest = report.months.map(\.firstDay)
        func note(_ date: CalendarDate) {
            let offset = date.month.index - first.index
            if offset >= 0, offset < latest.count, date > latest[offset] { latest[offset] = date }
        }
        for invoice in books.invoices {
            note(invoice.issued)
            if let paid = invoice.paid { note(paid) }
        }
        return latest
    }

    static func atomDate(_ date: CalendarDate) -> String { "\(date)T00:00:00Z" }
}
