public import InvoicesCore

/// What a report was made of: every document of the books with the values a reader sees, and every figure per
/// client, currency and month (and per tax), in a form the next build can compare with its own.
///
/// A build keeps its trail in a file beside the output (``text``, read back with ``init(text:)``), so the next
/// build can say what changed since (``changes(since:closedThrough:)``), and refuse to change a closed period.
/// Documents are known by what identifies them in the books, never by row ids: an invoice by its identifier, a
/// payment, write-off or tax line by its invoice and its place among that invoice's (`INV-7 payment 2`). Deleting an
/// invoice and importing it again with the same fields changes nothing.
public struct Trail: Sendable, Equatable {
    /// What a record is. The order is the order of the changes page.
    public enum Kind: String, Sendable, CaseIterable, Comparable {
        case invoice, payment, writeOff = "write-off", taxLine = "tax line", figures, taxFigures = "tax figures"

        /// The names of a record's values, in order.
        public var fields: [String] {
            switch self {
            case .invoice: ["kind", "client", "status", "issued", "due", "currency", "amount", "net", "corrects", "applied", "notes"]
            case .payment: ["date", "amount", "method", "reference"]
            case .writeOff: ["date", "amount", "reason"]
            case .taxLine: ["tax", "rate", "net", "amount"]
            case .figures: ["invoiced", "net", "tax", "paid", "credited", "written off", "outstanding", "overdue", "credit", "invoices"]
            case .taxFigures: ["accrual net", "accrual tax", "cash net", "cash tax"]
            }
        }

        /// Whether the record is a document of the books (the rest are figures computed from them).
        public var isDocument: Bool { self != .figures && self != .taxFigures }

        public static func < (a: Kind, b: Kind) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    /// One document or one line of figures.
    public struct Record: Sendable, Equatable {
        public var kind: Kind
        /// `INV-7`, `INV-7 payment 2`, `C-1 EUR 2025-09`, `EUR MWST 7.7% 2025-09`.
        public var key: String
        /// The day that places it in a period: a document's date, a month's last day for figures.
        public var date: CalendarDate
        /// The values of ``Kind/fields``, as the pages show them (amounts as decimals of the currency).
        public var values: [String]

        public init(kind: Kind, key: String, date: CalendarDate, values: [String]) {
            self.kind = kind
            self.key = key
            self.date = date
            self.values = values
        }

        /// How messages name it: `invoice INV-7`, `credit note CN-2`, `INV-7 payment 2`, `figures C-1 EUR 2025-09`,
        /// `tax EUR MWST 7.7% 2025-09`.
        public var name: String {
            switch kind {
            case .invoice: "\(values.first ?? "invoice") \(key)"
            case .payment, .writeOff, .taxLine: key
            case .figures: "figures \(key)"
            case .taxFigures: "tax \(key)"
            }
        }
    }

    /// Every record, ordered by kind, then key.
    public private(set) var records: [Record]

    public init(records: [Record]) {
        self.records = records.sorted { ($0.kind, $0.key) < ($1.kind, $1.key) }
    }

    /// The trail of `books`, with the figures of `report` (computed over every month of the books).
    public init(books: Books, report: Report) {
        var records: [Record] = []
        records.reserveCapacity(books.invoices.count * 2 + books.payments.count + books.taxLines.count)
        func money(_ minorUnits: Int64, _ invoice: InvoiceSnapshot) -> String {
            Money.decimalString(minorUnits, digits: books.currencies[Int(invoice.currencyIndex)].minorUnitDigits)
        }
        for invoice in books.invoices {
            let corrects = invoice.corrects >= 0 && Int(invoice.corrects) < books.invoices.count
                ? books.invoices[Int(invoice.corrects)].identifier : ""
            records.append(Record(
                kind: .invoice, key: invoice.identifier, date: invoice.issued,
                values: [
                    invoice.kind == .invoice ? "invoice" : "credit note", books.clients[Int(invoice.clientIndex)].number,
                    "\(invoice.status)", invoice.issued.description, invoice.due.description,
                    books.currencies[Int(invoice.currencyIndex)].code, money(invoice.amount, invoice), money(invoice.net, invoice),
                    corrects, invoice.applied?.description ?? "", invoice.notes,
                ]))
        }
        // Payments, write-offs and tax lines by their invoice and their place among its own, in the books' order.
        var seen: [Int32: Int] = [:]
        for payment in books.payments {
            let invoice = books.invoices[Int(payment.invoiceIndex)]
            let place = (seen[payment.invoiceIndex] ?? 0) + 1
            seen[payment.invoiceIndex] = place
            let details = payment.details >= 0 ? books.paymentDetails[Int(payment.details)] : PaymentDetails(method: "", reference: "")
            records.append(Record(
                kind: .payment, key: "\(invoice.identifier) payment \(place)", date: payment.date,
                values: [payment.date.description, money(payment.amount, invoice), details.method, details.reference]))
        }
        seen = [:]
        for writeOff in books.writeOffs {
            let invoice = books.invoices[Int(writeOff.invoiceIndex)]
            let place = (seen[writeOff.invoiceIndex] ?? 0) + 1
            seen[writeOff.invoiceIndex] = place
            records.append(Record(
                kind: .writeOff, key: "\(invoice.identifier) write-off \(place)", date: writeOff.date,
                values: [writeOff.date.description, money(writeOff.amount, invoice), writeOff.reason]))
        }
        seen = [:]
        for line in books.taxLines {
            let invoice = books.invoices[Int(line.invoiceIndex)]
            let place = (seen[line.invoiceIndex] ?? 0) + 1
            seen[line.invoiceIndex] = place
            let tax = books.taxes[Int(line.taxIndex)]
            records.append(Record(
                kind: .taxLine, key: "\(invoice.identifier) tax line \(place)", date: invoice.issued,
                values: [tax.name, tax.percent + "%", money(line.net, invoice), money(line.amount, invoice)]))
        }
        for totals in report.clients {
            let number = books.clients[totals.clientIndex].number
            for entry in totals.currencies {
                let digits = entry.currency.minorUnitDigits
                for (offset, figures) in entry.months.enumerated() where figures.isActive {
                    let month = report.months[offset]
                    let amounts = [
                        figures.invoiced, figures.net, figures.tax, figures.paid, figures.credited, figures.writtenOff,
                        figures.outstanding, figures.overdue, figures.credit,
                    ]
                    records.append(Record(
                        kind: .figures, key: "\(number) \(entry.currency.code) \(month)", date: month.lastDay,
                        values: amounts.map { Money.decimalString($0, digits: digits) } + [String(figures.invoices)]))
                }
            }
        }
        for totals in report.taxes {
            let tax = books.taxes[totals.taxIndex]
            let digits = totals.currency.minorUnitDigits
            for (offset, figures) in totals.months.enumerated() where figures.isActive {
                let month = report.months[offset]
                records.append(Record(
                    kind: .taxFigures, key: "\(totals.currency.code) \(tax) \(month)", date: month.lastDay,
                    values: [figures.accrualNet, figures.accrualTax, figures.cashNet, figures.cashTax].map {
                        Money.decimalString($0, digits: digits)
                    }))
            }
        }
        self.init(records: records)
    }

    // MARK: - What changed

    /// One difference between two trails: a record added or removed, or one value of it changed.
    public struct Change: Sendable, Equatable {
        public enum What: String, Sendable { case added, changed, removed }

        public var kind: Kind
        public var key: String
        /// The record's ``Record/name``.
        public var name: String
        public var what: What
        /// The value's name for a change; empty for a record added or removed.
        public var field: String
        /// The value before and after; for a record added or removed, its values (`date 2025-02-01, amount 100.00`).
        public var before: String
        public var after: String
        /// Whether the change touches a closed period: the record's day, before or after, is on or before the day
        /// the books are closed through.
        public var closed: Bool

        /// `invoice INV-7 amount: 100.00 → 120.00`, `INV-7 payment 2 added (date 2025-02-01, amount 100.00, ...)`.
        public var description: String {
            switch what {
            case .changed: return "\(name) \(field): \(before) → \(after)"
            case .added: return "\(name) added (\(after))"
            case .removed: return "\(name) removed (was \(before))"
            }
        }
    }

    /// What changed from `previous` to this trail, in the order of ``records``; each change marked closed when it
    /// touches a day on or before `closedThrough`.
    public func changes(since previous: Trail, closedThrough: CalendarDate? = nil) -> [Change] {
        var changes: [Change] = []
        func isClosed(_ days: CalendarDate...) -> Bool {
            guard let closedThrough else { return false }
            return days.contains { $0 <= closedThrough }
        }
        func summary(_ record: Record) -> String {
            zip(record.kind.fields, record.values).filter { !$0.1.isEmpty }.map { "\($0) \($1)" }.joined(separator: ", ")
        }
        var old = previous.records[...]
        var new = records[...]
        while !old.isEmpty || !new.isEmpty {
            let a = old.first, b = new.first
            if let a, b == nil || (a.kind, a.key) < (b!.kind, b!.key) {
                changes.append(Change(kind: a.kind, key: a.key, name: a.name, what: .removed, field: "", before: summary(a), after: "", closed: isClosed(a.date)))
                old = old.dropFirst()
            } else if let b, a == nil || (b.kind, b.key) < (a!.kind, a!.key) {
                changes.append(Change(kind: b.kind, key: b.key, name: b.name, what: .added, field: "", before: "", after: summary(b), closed: isClosed(b.date)))
                new = new.dropFirst()
            } else if let a, let b {
                for (index, field) in b.kind.fields.enumerated() {
                    let before = index < a.values.count ? a.values[index] : "", after = index < b.values.count ? b.values[index] : ""
                    if before != after {
                        changes.append(Change(kind: b.kind, key: b.key, name: b.name, what: .changed, field: field, before: before, after: after, closed: isClosed(a.date, b.date)))
                    }
                }
                old = old.dropFirst()
                new = new.dropFirst()
            }
        }
        return changes
    }

    // MARK: - The file

    /// The first line of a trail file.
    static let header = "invoices-trail 1"

    /// The trail as text: a header line, then one line per record, tab-separated (kind, key, day, values), with
    /// backslash, tab, line feed and carriage return escaped.
    public var text: String {
        var text = Self.header + "\n"
        for record in records {
            text += ([record.kind.rawValue, record.key, record.date.description] + record.values).map(Self.escape).joined(separator: "\t")
            text += "\n"
        }
        return text
    }

    /// A trail read back from ``text``; nil when the text is not one (another format, a damaged file).
    public init?(text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        guard lines.first == Substring(Self.header) else { return nil }
        lines = lines.dropFirst()
        var records: [Record] = []
        for line in lines where !line.isEmpty {
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map { Self.unescape($0) }
            guard cells.count >= 3, let kind = Kind(rawValue: cells[0]), let date = CalendarDate(iso: cells[2]),
                cells.count - 3 == kind.fields.count
            else { return nil }
            records.append(Record(kind: kind, key: cells[1], date: date, values: Array(cells[3...])))
        }
        self.init(records: records)
    }

    static func escape(_ text: String) -> String {
        guard text.contains(where: { $0 == "\\" || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func unescape(_ text: Substring) -> String {
        guard text.contains("\\") else { return String(text) }
        var result = ""
        var escaped = false
        for scalar in text.unicodeScalars {
            if escaped {
                switch scalar {
                case "t": result += "\t"
                case "n": result += "\n"
                case "r": result += "\r"
                default: result.unicodeScalars.append(scalar)
                }
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
