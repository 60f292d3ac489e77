import Foundation
internal import InvoicesCore

/// A JSON value as the file writes it: whole numbers kept apart from fractions, so an amount is never a `Double`.
enum JSONValue: Decodable, Sendable {
    case null, bool(Bool), integer(Int64), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }

    /// The value as a message shows it.
    var shown: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .integer(let value): "\(value)"
        case .number(let value): "\(value)"
        case .string(let value): "the string \"\(value)\""
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Whether a parsed JSON object is a Stripe API list (`{"object": "list", "data": [...]}`).
    static func isStripeList(_ object: [String: Any]) -> Bool {
        object["object"] as? String == "list" && object["data"] is [Any]
    }
}

/// Stripe's API invoice list (`GET /v1/invoices`, docs/import.md, "Stripe (API invoice list)"): amounts in minor
/// units, times in Unix seconds (UTC).
extension ImportReader {
    func readStripe(file: String, data: Data, dates: DateReader, into batch: inout ImportBatch, problems: inout ProblemList) {
        let list: JSONValue
        do {
            list = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            problems.add(ImportProblem(location: SourceLocation(file: file), message: "is not valid JSON (\(error.localizedDescription))"))
            return
        }
        let nuls = list.nulPaths()
        guard nuls.isEmpty else {
            for path in nuls {
                problems.add(ImportProblem(location: SourceLocation(file: file, element: path), message: "holds a NUL byte (U+0000); no export writes one: remove it"))
            }
            return
        }
        var context = RowContext(dates: dates, problems: problems, defaultTerms: options.defaultTerms)
        let (clients, invoices, warnings) = context.stripeInvoices(list, file: file, links: &batch.links.stripe)
        batch.clients += clients
        batch.invoices += invoices
        batch.warnings += warnings
        batch.rejectedReferences += context.rejectedReferences
        problems = context.problems
    }
}

/// Stripe represents ISK and UGX with two decimals (always 00), though ISO 4217 gives them none.
private let stripeTwoDecimalZeroDecimal: Set<String> = ["ISK", "UGX"]

extension RowContext {
    mutating func stripeInvoices(_ list: JSONValue, file: String, links: inout StripeCSVLinks) -> (clients: [ImportedClient], invoices: [ImportedInvoice], warnings: [ImportProblem]) {
        var clients: [ImportedClient] = []
        var invoices: [ImportedInvoice] = []
        var warnings: [ImportProblem] = []
        guard case .array(let elements)? = list["data"] else { return ([], [], []) }
        if case .bool(true)? = list["has_more"] {
            warnings.append(
                ImportProblem(
                    location: SourceLocation(file: file, element: "has_more"),
                    message: "is true: the file is one page of a longer list; fetch the next pages (starting_after the last id) and import them too"))
        }
        // Another list (customers, charges) is refused once, not at each element.
        if case .string(let kind)? = elements.first?["object"], kind != "invoice" {
            problem(
                SourceLocation(file: file, element: "data[0].object"), nil,
                "is \"\(kind)\": a Stripe list of \(kind) objects; only Stripe invoice lists (GET /v1/invoices) are imported")
            return ([], [], warnings)
        }
        var customers: Set<String> = []
        var paidOnIssue = 0
        for (index, element) in elements.enumerated() {
            let path = "data[\(index)]"
            guard case .object = element else {
                problem(SourceLocation(file: file, element: path), nil, "expected an invoice object")
                continue
            }
            let reader = StripeFields(file: file, path: path, object: element)
            if case .string(let kind)? = element["object"], kind != "invoice" {
                problem(reader.at("object"), nil, "is \"\(kind)\"; only Stripe invoice lists (GET /v1/invoices) are imported")
                continue
            }
            let customer: String??
            if case .object? = element["customer"] {
                customer = StripeFields(file: file, path: path + ".customer", object: element["customer"]!).string("id", &self)
            } else {
                customer = reader.string("customer", &self)
            }
            let identifier = reader.string("number", &self, nullable: true)
            let id = reader.string("id", &self)
            let status = reader.string("status", &self)
            let currencyText = reader.string("currency", &self)
            let total = reader.integer("total", &self)
            let paidAmount = reader.integer("amount_paid", &self)
            let remaining = reader.integer("amount_remaining", &self)
            let excludingTax = reader.integer("total_excluding_tax", &self, nullable: true)
            let startingBalance = reader.integer("starting_balance", &self, nullable: true)
            let endingBalance = reader.integer("ending_balance", &self, nullable: true)
            let created = reader.time("created", &self)
            let due = reader.time("due_date", &self, nullable: true)
            let description = reader.string("description", &self, nullable: true)
            let transitions = StripeFields(file: file, path: path + ".status_transitions", object: element["status_transitions"] ?? .object([:]))
            let finalized = transitions.time("finalized_at", &self, nullable: true)
            let paidAt = transitions.time("paid_at", &self, nullable: true)
            let uncollectibleAt = transitions.time("marked_uncollectible_at", &self, nullable: true)
            // Before API 2025-03-31 `amount_paid` leaves out what was paid outside Stripe; `paid_out_of_band` says so.
            let paidOutOfBand = reader.flag("paid_out_of_band", &self)
            guard let customer = customer ?? nil, let identifier = identifier.map({ $0 ?? id ?? nil }) ?? nil, let status = status ?? nil,
                let currencyText = currencyText ?? nil, let total = total ?? nil, let paidAmount = paidAmount ?? nil,
                let remaining = remaining ?? nil, let excludingTax, let created = created ?? nil, let due, let description,
                let finalized, let paidAt, let uncollectibleAt, let startingBalance, let endingBalance, let paidOutOfBand
            else {
                if case .string(let customer)? = element["customer"] {
                    rejectedInvoice(naming: .number(customer), column: "customer", at: reader.at("customer"))
                }
                continue
            }
            guard let code = try? CurrencyCode(currencyText.uppercased()) else {
                _ = currency(currencyText, reader.at("currency"), "currency")
                continue
            }
            // Amounts in Stripe's minor units, turned to ISO 4217's (ISK and UGX: hundredths of a unit, always 00).
            var scale: Int64 = 1
            if stripeTwoDecimalZeroDecimal.contains(code.code) { scale = 100 }
            var amounts: [Int64] = []
            var valid = true
            // The customer's balance (docs/import.md, "Stripe's customer balance"): what a finalized invoice moved through it.
            let balance = ["open", "paid", "uncollectible"].contains(status) ? startingBalance.flatMap { start in endingBalance.map { (start, $0) } } : nil
            if let balance, ![balance.0, balance.1, total].allSatisfy(RowContext.stripeBalanceRange.contains) {
                problem(reader.at("ending_balance"), nil, MinorUnits.tooLarge)
                continue
            }
            // A negative total went to the customer's balance: the credit note of its opposite figures.
            let sign: Int64 = total < 0 && balance != nil ? -1 : 1
            for (key, value) in [
                ("total", sign &* total), ("amount_paid", paidAmount), ("amount_remaining", remaining), ("total_excluding_tax", sign &* (excludingTax ?? 0)),
                ("starting_balance", balance?.0 ?? 0), ("ending_balance", balance?.1 ?? 0),
            ] {
                guard value % scale == 0 else {
                    problem(reader.at(key), nil, "is \(value); Stripe writes \(code.code) in hundredths that are always 00")
                    valid = false
                    continue
                }
                if value < 0, !["amount_remaining", "starting_balance", "ending_balance"].contains(key) {
                    problem(reader.at(key), nil, "is \(value), negative; the store keeps no negative amounts")
                    valid = false
                }
                amounts.append(value / scale)
            }
            guard valid else { continue }
            let (amount, paid, owed) = (amounts[0], amounts[1], amounts[2])
            guard let moved = balance == nil ? 0 : MinorUnits.subtract(amounts[5], amounts[4]) else {
                problem(reader.at("ending_balance"), nil, MinorUnits.tooLarge)
                continue
            }
            if let balance, sign < 0 ? moved != -amount || paid != 0 : moved < 0 && amounts[5] < 0 {
                problem(
                    reader.at("ending_balance"), nil,
                    "is \(balance.1), its starting_balance \(balance.0): "
                        + (sign < 0 ? "a negative total goes to the customer's balance whole, with nothing paid, so the ending balance must be the starting balance plus it"
                            : "an invoice of a positive total takes no credit onto the customer's balance; Stripe's figures disagree, so the invoice is not imported"))
                continue
            }
            let collected = min(paid, max(-moved, 0))
            // What the total leaves that neither amount_paid, the customer's balance nor amount_remaining accounts for. On a
            // paid invoice marked paid outside Stripe it was paid there: a payment of its own, as the Dashboard export's
            // (``ImportReader/linkStripe(_:problems:)``); anywhere else it refuses the invoice at amount_remaining.
            let unexplained = MinorUnits.subtract(sign &* amount, paid).flatMap { MinorUnits.subtract($0, moved) }.flatMap { MinorUnits.subtract($0, owed) }
            let outOfBand = status == "paid" && paidOutOfBand && sign > 0 && (unexplained ?? 0) > 0
            if balance != nil, moved != 0, !outOfBand, unexplained != 0 {
                problem(
                    reader.at("amount_remaining"), nil,
                    "is \(owed), not total less amount_paid less what the customer's balance moved (ending_balance less starting_balance); "
                        + "something the invoice does not show settled it, so it is not imported")
                continue
            }
            let issued = CalendarDate(dayNumber: finalized ?? created)
            // Taxes: `total_taxes` (API 2025-03-31 and later) or `total_tax_amounts`, one line per tax rate.
            guard let tax = stripeTax(element, reader, amount: amount, excludingTax: excludingTax.map { sign &* $0 / scale }, scale: scale, currency: code, sign: sign)
            else { continue }
            var invoice = ImportedInvoice(
                identifier: identifier, client: .number(customer), clientColumn: "customer", amount: Money(minorUnits: amount, currency: code),
                issued: issued, due: due.map(CalendarDate.init(dayNumber:)) ?? issued.adding(days: defaultTerms),
                dueIsDerived: due == nil, paid: nil, notes: description ?? "", source: reader.at(nil), tax: tax)
            let paths: [StripeState.Field: String] = [
                .status: "status", .total: "total", .paid: "amount_paid", .remaining: "amount_remaining",
                .paidAt: "status_transitions.paid_at", .uncollectibleAt: "status_transitions.marked_uncollectible_at",
            ]
            let state = StripeState(
                status: status, paid: paid, owed: owed, paidAt: paidAt.map(CalendarDate.init(dayNumber:)),
                uncollectibleAt: uncollectibleAt.map(CalendarDate.init(dayNumber:)), missing: "null",
                at: { (reader.at(paths[$0]), nil) }, name: { paths[$0] ?? "" })
            guard stripeSettle(&invoice, state, checkBalance: moved == 0 && !outOfBand, paidOnIssue: &paidOnIssue) else { continue }
            if sign < 0 {
                invoice.kind = .creditNote
                invoice.paid = nil
                invoice.receipts = nil
            } else if collected != 0 {
                invoice.receipts?.received = paid == collected ? nil : paid - collected
            }
            guard checkOrder(issued: invoice.issued, due: invoice.due, paid: invoice.paid, invoice.source, dueColumn: "due_date", paidColumn: "status_transitions")
            else { continue }
            invoices.append(invoice)
            if outOfBand, let unexplained {
                links.unsettled.append(
                    .init(
                        identifier: identifier, difference: unexplained, owed: owed, currency: code, source: reader.at("paid_out_of_band"), column: nil,
                        paidOn: invoice.paid))
            }
            if balance != nil {
                let finalizedSeconds: Int64 = if case .integer(let seconds)? = element["status_transitions"]?["finalized_at"] { seconds } else { 0 }
                let time = String(repeating: "0", count: max(0, 12 - "\(finalizedSeconds)".count)) + "\(finalizedSeconds)"
                links.balanceEvents.append(
                    StripeBalanceEvent(
                        customer: customer, currency: code, identifier: identifier, issued: issued, time: time, source: invoice.source,
                        start: amounts[4], end: amounts[5], isCreditNote: sign < 0, collected: collected,
                        cashDay: invoice.receipts?.receivedOn ?? invoice.paid ?? issued))
            }
            // The customer as its latest invoice (the list's first, Stripe lists newest first) names it.
            if customers.insert(customer).inserted {
                var client = stripeCustomer(element, customer, file: file, path: path)
                // An expanded customer (`expand[]=data.customer`) names its languages: the first preferred one.
                if case .array(let locales)? = element["customer"]?["preferred_locales"], case .string(let first)? = locales.first {
                    let at = SourceLocation(file: file, element: path + ".customer.preferred_locales[0]")
                    guard let language = language(first.trimmingCharacters(in: .whitespaces), at, "preferred_locales") else {
                        rejectedClient(.number(customer))
                        continue
                    }
                    client.language = language
                }
                clients.append(client)
            }
        }
        if paidOnIssue > 0 {
            warnings.append(
                ImportProblem(
                    location: SourceLocation(file: file),
                    message: "\(paidOnIssue) open or uncollectible invoice(s) with an amount_paid: each amount is recorded as one payment on the "
                        + "invoice's issue date; Stripe's invoice object does not say when a partial payment was made"))
        }
        return (clients, invoices, warnings)
    }

    /// The client of an invoice: the customer id as its number, the name, e-mail and address Stripe copied on the invoice.
    func stripeCustomer(_ element: JSONValue, _ customer: String, file: String, path: String) -> ImportedClient {
        func text(_ value: JSONValue?) -> String? {
            guard case .string(let text)? = value else { return nil }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty ? nil : trimmed
        }
        let address = element["customer_address"]
        let street = [text(address?["line1"]), text(address?["line2"])].compactMap { $0 }
        let city = [text(address?["city"]), text(address?["state"])].compactMap { $0 }
        let name = text(element["customer_name"]) ?? text(element["customer_email"]) ?? customer
        return ImportedClient(
            number: customer, name: name, email: text(element["customer_email"]), street: street.isEmpty ? nil : street.joined(separator: "\n"),
            city: city.isEmpty ? nil : city.joined(separator: ", "), zip: text(address?["postal_code"]), country: text(address?["country"]),
            source: SourceLocation(file: file, element: path))
    }

    /// The net (`total_excluding_tax`, or the total less the taxes) and one tax line per tax rate; nil after a problem.
    mutating func stripeTax(
        _ element: JSONValue, _ reader: StripeFields, amount: Int64, excludingTax: Int64?, scale: Int64, currency: CurrencyCode, sign: Int64 = 1
    ) -> ImportedTax? {
        let key: String
        let entries: [JSONValue]
        switch (element["total_taxes"], element["total_tax_amounts"]) {
        case (.array(let values)?, _): (key, entries) = ("total_taxes", values)
        case (_, .array(let values)?): (key, entries) = ("total_tax_amounts", values)
        default: (key, entries) = ("total_tax_amounts", [])
        }
        var groups: [(name: String, percent: String?, taxable: Int64?, amount: Int64)] = []
        for (number, entry) in entries.enumerated() {
            let fields = StripeFields(file: reader.file, path: "\(reader.path).\(key)[\(number)]", object: entry)
            guard let signedTax = fields.integer("amount", &self) ?? nil, let signedTaxable = fields.integer("taxable_amount", &self, nullable: true) else { return nil }
            // A credit note's (a negative total's) taxes are turned with it.
            let (tax, taxable) = (sign &* signedTax, signedTaxable.map { sign &* $0 })
            guard tax % scale == 0, (taxable ?? 0) % scale == 0 else {
                problem(fields.at("amount"), nil, "is \(tax); Stripe writes \(currency.code) in hundredths that are always 00")
                return nil
            }
            // The tax rate: an id (`txr_…`), or the expanded object with its id and percentage.
            let rate = key == "total_taxes" ? entry["tax_rate_details"]?["tax_rate"] : entry["tax_rate"]
            var name: String
            var percent: String?
            switch rate {
            case .string(let id)?: name = id
            case .object?:
                let details = StripeFields(file: reader.file, path: fields.path + (key == "total_taxes" ? ".tax_rate_details.tax_rate" : ".tax_rate"), object: rate!)
                guard let id = details.string("id", &self) ?? nil else { return nil }
                name = id
                switch rate?["percentage"] {
                case .integer(let value)?: percent = "\(value)"
                case .number(let value)?: percent = ImportReader.percent("\(value)")
                default: percent = nil
                }
            default: name = "tax"
            }
            if let index = groups.firstIndex(where: { $0.name == name }) {
                guard let sum = MinorUnits.add(groups[index].amount, tax / scale),
                    let base = MinorUnits.add(groups[index].taxable ?? 0, (taxable ?? 0) / scale)
                else {
                    problem(fields.at("amount"), nil, MinorUnits.tooLarge)
                    return nil
                }
                groups[index].amount = sum
                groups[index].taxable = taxable == nil ? groups[index].taxable : base
            } else {
                groups.append((name, percent, taxable.map { $0 / scale }, tax / scale))
            }
        }
        var taxSum: Int64 = 0
        for group in groups {
            guard let sum = MinorUnits.add(taxSum, group.amount) else {
                problem(reader.at(key), nil, MinorUnits.tooLarge)
                return nil
            }
            taxSum = sum
        }
        guard let net = excludingTax ?? MinorUnits.subtract(amount, taxSum), MinorUnits.add(net, taxSum) == amount else {
            let shown = { (value: Int64) in Money(minorUnits: value, currency: currency).decimalString }
            problem(
                reader.at("total_excluding_tax"), nil,
                "\(excludingTax.map(shown) ?? "null") plus the taxes (\(shown(taxSum))) is not the total \(shown(amount))")
            return nil
        }
        if groups.isEmpty { return ImportedTax(net: net, lines: []) }
        let lines = groups.map { group -> ImportedTax.Line in
            let base = group.taxable ?? net
            let rate = group.percent.flatMap { TaxRate(name: group.name, percent: $0) }
                ?? TaxRate(name: group.name, milliPercent: Int32(clamping: base > 0 && group.amount >= 0 ? proportionalMilli(group.amount, base) : 0))
            return ImportedTax.Line(name: group.name, rate: rate.percent, net: base == net ? nil : base, amount: group.amount)
        }
        return ImportedTax(net: net, lines: lines)
    }
}

/// Typed reads of one object's fields, each problem at its JSON path (`data[3].total`).
struct StripeFields {
    let file: String
    let path: String
    let object: JSONValue

    func at(_ key: String?) -> SourceLocation { SourceLocation(file: file, element: key.map { "\(path).\($0)" } ?? path) }

    /// An integer (minor units, or Unix seconds); `.some(nil)` for null when `nullable`; nil after a problem.
    func integer(_ key: String, _ context: inout RowContext, nullable: Bool = false) -> Int64?? {
        switch object[key] {
        case .integer(let value)?: return .some(value)
        case .null? where nullable, nil where nullable: return .some(nil)
        case let value:
            context.problem(
                at(key), nil,
                "is \(value?.shown ?? "missing"); Stripe writes \(key) as a whole number (minor units: 1200 for 12.00 EUR, 1200 for ¥1,200)")
            return nil
        }
    }

    /// A boolean; false for null or a missing field (an API version without it); nil after a problem.
    func flag(_ key: String, _ context: inout RowContext) -> Bool? {
        switch object[key] {
        case .bool(let value)?: return value
        case .null?, nil: return false
        case let value?:
            context.problem(at(key), nil, "is \(value.shown); Stripe writes \(key) as true or false")
            return nil
        }
    }

    func string(_ key: String, _ context: inout RowContext, nullable: Bool = false) -> String?? {
        switch object[key] {
        case .string(let value)? where !value.trimmingCharacters(in: .whitespaces).isEmpty:
            return .some(value.trimmingCharacters(in: .whitespaces))
        case .null? where nullable, nil where nullable: return .some(nil)
        case let value:
            context.problem(at(key), nil, "is \(value.map { if case .string = $0 { "empty" } else { $0.shown } } ?? "missing"); expected a string")
            return nil
        }
    }

    /// A Unix time in seconds, as its day in UTC (a day number).
    func time(_ key: String, _ context: inout RowContext, nullable: Bool = false) -> Int32?? {
        guard let seconds = integer(key, &context, nullable: nullable) else { return nil }
        guard let seconds else { return .some(nil) }
        // 1970-01-01 to 9999-12-31.
        guard (0...253_402_300_799).contains(seconds) else {
            context.problem(at(key), nil, "is \(seconds), not a Unix time (seconds since 1970) up to the year 9999")
            return nil
        }
        return .some(Int32(seconds / 86_400))
    }
}
