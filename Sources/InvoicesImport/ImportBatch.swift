public import InvoicesCore

/// Where a value came from: a file and a line (CSV) or an element path (JSON).
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file as named on the command line (or, for a bad option, the option and its value).
    public var file: String
    /// The 1-based line for CSV; nil for JSON.
    public var line: Int?
    /// The element path for JSON, e.g. `invoices[3]`.
    public var element: String?

    public init(file: String, line: Int? = nil, element: String? = nil) {
        self.file = file
        self.line = line
        self.element = element
    }

    /// `file:line` or `file: element`, each escaped for a terminal (``InvoicesCore/TerminalText``): a file's name
    /// and an element's path come from outside the tool.
    public var description: String {
        let file = TerminalText.escaped(file)
        if let line { return "\(file):\(line)" }
        if let element { return "\(file): \(TerminalText.escaped(element))" }
        return file
    }
}

/// A client read from an import file. A nil field is one the source does not carry: the store's value is kept.
public struct ImportedClient: Sendable, Hashable {
    /// The client number, when the source has one; clients without one are matched by name.
    public var number: String?
    public var name: String
    public var email: String?
    public var street: String?
    public var city: String?
    public var zip: String?
    public var country: String?
    /// The client's language, a well-formed BCP 47 tag (checked by the reader), stored from schema 3.
    public var language: String?
    public var source: SourceLocation

    public init(
        number: String?, name: String, email: String? = nil, street: String? = nil, city: String? = nil,
        zip: String? = nil, country: String? = nil, language: String? = nil, source: SourceLocation
    ) {
        self.language = language
        self.number = number
        self.name = name
        self.email = email
        self.street = street
        self.city = city
        self.zip = zip
        self.country = country
        self.source = source
    }
}

/// How an imported invoice names its client.
public enum ClientReference: Sendable, Hashable, CustomStringConvertible {
    /// By client number (the tool's own formats).
    case number(String)
    /// By name (FreshBooks, Zoho).
    case name(String)

    /// Whether the number or name is empty (readers trim values).
    var isEmpty: Bool {
        switch self {
        case .number(let text), .name(let text): text.isEmpty
        }
    }

    public var description: String {
        switch self {
        case .number(let number): "client number '\(number)'"
        case .name(let name): "client '\(name)'"
        }
    }
}

/// Where an invoice row names its client: checked against the batch's and the store's clients.
public struct ImportedReference: Sendable, Hashable {
    public var client: ClientReference
    /// The column the reference is in, for messages.
    public var column: String
    public var source: SourceLocation

    public init(client: ClientReference, column: String, source: SourceLocation) {
        self.client = client
        self.column = column
        self.source = source
    }
}

/// What a source says was received for an invoice and written off (Zoho: `Total − Balance` on `Last Payment Date`).
public struct ImportedReceipts: Sendable, Hashable {
    /// Received to date, in minor units; nil when nothing was.
    public var received: Int64?
    /// The day of the last payment.
    public var receivedOn: CalendarDate?
    public var writtenOff: Int64?
    public var writtenOffOn: CalendarDate?

    public init(received: Int64?, receivedOn: CalendarDate?, writtenOff: Int64? = nil, writtenOffOn: CalendarDate? = nil) {
        self.received = received
        self.receivedOn = receivedOn
        self.writtenOff = writtenOff
        self.writtenOffOn = writtenOffOn
    }
}

/// One payment read from an import file (a refund is negative), for the invoice it names by identifier: in the
/// same import or already in the store. The payments a batch carries for an invoice are all of its payments.
public struct ImportedPayment: Sendable, Hashable {
    /// The identifier of the invoice paid.
    public var invoice: String
    public var date: CalendarDate
    /// In the currency the file names; it must be the invoice's.
    public var amount: Money
    public var method: String
    public var reference: String
    public var source: SourceLocation
    /// The file's column for each of the model's attributes (`invoice`, `paidOn`, `amount`, `currency`), for messages.
    public var columns: [String: String]

    public init(
        invoice: String, date: CalendarDate, amount: Money, method: String = "", reference: String = "", source: SourceLocation,
        columns: [String: String] = [:]
    ) {
        self.invoice = invoice
        self.date = date
        self.amount = amount
        self.method = method
        self.reference = reference
        self.source = source
        self.columns = columns
    }
}

/// An invoice's net and its tax lines, as a source states them; the gross is the net plus the lines' amounts.
public struct ImportedTax: Sendable, Hashable {
    /// One tax line: a name, a rate, the net it is levied on (nil: the invoice's) and the tax, in minor units.
    public struct Line: Sendable, Hashable {
        public var name: String
        /// A percentage, as ``InvoicesCore/TaxRate/percent`` writes it (`7.7`).
        public var rate: String
        public var net: Int64?
        public var amount: Int64

        public init(name: String, rate: String, net: Int64? = nil, amount: Int64) {
            self.name = name
            self.rate = rate
            self.net = net
            self.amount = amount
        }
    }

    public var net: Int64
    public var lines: [Line]

    public init(net: Int64, lines: [Line]) {
        self.net = net
        self.lines = lines
    }

    /// A net and one tax line levied on it.
    public init(net: Int64, name: String, rate: String, amount: Int64) {
        self.init(net: net, lines: [Line(name: name, rate: rate, amount: amount)])
    }
}

/// An amount of an invoice written off on a day.
public struct ImportedWriteOff: Sendable, Hashable {
    public var date: CalendarDate
    public var amount: Int64
    public var reason: String

    public init(date: CalendarDate, amount: Int64, reason: String = "") {
        self.date = date
        self.amount = amount
        self.reason = reason
    }
}

/// An invoice read from an import file, with its amount already exact in minor units.
public struct ImportedInvoice: Sendable, Hashable {
    public var identifier: String
    public var client: ClientReference
    /// The column the client reference came from, for messages.
    public var clientColumn: String
    public var amount: Money
    public var issued: CalendarDate
    public var due: CalendarDate
    /// Whether ``due`` was computed (issue date plus default terms) rather than read; a computed due date is
    /// used for new invoices only and never replaces a stored one.
    public var dueIsDerived: Bool
    public var paid: CalendarDate?
    /// Nil when the source has no notes column: the stored notes are kept.
    public var notes: String?
    public var source: SourceLocation
    /// Nil when the source has no status: the stored status is kept (a new invoice is sent).
    public var status: InvoiceStatus?
    /// Partial payments and write-offs, when the source has them; nil: the paid date says it all (paid in full).
    public var receipts: ImportedReceipts?
    /// The net and the tax lines, when the source has them (nil: the stored ones are kept).
    public var tax: ImportedTax?
    /// The write-offs, when the source lists them (nil: ``receipts``' write-off, if any, else the stored ones kept).
    public var writeOffs: [ImportedWriteOff]?
    /// Invoice or credit note, when the source says (nil: the stored kind is kept; a new invoice is an invoice).
    public var kind: InvoiceKind?
    /// A credit note: the identifier of the invoice it corrects, in the same import or in the store.
    public var corrects: String?
    /// A credit note: the day it was applied to the invoice it corrects.
    public var applied: CalendarDate?
    /// A credit note whose ``corrects`` is neither imported nor in the store is kept as its client's unapplied credit
    /// (no corrected invoice, no applied day) with a warning, instead of refused: an e-invoice credit note names an
    /// invoice (BT-25) the books may never have held.
    public var unappliedWhenUncorrected = false

    public init(
        identifier: String, client: ClientReference, clientColumn: String, amount: Money, issued: CalendarDate, due: CalendarDate,
        dueIsDerived: Bool = false, paid: CalendarDate?, notes: String?, source: SourceLocation,
        status: InvoiceStatus? = nil, receipts: ImportedReceipts? = nil, tax: ImportedTax? = nil
    ) {
        self.status = status
        self.receipts = receipts
        self.tax = tax
        self.identifier = identifier
        self.client = client
        self.clientColumn = clientColumn
        self.amount = amount
        self.issued = issued
        self.due = due
        self.dueIsDerived = dueIsDerived
        self.paid = paid
        self.notes = notes
        self.source = source
    }
}

/// Everything one import will write, validated row by row: plain Sendable values, no store, no context.
///
/// A batch may carry the ``problems`` its files have (``ImportReader/batch(from:)``): then it is never written,
/// but ``ImportWriter`` still resolves its client references against the store, so that every problem of an
/// import is reported in one run.
///
/// ```swift
/// let batch = try ImportReader(options: options).batch(from: ["clients.csv", "invoices.csv"])
/// let summary = try ImportWriter.apply(batch, to: "books.sqlite")   // throws every problem, or writes all
/// ```
public struct ImportBatch: Sendable, Hashable {
    public var clients: [ImportedClient]
    public var invoices: [ImportedInvoice]
    /// Payments, each naming its invoice; an invoice named here gets exactly these payments.
    public var payments: [ImportedPayment] = []
    /// Invoices left out because the source marks them draft or void (FreshBooks, Zoho).
    public var skippedInvoices: Int
    /// Payments left out because they pay no invoice (FreshBooks payments recorded as the client's credit).
    public var skippedPayments = 0
    /// The files read, in the order given: problems are reported in this order, then by line.
    public var files: [String]
    /// Problems found in the files; rows with problems are not in ``clients`` and ``invoices``.
    public var problems: [ImportProblem]
    /// Problems found beyond those in ``problems``: counted, not kept (the reader keeps its problem limit's worth).
    public var omittedProblems = 0
    /// What the reader assumed where a source is silent (an e-invoice without a due date, a paid amount without a
    /// date): printed, never an error.
    public var warnings: [ImportProblem] = []
    /// The client references of invoice rows left out for other problems: checked all the same.
    public var rejectedReferences: [ImportedReference]
    /// Clients of client rows left out for problems: references to them are not reported a second time.
    public var rejectedClients: Set<ClientReference>
    /// What one file of a service leaves for another to complete (Invoice Ninja's payments, Wave's currencies).
    var links = ServiceLinks()

    public init(
        clients: [ImportedClient] = [], invoices: [ImportedInvoice] = [], skippedInvoices: Int = 0,
        files: [String] = [], problems: [ImportProblem] = [], rejectedReferences: [ImportedReference] = [],
        rejectedClients: Set<ClientReference> = []
    ) {
        self.clients = clients
        self.invoices = invoices
        self.skippedInvoices = skippedInvoices
        self.files = files
        self.problems = problems
        self.rejectedReferences = rejectedReferences
        self.rejectedClients = rejectedClients
    }
}

/// How many rows an import added, updated and left unchanged.
public struct ImportSummary: Sendable, Hashable, CustomStringConvertible {
    public struct Counts: Sendable, Hashable {
        public var added = 0
        public var updated = 0
        public var unchanged = 0
        /// Payments only: stored payments an import replaced.
        public var removed = 0
        public init(added: Int = 0, updated: Int = 0, unchanged: Int = 0, removed: Int = 0) {
            self.added = added
            self.updated = updated
            self.unchanged = unchanged
            self.removed = removed
        }
    }

    public var clients = Counts()
    public var invoices = Counts()
    /// Payment rows added, removed and left as they were; nil when the import named no payments of its own (a
    /// paid date or a received total alone does not count here).
    public var payments: Counts?
    /// Drafts and voids left out because the store is schema v1 (it has no status).
    public var skippedInvoices = 0
    /// What the writer chose that the user should know (a credit note kept as unapplied credit).
    public var warnings: [ImportProblem] = []

    public init(clients: Counts = Counts(), invoices: Counts = Counts()) {
        self.clients = clients
        self.invoices = invoices
    }

    public var description: String {
        "clients: \(clients.added) added, \(clients.updated) updated, \(clients.unchanged) unchanged; "
            + "invoices: \(invoices.added) added, \(invoices.updated) updated, \(invoices.unchanged) unchanged"
            + (payments.map { "; payments: \($0.added) added, \($0.removed) removed, \($0.unchanged) unchanged" } ?? "")
    }
}

/// Minor-unit arithmetic on amounts read from files, checked: a result past 64 bits is nil (a refusal at the row or
/// element that made it), never a trap and never a wrap. ``InvoicesCore/Money/adding(_:)`` is the same for `Money`.
enum MinorUnits {
    static func add(_ a: Int64?, _ b: Int64?) -> Int64? {
        guard let a, let b else { return nil }
        let (result, overflow) = a.addingReportingOverflow(b)
        return overflow ? nil : result
    }

    static func subtract(_ a: Int64?, _ b: Int64?) -> Int64? {
        guard let a, let b else { return nil }
        let (result, overflow) = a.subtractingReportingOverflow(b)
        return overflow ? nil : result
    }

    static func sum(_ values: some Sequence<Int64>) -> Int64? {
        var total: Int64? = 0
        for value in values {
            total = add(total, value)
            if total == nil { return nil }
        }
        return total
    }

    /// Why a sum does not fit, for a message.
    static let tooLarge = "does not fit in 64-bit minor units (the amounts are too large to add up)"
}
