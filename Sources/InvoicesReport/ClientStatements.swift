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
                try report.statements(of: report.clients[position], invoices: invoicesByClient[client], in: books)
            }
        }
        set { given[client] = newValue }
    }

    /// Equal when every client's statements are.
    public static func == (lhs: ClientStatements, rhs: ClientStatements) -> Bool {
        lhs.count == rhs.count && (0..<lhs.count).allSatisfy { lhs[$0] == rhs[$0] }
    }
}
