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
    static var templateScopes: [String: TemplateScope] { TemplateVariables.clientPagesScopes }
    static let fastLists: [String: [(path: [String], columns: [String])]] = [
        "client": [(["invoices"], TemplateSet.invoiceColumns), (["monthly", "months"], TemplateSet.monthlyColumns)],
        "statement": [(["currencies", "lines"], TemplateVariables.statementLineColumns)],
        "statement-list": [(["lines"], TemplateVariables.statementLineColumns)],
        "client-list": [(["invoices"], TemplateSet.invoiceColumns)],
    ]
    static let rootNames = ["clients", "statements", "c"]
    static func sitemap(in site: SiteView) -> [SitemapEntry] {
        site.report.clients.flatMap {
            [SitemapEntry(path: site.paths.client($0.clientIndex)), SitemapEntry(path: site.paths.statement($0.clientIndex))]
        }
    }
}

extension ClientPages {
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
            fields: ["name": client.name, "number": client.number, "clientHref": SitePaths.link(from: folder, to: site.paths.client(totals.clientIndex))],
            rows: { range, _, registry in ["invoices": self.invoiceRows(sent, range, asOf: asOf, registry: registry)] })
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
            let folder = site.paths.statementLines(totals.clientIndex, currency.code)
            return PagedList(
                folder: folder, count: lines.count,
                key: { "\(books.invoices[lines[$0].invoiceIndex].identifier) \(lines[$0].kind.rawValue) \(lines[$0].day)" },
                template: "statement-list", title: site.word("title.statementCurrency", ["name": client.name, "currency": currency.code]),
                fields: [
                    "name": client.name, "number": client.number, "currency": currency.code,
                    "from": site.date(statement.from), "to": site.date(statement.to),
                    "statementHref": SitePaths.link(from: folder, to: path + "#balance-\(currency.code)"),
                    "printHref": SitePaths.link(from: folder, to: site.paths.statementPrint(totals.clientIndex)),
                ],
                rows: { range, _, registry in
                    [
                        "lines": self.statementLines(statement, range, registry: registry),
                        "broughtForward": range.lowerBound == 0 ? site.money(statement.opening, currency) : balance(lines[range.lowerBound - 1].balance),
                        "carriedForward": range.isEmpty ? site.money(statement.opening, currency) : balance(lines[range.upperBound - 1].balance),
                    ]
                })
        }
    }

    /// The rows of `range` of a statement's lines.
    func statementLines(_ statement: ClientStatement, _ range: Range<Int>, registry: RowListRegistry?) -> RowList {
        RowList(columns: TemplateVariables.statementLineColumns, count: range.count, registry: registry) { row, column in
            statementCell(statement.lines[range.lowerBound + row], statement.currency, TemplateVariables.StatementLineColumn(rawValue: column) ?? .date)
        }
    }

    /// The rows of `range` of the client's sent invoices (`invoices`).
    func invoiceRows(_ invoices: [Int], _ range: Range<Int>, asOf: CalendarDate, registry: RowListRegistry?) -> RowList {
        enum Column { case identifier, issued, due, paid, amount, status, statusText, notes, other }
        let columns = TemplateSet.invoiceColumns
        let kinds: [Column] = columns.map {
            switch $0 {
            case "identifier": .identifier
            case "issued": .issued
            case "due": .due
            case "paid": .paid
            case "amount": .amount
            case "status": .status
            case "statusText": .statusText
            case "notes": .notes
            default: .other
            }
        }
        return RowList(columns: columns, count: range.count, registry: registry) { row, column in
            let index = invoices[range.lowerBound + row]
            let invoice = books.invoices[index]
            switch kinds[column] {
            case .identifier: return invoice.identifier
            case .issued: return site.date(invoice.issued)
            case .due: return site.date(invoice.due)
            case .paid: return invoice.paid.map(site.date) ?? ""
            case .amount: return site.money(invoice.amount, books.currencies[Int(invoice.currencyIndex)])
            case .status: return site.invoiceStatus(index, asOf: asOf)
            case .statusText: return site.word("status." + site.invoiceStatus(index, asOf: asOf))
            case .notes: return invoice.notes
            case .other: return ""
            }
        }
    }

    /// The client's page; its invoices, when they have pages of their own, as the links to them.
    func clientPage() -> File {
        let registry = RowListRegistry(marker: TemplateSet.rowMarker)
        let context = clientContext(registry: registry, paged: true)
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
        func privatePage(_ file: String, template: String, title: String, _ context: [String: Any], _ registry: RowListRegistry) -> File {
            var page = site.render(folder + file, template: template, title: title, context, root: "", layout: layout, rows: registry)
            let html = String(decoding: page.data, as: UTF8.self)
            page.data = Data(Self.removingLinks(from: html, keeping: ["index.html", "client.html"], prefix: payPrefix).utf8)
            return page
        }
        let statementRows = RowListRegistry(marker: TemplateSet.rowMarker)
        var statement = statementContext(statements, registry: statementRows, paged: false)
        statement["clientHref"] = "client.html"
        let clientRows = RowListRegistry(marker: TemplateSet.rowMarker)
        var client = clientContext(registry: clientRows, paged: false)
        client["statementHref"] = "index.html"
        return [
            privatePage("index.html", template: "statement", title: site.word("title.statement", ["name": name]), statement, statementRows),
            privatePage("client.html", template: "client", title: name, client, clientRows),
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
    func clientContext(registry: RowListRegistry? = nil, paged: Bool = false) -> [String: Any] {
        let all = self.invoices
        let client = books.clients[totals.clientIndex]
        // Drafts and void invoices are listed apart.
        let invoices = sentInvoices()
        let setAside: [[String: Any]] = all.filter { books.invoices[$0].status != .sent }.map { index in
            let invoice = books.invoices[index]
            return [
                "identifier": invoice.identifier, "issued": site.date(invoice.issued),
                "amount": site.money(invoice.amount, books.currencies[Int(invoice.currencyIndex)]), "status": invoice.status.name,
                "statusText": site.word("status." + invoice.status.name),
            ]
        }
        // A client with totals means the report has invoices, and so a period and an as-of date.
        let asOf = report.asOf ?? CalendarDate(dayNumber: .max)
        let links = SitePaths.Links(from: site.paths.client(totals.clientIndex))
        var context = addressContext(totals.clientIndex).merging([
            "statementHref": links(site.paths.statement(totals.clientIndex)),
            "totals": totals.currencies.map { site.figuresRow($0.period, $0.currency) },
            "aging": totals.currencies.map { site.agingRow($0.aging, $0.currency) }, "agingColumns": site.agingColumns,
            "monthly": totals.currencies.map { entry -> [String: Any] in
                let active = report.months.indices.filter { entry.months[$0].isActive }
                let columns = TemplateSet.monthlyColumns
                let months = RowList(columns: columns, count: active.count, registry: registry) { row, column in
                    let offset = active[row]
                    let figures = entry.months[offset]
                    switch columns[column] {
                    case "label": return site.monthLabel(report.months[offset])
                    case "href": return links(SitePaths.month(report.months[offset]))
                    default: return site.figuresCell(figures, entry.currency, columns[column])
                    }
                }
                return ["currency": entry.currency.code, "months": months]
            },
        ]) { a, _ in a }
        // Invoices whose balance is not simply all or nothing: partly paid, credited, written off, overpaid.
        let balances: [[String: Any]] = invoices.compactMap { index in
            guard let balance = report.balances[index] else { return nil }
            let invoice = books.invoices[index]
            let currency = books.currencies[Int(invoice.currencyIndex)]
            return [
                "identifier": invoice.identifier, "amount": site.money(invoice.amount, currency),
                "balance": site.money(balance, currency), "status": site.invoiceStatus(index, asOf: asOf),
                "statusText": site.word("status." + site.invoiceStatus(index, asOf: asOf)),
            ]
        }
        let list = invoiceList(invoices)
        if paged, site.isPaged([list]) {
            context["invoicePages"] = site.pageLinks(of: list, from: site.paths.client(totals.clientIndex))
        } else {
            context["invoices"] = invoiceRows(invoices, 0..<invoices.count, asOf: asOf, registry: registry)
        }
        context["hasBalances"] = !balances.isEmpty
        context["balances"] = balances
        let toPay = toPayContext(totals.clientIndex, invoices: invoices)
        context["hasToPay"] = !toPay.isEmpty
        context["toPay"] = toPay
        context["hasSetAside"] = !setAside.isEmpty
        context["setAside"] = setAside
        context.merge(site.creditsContext(totals.currencies.map { ($0.currency, $0.period) })) { a, _ in a }
        if !client.email.isEmpty {
            context["email"] = client.email
            // A link only for an address (RFC 5322 addr-spec, dot-atoms); anything else shows as text.
            if SiteBuilder.isAddress(client.email) {
                let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "@.-_+"))
                context["emailURL"] = "mailto:" + (client.email.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
            }
        }
        return context
    }

    /// A client's statement of account over the report's period (``Report/statements(of:invoices:in:)``); its
    /// lines, when they have pages of their own, as the links to them and to the print view.
    func statementPage(_ statements: Statements) -> File {
        let registry = RowListRegistry(marker: TemplateSet.rowMarker)
        let context = statementContext(statements, registry: registry, paged: true)
        let name = books.clients[totals.clientIndex].name
        return site.page(site.paths.statement(totals.clientIndex), template: "statement", title: site.word("title.statement", ["name": name]), context, rows: registry)
    }

    /// The whole statement in one page, to print (`statements/<slug>/print.html`), when its lines have pages of
    /// their own.
    func statementPrintPage(_ statements: Statements) -> File {
        let registry = RowListRegistry(marker: TemplateSet.rowMarker)
        var context = statementContext(statements, registry: registry, paged: false)
        let path = site.paths.statementPrint(totals.clientIndex)
        context["clientHref"] = SitePaths.link(from: path, to: site.paths.client(totals.clientIndex))
        let name = books.clients[totals.clientIndex].name
        return site.page(path, template: "statement", title: site.word("title.statement", ["name": name]), context, rows: registry)
    }

    /// The statement's fields; with `paged`, each currency's lines as the links to their pages when the lines have
    /// pages of their own (`rowCount` and `pages`), and `printHref`, the print view.
    func statementContext(_ result: Statements, registry: RowListRegistry? = nil, paged: Bool = false) -> [String: Any] {
        var context = addressContext(totals.clientIndex)
        context["clientHref"] = SitePaths.link(from: site.paths.statement(totals.clientIndex), to: site.paths.client(totals.clientIndex))
        if let (from, to) = report.statementPeriod {
            context["from"] = site.date(from)
            context["to"] = site.date(to)
        }
        let lists = statementLists(result)
        let pages = paged && site.isPaged(lists) ? lists : []
        if !pages.isEmpty {
            context["printHref"] = SitePaths.link(from: site.paths.statement(totals.clientIndex), to: site.paths.statementPrint(totals.clientIndex))
        }
        let statements: [ClientStatement]
        switch result {
        case .success(let all): statements = all
        case .failure(let error):
            context["problem"] = site.word("statement.problem", ["error": "\(error)"])
            statements = []
        }
        let agingByCurrency = Dictionary(uniqueKeysWithValues: totals.currencies.map { ($0.currency, $0.aging) })
        context["agingColumns"] = site.agingColumns
        context["currencies"] = statements.enumerated().map { position, statement -> [String: Any] in
            let currency = statement.currency
            var entry = site.agingRow(agingByCurrency[currency] ?? Aging(report.agingBuckets), currency)
            entry["opening"] = site.money(statement.opening, currency)
            entry["closing"] = site.money(statement.closing, currency)
            entry["charges"] = site.money(statement.charges, currency)
            entry["credits"] = site.money(statement.credits, currency)
            if pages.isEmpty {
                entry["lines"] = statementLines(statement, 0..<statement.lines.count, registry: registry)
            } else {
                entry.merge(site.pageLinks(of: pages[position], from: site.paths.statement(totals.clientIndex))) { _, links in links }
            }
            if let pay = payContext(
                clientIndex: totals.clientIndex, invoice: nil, minorUnits: statement.closing, currency: currency, statementEnd: statement.to)
            {
                entry["pay"] = pay
            }
            return entry
        }
        return context
    }

    /// One cell of a statement line.
    func statementCell(_ line: ClientStatement.Line, _ currency: CurrencyCode, _ column: TemplateVariables.StatementLineColumn) -> String {
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
        case .type:
            switch line.kind {
            case .invoice: return site.word("document.invoice")
            case .creditNote: return site.word("document.creditNote")
            case .payment: return site.word("document.payment")
            case .refund: return site.word("document.refund")
            case .writeOff: return site.word("document.writeOff")
            }
        case .document: return books.invoices[line.invoiceIndex].identifier
        case .detail:
            switch line.kind {
            case .invoice: return site.word("statement.due", ["date": site.date(books.invoices[line.invoiceIndex].due)])
            case .creditNote:
                let target = Int(books.invoices[line.invoiceIndex].corrects)
                return target >= 0 && target < books.invoices.count ? site.word("statement.for", ["document": books.invoices[target].identifier]) : ""
            case .payment, .refund:
                let details = books.payments[line.source].details
                guard details >= 0, Int(details) < books.paymentDetails.count else { return "" }
                let entry = books.paymentDetails[Int(details)]
                return [entry.method, entry.reference].filter { !$0.isEmpty }.joined(separator: " ")
            case .writeOff: return books.writeOffs[line.source].reason
            }
        case .charge: return line.delta >= 0 && line.kind != .payment ? site.money(line.delta, currency) : ""
        case .credit: return line.delta < 0 || line.kind == .payment ? site.money(0 &- line.delta, currency) : ""
        case .balance: return line.balance.map { site.money($0, currency) } ?? site.word("figure.tooLarge")
        }
    }

    /// The client's name, number and address lines, and `hasAddress`: the address block of its pages.
    func addressContext(_ clientIndex: Int) -> [String: Any] {
        let client = books.clients[clientIndex]
        let hasAddress = !(client.street.isEmpty && client.city.isEmpty && client.zip.isEmpty && client.country.isEmpty)
        return [
            "name": client.name, "number": client.number, "street": client.street, "city": client.city, "zip": client.zip,
            "country": client.country, "hasAddress": hasAddress,
        ]
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
    ) -> [String: Any]? {
        guard minorUnits > 0, let payee = options.payee else { return nil }
        let client = books.clients[clientIndex].number
        let reference = invoice ?? client
        var context: [String: Any] = ["amount": site.money(minorUnits, currency), "currency": currency.code, "reference": reference]
        // A Swiss client's or a CHF balance: the QR-bill on the statement (SwissQRBill+Choice.swift), instead of the EPC code.
        let swiss = SwissQRBill.choice(
            payee: payee, client: books.clients[clientIndex], minorUnits: minorUnits, currency: currency, end: invoice == nil ? statementEnd : nil,
            message: reference)
        if case .bill(let bill) = swiss {
            context["payee"] = payee.name
            context["iban"] = Payee.printedIBAN(bill.iban)
            context["reference"] = bill.reference.printed
            let language = books.clients[clientIndex].language.isEmpty ? options.language : books.clients[clientIndex].language
            let label = site.word(
                bill.reference == .none ? "pay.qrBillLabelNoReference" : "pay.qrBillLabel",
                [
                    "currency": bill.currency, "amount": bill.printedAmount, "payee": payee.name, "iban": Payee.printedIBAN(bill.iban),
                    "reference": bill.reference.printed,
                ])
            if drawCode, let svg = bill.svg(language: language, label: label) {
                context["qr"] = MarkdownValues.html(svg)
                // The bill carries the amount, account and reference itself: the template leaves out its own list.
                context["qrBill"] = true
            }
        }
        if swiss == .other, currency.code == "EUR", let payment = EPCPayment(payee: payee, cents: minorUnits, remittance: reference) {
            context["payee"] = payee.name
            context["iban"] = Payee.printedIBAN(payment.payee.iban ?? "")
            if let bic = payee.bic { context["bic"] = bic }
            // The SVG joins the page after cmark (an HTML token): no name or reference in its label can end the
            // HTML block it sits in.
            if drawCode, let payload = payment.payload, let code = QRCode(bytes: Array(payload.utf8)) {
                context["qr"] = MarkdownValues.html(
                    code.svg(label: site.word("pay.epcLabel", ["amount": site.money(minorUnits, currency), "payee": payee.name, "reference": reference])))
            }
        }
        let amount = Money.decimalString(minorUnits, digits: currency.minorUnitDigits)
        if let url = payee.payURL(client: client, invoice: invoice, amount: amount, currency: currency.code) {
            context["payURL"] = url
        }
        return context["iban"] != nil || context["payURL"] != nil ? context : nil
    }

    /// The client page's `toPay`: each invoice still owed at the as-of date (sent, not a credit note, balance
    /// above zero), due first, with how to pay it. Empty without a payee.
    func toPayContext(_ clientIndex: Int, invoices: [Int]) -> [[String: Any]] {
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
            return ["identifier": invoice.identifier, "due": site.date(invoice.due), "pay": pay]
        }
    }
}

extension TemplateVariables {
    /// The scopes of ``ClientPages``'s templates, by template name.
    static let clientPagesScopes: [String: TemplateScope] = [
        "client": page([
            "name": nil, "number": nil, "email": nil, "emailURL": nil, "street": nil, "city": nil, "zip": nil,
            "country": nil, "hasAddress": nil, "statementHref": nil,
            "totals": TemplateScope(values: figures),
            "aging": aging, "agingColumns": agingColumns,
            "monthly": TemplateScope([
                "currency": nil,
                "months": TemplateScope(values: figures + ["label", "href"]),
            ]),
            "invoices": TemplateScope(values: ["identifier", "issued", "due", "paid", "amount", "status", "statusText", "notes"]),
            // When the invoices are more than a page: the links to their pages instead of `invoices`.
            "invoicePages": TemplateScope(["rowCount": nil, "pages": link]),
            // Schema v2 stores: shown only when there is something to show.
            "hasCredits": nil, "credits": credits,
            "hasBalances": nil, "balances": TemplateScope(values: ["identifier", "amount", "balance", "status", "statusText"]),
            "hasSetAside": nil, "setAside": TemplateScope(values: ["identifier", "issued", "amount", "status", "statusText"]),
            // With a payee (config `payee:`): each invoice still owed, with how to pay it.
            "hasToPay": nil, "toPay": TemplateScope(["identifier": nil, "due": nil, "pay": pay]),
        ]),
        "statement": page([
            "name": nil, "number": nil, "street": nil, "city": nil, "zip": nil, "country": nil, "hasAddress": nil,
            "clientHref": nil, "from": nil, "to": nil, "problem": nil, "printHref": nil, "agingColumns": agingColumns,
            "currencies": TemplateScope([
                "currency": nil, "opening": nil, "closing": nil, "charges": nil, "credits": nil,
                "notDue": nil, "days1to30": nil, "days31to60": nil, "days61to90": nil, "over90": nil,
                "amounts": TemplateScope(values: ["amount"]),
                "lines": TemplateScope(values: TemplateVariables.statementLineColumns),
                "rowCount": nil, "pages": link,
                "pay": pay,
            ]),
        ]),
        "client-list": page([
            "name": nil, "number": nil, "clientHref": nil, "page": nil, "rowCount": nil, "previous": link, "next": link,
            "invoices": TemplateScope(values: ["identifier", "issued", "due", "paid", "amount", "status", "statusText", "notes"]),
        ]),
        "statement-list": page([
            "name": nil, "number": nil, "currency": nil, "from": nil, "to": nil, "statementHref": nil, "printHref": nil,
            "page": nil, "rowCount": nil, "previous": link, "next": link, "broughtForward": nil, "carriedForward": nil,
            "lines": TemplateScope(values: TemplateVariables.statementLineColumns),
        ]),
    ]
}
