import Foundation
public import InvoicesCore
internal import GRDB
internal import GRDBSQLite

/// Writes a realistic, deterministic store: the same options give the same bytes.
///
/// Five currencies (EUR, USD, GBP, JPY with 0 decimals, KWD with 3), invoices over 24 months from January
/// 2024, paid, open and overdue ones, non-ASCII client names, and notes holding Markdown and HTML characters.
/// A schema v2 store: deposits and instalments, an overpayment refunded, credit notes against earlier invoices,
/// voids (one after a payment), drafts in the last month, write-offs of old balances, and taxes at 0 %, 7.7 % and
/// 20 % (some invoices untaxed). The base draws (clients, amounts, dates) come from `seed`; the v2 details from a
/// second generator seeded from it, so both are deterministic.
public struct SampleGenerator: Sendable {
    public var clients: Int
    public var invoices: Int
    public var seed: UInt64
    /// The first month invoices are issued in; they span ``months`` months from there.
    public var firstMonth = YearMonth(year: 2024, month: 1)
    public var months = 24

    public init(clients: Int, invoices: Int, seed: UInt64) {
        self.clients = clients
        self.invoices = invoices
        self.seed = seed
    }

    /// Writes the store to `path`, replacing a file already there only once the new one is complete.
    public func write(to path: String) throws {
        precondition(clients > 0 || invoices == 0, "invoices need at least one client")
        let temporary = path + ".partial"
        try? FileManager.default.removeItem(atPath: temporary)
        do {
            let queue = try DatabaseQueue(path: temporary)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: Schema.createStatements)
                try db.inTransaction {
                    try fill(db)
                    return .commit
                }
            }
            try queue.close()
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
            try FileManager.default.moveItem(atPath: temporary, toPath: path)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }

    private static let currencies: [(code: String, low: Int64, high: Int64)] = [
        ("EUR", 15_000, 2_500_000), ("USD", 20_000, 3_000_000), ("GBP", 10_000, 1_800_000),
        ("JPY", 20_000, 3_000_000), ("KWD", 50_000, 900_000),
    ]
    private static let firstNames = [
        "Ana", "Björn", "Chloé", "Dmitri", "Eşref", "Fatima", "Giulia", "Hiroshi", "Ingrid", "José", "Kateřina",
        "Lars", "Małgorzata", "Nnamdi", "Oğuz", "Priya", "Quentin", "Renée", "Søren", "Thảo", "Uxía", "Václav",
        "Wen", "Xóchitl", "Yusuf", "Zoë",
    ]
    private static let lastNames = [
        "Åberg", "Müller", "Nakamura", "O'Brien", "Przybylski", "Quiñones", "Rossi", "Schäfer", "Tanaka",
        "Ünal", "Van der Berg", "Wójcik", "Xu", "Yılmaz", "Żak", "Dubois", "García", "Nguyễn", "Kowalski", "Smith",
    ]
    private static let companies = [
        "Studio", "& Söhne", "GmbH", "Design Co.", "株式会社", "Consulting", "Ltd", "S.à r.l.", "Partners",
        "Atelier", "Labs", "AB", "s.r.o.", "Café", "Works",
    ]
    private static let cities: [(city: String, country: String, zip: String)] = [
        ("Zürich", "CH", "8001"), ("München", "DE", "80331"), ("Kraków", "PL", "30-001"), ("Tōkyō", "JP", "100-0001"),
        ("Kuwait City", "KW", "13001"), ("São Paulo", "BR", "01000-000"), ("Reykjavík", "IS", "101"),
        ("London", "GB", "EC1A 1BB"), ("New York", "US", "10001"), ("Malmö", "SE", "211 20"), ("Orléans", "FR", "45000"),
    ]
    private static let streets = ["Hauptstraße", "Rue de l'Église", "Calle Mayor", "Main St", "Ulica Długa", "Storgatan"]
    private static let notes = [
        "", "", "", "Thanks for your business!", "Phase 2: *design* and **review**", "Fixes for issue #42 & #43",
        "Hosting <b>annual</b> plan", "See [the spec](https://example.com/spec) for scope", "Rate: 50% upfront | 50% on delivery",
        "Use `invoice_id` as reference", "Retainer_Q1 — 10 h", "Translation 日本語 → English", "Workshop 1/2 <3",
        "Backslash \\ and tilde ~ and pipes | here",
    ]

    private func fill(_ db: Database) throws {
        var random = SplitMix64(seed: seed)
        let clientInsert = try db.makeStatement(
            sql: "INSERT INTO client (id, number, name, email, street, city, zip, country) VALUES (?,?,?,?,?,?,?,?)")
        var clientCurrencies: [[Int]] = []
        for index in 0..<clients {
            let first = Self.firstNames[random.below(Self.firstNames.count)]
            let last = Self.lastNames[random.below(Self.lastNames.count)]
            let company = Self.companies[random.below(Self.companies.count)]
            let name = random.below(3) == 0 ? "\(first) \(last)" : "\(last) \(company)"
            let place = Self.cities[random.below(Self.cities.count)]
            let email = "\(Self.asciiSlug(first)).\(Self.asciiSlug(last))\(index)@example.com"
            let street = "\(Self.streets[random.below(Self.streets.count)]) \(1 + random.below(200))"
            let number = "C-" + String(format: "%05d", index + 1)
            try bind(clientInsert, [.int(Int64(index + 1)), .text(number), .text(name), .text(email), .text(street),
                                    .text(place.city), .text(place.zip), .text(place.country)])
            var currencies = [random.below(Self.currencies.count)]
            if random.below(5) == 0 { currencies.append(random.below(Self.currencies.count)) }
            clientCurrencies.append(currencies)
        }
        let invoiceInsert = try db.makeStatement(
            sql: "INSERT INTO invoice (id, identifier, clientId, amount, net, currency, notes, issuedOn, dueOn, status, kind, correctsId, appliedOn) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)")
        let paymentInsert = try db.makeStatement(
            sql: "INSERT INTO payment (invoiceId, paidOn, amount, method, reference) VALUES (?,?,?,?,?)")
        let taxInsert = try db.makeStatement(sql: "INSERT INTO taxLine (invoiceId, name, rate, net, amount) VALUES (?,?,?,?,?)")
        let writeOffInsert = try db.makeStatement(sql: "INSERT INTO writeOff (invoiceId, writtenOffOn, amount, reason) VALUES (?,?,?,?)")
        var details = SplitMix64(seed: seed ^ 0x5EED_0F_B00C5)
        var creditNotes: [(corrects: Int64, client: Int, currency: String, amount: Int64, issued: CalendarDate, applied: CalendarDate?)] = []
        let start = firstMonth.firstDay
        let end = YearMonth(index: firstMonth.index + months - 1).lastDay
        let span = Int(end.dayNumber - start.dayNumber) + 1
        var sequenceByYear: [Int: Int] = [:]
        for index in 0..<invoices {
            let issued = start.adding(days: invoices == 0 ? 0 : index * span / invoices)
            let client = random.below(clients)
            let currencyIndex = clientCurrencies[client][random.below(clientCurrencies[client].count)]
            let currency = Self.currencies[currencyIndex]
            let amount = currency.low + Int64(random.below(Int(currency.high - currency.low)))
            let rounded = currency.code == "JPY" ? amount / 100 * 100 : (currency.code == "KWD" ? amount / 5 * 5 : amount)
            let due = issued.adding(days: [14, 30, 30, 45, 60][random.below(5)])
            let age = Int(end.dayNumber - issued.dayNumber)
            var paid: CalendarDate?
            let roll = random.below(100)
            if age > 120 ? roll < 94 : (age > 45 ? roll < 75 : roll < 35) {
                let delay = random.below(10) == 0 ? 30 + random.below(90) : random.below(40)
                let day = issued.adding(days: 3 + delay)
                if day <= end { paid = day }
            }
            let year = issued.components.year
            let sequence = (sequenceByYear[year] ?? 0) + 1
            sequenceByYear[year] = sequence
            let identifier = "INV-\(year)-" + String(format: "%06d", sequence)
            let note = Self.notes[random.below(Self.notes.count)]
            let id = Int64(index + 1)
            // Taxes: none, 0 %, 7.7 % or 20 % on the net; the gross is net plus tax.
            let tax = Self.taxes[details.below(Self.taxes.count)]
            let taxAmount = tax.map { Self.halfEven(rounded * Int64($0.milli), 100_000) } ?? 0
            let gross = rounded + taxAmount
            let status = age < 20 && details.below(25) == 0 ? "draft" : (details.below(200) == 0 ? "void" : "sent")
            try bind(invoiceInsert, [.int(id), .text(identifier), .int(Int64(client + 1)), .int(gross),
                                     tax == nil ? .null : .int(rounded), .text(currency.code), .text(note),
                                     .text(issued.description), .text(due.description), .text(status), .text("invoice"), .null, .null])
            if let tax {
                try bind(taxInsert, [.int(id), .text(tax.name), .text(tax.rate), .int(rounded), .int(taxAmount)])
            }
            guard status != "draft" else { continue }
            func pay(_ day: CalendarDate, _ amount: Int64) throws {
                let method = ["bank transfer", "card", ""][details.below(3)]
                let reference = details.below(2) == 0 ? "PAY-\(id)-\(day.description)" : ""
                try bind(paymentInsert, [.int(id), .text(day.description), .int(amount), .text(method), .text(reference)])
            }
            let plan = details.below(100)
            if let paid {
                if status == "void" {
                    try pay(paid, gross / 2)  // a void after a payment: the payment stays as the client's credit
                } else if plan < 15, paid > issued.adding(days: 1) {
                    let deposit = gross * 40 / 100  // a deposit, then the rest
                    try pay(issued.adding(days: 1), deposit)
                    try pay(paid, gross - deposit)
                } else if plan < 20, paid > issued.adding(days: 2) {
                    let part = gross / 3  // three instalments
                    let middle = CalendarDate(dayNumber: (issued.dayNumber + paid.dayNumber) / 2)
                    try pay(issued.adding(days: 1), part)
                    try pay(middle, part)
                    try pay(paid, gross - 2 * part)
                } else if plan < 22 {
                    let extra = max(gross / 20, 1)  // an overpayment, refunded later
                    try pay(paid, gross + extra)
                    if paid.adding(days: 20) <= end { try pay(paid.adding(days: 20), -extra) }
                } else {
                    try pay(paid, gross)
                }
            } else if status == "sent" {
                if plan < 20, issued.adding(days: 2) <= end {
                    try pay(issued.adding(days: 2), gross * 40 / 100)  // a deposit, the rest still open
                } else if plan < 25, age > 240 {
                    try bind(writeOffInsert, [.int(id), .text(issued.adding(days: 200).description), .int(gross), .text("uncollectable")])
                }
            }
            if status == "sent", plan >= 97, age > 40 {
                let credited = max(gross / 10, 1)
                let applied = plan == 99 ? nil : issued.adding(days: 40)
                creditNotes.append((id, client, currency.code, credited, issued.adding(days: 35), applied))
            }
        }
        // Credit notes, numbered apart, each against an earlier invoice of its client and currency.
        for (offset, note) in creditNotes.enumerated() {
            let identifier = "CN-\(note.issued.components.year)-" + String(format: "%06d", offset + 1)
            try bind(invoiceInsert, [.int(Int64(invoices + offset + 1)), .text(identifier), .int(Int64(note.client + 1)),
                                     .int(note.amount), .null, .text(note.currency), .text("Credit for an earlier invoice"),
                                     .text(note.issued.description), .text(note.issued.description), .text("sent"),
                                     .text("credit"), .int(note.corrects), note.applied.map { .text($0.description) } ?? .null])
        }
    }

    /// The taxes invoices are drawn from: none, and three rates.
    private static let taxes: [(name: String, rate: String, milli: Int32)?] = [
        nil, ("VAT", "0", 0), ("MWST", "7.7", 7700), ("VAT", "20", 20000), ("VAT", "20", 20000),
    ]

    /// `value / divisor` rounded half to even (non-negative values).
    static func halfEven(_ value: Int64, _ divisor: Int64) -> Int64 {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        if remainder * 2 > divisor || (remainder * 2 == divisor && quotient % 2 == 1) { return quotient + 1 }
        return quotient
    }

    enum Bound { case int(Int64), text(String), null }

    private func bind(_ statement: Statement, _ values: [Bound]) throws {
        let pointer = statement.sqliteStatement
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .int(let number): sqlite3_bind_int64(pointer, index, number)
            case .text(let text): sqlite3_bind_text(pointer, index, text, -1, transient)
            case .null: sqlite3_bind_null(pointer, index)
            }
        }
        let code = sqlite3_step(pointer)
        sqlite3_reset(pointer)
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(pointer))))
        }
    }

    static func asciiSlug(_ text: String) -> String {
        String(text.applyingTransform(.stripDiacritics, reverse: false)?.lowercased().filter { $0.isASCII && $0.isLetter } ?? "x")
    }
}

/// A small, fast, seedable pseudo-random generator (SplitMix64): the same seed gives the same sequence everywhere.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
