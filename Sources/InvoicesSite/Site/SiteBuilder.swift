public import Foundation
public import InvoicesCore
public import InvoicesReport

/// Renders the pages of a report site: Markdown templates with Mustache placeholders, through libcmark, into
/// the HTML layout.
///
/// ```swift
/// let site = SiteBuilder(books: books, report: report, templates: try TemplateSet(), options: SiteOptions())
/// let summary = try SiteWriter(output: "Output").write(site.files())
/// ```
public struct SiteBuilder: Sendable {
    public let books: Books
    public let report: Report
    public let templates: TemplateSet
    public let options: SiteOptions
    let formatter: MoneyFormatter
    let slugs: [String]
    let markdown = MarkdownRenderer(options: [.allowsRawHTML])

    public init(books: Books, report: Report, templates: TemplateSet, options: SiteOptions) {
        self.books = books
        self.report = report
        self.templates = templates
        self.options = options
        self.formatter = MoneyFormatter(localeIdentifier: options.locale, currencies: books.currencies)
        var slugger = Slugger()
        self.slugs = books.clients.map { slugger.slug(for: $0.number, $0.name) }
    }

    /// A file of the site: its path relative to the site's root, and its bytes.
    public struct File: Sendable {
        public var path: String
        public var data: Data
    }

    /// The relative path of a client's page.
    public func clientPath(_ clientIndex: Int) -> String { "clients/\(slugs[clientIndex]).html" }

    /// The relative path of a month's page.
    public func monthPath(_ month: YearMonth) -> String { "months/\(month).html" }

    /// Every file of the site, in a stable order.
    public func files() -> [File] {
        var files: [File] = []
        for (name, data) in templates.assets.sorted(by: { $0.key < $1.key }) { files.append(File(path: name, data: data)) }
        files.append(page("index.html", template: "overview", title: options.title, overviewContext().merging(conversionContext()) { a, _ in a }))
        files.append(page("clients.html", template: "clients", title: "Clients", clientsContext()))
        files.append(page("404.html", template: "404", title: "Page not found", [:], absoluteRoot: true))
        for (offset, month) in report.months.enumerated() {
            let context = monthContext(offset)
            files.append(page(monthPath(month), template: "month", title: context["label"] as? String ?? "\(month)", context))
        }
        let invoicesByClient = groupedInvoices()
        for totals in report.clients {
            let client = books.clients[totals.clientIndex]
            files.append(
                page(clientPath(totals.clientIndex), template: "client", title: client.name,
                     clientContext(totals, invoices: invoicesByClient[totals.clientIndex])))
        }
        files.append(contentsOf: exportFiles())
        return files
    }

    /// Renders one page: the Markdown template with `context`, to HTML, into the layout.
    func page(_ path: String, template: String, title: String, _ context: [String: Any], absoluteRoot: Bool = false) -> File {
        let depth = path.split(separator: "/").count - 1
        let root = absoluteRoot ? "" : String(repeating: "../", count: depth)
        var context = context
        context["root"] = root
        context["siteTitle"] = options.title
        context["asOf"] = report.asOf.description
        let body = markdown.html(from: templates.render(template, context))
        let layout: [String: Any] = [
            "content": body, "root": root, "pageTitle": title, "siteTitle": options.title, "lang": options.language,
            "asOf": report.asOf.description,
        ]
        return File(path: path, data: Data(templates.render("layout", layout).utf8))
    }

    func money(_ minorUnits: Int64, _ currency: CurrencyCode) -> String {
        formatter.string(for: Money(minorUnits: minorUnits, currency: currency))
    }

    func figuresRow(_ figures: Figures, _ currency: CurrencyCode) -> [String: Any] {
        [
            "currency": currency.code, "invoiced": money(figures.invoiced, currency), "paid": money(figures.paid, currency),
            "outstanding": money(figures.outstanding, currency), "overdue": money(figures.overdue, currency),
            "invoices": String(figures.invoices),
        ]
    }

    /// Invoice indices per client, each list ordered by issue date, then identifier.
    func groupedInvoices() -> [[Int]] {
        var groups = Array(repeating: [Int](), count: books.clients.count)
        for (index, invoice) in books.invoices.enumerated() { groups[Int(invoice.clientIndex)].append(index) }
        for client in groups.indices {
            groups[client].sort {
                let a = books.invoices[$0], b = books.invoices[$1]
                return a.issued != b.issued ? a.issued < b.issued : a.identifier < b.identifier
            }
        }
        return groups
    }

    static func monthLabel(_ month: YearMonth) -> String {
        let names = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        return "\(names[month.month - 1]) \(month.year)"
    }
}
