internal import InvoicesCore

/// The rows of ``DATEVExport``'s transactions, and their checks. What a row shows of its client (Buchungstext, per
/// kind of transaction) and of its invoice (Belegfeld 1) is checked and quoted once per client and kind or per
/// invoice, not once per row: ``DATEVExport/check()`` runs every check of every row before anything is written, and
/// makes no row; a build then makes only the pieces it does not take from the previous file.
final class DATEVRows {
    private let export: DATEVExport
    private let debtors: [Int: Int]
    /// Buchungstext per client and kind (client index times 8 plus ``what(_:_:)``'s code), or its refusal.
    private var texts: [Int: Result<String, DATEVError>] = [:]
    /// Belegfeld 1 per invoice, or its refusal.
    private var identifiers: [Int32: Result<String, DATEVError>] = [:]
    /// The revenue account per tax (index in ``Books/taxes``), once found: its rate is formatted once, not per line.
    private var revenue: [Int: Int] = [:]

    init(_ export: DATEVExport, debtors: [Int: Int]) {
        self.export = export
        self.debtors = debtors
    }

    /// What a row says happened, and a code for it (0 to 4).
    private func what(_ entry: BooksJournal.Entry, _ books: Books) -> (String, Int) {
        switch entry.kind {
        case .invoice: ("Rechnung", 0)
        case .creditNote: ("Gutschrift", 1)
        case .payment: books.payments[Int(entry.item)].amount < 0 ? ("Erstattung", 2) : ("Zahlung", 3)
        case .writeOff: ("Forderungsverlust", 4)
        }
    }

    /// The rows of one transaction (none unless `make`, every check run either way, in the same order): an invoice
    /// or credit note one per tax line (gross to the rate's revenue account, whose automatic tax DATEV splits off)
    /// and one for revenue no line covers; a payment, refund or write-off one.
    func lines(_ entry: BooksJournal.Entry, make: Bool) throws(DATEVError) -> [String] {
        let books = export.books
        let settings = export.settings
        let invoice = books.invoices[Int(entry.invoice)]
        let currency = books.currencies[Int(invoice.currencyIndex)]
        let debtor = debtors[Int(invoice.clientIndex)] ?? 0
        // At most 36 bytes are at most 36 characters: the count of characters only for a longer identifier.
        guard invoice.identifier.utf8.count <= 36 || invoice.identifier.count <= 36 else {
            throw DATEVError(
                message: "invoice \(invoice.identifier) of client \(books.clients[Int(invoice.clientIndex)].number): its identifier is longer than the 36 characters of DATEV's Belegfeld 1")
        }
        // (signed amount: positive debits the debtor, counter account)
        var bookings: [(Int64, Int)] = []
        switch entry.kind {
        case .invoice, .creditNote:
            let sign: Int64 = entry.kind == .creditNote ? -1 : 1
            var rest = invoice.amount
            var line = Int(entry.item)
            while line < books.taxLines.count, books.taxLines[line].invoiceIndex == entry.invoice {
                let tax = books.taxLines[line]
                let gross = try export.checked(tax.net.addingReportingOverflow(tax.amount), invoice.identifier)
                rest = try export.checked(rest.subtractingReportingOverflow(gross), invoice.identifier)
                let signed = try export.checked(gross.multipliedReportingOverflow(by: sign), invoice.identifier)
                let index = Int(tax.taxIndex)
                let account: Int
                if let known = revenue[index] { account = known } else { account = try self.account(index, invoice.identifier) }
                bookings.append((signed, account))
                line += 1
            }
            if rest != 0 {
                bookings.append(
                    (
                        try export.checked(rest.multipliedReportingOverflow(by: sign), invoice.identifier),
                        try export.revenueAccount("0", invoice: invoice.identifier)
                    ))
            }
        case .payment:
            let row = books.payments[Int(entry.item)]
            bookings.append((try export.checked(Int64(0).subtractingReportingOverflow(row.amount), invoice.identifier), settings.bankAccount))
        case .writeOff:
            let row = books.writeOffs[Int(entry.item)]
            bookings.append((try export.checked(Int64(0).subtractingReportingOverflow(row.amount), invoice.identifier), settings.writeOffAccount))
        }
        let (what, code) = what(entry, books)
        let textKey = Int(invoice.clientIndex) * 8 + code
        let text = try (texts[textKey] ?? cache(&texts, textKey) { () throws(DATEVError) in
            let client = books.clients[Int(invoice.clientIndex)]
            return try DATEVExport.text(what + " " + client.name, limit: 60, client: client)
        }).get()
        let identifier: String
        if Self.isPlain(invoice.identifier) {
            // What checkBelegfeld and text let through as it is.
            identifier = make ? "\"" + invoice.identifier + "\"" : ""
        } else {
            identifier = try (identifiers[entry.invoice] ?? cache(&identifiers, entry.invoice) { () throws(DATEVError) in
                let client = books.clients[Int(invoice.clientIndex)]
                try DATEVExport.checkBelegfeld(invoice.identifier, client: client)
                return try DATEVExport.text(invoice.identifier, limit: 36, client: client)
            }).get()
        }
        var date = ""
        if make {
            let (_, month, day) = entry.day.components
            date = (day < 10 ? "0" : "") + "\(day)" + (month < 10 ? "0" : "") + "\(month)"
        }
        var rows: [String] = []
        for (amount, counter) in bookings where amount != 0 {
            let magnitude = amount.magnitude > UInt64(Int64.max) ? Int64.max : Int64(amount.magnitude)
            let cents = try DATEVExport.umsatzCents(magnitude, currency: currency, invoice: invoice.identifier)
            var kurs = "", basis = "", basisCurrency = ""
            if currency.code != "EUR" {
                let converted = try export.foreign(magnitude, currency: currency, day: entry.day, invoice: invoice.identifier)
                kurs = converted.kurs
                basis = converted.basis
                basisCurrency = "\"EUR\""
            }
            guard make else { continue }
            let umsatz = Money.decimalString(cents, digits: 2).replacingOccurrences(of: ".", with: ",")
            rows.append(
                [
                    umsatz, "\"\(amount < 0 ? "H" : "S")\"", "\"\(currency.code)\"", kurs, basis, basisCurrency,
                    String(debtor), String(counter), "", date, identifier, "\"\"", "", text,
                ].joined(separator: ";"))
        }
        return rows
    }

    /// Whether `identifier` is at most 36 ASCII letters, digits and `_ $ % - /`: Belegfeld 1 takes it as it is
    /// (``DATEVExport/checkBelegfeld(_:client:)`` allows it, and ``DATEVExport/text(_:limit:client:)`` neither cuts nor
    /// changes it), so it is quoted without those checks, which were most of a rebuild's check of the rows.
    static func isPlain(_ identifier: String) -> Bool {
        identifier.utf8.count <= 36
            && identifier.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "-"), UInt8(ascii: "/"):
                    true
                default: false
                }
            }
    }

    /// The revenue account of tax `index`'s rate, kept; the refusal names `invoice`.
    private func account(_ index: Int, _ invoice: String) throws(DATEVError) -> Int {
        let account = try export.revenueAccount(export.books.taxes[index].percent, invoice: invoice)
        revenue[index] = account
        return account
    }

    /// `make()`'s result, kept under `key`.
    private func cache<Key: Hashable>(
        _ table: inout [Key: Result<String, DATEVError>], _ key: Key, _ make: () throws(DATEVError) -> String
    ) -> Result<String, DATEVError> {
        let result = Result { () throws(DATEVError) in try make() }
        table[key] = result
        return result
    }
}
