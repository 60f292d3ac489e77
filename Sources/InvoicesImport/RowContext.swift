internal import InvoicesCore

/// Reads values out of rows, recording a located problem for each bad one.
struct RowContext {
    let dates: DateReader
    var problems: ProblemList
    let defaultTerms: Int
    /// Invoices left out as draft or void.
    var skipped = 0
    /// Payments left out: FreshBooks payments recorded as the client's credit, for no invoice.
    var skippedPayments = 0
    /// The client references of invoice rows left out for problems (``ImportBatch/rejectedReferences``).
    var rejectedReferences: [ImportedReference] = []
    /// Clients of client rows left out for problems (``ImportBatch/rejectedClients``).
    var rejectedClients: Set<ClientReference> = []

    mutating func problem(_ location: SourceLocation, _ column: String?, _ message: String) {
        problems.add(ImportProblem(location: location, column: column, message: message))
    }

    /// Notes the client an invoice row left out for other problems names, so that it is checked all the same.
    mutating func rejectedInvoice(naming client: ClientReference?, column: String, at location: SourceLocation) {
        guard let client, !client.isEmpty else { return }
        rejectedReferences.append(ImportedReference(client: client, column: column, source: location))
    }

    /// Notes a client row left out for problems, so that invoices naming it are not reported a second time.
    mutating func rejectedClient(_ client: ClientReference?) {
        guard let client, !client.isEmpty else { return }
        rejectedClients.insert(client)
    }

    /// A client's language: nil when `value` is nil or empty, the tag when it is well-formed BCP 47 (RFC 5646), else
    /// `.some(nil)` with a problem naming the row and column (the client row is then left out).
    mutating func language(_ value: String?, _ location: SourceLocation, _ column: String) -> String?? {
        guard let value, !value.isEmpty else { return .some(nil) }
        if let problem = LanguageTag.problem(with: value) {
            self.problem(location, column, problem)
            return nil
        }
        return .some(value)
    }

    /// A non-empty value, or nil with a problem.
    mutating func required(_ value: String, _ location: SourceLocation, _ column: String, what: String) -> String? {
        if value.isEmpty {
            problem(location, column, "is empty; every \(what) needs one")
            return nil
        }
        return value
    }

    mutating func currency(_ value: String, _ location: SourceLocation, _ column: String) -> CurrencyCode? {
        do {
            return try CurrencyCode(value.uppercased())
        } catch {
            problem(location, column, value.isEmpty ? "is empty; every invoice needs a currency" : error.description)
            return nil
        }
    }

    /// An exact amount; more decimals than the currency has is an error, never a rounding.
    mutating func money(
        _ value: String, _ currency: CurrencyCode, _ location: SourceLocation, _ column: String, allowNegative: Bool = false
    ) -> Money? {
        do {
            let money = try Money(parsing: value, currency: currency)
            if money.minorUnits < 0, !allowNegative {
                problem(location, column, "'\(value)' is negative; the store keeps no negative amounts (credit notes are not imported)")
                return nil
            }
            return money
        } catch {
            problem(location, column, error.description)
            return nil
        }
    }

    mutating func date(_ value: String, _ location: SourceLocation, _ column: String, required: Bool) -> CalendarDate?? {
        if value.isEmpty {
            if required {
                problem(location, column, "is empty; expected \(dates.expected)")
                return nil
            }
            return .some(nil)
        }
        guard let date = dates.date(value) else {
            problem(location, column, "'\(value)' is not \(dates.expected), naming a real day")
            return nil
        }
        return .some(date)
    }

    /// Checks that due and paid dates are not before the issue date (the store refuses such rows).
    mutating func checkOrder(
        issued: CalendarDate, due: CalendarDate, paid: CalendarDate?, _ location: SourceLocation,
        dueColumn: String?, paidColumn: String
    ) -> Bool {
        let violations = InvoiceRules.violations(identifier: "-", amount: 0, issued: issued, due: due, paid: paid)
        for violation in violations {
            problem(location, violation.attribute == "dueOn" ? dueColumn : paidColumn, violation.message)
        }
        return violations.isEmpty
    }
}
