import Foundation
internal import InvoicesCore

/// The tool's own JSON format: `{"clients": [...], "invoices": [...], "payments": [...]}` with the CSV formats'
/// keys, every value a string (amounts too, so no `Double` is involved) or null; an invoice may hold the arrays
/// `payments`, `taxLines` and `writeOffs` of such objects.
extension ImportReader {
    func readJSON(file: String, bytes: [UInt8], dates: DateReader, into batch: inout ImportBatch, problems: inout ProblemList) {
        var data = Data(bytes)
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data = data.dropFirst(3) }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            problems.add(ImportProblem(location: SourceLocation(file: file), message: "is not valid JSON (\(error.localizedDescription))"))
            return
        }
        guard let object = root as? [String: Any] else {
            problems.add(ImportProblem(location: SourceLocation(file: file), message: "expected an object {\"clients\": [...], \"invoices\": [...]}"))
            return
        }
        // Stripe's API list (`{"object": "list", "data": [...]}`) is told by its shape.
        if JSONValue.isStripeList(object), object["invoices"] == nil {
            readStripe(file: file, data: data, dates: dates, into: &batch, problems: &problems)
            return
        }
        var context = RowContext(dates: dates, problems: problems, defaultTerms: options.defaultTerms)
        for (key, kind) in [("clients", "client"), ("invoices", "invoice"), ("payments", "payment")] {
            guard let value = object[key] else { continue }
            guard let elements = value as? [Any] else {
                context.problem(SourceLocation(file: file, element: key), nil, "expected an array of \(kind) objects")
                continue
            }
            for (index, element) in elements.enumerated() {
                let location = SourceLocation(file: file, element: "\(key)[\(index)]")
                guard let fields = element as? [String: Any] else {
                    context.problem(location, nil, "expected a \(kind) object")
                    continue
                }
                var valid = true
                var strings: [String: String] = [:]
                var arrays: [String: [[String: String]]] = [:]
                for (name, value) in fields {
                    if kind == "invoice", ["payments", "taxLines", "writeOffs"].contains(name) {
                        if let objects = Self.stringObjects(value, at: "\(key)[\(index)].\(name)", file: file, context: &context) {
                            arrays[name] = objects
                        } else {
                            valid = false
                        }
                    } else if let string = value as? String {
                        strings[name] = string.trimmingCharacters(in: .whitespaces)
                    } else if value is NSNull {
                        continue
                    } else {
                        context.problem(location, name, "is not a string; write every value as a JSON string, amounts too (\"1234.50\")")
                        valid = false
                    }
                }
                guard valid else {
                    if kind == "client" {
                        context.rejectedClient(strings["number"].map(ClientReference.number))
                    } else {
                        let client = strings["clientNumber"].map(ClientReference.number)
                        context.rejectedInvoice(naming: client, column: "clientNumber", at: location)
                    }
                    continue
                }
                if kind == "client" {
                    let language = context.language(strings["language"], location, "language")
                    guard let number = context.required(strings["number"] ?? "", location, "number", what: "client"),
                        let name = context.required(strings["name"] ?? "", location, "name", what: "client"), let language
                    else {
                        context.rejectedClient(strings["number"].map(ClientReference.number))
                        continue
                    }
                    batch.clients.append(
                        ImportedClient(
                            number: number, name: name, email: strings["email"], street: strings["street"],
                            city: strings["city"], zip: strings["zip"], country: strings["country"], language: language,
                            source: location))
                } else if kind == "payment" {
                    if let payment = context.nativePayment(location: location, value: { strings[$0] ?? "" }) { batch.payments.append(payment) }
                } else {
                    let currency = try? CurrencyCode((strings["currency"] ?? "").uppercased())
                    let taxLines = arrays["taxLines"].map { lines in
                        lines.enumerated().compactMap { number, line in
                            Self.taxLine(line, currency, SourceLocation(file: file, element: "\(key)[\(index)].taxLines[\(number)]"), &context)
                        }
                    }
                    let writeOffs = arrays["writeOffs"].map { offs in
                        offs.enumerated().compactMap { number, off in
                            Self.writeOff(off, currency, SourceLocation(file: file, element: "\(key)[\(index)].writeOffs[\(number)]"), &context)
                        }
                    }
                    // An invoice whose tax lines or write-offs have problems is left out (its client is checked all the same).
                    let complete = taxLines?.count == arrays["taxLines"]?.count && writeOffs?.count == arrays["writeOffs"]?.count
                    let invoice = context.nativeInvoice(
                        location: location, value: { strings[$0] ?? "" }, hasColumn: { fields[$0] != nil }, taxLines: taxLines,
                        writeOffs: writeOffs)
                    if invoice != nil, !complete {
                        context.rejectedInvoice(naming: strings["clientNumber"].map(ClientReference.number), column: "clientNumber", at: location)
                    }
                    if let invoice, complete {
                        batch.invoices.append(invoice)
                        for (number, payment) in (arrays["payments"] ?? []).enumerated() {
                            let at = SourceLocation(file: file, element: "\(key)[\(index)].payments[\(number)]")
                            if let payment = context.nativePayment(location: at, invoice: invoice.identifier, value: { payment[$0] ?? "" }) {
                                batch.payments.append(payment)
                            }
                        }
                    }
                }
            }
        }
        batch.rejectedReferences += context.rejectedReferences
        batch.rejectedClients.formUnion(context.rejectedClients)
        problems = context.problems
    }

    /// The objects of an array of objects whose values are all strings (or null), or nil with a problem.
    static func stringObjects(_ value: Any, at element: String, file: String, context: inout RowContext) -> [[String: String]]? {
        guard let array = value as? [Any] else {
            context.problem(SourceLocation(file: file, element: element), nil, "expected an array of objects")
            return nil
        }
        var objects: [[String: String]] = []
        for (index, item) in array.enumerated() {
            let location = SourceLocation(file: file, element: "\(element)[\(index)]")
            guard let fields = item as? [String: Any] else {
                context.problem(location, nil, "expected an object")
                return nil
            }
            var strings: [String: String] = [:]
            for (name, field) in fields {
                if let string = field as? String {
                    strings[name] = string.trimmingCharacters(in: .whitespaces)
                } else if !(field is NSNull) {
                    context.problem(location, name, "is not a string; write every value as a JSON string, amounts too (\"1234.50\")")
                    return nil
                }
            }
            objects.append(strings)
        }
        return objects
    }

    /// A tax line object `{"name", "rate", "net", "amount"}` (net optional: the invoice's).
    static func taxLine(_ fields: [String: String], _ currency: CurrencyCode?, _ location: SourceLocation, _ context: inout RowContext) -> ImportedTax.Line? {
        guard let currency else { return nil }
        let amount = context.money(fields["amount"] ?? "", currency, location, "amount")
        let net = (fields["net"] ?? "").isEmpty ? .some(nil) : context.money(fields["net"] ?? "", currency, location, "net").map(Optional.some)
        guard let amount, let net else { return nil }
        return ImportedTax.Line(name: fields["name"] ?? "", rate: fields["rate"] ?? "", net: net?.minorUnits, amount: amount.minorUnits)
    }

    /// A write-off object `{"writtenOffOn", "amount", "reason"}`.
    static func writeOff(_ fields: [String: String], _ currency: CurrencyCode?, _ location: SourceLocation, _ context: inout RowContext) -> ImportedWriteOff? {
        guard let currency else { return nil }
        let amount = context.money(fields["amount"] ?? "", currency, location, "amount")
        let day = context.date(fields["writtenOffOn"] ?? "", location, "writtenOffOn", required: true)
        guard let amount, let day = day ?? nil else { return nil }
        return ImportedWriteOff(date: day, amount: amount.minorUnits, reason: fields["reason"] ?? "")
    }
}
