internal import InvoicesCore

/// Every client's statements of account (``Report/statements(of:invoices:in:)``), read by client index in
/// ``Books/clients``: one per currency, or the sum that does not fit in 64-bit minor units; none for a client without
/// figures.
///
/// A client's statements are worked out by this module's code when its page asks for them, each time (a build asks
/// once per client), not held for the whole build: at 20,000 clients and 2,000,000 invoices every client's lines
/// together were about 180 MB of a build's peak (docs/performance.md, "The figures held through the render").
/// Statements put in through the subscript are the ones read back, as a figure of ``SiteFigures`` may be changed.
public struct ClientStatements: Sendable, Equatable {
    let books: Books
    let report: Report
    let invoicesByClient: [[Int]]
    /// Per client, its position in ``Report/clients``, or -1 for a client without figures.
    let positions: [Int32]
    /// Per invoice (index in ``Books/invoices``, and one past the last), the position in ``Books/payments`` of its
    /// first payment, or of the first payment of a later invoice: a client's invoices are spread over the whole
    /// table, so a binary search for each missed the cache at nearly every probe (docs/performance.md, "The L
    /// render's statements and trail lines"). 4 bytes an invoice.
    let firstPayments: [Int32]
    /// Statements put in through the subscript, by client index.
    var given: [Int: Result<[ClientStatement], ReportError>] = [:]

    /// The statements of `report`'s clients over `books`; `invoicesByClient` as ``Books/invoicesByClient()`` gives.
    init(books: Books, report: Report, invoicesByClient: [[Int]]) {
        self.books = books
        self.report = report
        self.invoicesByClient = invoicesByClient
        var positions = [Int32](repeating: -1, count: books.clients.count)
        for (position, totals) in report.clients.enumerated() { positions[totals.clientIndex] = Int32(position) }
        self.positions = positions
        firstPayments = Self.firstPayments(books)
    }

    /// ``firstPayments`` of `books`, in one pass over the payments (sorted by invoice index); none when there are
    /// more payments than 32 bits count (each statement then searches the payments).
    static func firstPayments(_ books: Books) -> [Int32] {
        let payments = books.payments
        guard payments.count < Int(Int32.max) else { return [] }
        return [Int32](unsafeUninitializedCapacity: books.invoices.count + 1) { buffer, count in
            var position = 0
            for invoice in 0...books.invoices.count {
                while position < payments.count, Int(payments[position].invoiceIndex) < invoice { position += 1 }
                buffer[invoice] = Int32(position)
            }
            count = books.invoices.count + 1
        }
    }

    /// How many clients: the statements are read for `0..<count`.
    public var count: Int { positions.count }

    /// The statements of the client at `client` in ``Books/clients``.
    public subscript(client: Int) -> Result<[ClientStatement], ReportError> {
        get {
            if let statements = given[client] { return statements }
            let position = Int(positions[client])
            guard position >= 0 else { return .success([]) }
            return Result { () throws(ReportError) in
                try report.statements(of: report.clients[position], invoices: invoicesByClient[client], in: books) { index in
                    firstPayments.isEmpty ? Report.first(of: index, in: books.payments) { $0.invoiceIndex } : Int(firstPayments[index])
                }
            }
        }
        set { given[client] = newValue }
    }

    /// Equal when every client's statements are.
    public static func == (lhs: ClientStatements, rhs: ClientStatements) -> Bool {
        lhs.count == rhs.count && (0..<lhs.count).allSatisfy { lhs[$0] == rhs[$0] }
    }
}
