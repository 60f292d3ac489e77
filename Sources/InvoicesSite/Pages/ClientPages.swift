import Foundation
internal import InvoicesCore
internal import InvoicesReport

/// One client's pages: its page (`clients/<slug>.html`), its statement of account (`statements/<slug>.html`), and
/// with client links their private copies (`c/<token>/index.html` and `client.html`). They show the client, its
/// invoices and its figures, and nothing of the other clients.
///
/// A client with more invoices than a page (``Pagination``) has them on pages of their own
/// (`clients/<slug>/invoices/1.html` and on); a statement with more lines than a page has each currency's lines on
/// pages of their own (`statements/<slug>/EUR/1.html` and on), and the whole statement in one page to print
/// (`statements/<slug>/print.html`). The client page and the statement keep the totals and link the pages. The
/// private copies stay whole: they are the client's own documents.
struct ClientPages: PageKind {
    let site: SiteView
    let totals: Report.ClientTotals
    /// The client's invoices (indices into the books), by issue date.
    let invoices: [Int]
    var key: String { "client:\(books.clients[totals.clientIndex].number)" }
    func inputs(_ inputs: SiteBuilder.Inputs) -> UInt64 {
        fingerprint(inputs.clients[totals.clientIndex], templates: ["client", "statement", "client-list", "statement-list"])
    }
}

extension ClientPages {
    /// The clients with figures, in batches of 64 per job.
    static func jobs(in site: SiteView) -> [[any PageKind]] {
        let clients = site.report.clients
        return stride(from: 0, to: clients.count, by: 64).map { start in
            clients[start..<min(start + 64, clients.count)].map {
                ClientPages(site: site.speaking(for: $0.clientIndex), totals: $0, invoices: site.invoicesByClient[$0.clientIndex])
            }
        }
    }
    static var templateContexts: [String: any PageContext.Type] {
        [
            "client": ClientContext.self, "statement": StatementContext.self,
            "client-list": ListPageContext<ClientListFields, InvoiceRows>.self,
            "statement-list": ListPageContext<StatementListFields, StatementListRows>.self,
        ]
    }
    static let rootNames = ["clients", "statements", "c"]
    static func sitemap(in site: SiteView) -> [SitemapEntry] {
        site.report.clients.flatMap {
            [SitemapEntry(path: site.paths.client($0.clientIndex)), SitemapEntry(path: site.paths.statement($0.clientIndex))]
        }
    }
}

extension ClientPages {
    enum InvoiceColumns: RowColumns { static var columns: [String] { TemplateSet.invoiceColumns } }
    enum MonthlyColumns: RowColumns { static var columns: [String] { TemplateSet.monthlyColumns } }
    enum StatementLineColumns: RowColumns { static var columns: [String] { TemplateVariables.statementLineColumns } }

    /// The address block of a client's pages: its name, number and address lines, and whether it has an address.
    struct Address: Codable, Sendable {
        var name: String
        var number: String
        var street: String
        var city: String
        var zip: String
        var country: String
        var hasAddress: Bool
    }

    /// What a client's page shows: its address, its figures, its invoices (or the links to their pages), the
    /// invoices set apart, and with a payee how to pay each invoice still owed.
    typealias ClientContext = Joined<Address, ClientFields>

    struct ClientFields: Codable, Sendable {
        var statementHref: String
        var totals: [FiguresRow]
        var aging: [AgingRow]
        var agingColumns: [AgingColumn]
        var monthly: [Monthly]
        var invoices: Rows<InvoiceColumns>?
        /// The one currency of all the client's invoices (``listCurrency(_:)``); absent when they are in several.
        var listCurrency: String?
        /// When the invoices are more than a page: the links to their pages instead of `invoices`.
        var invoicePages: PageLinks?
        // Schema v2 stores: shown only when there is something to show.
        var hasBalances: Bool
        var balances: Rows<BalanceColumns>
        var hasToPay: Bool
        /// With a payee (config `payee:`): each invoice still owed, with how to pay it.
        var toPay: [ToPay]
        var hasSetAside: Bool
        var setAside: Rows<SetAsideColumns>
        var hasCredits: Bool
        var credits: [CreditsRow]
        var email: String?
        /// A `mailto:` link, only for an address.
        var emailURL: String?
    }

    struct Monthly: Codable, Sendable {
        var currency: String
        var months: Rows<MonthlyColumns>
    }


    struct ToPay: Codable, Sendable {
        var identifier: String
        var due: String
        var pay: Pay
    }

    /// How to pay an amount owed (a balance or an invoice): the amount, its currency and the payment reference; with
    /// a payee IBAN and for euros, the payee's name, IBAN, BIC and the EPC QR code (`qr`, inline SVG: `{{{qr}}}`);
    /// with a `payment_url`, the pay link (`payURL`).
    struct Pay: Codable, Sendable {
        var amount: String
        var currency: String
        var reference: String
        var payee: String?
        var iban: String?
        var bic: String?
        var qr: Markup?
        /// True when `qr` is the whole Swiss QR-bill, which carries the amount, account and reference itself.
        var qrBill: Bool?
        var payURL: String?
    }

    /// What a client's statement shows: its address, the period, and per currency the balances, the aging, the
    /// lines (or the links to their pages) and how to pay the closing balance.
    typealias StatementContext = Joined<Address, StatementFields>

    struct StatementFields: Codable, Sendable {
        var clientHref: String
        var from: String?
        var to: String?
        /// Why there is no statement.
        var problem: String?
        /// The print view, when the lines have pages of their own.
        var printHref: String?
        var agingColumns: [AgingColumn]
        var currencies: [Joined<AgingRow, StatementCurrency>]
    }

    struct StatementCurrency: Codable, Sendable {
        var opening: String
        var closing: String
        var charges: String
        var credits: String
        /// The same four without the currency, for a table that names it in its headings (``SiteView/amountNumber(_:_:)``).
        var openingNumber: String
        var closingNumber: String
        var chargesNumber: String
        var creditsNumber: String
        var lines: Rows<StatementLineColumns>?
        var rowCount: Int?
        var pages: [PageLink]?
        var pay: Pay?
    }

    /// What every page of a client's invoices has.
    struct ClientListFields: Codable, Sendable {
        var name: String
        var number: String
        var clientHref: String
        var listCurrency: String?
    }

    struct InvoiceRows: Codable, Sendable { var invoices: Rows<InvoiceColumns> }

    /// What every page of a statement's lines in one currency has.
    struct StatementListFields: Codable, Sendable {
        var name, number, currency, from, to, statementHref, printHref: String
    }

    /// A page of a statement's lines, with the balance brought forward and carried forward.
    struct StatementListRows: Codable, Sendable {
        var lines: Rows<StatementLineColumns>
        var broughtForward: String
        var carriedForward: String
        /// The same two without the currency (``SiteView/amountNumber(_:_:)``).
        var broughtForwardNumber: String
        var carriedForwardNumber: String
    }

    /// A client's page and statement (with the statement's print view when its lines have pages of their own), and
    /// with client links their private copies.
    func files() -> [File] { files(statements: statements()) }

    /// The client's invoices and its statement's lines, when they go to pages of their own.
    func pagedLists() -> [PagedList] { pagedLists(statements: statements()) }

    /// The statements are worked out once for the pages and the lists.
    func write(to staging: SiteStaging) throws(SiteWriteError) -> [SiteManifest.File] {
        let statements = statements()
        return try write(files(statements: statements), pagedLists(statements: statements), to: staging)
    }

    func files(statements: Statements) -> [File] {
        var pages = [clientPage(), statementPage(statements)]
        if site.isPaged(statementLists(statements)) { pages.append(statementPrintPage(statements)) }
        guard let folder = site.paths.privateFolder(totals.clientIndex) else { return pages }
        return pages + privatePages(folder: folder, statements: statements)
    }

    func pagedLists(statements: Statements) -> [PagedList] {
        site.paged([invoiceList(sentInvoices())]) + site.paged(statementLists(statements))
    }

    /// The client's statements, one per currency, or why there are none.
    typealias Statements = Result<[ClientStatement], ReportError>

    func statements() -> Statements {
        site.figures.statements[totals.clientIndex]
    }

    /// The client's sent invoices, by issue date: the page's list (drafts and void invoices are listed apart).
    func sentInvoices() -> [Int] { invoices.filter { books.invoices[$0].status == .sent } }

    /// The client's sent invoices (`sent`, ``sentInvoices()``) as a list that goes to pages of its own
    /// (`clients/<slug>/invoices/1.html` and on) when they are more than a page, keyed by invoice identifier.
    func invoiceList(_ sent: [Int]) -> PagedList {
        let client = books.clients[totals.clientIndex]
        let asOf = report.asOf ?? CalendarDate(dayNumber: .max)
        let folder = site.paths.clientInvoices(totals.clientIndex)
        return PagedList(
            folder: folder, count: sent.count,
            key: { books.invoices[sent[$0]].identifier }, template: "client-list", title: site.word("title.clientInvoices", ["name": client.name]),
            fields: ClientListFields(
                name: client.name, number: client.number, clientHref: SitePaths.link(from: folder, to: site.paths.client(totals.clientIndex)),
                listCurrency: listCurrency(sent)),
            rows: { range, _ in InvoiceRows(invoices: self.invoiceRows(sent, range, asOf: asOf)) })
    }

    /// Each statement's lines as a list that goes to pages of its own (`statements/<slug>/EUR/1.html` and on) when
    /// the statement's lines are more than a page together; each page starts with the balance brought forward and
    /// ends with the balance carried forward.
    func statementLists(_ statements: Statements) -> [PagedList] {
        guard case .success(let statements) = statements else { return [] }
        let client = books.clients[totals.clientIndex]
        let path = site.paths.statement(totals.clientIndex)
        return statements.map { statement in
            let currency = statement.currency
            let lines = statement.lines
            func balance(_ value: Int64?) -> String { value.map { site.money($0, currency) } ?? site.word("figure.tooLarge") }
            func balanceNumber(_ value: Int64?) -> String { value.map { site.amountNumber($0, currency) } ?? site.word("figure.tooLarge") }
            let folder = site.paths.statementLines(totals.clientIndex, currency.code)
            return PagedList(
                folder: folder, count: lines.count,
                key: { "\(books.invoices[lines[$0].invoiceIndex].identifier) \(lines[$0].kind.rawValue) \(lines[$0].day)" },
                template: "statement-list", title: site.word("title.statementCurrency", ["name": client.name, "currency": currency.code]),
                fields: StatementListFields(
                    name: client.name, number: client.number, currency: currency.code,
                    from: site.date(statement.from), to: site.date(statement.to),
                    statementHref: SitePaths.link(from: folder, to: path + "#balance-\(currency.code)"),
                    printHref: SitePaths.link(from: folder, to: site.paths.statementPrint(totals.clientIndex))),
                rows: { range, _ in
                    StatementListRows(
                        lines: self.statementLines(statement, range),
                        broughtForward: range.lowerBound == 0 ? site.money(statement.opening, currency) : balance(lines[range.lowerBound - 1].balance),
                        carriedForward: range.isEmpty ? site.money(statement.opening, currency) : balance(lines[range.upperBound - 1].balance),
                        broughtForwardNumber: range.lowerBound == 0
                            ? site.amountNumber(statement.opening, currency) : balanceNumber(lines[range.lowerBound - 1].balance),
                        carriedForwardNumber: range.isEmpty
                            ? site.amountNumber(statement.opening, currency) : balanceNumber(lines[range.upperBound - 1].balance))
                })
        }
    }

    /// The rows of `range` of a statement's lines.
    func statementLines(_ statement: ClientStatement, _ range: Range<Int>) -> Rows<StatementLineColumns> {
        let words = StatementWords(site)
        return Rows(count: range.count) { [self] row, column in
            statementCell(
                statement.lines[range.lowerBound + row], statement.currency, TemplateVariables.StatementLineColumn(rawValue: column) ?? .date, words: words)
        }
    }

    /// The code of the one currency all of `invoices` are in; nil when they are in several (or none). The default
    /// invoice list then names it once, in its amount column's heading, and its rows give `listedAmount` without it.
    func listCurrency(_ invoices: [Int]) -> String? {
        guard let first = invoices.first else { return nil }
        let currencyIndex = books.invoices[first].currencyIndex
        guard invoices.allSatisfy({ books.invoices[$0].currencyIndex == currencyIndex }) else { return nil }
        return books.currencies[Int(currencyIndex)].code
    }

    /// The rows of `range` of `invoices`, the client's whole list (its one currency, if any, is the list's).
    func invoiceRows(_ invoices: [Int], _ range: Range<Int>, asOf: CalendarDate) -> Rows<InvoiceColumns> {
        enum Column: Sendable { case identifier, issued, due, paid, amount, listedAmount, status, statusText, notes, overdue, other }
        let columns = TemplateSet.invoiceColumns
        let kinds: [Column] = columns.map {
            switch $0 {
            case "identifier": .identifier
            case "issued": .issued
            case "due": .due
            case "paid": .paid
            case "amount": .amount
            case "listedAmount": .listedAmount
            case "status": .status
            case "statusText": .statusText
            case "notes": .notes
            case "overdue": .overdue
            default: .other
            }
        }
        // Worked out once per page, and only when a template asks for `listedAmount`: a pass over the whole list.
        let oneCurrency = kinds.contains(.listedAmount) && listCurrency(invoices) != nil
        // Each status's word looked up once per list (``SiteView/invoiceStatus(_:asOf:)`` gives one of these).
        let statusWords = ["draft", "void", "credit-note", "credit", "paid", "partial", "overdue", "open"].map { ($0, site.word("status." + $0)) }
        return Rows(count: range.count) { [self] row, column in
            let index = invoices[range.lowerBound + row]
            let invoice = books.invoices[index]
            switch kinds[column] {
            case .identifier: return invoice.identifier
            case .issued: return site.date(invoice.issued)
            case .due: return site.date(invoice.due)
            case .paid: return invoice.paid.map(site.date) ?? ""
            case .amount: return site.money(invoice.amount, books.currencies[Int(invoice.currencyIndex)])
            case .listedAmount:
                let currency = books.currencies[Int(invoice.currencyIndex)]
                return oneCurrency ? site.amountNumber(invoice.amount, currency) : site.money(invoice.amount, currency)
            case .status: return site.invoiceStatus(index, asOf: asOf)
            case .statusText:
                let status = site.invoiceStatus(index, asOf: asOf)
                return statusWords.first { $0.0 == status }?.1 ?? site.word("status." + status)
            case .notes: return invoice.notes
            // `overdue` or empty: the default row carries a class only where the stylesheet colours it.
            case .overdue: return site.invoiceStatus(index, asOf: asOf) == "overdue" ? "overdue" : ""
            case .other: return ""
            }
        }
    }

    /// The client's page; its invoices, when they have pages of their own, as the links to them.
    func clientPage() -> File {
        let registry = RowListRegistry(marker: TemplateSet.rowMarker)
        let context = clientContext(paged: true)
        return site.page(site.paths.client(totals.clientIndex), template: "client", title: books.clients[totals.clientIndex].name, context, rows: registry)
    }

    /// The client's statement and page as the client sees them at its private address (the statement first, as
    /// `index.html`; the page as `client.html`): the same content, the style inline, no navigation, no canonical or
    /// feed link, and no link except between the two, `mailto:` ones and the pay links, so the pages lead nowhere
    /// else in the site and show nothing of any other client.
    func privatePages(folder: String, statements: Statements) -> [File] {
        let name = books.clients[totals.clientIndex].name
        let layout: [String: Any] = [
            "root": "", "inlineStyle": String(decoding: templates.assets["style.css"] ?? Data(), as: UTF8.self),
        ]
        let payPrefix = options.payee?.paymentURL.map { String($0.prefix(while: { $0 != "{" })) }
        func privatePage(_ file: String, template: String, title: String, _ context: some PageContext) -> File {
            let registry = RowListRegistry(marker: TemplateSet.rowMarker)
            var page = site.render(
                folder + file, template: template, title: title, context.mustacheValue(registry: registry), root: "", layout: layout, rows: registry)
            let html = String(decoding: page.data, as: UTF8.self)
            page.data = Data(Self.removingLinks(from: html, keeping: ["index.html", "client.html"], prefix: payPrefix).utf8)
            return page
        }
        var statement = statementContext(statements, paged: false)
        statement.second.clientHref = "client.html"
        var client = clientContext(paged: false)
        client.second.statementHref = "index.html"
        return [
            privatePage("index.html", template: "statement", title: site.word("title.statement", ["name": name]), statement),
            privatePage("client.html", template: "client", title: name, client),
        ]
    }

    /// `html` without any `href` attribute except `mailto:` ones, those whose value is one of `keeping`, and those
    /// that start with `prefix` (the pay links; compared with `&amp;` read as `&`). Attribute values here are always
    /// double-quoted: the templates and cmark write them so, and every value is escaped.
    static func removingLinks(from html: String, keeping: Set<String> = [], prefix: String? = nil) -> String {
        var output = ""
        output.reserveCapacity(html.utf8.count)
        var rest = html[...]
        while let range = rest.firstRange(of: " href=\"") {
            guard let end = rest[range.upperBound...].firstIndex(of: "\"") else { break }
            output += rest[..<range.lowerBound]
            let value = rest[range.upperBound..<end]
            let kept = value.hasPrefix("mailto:") || keeping.contains(String(value))
                || prefix.map { !$0.isEmpty && value.replacingOccurrences(of: "&amp;", with: "&").hasPrefix($0) } == true
            if kept { output += rest[range.lowerBound...end] }
            rest = rest[rest.index(after: end)...]
        }
        output += rest
        return output
    }

    /// The client page's fields; with `paged`, its invoices as the links to their pages when they have pages of
    /// their own (`invoicePages`: `rowCount` and `pages`).
    func clientContext(paged: Bool = false) -> ClientContext {
        let all = self.invoices
        let client = books.clients[totals.clientIndex]
        // Drafts and void invoices are listed apart.
        let invoices = sentInvoices()
        let setAside = setAsideRows(all.filter { books.invoices[$0].status != .sent })
        // A client with totals means the report has invoices, and so a period and an as-of date.
        let asOf = report.asOf ?? CalendarDate(dayNumber: .max)
        let links = SitePaths.Links(from: site.paths.client(totals.clientIndex))
        let monthly = totals.currencies.map { entry in
            let active = report.months.indices.filter { entry.months[$0].isActive }
            let columns = TemplateSet.monthlyColumns
            let months = Rows<MonthlyColumns>(count: active.count) { [self] row, column in
                let offset = active[row]
                let figures = entry.months[offset]
                switch columns[column] {
                case "label": return site.monthLabel(report.months[offset])
                case "href": return links(SitePaths.month(report.months[offset]))
                default: return site.figuresCell(figures, entry.currency, columns[column])
                }
            }
            return Monthly(currency: entry.currency.code, months: months)
        }
        // Invoices whose balance is not simply all or nothing: partly paid, credited, written off, overpaid.
        let balances = balanceRows(invoices.filter { report.balances[$0] != nil }, asOf: asOf)
        let list = invoiceList(invoices)
        let toPay = toPayContext(totals.clientIndex, invoices: invoices)
        let credits = site.creditRows(totals.currencies.map { ($0.currency, $0.period) })
        var fields = ClientFields(
            statementHref: links(site.paths.statement(totals.clientIndex)),
            totals: totals.currencies.map { site.figuresFields($0.period, $0.currency) },
            aging: totals.currencies.map { site.agingFields($0.aging, $0.currency) }, agingColumns: site.agingHeads,
            monthly: monthly, hasBalances: balances.count > 0, balances: balances, hasToPay: !toPay.isEmpty, toPay: toPay,
            hasSetAside: setAside.count > 0, setAside: setAside, hasCredits: !credits.isEmpty, credits: credits)
        if paged, site.isPaged([list]) {
            fields.invoicePages = site.pagesLinks(of: list, from: site.paths.client(totals.clientIndex))
        } else {
            fields.invoices = invoiceRows(invoices, 0..<invoices.count, asOf: asOf)
        }
        fields.listCurrency = listCurrency(invoices)
        if !client.email.isEmpty {
            fields.email = client.email
            // A link only for an address (RFC 5322 addr-spec, dot-atoms); anything else shows as text.
            if SiteBuilder.isAddress(client.email) {
                let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "@.-_+"))
                fields.emailURL = "mailto:" + (client.email.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
            }
        }
        return Joined(address(totals.clientIndex), fields)
    }

    /// A client's statement of account over the report's period (``Report/statements(of:invoices:in:)``); its
    /// lines, when they have pages of their own, as the links to them and to the print view.
    func statementPage(_ statements: Statements) -> File {
        let registry = RowListRegistry(marker: TemplateSet.rowMarker)
        let context = statementContext(statements, paged: true)
        let name = books.clients[totals.clientIndex].name
        return site.page(site.paths.statement(totals.clientIndex), template: "statement", title: site.word("title.statement", ["name": name]), context, rows: registry)
    }

    /// The whole statement in one page, to print (`statements/<slug>/print.html`), when its lines have pages of
    /// their own.
    func statementPrintPage(_ statements: Statements) -> File {
        let registry = RowListRegistry(marker: TemplateSet.rowMarker)
        var context = statementContext(statements, paged: false)
        let path = site.paths.statementPrint(totals.clientIndex)
        context.second.clientHref = SitePaths.link(from: path, to: site.paths.client(totals.clientIndex))
        let name = books.clients[totals.clientIndex].name
        return site.page(path, template: "statement", title: site.word("title.statement", ["name": name]), context, rows: registry)
    }

    /// The statement's fields; with `paged`, each currency's lines as the links to their pages when the lines have
    /// pages of their own (`rowCount` and `pages`), and `printHref`, the print view.
    func statementContext(_ result: Statements, paged: Bool = false) -> StatementContext {
        var fields = StatementFields(
            clientHref: SitePaths.link(from: site.paths.statement(totals.clientIndex), to: site.paths.client(totals.clientIndex)),
            agingColumns: site.agingHeads, currencies: [])
        if let (from, to) = report.statementPeriod {
            fields.from = site.date(from)
            fields.to = site.date(to)
        }
        let lists = statementLists(result)
        let pages = paged && site.isPaged(lists) ? lists : []
        if !pages.isEmpty {
            fields.printHref = SitePaths.link(from: site.paths.statement(totals.clientIndex), to: site.paths.statementPrint(totals.clientIndex))
        }
        let statements: [ClientStatement]
        switch result {
        case .success(let all): statements = all
        case .failure(let error):
            fields.problem = site.word("statement.problem", ["error": "\(error)"])
            statements = []
        }
        let agingByCurrency = Dictionary(uniqueKeysWithValues: totals.currencies.map { ($0.currency, $0.aging) })
        fields.currencies = statements.enumerated().map { position, statement in
            let currency = statement.currency
            var entry = StatementCurrency(
                opening: site.money(statement.opening, currency), closing: site.money(statement.closing, currency),
                charges: site.money(statement.charges, currency), credits: site.money(statement.credits, currency),
                openingNumber: site.amountNumber(statement.opening, currency), closingNumber: site.amountNumber(statement.closing, currency),
                chargesNumber: site.amountNumber(statement.charges, currency), creditsNumber: site.amountNumber(statement.credits, currency))
            if pages.isEmpty {
                entry.lines = statementLines(statement, 0..<statement.lines.count)
            } else {
                let links = site.pagesLinks(of: pages[position], from: site.paths.statement(totals.clientIndex))
                (entry.rowCount, entry.pages) = (links.rowCount, links.pages)
            }
            entry.pay = payContext(
                clientIndex: totals.clientIndex, invoice: nil, minorUnits: statement.closing, currency: currency, statementEnd: statement.to)
            return Joined(site.agingFields(agingByCurrency[currency] ?? Aging(report.agingBuckets), currency), entry)
        }
        return Joined(address(totals.clientIndex), fields)
    }

    /// One cell of a statement line.
    func statementCell(
        _ line: ClientStatement.Line, _ currency: CurrencyCode, _ column: TemplateVariables.StatementLineColumn, words: StatementWords
    ) -> String {
        // Fields read in place: a copy of the invoice per cell costs a retain and release of each of its strings.
        switch column {
        case .date: return site.date(line.day)
        case .kind:
            switch line.kind {
            case .invoice: return "invoice"
            case .creditNote: return "credit-note"
            case .payment: return "payment"
            case .refund: return "refund"
            case .writeOff: return "write-off"
            }
        case .type: return words.document(line.kind)
        case .document: return books.invoices[line.invoiceIndex].identifier
        case .detail:
            switch line.kind {
            case .invoice: return words.due(site.date(books.invoices[line.invoiceIndex].due))
            case .creditNote:
                let target = Int(books.invoices[line.invoiceIndex].corrects)
                return target >= 0 && target < books.invoices.count ? words.for(books.invoices[target].identifier) : ""
            case .payment, .refund:
                let details = books.payments[line.source].details
                guard details >= 0, Int(details) < books.paymentDetails.count else { return "" }
                let entry = books.paymentDetails[Int(details)]
                return [entry.method, entry.reference].filter { !$0.isEmpty }.joined(separator: " ")
            case .writeOff: return books.writeOffs[line.source].reason
            }
        case .charge: return line.delta >= 0 && line.kind != .payment ? site.money(line.delta, currency) : ""
        case .credit: return line.delta < 0 || line.kind == .payment ? site.money(0 &- line.delta, currency) : ""
        case .balance: return line.balance.map { site.money($0, currency) } ?? words.tooLarge
        case .chargeNumber: return line.delta >= 0 && line.kind != .payment ? site.amountNumber(line.delta, currency) : ""
        case .creditNumber: return line.delta < 0 || line.kind == .payment ? site.amountNumber(0 &- line.delta, currency) : ""
        case .balanceNumber: return line.balance.map { site.amountNumber($0, currency) } ?? words.tooLarge
        }
    }

    /// The client's name, number and address lines, and `hasAddress`: the address block of its pages.
    func address(_ clientIndex: Int) -> Address {
        let client = books.clients[clientIndex]
        let hasAddress = !(client.street.isEmpty && client.city.isEmpty && client.zip.isEmpty && client.country.isEmpty)
        return Address(
            name: client.name, number: client.number, street: client.street, city: client.city, zip: client.zip, country: client.country,
            hasAddress: hasAddress)
    }

    /// At most this many invoices on a client page get a QR code of their own (those due first); the others show
    /// the same transfer details as text, and the statement's code pays the whole balance.
    static let invoiceCodeLimit = 50

    /// How a client can pay `minorUnits` of `currency` (a balance, or an invoice's when `invoice` is given): the
    /// template's `pay` object, or nil when the amount is not owed (zero or negative) or there is no way to pay it.
    /// An EPC QR code, with the payee's name, IBAN and BIC as text, for euros when the payee has an IBAN; a pay link
    /// for any currency when the payee has a `payment_url`.
    func payContext(
        clientIndex: Int, invoice: String?, minorUnits: Int64, currency: CurrencyCode, drawCode: Bool = true, statementEnd: CalendarDate? = nil
    ) -> Pay? {
        guard minorUnits > 0, let payee = options.payee else { return nil }
        let client = books.clients[clientIndex].number
        let reference = invoice ?? client
        var context = Pay(amount: site.money(minorUnits, currency), currency: currency.code, reference: reference)
        // A Swiss client's or a CHF balance: the QR-bill on the statement (SwissQRBill+Choice.swift), instead of the EPC code.
        let swiss = SwissQRBill.choice(
            payee: payee, client: books.clients[clientIndex], minorUnits: minorUnits, currency: currency, end: invoice == nil ? statementEnd : nil,
            message: reference)
        if case .bill(let bill) = swiss {
            context.payee = payee.name
            context.iban = Payee.printedIBAN(bill.iban)
            context.reference = bill.reference.printed
            let language = books.clients[clientIndex].language.isEmpty ? options.language : books.clients[clientIndex].language
            let label = site.word(
                bill.reference == .none ? "pay.qrBillLabelNoReference" : "pay.qrBillLabel",
                [
                    "currency": bill.currency, "amount": bill.printedAmount, "payee": payee.name, "iban": Payee.printedIBAN(bill.iban),
                    "reference": bill.reference.printed,
                ])
            if drawCode, let svg = bill.svg(language: language, label: label) {
                context.qr = Markup(svg)
                // The bill carries the amount, account and reference itself: the template leaves out its own list.
                context.qrBill = true
            }
        }
        if swiss == .other, currency.code == "EUR", let payment = EPCPayment(payee: payee, cents: minorUnits, remittance: reference) {
            context.payee = payee.name
            context.iban = Payee.printedIBAN(payment.payee.iban ?? "")
            if let bic = payee.bic { context.bic = bic }
            // The SVG joins the page after cmark (an HTML token): no name or reference in its label can end the
            // HTML block it sits in.
            if drawCode, let payload = payment.payload, let code = QRCode(bytes: Array(payload.utf8)) {
                context.qr = Markup(
                    code.svg(label: site.word("pay.epcLabel", ["amount": site.money(minorUnits, currency), "payee": payee.name, "reference": reference])))
            }
        }
        let amount = Money.decimalString(minorUnits, digits: currency.minorUnitDigits)
        if let url = payee.payURL(client: client, invoice: invoice, amount: amount, currency: currency.code) {
            context.payURL = url
        }
        return context.iban != nil || context.payURL != nil ? context : nil
    }

    /// The client page's `toPay`: each invoice still owed at the as-of date (sent, not a credit note, balance
    /// above zero), due first, with how to pay it. Empty without a payee.
    func toPayContext(_ clientIndex: Int, invoices: [Int]) -> [ToPay] {
        guard options.payee != nil else { return [] }
        let open = invoices.filter {
            let invoice = books.invoices[$0]
            return invoice.status == .sent && invoice.kind == .invoice && report.balance(of: $0, in: books) > 0
        }.sorted {
            let a = books.invoices[$0], b = books.invoices[$1]
            return a.due != b.due ? a.due < b.due : a.identifier < b.identifier
        }
        return open.enumerated().compactMap { position, index in
            let invoice = books.invoices[index]
            let currency = books.currencies[Int(invoice.currencyIndex)]
            guard let pay = payContext(
                clientIndex: clientIndex, invoice: invoice.identifier, minorUnits: report.balance(of: index, in: books),
                currency: currency, drawCode: position < Self.invoiceCodeLimit)
            else { return nil }
            return ToPay(identifier: invoice.identifier, due: site.date(invoice.due), pay: pay)
        }
    }
}
