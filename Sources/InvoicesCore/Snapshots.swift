/// A client as read from the store: a Sendable value that may cross contexts and threads.
public struct ClientSnapshot: Sendable, Hashable {
    /// The store's row id.
    public var id: Int64
    /// The client number, unique in the store (e.g. `C-0042`).
    public var number: String
    public var name: String
    public var email: String
    public var street: String
    public var city: String
    public var zip: String
    public var country: String
    /// The client's language, a BCP 47 tag (`fr`, `de-CH`), or empty for the report's language (schema 3).
    public var language: String

    public init(
        id: Int64, number: String, name: String, email: String = "", street: String = "", city: String = "",
        zip: String = "", country: String = "", language: String = ""
    ) {
        self.id = id
        self.number = number
        self.name = name
        self.email = email
        self.street = street
        self.city = city
        self.zip = zip
        self.country = country
        self.language = language
    }
}

/// Whether an invoice counts: a draft is not yet sent, a void one was cancelled. Only sent invoices count in totals.
public enum InvoiceStatus: UInt8, Sendable, Hashable, CaseIterable {
    case draft, sent, void

    /// The store's spelling (`invoice.status`).
    public var name: String {
        switch self {
        case .draft: "draft"
        case .sent: "sent"
        case .void: "void"
        }
    }

    public init?(name: String) {
        guard let status = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = status
    }
}

/// What a row of the invoice table is: an invoice, or a credit note that corrects one.
public enum InvoiceKind: UInt8, Sendable, Hashable, CaseIterable {
    case invoice, creditNote

    /// The store's spelling (`invoice.kind`).
    public var name: String {
        switch self {
        case .invoice: "invoice"
        case .creditNote: "credit"
        }
    }

    public init?(name: String) {
        guard let kind = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = kind
    }
}

/// An invoice (or credit note) as read from the store: a Sendable value that may cross contexts and threads.
///
/// The client is referenced by its index in ``Books/clients`` and the currency by its index in
/// ``Books/currencies``, so a table of millions of invoices holds no repeated strings.
public struct InvoiceSnapshot: Sendable, Hashable {
    /// The store's row id.
    public var id: Int64
    /// The invoice identifier, unique in the store (e.g. `INV-2025-00042`); a credit note has its own.
    public var identifier: String
    /// Index of the invoice's client in ``Books/clients``.
    public var clientIndex: Int32
    /// Index of the currency in ``Books/currencies``.
    public var currencyIndex: Int16
    public var status: InvoiceStatus
    public var kind: InvoiceKind
    /// The gross amount (net plus taxes) in the currency's minor units.
    public var amount: Int64
    /// The net amount before taxes; ``amount`` minus the invoice's tax lines.
    public var net: Int64
    public var issued: CalendarDate
    public var due: CalendarDate
    /// The day the balance first reached zero (or below): the settled date, from the payments, applied credit notes
    /// and write-offs (a v1 store's `paidOn`). Nil while it has not, and for drafts, voids and credit notes.
    public var paid: CalendarDate?
    /// For a credit note: the index in ``Books/invoices`` of the invoice it corrects, or -1.
    public var corrects: Int32
    /// For a credit note: the day it was applied to the invoice it corrects; nil while it is the client's credit.
    public var applied: CalendarDate?
    public var notes: String

    public init(
        id: Int64, identifier: String, clientIndex: Int32, currencyIndex: Int16, amount: Int64,
        issued: CalendarDate, due: CalendarDate, paid: CalendarDate?, notes: String,
        status: InvoiceStatus = .sent, kind: InvoiceKind = .invoice, net: Int64? = nil, corrects: Int32 = -1,
        applied: CalendarDate? = nil
    ) {
        self.id = id
        self.identifier = identifier
        self.clientIndex = clientIndex
        self.currencyIndex = currencyIndex
        self.status = status
        self.kind = kind
        self.amount = amount
        self.net = net ?? amount
        self.issued = issued
        self.due = due
        self.paid = paid
        self.corrects = corrects
        self.applied = applied
        self.notes = notes
    }

    /// Whether the invoice counts in totals: sent (not a draft, not void).
    @inlinable public var counts: Bool { status == .sent }
}

/// A payment received for an invoice, in the invoice's currency; a refund is a negative payment.
///
/// 24 bytes: the method and reference, rarely read, live in ``Books/paymentDetails``.
public struct PaymentSnapshot: Sendable, Hashable {
    /// Index of the invoice in ``Books/invoices``.
    public var invoiceIndex: Int32
    public var date: CalendarDate
    /// Minor units of the invoice's currency; negative for a refund.
    public var amount: Int64
    /// Index in ``Books/paymentDetails`` of the method and reference, or -1 when both are empty.
    public var details: Int32

    public init(invoiceIndex: Int32, date: CalendarDate, amount: Int64, details: Int32 = -1) {
        self.invoiceIndex = invoiceIndex
        self.date = date
        self.amount = amount
        self.details = details
    }
}

/// A payment's method and reference (e.g. `bank transfer`, `SEPA-2025-0042`).
public struct PaymentDetails: Sendable, Hashable {
    public var method: String
    public var reference: String

    public init(method: String, reference: String) {
        self.method = method
        self.reference = reference
    }
}

/// An amount of an invoice given up as uncollectable on a date.
public struct WriteOffSnapshot: Sendable, Hashable {
    /// Index of the invoice in ``Books/invoices``.
    public var invoiceIndex: Int32
    public var date: CalendarDate
    /// Minor units of the invoice's currency; positive.
    public var amount: Int64
    public var reason: String

    public init(invoiceIndex: Int32, date: CalendarDate, amount: Int64, reason: String = "") {
        self.invoiceIndex = invoiceIndex
        self.date = date
        self.amount = amount
        self.reason = reason
    }
}

/// A tax by name and rate. The rate is exact: thousandths of a percent (7.7 % is 7700, 20 % is 20000).
public struct TaxRate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var name: String
    public var milliPercent: Int32

    public init(name: String, milliPercent: Int32) {
        self.name = name
        self.milliPercent = milliPercent
    }

    /// Parses a percentage written as a decimal with at most three decimals: `7.7`, `20`, `0`, `2.125`.
    public init?(name: String, percent text: String) {
        guard let value = Self.milliPercent(text) else { return nil }
        self.init(name: name, milliPercent: value)
    }

    /// A decimal percentage with at most three decimals in thousandths of a percent; nil when it is not one: the
    /// whole part one to three characters that `Int32` reads as a number not below zero (so a sign may lead), then
    /// optionally `.` and one to three digits.
    ///
    /// Read byte by byte when the text is ASCII (every store's rates; the loader reads one per tax line, and
    /// splitting them into characters was 2.7 % of a one-invoice rebuild at S); any other text as characters.
    public static func milliPercent(_ text: String) -> Int32? {
        var text = text
        if let value = text.withUTF8({ asciiMilliPercent($0) }) { return value }
        return characterMilliPercent(text)
    }

    /// ``milliPercent(_:)`` of ASCII bytes, as the outer optional; nil when they are not all ASCII.
    private static func asciiMilliPercent(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32?? {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        let dot = bytes.firstIndex(of: UInt8(ascii: "."))
        let wholeEnd = dot ?? bytes.count
        guard wholeEnd >= 1, wholeEnd <= 3 else { return .some(nil) }
        var index = 0
        var negative = false
        if bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-") {
            negative = bytes[0] == UInt8(ascii: "-")
            index = 1
        }
        guard index < wholeEnd else { return .some(nil) }
        var units: Int32 = 0
        while index < wholeEnd {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit <= 9 else { return .some(nil) }
            units = units * 10 + Int32(digit)
            index += 1
        }
        if negative, units != 0 { return .some(nil) }
        guard let dot else { return .some(units * 1000) }
        let digits = bytes.count - dot - 1
        guard digits >= 1, digits <= 3 else { return .some(nil) }
        var fraction: Int32 = 0
        for byte in bytes[(dot + 1)...] {
            let digit = byte &- UInt8(ascii: "0")
            guard digit <= 9 else { return .some(nil) }
            fraction = fraction * 10 + Int32(digit)
        }
        return .some(units * 1000 + fraction * [1, 100, 10, 1][digits])
    }

    /// ``milliPercent(_:)`` read as characters.
    static func characterMilliPercent(_ text: String) -> Int32? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.count <= 3, whole.allSatisfy(\.isASCII), let units = Int32(whole),
            units >= 0
        else { return nil }
        var fraction: Int32 = 0
        if parts.count == 2 {
            let digits = parts[1]
            guard !digits.isEmpty, digits.count <= 3, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int32(digits) else { return nil }
            fraction = value * [1, 100, 10, 1][digits.count]
        }
        return units * 1000 + fraction
    }

    /// The rate as a decimal percentage without trailing zeros: `7.7`, `20`, `0`.
    public var percent: String {
        let whole = milliPercent / 1000
        var fraction = String(milliPercent % 1000)
        guard fraction != "0" else { return String(whole) }
        while fraction.count < 3 { fraction = "0" + fraction }
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(whole).\(fraction)"
    }

    public var description: String { name.isEmpty ? "\(percent)%" : "\(name) \(percent)%" }

    public static func < (lhs: TaxRate, rhs: TaxRate) -> Bool {
        lhs.name != rhs.name ? lhs.name < rhs.name : lhs.milliPercent < rhs.milliPercent
    }
}

/// One tax line of an invoice: the tax, the net amount it is levied on, and the tax amount.
public struct TaxLineSnapshot: Sendable, Hashable {
    /// Index of the invoice in ``Books/invoices``.
    public var invoiceIndex: Int32
    /// Index of the tax in ``Books/taxes``.
    public var taxIndex: Int32
    /// The net amount the tax is levied on, in minor units of the invoice's currency.
    public var net: Int64
    /// The tax, in minor units of the invoice's currency.
    public var amount: Int64

    public init(invoiceIndex: Int32, taxIndex: Int32, net: Int64, amount: Int64) {
        self.invoiceIndex = invoiceIndex
        self.taxIndex = taxIndex
        self.net = net
        self.amount = amount
    }
}

/// Everything a report is computed from: every client and invoice of a store, as compact Sendable tables.
///
/// Clients are ordered by number; invoices by row id. Currencies are sorted by code, taxes by name and rate.
/// Payments, write-offs and tax lines are flat tables sorted by invoice index (then date), so a pass over the
/// invoices walks them with one cursor each and no lookup.
public struct Books: Sendable {
    public var clients: [ClientSnapshot]
    public var invoices: [InvoiceSnapshot]
    public var currencies: [CurrencyCode]
    /// Every payment, sorted by invoice index, then date (a v1 store: one per paid invoice, its whole amount).
    public var payments: [PaymentSnapshot]
    /// The methods and references payments point to.
    public var paymentDetails: [PaymentDetails]
    /// Every write-off, sorted by invoice index, then date.
    public var writeOffs: [WriteOffSnapshot]
    /// Every tax line, sorted by invoice index, then tax.
    public var taxLines: [TaxLineSnapshot]
    /// The taxes the lines refer to, sorted.
    public var taxes: [TaxRate]
    /// The schema version of the store the books were read from (1, 2 or 3).
    public var schemaVersion: Int

    /// Books from tables; without `payments`, each invoice with a paid date has one payment of its whole amount on
    /// that day (the v1 reading).
    public init(
        clients: [ClientSnapshot], invoices: [InvoiceSnapshot], currencies: [CurrencyCode],
        payments: [PaymentSnapshot]? = nil, paymentDetails: [PaymentDetails] = [], writeOffs: [WriteOffSnapshot] = [],
        taxLines: [TaxLineSnapshot] = [], taxes: [TaxRate] = [], schemaVersion: Int = 1
    ) {
        self.clients = clients
        self.invoices = invoices
        self.currencies = currencies
        self.payments = payments ?? Self.paymentsFromPaidDates(invoices)
        self.paymentDetails = paymentDetails
        self.writeOffs = writeOffs
        self.taxLines = taxLines
        self.taxes = taxes
        self.schemaVersion = schemaVersion
    }

    /// The v1 reading: one payment of the whole amount on each paid date.
    public static func paymentsFromPaidDates(_ invoices: [InvoiceSnapshot]) -> [PaymentSnapshot] {
        var payments: [PaymentSnapshot] = []
        payments.reserveCapacity(invoices.count)
        for index in invoices.indices {
            if let paid = invoices[index].paid {
                payments.append(PaymentSnapshot(invoiceIndex: Int32(index), date: paid, amount: invoices[index].amount))
            }
        }
        return payments
    }

    /// The amount of `invoice` as money.
    public func money(of invoice: InvoiceSnapshot) -> Money {
        Money(minorUnits: invoice.amount, currency: currencies[Int(invoice.currencyIndex)])
    }
}
