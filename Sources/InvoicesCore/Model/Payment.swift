public import ObjectContexts

/// A payment of an invoice (a refund is negative), confined to the context it was fetched or inserted in. To use
/// it elsewhere, pass its ``ObjectContexts/ObjectID``.
public final class Payment: ManagedObject {
    private typealias Attribute = InvoicesModel.PaymentAttribute

    private func text(_ attribute: Attribute) -> String {
        if case .text(let text) = value(at: attribute.rawValue) { return text }
        return ""
    }

    /// The day the money came (or went back, for a refund).
    public var paid: CalendarDate? {
        if case .integer(let day) = value(at: Attribute.paidOn.rawValue) { return CalendarDate(dayNumber: Int32(clamping: day)) }
        return nil
    }
    /// Minor units of the invoice's currency; negative for a refund.
    public var amount: Int64 {
        if case .integer(let amount) = value(at: Attribute.amount.rawValue) { return amount }
        return 0
    }
    /// The currency the source named, or nil: the invoice's.
    public var currencyCode: String? {
        if case .text(let code) = value(at: Attribute.currency.rawValue) { return code }
        return nil
    }
    public var method: String { text(.method) }
    public var reference: String { text(.reference) }

    /// The invoice paid.
    public var invoice: Invoice? { object(forKey: "invoice") as? Invoice }

    func domainFailures() -> [ValidationFailure] {
        BooksRules.paymentViolations(
            amount: amount, date: paid, issued: invoice?.issued, currency: currencyCode, invoiceCurrency: invoice?.currencyCode
        ).map { validationFailure($0.attribute, $0.message) }
    }
}
