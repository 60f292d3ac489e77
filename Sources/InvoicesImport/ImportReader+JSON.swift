import Foundation

/// The tool's own JSON format: `{"clients": [...], "invoices": [...]}` with the CSV formats' keys, every value a
/// string (amounts too, so no `Double` is involved) and `paidOn` a string or null.
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
        var context = RowContext(dates: dates, problems: problems, defaultTerms: options.defaultTerms)
        for (key, kind) in [("clients", "client"), ("invoices", "invoice")] {
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
                for (name, value) in fields {
                    if let string = value as? String {
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
                    guard let number = context.required(strings["number"] ?? "", location, "number", what: "client"),
                        let name = context.required(strings["name"] ?? "", location, "name", what: "client")
                    else {
                        context.rejectedClient(strings["number"].map(ClientReference.number))
                        continue
                    }
                    batch.clients.append(
                        ImportedClient(
                            number: number, name: name, email: strings["email"], street: strings["street"],
                            city: strings["city"], zip: strings["zip"], country: strings["country"], source: location))
                } else if let invoice = context.nativeInvoice(
                    location: location, value: { strings[$0] ?? "" }, hasColumn: { fields[$0] != nil })
                {
                    batch.invoices.append(invoice)
                }
            }
        }
        batch.rejectedReferences += context.rejectedReferences
        batch.rejectedClients.formUnion(context.rejectedClients)
        problems = context.problems
    }
}
