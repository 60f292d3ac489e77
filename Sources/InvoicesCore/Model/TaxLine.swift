public import ObjectContexts

/// One tax line of an invoice (name, rate, net, amount), confined to its context.
public final class TaxLine: ManagedObject {
    private typealias Attribute = InvoicesModel.TaxLineAttribute

    public var name: String { value(at: Attribute.name.rawValue).textValue ?? "" }
    /// A decimal percentage, as ``TaxRate/percent`` writes it (`7.7`).
    public var rate: String { value(at: Attribute.rate.rawValue).textValue ?? "" }
    /// The net the tax is levied on, or nil: the invoice's.
    public var net: Int64? { value(at: Attribute.net.rawValue).integerValue }
    public var amount: Int64 { value(at: Attribute.amount.rawValue).integerValue ?? 0 }
    public var invoice: Invoice? { object(forKey: "invoice") as? Invoice }

    func domainFailures() -> [ValidationFailure] {
        BooksRules.taxLineViolations(rate: rate, net: net ?? invoice?.amount ?? 0, amount: amount).map { validationFailure($0.attribute, $0.message) }
    }
}

/// An amount of an invoice written off on a day, confined to its context.
public final class WriteOff: ManagedObject {
    private typealias Attribute = InvoicesModel.WriteOffAttribute

    public var writtenOff: CalendarDate? {
        value(at: Attribute.writtenOffOn.rawValue).integerValue.map { CalendarDate(dayNumber: Int32(clamping: $0)) }
    }
    public var amount: Int64 { value(at: Attribute.amount.rawValue).integerValue ?? 0 }
    public var reason: String { value(at: Attribute.reason.rawValue).textValue ?? "" }
    public var invoice: Invoice? { object(forKey: "invoice") as? Invoice }

    func domainFailures() -> [ValidationFailure] {
        BooksRules.writeOffViolations(amount: amount, date: writtenOff, issued: invoice?.issued).map { validationFailure($0.attribute, $0.message) }
    }
}
