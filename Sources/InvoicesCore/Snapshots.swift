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

    public init(
        id: Int64, number: String, name: String, email: String = "", street: String = "", city: String = "",
        zip: String = "", country: String = ""
    ) {
        self.id = id
        self.number = number
        self.name = name
        self.email = email
        self.street = street
        self.city = city
        self.zip = zip
        self.country = country
    }
}

/// An invoice as read from the store: a Sendable value that may cross contexts and threads.
///
/// The client is referenced by its index in ``Books/clients`` and the currency by its index in
/// ``Books/currencies``, so a table of millions of invoices holds no repeated strings.
public struct InvoiceSnapshot: Sendable, Hashable {
    /// The store's row id.
    public var id: Int64
    /// The invoice identifier, unique in the store (e.g. `INV-2025-00042`).
    public var identifier: String
    /// Index of the invoice's client in ``Books/clients``.
    public var clientIndex: Int32
    /// Index of the currency in ``Books/currencies``.
    public var currencyIndex: Int16
    /// The amount in the currency's minor units.
    public var amount: Int64
    public var issued: CalendarDate
    public var due: CalendarDate
    /// The day the invoice was paid in full, if it was.
    public var paid: CalendarDate?
    public var notes: String

    public init(
        id: Int64, identifier: String, clientIndex: Int32, currencyIndex: Int16, amount: Int64,
        issued: CalendarDate, due: CalendarDate, paid: CalendarDate?, notes: String
    ) {
        self.id = id
        self.identifier = identifier
        self.clientIndex = clientIndex
        self.currencyIndex = currencyIndex
        self.amount = amount
        self.issued = issued
        self.due = due
        self.paid = paid
        self.notes = notes
    }
}

/// Everything a report is computed from: every client and invoice of a store, as compact Sendable tables.
///
/// Clients are ordered by number; invoices by issue date, then identifier. Currencies are sorted by code.
public struct Books: Sendable {
    public var clients: [ClientSnapshot]
    public var invoices: [InvoiceSnapshot]
    public var currencies: [CurrencyCode]

    public init(clients: [ClientSnapshot], invoices: [InvoiceSnapshot], currencies: [CurrencyCode]) {
        self.clients = clients
        self.invoices = invoices
        self.currencies = currencies
    }

    /// The amount of `invoice` as money.
    public func money(of invoice: InvoiceSnapshot) -> Money {
        Money(minorUnits: invoice.amount, currency: currencies[Int(invoice.currencyIndex)])
    }
}
