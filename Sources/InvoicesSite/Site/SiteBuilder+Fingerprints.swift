import Foundation
internal import InvoicesCore
internal import InvoicesReport

/// The fingerprints of what each unit of the site shows, for incremental builds (``SiteManifest``).
///
/// A unit's fingerprint covers every value its pages are rendered from: the fields of the rows and figures it
/// shows (all of them, see ``SiteBuilder/fingerprintedFields``), the templates it uses with their partials, the
/// layout and the assets (``TemplateSet``), the site's options, and the executable that renders it (a new build of
/// the tool renders everything again). Pages that show the whole books (the overview, the list of clients, the
/// exports, the feed) use the fingerprint of all of it.
extension SiteBuilder {
    struct Inputs: Sendable {
        /// Options, as-of date, months, currencies, executable: what every page depends on.
        var base: UInt64
        /// Everything the books and the report hold.
        var all: UInt64
        /// Per client (index in ``Books/clients``): the client, its invoices and its figures.
        var clients: [UInt64]
        /// Per reported month: its totals and the figures of every client active in it (with the month before).
        var months: [UInt64]
        /// What a fiscal quarter's page shows, once worked out (``PeriodPage/shown(_:)``): its print pack shows the
        /// same, so the second of the two kinds to ask takes the first one's value.
        let periodsShown = Memo()
        /// A quarter's tax sources, made once per build for its page, its lists and its print pack
        /// (``PeriodPage/prepared(with:)``) and let go when the last of them has taken them.
        let quarterSources = SharedValues<[TaxKey: [TaxSource]]>()
        /// A month's clients per currency, made once per build for the month's lists (``MonthListPage/prepared(with:)``)
        /// and let go when the last of them has taken them.
        let monthMembers = SharedValues<[CurrencyCode: MonthPage.Members]>()
        /// What the exports' units share in a build (``ExportValues``).
        let exportValues = ExportValues()

        /// Whether they were carried from a previous build (``CarriedInputs``), not worked out by this one.
        var carried = false

        init(base: UInt64, all: UInt64, clients: [UInt64], months: [UInt64]) {
            self.base = base
            self.all = all
            self.clients = clients
            self.months = months
        }

        /// Fingerprints worked out once per build for kinds that share them, by key; shared by the copies of the
        /// ``Inputs`` they were made with, so a value is only ever reused with the inputs it was worked out from.
        final class Memo: @unchecked Sendable {
            private let lock = NSLock()
            private var values: [String: UInt64] = [:]

            /// The value for `key`: the one worked out before, or `make()`'s (outside the lock: two kinds asking at
            /// once both work it out, and get the same value).
            func value(_ key: String, _ make: () -> UInt64) -> UInt64 {
                if let known = lock.withLock({ values[key] }) { return known }
                let value = make()
                lock.withLock { values[key] = value }
                return value
            }

            /// Every value worked out so far, by key (carried to the next build: ``CarriedInputs``).
            var all: [String: UInt64] {
                get { lock.withLock { values } }
                set { lock.withLock { values = newValue } }
            }
        }
    }

    /// The stored properties each fingerprint reads, by type; a test compares them with the types' own, so a
    /// property added to one of them without being fingerprinted fails the tests instead of leaving stale pages.
    static let fingerprintedFields: [String: [String]] = [
        "Books": ["clients", "invoices", "currencies", "payments", "paymentDetails", "writeOffs", "taxLines", "taxes", "schemaVersion"],
        "ClientSnapshot": ["id", "number", "name", "email", "street", "city", "zip", "country", "language"],
        "InvoiceSnapshot": [
            "id", "identifier", "clientIndex", "currencyIndex", "amount", "issued", "due", "paid", "notes", "status", "kind", "net",
            "corrects", "applied",
        ],
        "PaymentSnapshot": ["invoiceIndex", "date", "amount", "details"],
        "PaymentDetails": ["method", "reference"],
        "WriteOffSnapshot": ["invoiceIndex", "date", "amount", "reason"],
        "TaxLineSnapshot": ["invoiceIndex", "taxIndex", "net", "amount"],
        "TaxRate": ["name", "milliPercent"],
        "Report": ["months", "asOf", "clients", "currencies", "agingBuckets", "taxes", "balances"],
        "TaxTotals": ["currency", "taxIndex", "months", "period"],
        "TaxFigures": ["accrualNet", "accrualTax", "cashNet", "cashTax"],
        "ReportPeriod": ["month", "months", "asOf", "agingBuckets"],
        "ClientTotals": ["clientIndex", "currencies"],
        "ClientCurrency": ["currency", "months", "previousMonth", "period", "aging"],
        "CurrencyTotals": ["currency", "months", "previousMonth", "period", "aging"],
        "Figures": ["invoiced", "paid", "outstanding", "overdue", "invoices", "net", "tax", "credited", "writtenOff", "credit", "movements"],
        "Aging": ["buckets"],
        "AgingBuckets": ["limits"],
        "SiteOptions": [
            "title", "titleFollowsLanguage", "locale", "localeFollowsLanguage", "language", "period", "taxBasis", "fiscalYearStart", "conversion", "debugMarkdownFolder", "baseURL", "isPublic", "buildID",
            "clientLinkToken", "payee", "pageSize", "csvDialect", "journalAccounts", "datev",
        ],
        "JournalAccounts": ["receivables", "bank", "revenue", "tax", "writeOffs", "opening"],
        "Payee": ["name", "iban", "bic", "paymentURL", "address", "qrBillIBAN"],
        "Payee.Address": ["street", "number", "zip", "city", "country"],
    ]

    /// The fingerprints of every unit's inputs (``inputs``).
    func makeInputs() -> Inputs {
        var base = Fingerprint()
        base.add(Self.executableIdentity)
        Self.addOptions(options, to: &base)
        base.add(report.asOf) { $0.add($1.dayNumber) }
        base.add(report.months.count)
        for month in report.months { base.add(month.year); base.add(month.month) }
        base.add(books.currencies.count)
        for currency in books.currencies { base.add(currency.code); base.add(currency.minorUnitDigits) }
        let baseValue = base.value

        // The settlements and the months' inputs, then the clients' (each its own, folded in order below), on every
        // core: they ran on one core while the other waited, before any page rendered (the same values either way).
        let width = max(ProcessInfo.processInfo.activeProcessorCount, 1)
        let (settlements, months) = sideBySide({ settlementFingerprints() }, { monthInputs(base: baseValue) })
        var totalsFound: [Int: Report.ClientTotals] = [:]
        for totals in report.clients { totalsFound[totals.clientIndex] = totals }
        let totalsByClient = totalsFound
        var clients = [UInt64](repeating: 0, count: books.clients.count)
        clients.withUnsafeMutableBufferPointer { clientsOut in
            nonisolated(unsafe) let clientsOut = clientsOut
            let count = clientsOut.count
            DispatchQueue.concurrentPerform(iterations: width) { part in
                for index in stride(from: part, to: count, by: width) {
                    clientsOut[index] = clientInput(index, base: baseValue, settlements: settlements, totals: totalsByClient[index])
                }
            }
        }
        var all = Fingerprint(seed: baseValue)
        for client in clients { all.add(client) }
        for totals in report.currencies {
            Self.add(totals.currency, totals.months, totals.previousMonth, totals.period, totals.aging, to: &all)
        }
        addSettlements(to: &all)
        return Inputs(base: baseValue, all: all.value, clients: clients, months: months)
    }

    /// The fingerprint of what the client at `index` shows (``makeInputs()``): its fields, its invoices with their
    /// `settlements`, and its `totals`.
    private func clientInput(_ index: Int, base: UInt64, settlements: [UInt64], totals: Report.ClientTotals?) -> UInt64 {
        var client = Fingerprint(seed: base)
        let snapshot = books.clients[index]
        for text in [snapshot.number, snapshot.name, snapshot.email, snapshot.street, snapshot.city, snapshot.zip, snapshot.country, snapshot.language] {
            client.add(text)
        }
        // A client's own language (schema 3), only when it has one: stores without keep their fingerprints.
        if !snapshot.language.isEmpty { client.add("language " + snapshot.language) }
        client.add(snapshot.id)
        client.add(paths.slugs[index])
        client.add(paths.clientLink(index)) { $0.add($1) }
        client.add(view.invoicesByClient[index].count)
        // Each field read in place (`pointee`): a copy of the invoice would retain and release its texts.
        books.invoices.withUnsafeBufferPointer { invoices in
            for invoiceIndex in view.invoicesByClient[index] {
                let invoice = invoices.baseAddress! + invoiceIndex
                client.add(invoice.pointee.id)
                client.add(invoice.pointee.identifier)
                client.add(invoice.pointee.clientIndex)
                client.add(Int(invoice.pointee.currencyIndex))
                client.add(invoice.pointee.amount)
                client.add(invoice.pointee.issued.dayNumber)
                client.add(invoice.pointee.due.dayNumber)
                client.add(invoice.pointee.paid) { $0.add($1.dayNumber) }
                client.add(invoice.pointee.notes)
                client.add(Int(invoice.pointee.status.rawValue))
                client.add(Int(invoice.pointee.kind.rawValue))
                client.add(invoice.pointee.net)
                client.add(invoice.pointee.corrects)
                client.add(invoice.pointee.applied) { $0.add($1.dayNumber) }
                client.add(settlements[invoiceIndex])
            }
        }
        client.add(totals) { fingerprint, totals in
            fingerprint.add(totals.clientIndex)
            for entry in totals.currencies {
                Self.add(entry.currency, entry.months, entry.previousMonth, entry.period, entry.aging, to: &fingerprint)
            }
        }
        return client.value
    }

    /// Per month: the currencies' totals of the month and the one before, and every client active in it with
    /// what its row shows (name, number, address, the month's figures and the month before's).
    private func monthInputs(base: UInt64) -> [UInt64] {
        var months = report.months.indices.map { _ in Fingerprint(seed: base) }
        for offset in report.months.indices {
            for totals in report.currencies {
                months[offset].add(totals.currency.code)
                Self.add(totals.months[offset], to: &months[offset])
                Self.add(offset > 0 ? totals.months[offset - 1] : totals.previousMonth, to: &months[offset])
            }
        }
        for totals in report.clients {
            let client = books.clients[totals.clientIndex]
            for entry in totals.currencies {
                for offset in report.months.indices where entry.months[offset].isActive {
                    months[offset].add(totals.clientIndex)
                    months[offset].add(client.name)
                    months[offset].add(client.number)
                    months[offset].add(paths.slugs[totals.clientIndex])
                    months[offset].add(entry.currency.code)
                    Self.add(entry.months[offset], to: &months[offset])
                    Self.add(offset > 0 ? entry.months[offset - 1] : entry.previousMonth, to: &months[offset])
                }
            }
        }
        return months.map(\.value)
    }

    /// Feeds every option a page can show or depend on (the client link key through the paths it gives, see
    /// ``SourceFingerprint``).
    static func addOptions(_ options: SiteOptions, to fingerprint: inout Fingerprint) {
        // The title as the pages show it: with `titleFollowsLanguage`, the language's (SiteView resolved it).
        fingerprint.add(options.title)
        fingerprint.add(options.locale)
        fingerprint.add(options.language)
        if !options.localeFollowsLanguage { fingerprint.add("locale set") }
        fingerprint.add(options.period.months) {
            $0.add($1.lowerBound.year); $0.add($1.lowerBound.month); $0.add($1.upperBound.year); $0.add($1.upperBound.month)
        }
        fingerprint.add(options.taxBasis.rawValue)
        fingerprint.add(options.fiscalYearStart)
        fingerprint.add(options.period.month) { $0.add($1.year); $0.add($1.month) }
        fingerprint.add(options.period.asOf) { $0.add($1.dayNumber) }
        // The aging buckets: their heads on the pages, the columns of aging.csv and report.json.
        fingerprint.add(options.period.agingBuckets.limits.count)
        for limit in options.period.agingBuckets.limits { fingerprint.add(limit) }
        fingerprint.add(options.conversion) { fingerprint, conversion in
            fingerprint.add(conversion.base.code)
            fingerprint.add(conversion.rates.rates.count)
            for rate in conversion.rates.rates {
                fingerprint.add(rate.date.dayNumber)
                fingerprint.add(rate.from.code)
                fingerprint.add(rate.to.code)
                fingerprint.add(rate.rate.description)
            }
        }
        fingerprint.add(options.debugMarkdownFolder) { $0.add($1) }
        fingerprint.add(options.baseURL) { $0.add($1) }
        fingerprint.add(options.isPublic)
        fingerprint.add(options.buildID) { $0.add($1) }
        // The client link token is a function: the paths it gives are in each client's fingerprint.
        fingerprint.add(options.clientLinkToken != nil)
        fingerprint.add(options.pageSize)
        // The CSV files' dialect: the exports, the quarters' CSV and changes.csv.
        fingerprint.add(options.csvDialect.name.rawValue)
        fingerprint.add(Int(options.csvDialect.fieldSeparator))
        fingerprint.add(Int(options.csvDialect.decimalSeparator))
        fingerprint.add(options.csvDialect.byteOrderMark)
        for key in JournalAccounts.keys { fingerprint.add(options.journalAccounts[key: key] ?? "") }
        fingerprint.add(options.datev) { fingerprint, datev in
            fingerprint.add("\(datev.adviser) \(datev.client) \(datev.chart) \(datev.bankAccount) \(datev.writeOffAccount)")
            for (rate, account) in datev.revenue.sorted(by: { $0.key < $1.key }) { fingerprint.add("\(rate)=\(account)") }
            for (client, account) in datev.debtors.sorted(by: { $0.key < $1.key }) { fingerprint.add("\(client)=\(account)") }
        }
        fingerprint.add(options.payee) { fingerprint, payee in
            fingerprint.add(payee.name)
            fingerprint.add(payee.iban) { $0.add($1) }
            fingerprint.add(payee.bic) { $0.add($1) }
            fingerprint.add(payee.paymentURL) { $0.add($1) }
            fingerprint.add(payee.address) { fingerprint, address in
                for text in [address.street, address.number, address.zip, address.city, address.country] { fingerprint.add(text) }
            }
            fingerprint.add(payee.qrBillIBAN) { $0.add($1) }
        }
    }

    /// Per invoice, what a client's pages show of its payments, write-offs, tax lines and balance (books of schema 2),
    /// in one pass over each table (they are sorted by invoice): a payment recorded renders its client's pages, not
    /// the whole site.
    private func settlementFingerprints() -> [UInt64] {
        var prints = books.invoices.indices.map { _ in Fingerprint() }
        /// Feeds each row of `table` (sorted by invoice index) to its invoice's fingerprint, then every count.
        func walk<T>(_ table: [T], _ key: (T) -> Int32, _ feed: (inout Fingerprint, T) -> Void) {
            var counts = [Int32](repeating: 0, count: prints.count)
            for row in table {
                let invoice = Int(key(row))
                feed(&prints[invoice], row)
                counts[invoice] += 1
            }
            for invoice in prints.indices { prints[invoice].add(counts[invoice]) }
        }
        walk(books.payments, { $0.invoiceIndex }) { fingerprint, payment in
            fingerprint.add(payment.date.dayNumber)
            fingerprint.add(payment.amount)
            fingerprint.add(payment.details >= 0 ? books.paymentDetails[Int(payment.details)] : nil) { $0.add($1.method); $0.add($1.reference) }
        }
        walk(books.writeOffs, { $0.invoiceIndex }) { fingerprint, writeOff in
            fingerprint.add(writeOff.date.dayNumber)
            fingerprint.add(writeOff.amount)
            fingerprint.add(writeOff.reason)
        }
        walk(books.taxLines, { $0.invoiceIndex }) { fingerprint, line in
            fingerprint.add(books.taxes[Int(line.taxIndex)].name)
            fingerprint.add(books.taxes[Int(line.taxIndex)].milliPercent)
            fingerprint.add(line.net)
            fingerprint.add(line.amount)
        }
        for (invoice, balance) in report.balances { prints[invoice].add(balance) }
        return prints.map(\.value)
    }

    /// Payments, write-offs, tax lines and rates, the report's taxes and balances (books of schema 2), for the pages
    /// that show the whole books (``Inputs/all``): the overview, the lists, the fiscal periods, the exports.
    private func addSettlements(to fingerprint: inout Fingerprint) {
        fingerprint.add(books.schemaVersion)
        fingerprint.add(books.payments.count)
        for payment in books.payments {
            fingerprint.add(payment.invoiceIndex); fingerprint.add(payment.date.dayNumber); fingerprint.add(payment.amount)
            fingerprint.add(payment.details)
        }
        fingerprint.add(books.paymentDetails.count)
        for details in books.paymentDetails { fingerprint.add(details.method); fingerprint.add(details.reference) }
        fingerprint.add(books.writeOffs.count)
        for writeOff in books.writeOffs {
            fingerprint.add(writeOff.invoiceIndex); fingerprint.add(writeOff.date.dayNumber); fingerprint.add(writeOff.amount)
            fingerprint.add(writeOff.reason)
        }
        fingerprint.add(books.taxLines.count)
        for line in books.taxLines {
            fingerprint.add(line.invoiceIndex); fingerprint.add(line.taxIndex); fingerprint.add(line.net); fingerprint.add(line.amount)
        }
        fingerprint.add(books.taxes.count)
        for tax in books.taxes { fingerprint.add(tax.name); fingerprint.add(tax.milliPercent) }
        fingerprint.add(report.taxes.count)
        for totals in report.taxes {
            fingerprint.add(totals.currency.code)
            fingerprint.add(totals.taxIndex)
            fingerprint.add(totals.months.count)
            for figures in totals.months + [totals.period] { Self.add(figures, to: &fingerprint) }
        }
        fingerprint.add(report.balances.count)
        for (index, balance) in report.balances.sorted(by: { $0.key < $1.key }) { fingerprint.add(index); fingerprint.add(balance) }
    }

    static func add(
        _ currency: CurrencyCode, _ months: [Figures], _ previous: Figures, _ period: Figures, _ aging: Aging,
        to fingerprint: inout Fingerprint
    ) {
        fingerprint.add(currency.code)
        fingerprint.add(months.count)
        for figures in months { add(figures, to: &fingerprint) }
        add(previous, to: &fingerprint)
        add(period, to: &fingerprint)
        for bucket in aging.buckets { fingerprint.add(bucket) }
    }

    static func add(_ figures: TaxFigures, to fingerprint: inout Fingerprint) {
        for value in [figures.accrualNet, figures.accrualTax, figures.cashNet, figures.cashTax] { fingerprint.add(value) }
    }

    static func add(_ figures: Figures, to fingerprint: inout Fingerprint) {
        fingerprint.add(figures.invoiced)
        fingerprint.add(figures.paid)
        fingerprint.add(figures.outstanding)
        fingerprint.add(figures.overdue)
        fingerprint.add(figures.invoices)
        fingerprint.add(figures.net)
        fingerprint.add(figures.tax)
        fingerprint.add(figures.credited)
        fingerprint.add(figures.writtenOff)
        fingerprint.add(figures.credit)
        fingerprint.add(figures.movements)
    }

    /// The executable's identity (device, inode, size, modification time): pages rendered by another build of the
    /// tool are rendered again.
    static let executableIdentity: UInt64 = {
        var fingerprint = Fingerprint()
        var info = stat()
        let path = "/proc/self/exe"
        if stat(path, &info) == 0 || stat(CommandLine.arguments.first ?? "", &info) == 0 {
            fingerprint.add(UInt64(info.st_dev))
            fingerprint.add(UInt64(info.st_ino))
            fingerprint.add(Int64(info.st_size))
            fingerprint.add(Int64(info.st_mtim.tv_sec))
            fingerprint.add(Int64(info.st_mtim.tv_nsec))
        } else {
            fingerprint.add(UInt64.random(in: .min ... .max))  // unknown: never reuse
        }
        return fingerprint.value
    }()
}
