import Foundation
import InvoicesCore
import InvoicesStore
import InvoicesTesting
import ObjectContexts
import Testing

/// The books a context hands out while it has pending changes (issue 42): every schema-2 field (payments,
/// write-offs, tax lines, status, kind, net, credit notes), with the changes applied, exactly as the store reads
/// them back once the changes are saved.
struct ContextBooksTests {
    /// A v2 sample store with every kind of row: instalments, refunds, credit notes, voids, drafts, write-offs, taxes.
    static func sample(in folder: TemporaryFolder) throws -> (path: String, books: Books) {
        let path = folder.path("books.sqlite")
        try SampleGenerator(clients: 10, invoices: 1_000, seed: 3).write(to: path)
        let books = try BooksStore(path: path).books
        #expect(books.schemaVersion == 3)
        #expect(!books.writeOffs.isEmpty && !books.taxLines.isEmpty && !books.paymentDetails.isEmpty)
        #expect(books.invoices.contains { $0.status == .draft } && books.invoices.contains { $0.status == .void })
        #expect(books.invoices.contains { $0.kind == .creditNote && $0.corrects >= 0 && $0.applied != nil })
        return (path, books)
    }

    /// Every table of `seen` equals `read`'s (`Books` is not `Equatable`).
    static func expectSame(_ seen: Books, _ read: Books, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(seen.schemaVersion == read.schemaVersion, sourceLocation: sourceLocation)
        #expect(seen.clients == read.clients, sourceLocation: sourceLocation)
        #expect(seen.currencies == read.currencies, sourceLocation: sourceLocation)
        #expect(seen.invoices.count == read.invoices.count, sourceLocation: sourceLocation)
        for (a, b) in zip(seen.invoices, read.invoices) where a != b {
            Issue.record("invoice \(a.identifier): \(a) is not \(b)", sourceLocation: sourceLocation)
            break
        }
        #expect(seen.payments == read.payments, sourceLocation: sourceLocation)
        #expect(seen.paymentDetails == read.paymentDetails, sourceLocation: sourceLocation)
        #expect(seen.writeOffs == read.writeOffs, sourceLocation: sourceLocation)
        #expect(seen.taxLines == read.taxLines, sourceLocation: sourceLocation)
        #expect(seen.taxes == read.taxes, sourceLocation: sourceLocation)
    }

    /// A sent invoice with nothing paid, written off or credited: its balance is its amount.
    static func untouched(_ books: Books, skipping: Int = 0) throws -> InvoiceSnapshot {
        let credited = Set(books.invoices.filter { $0.kind == .creditNote }.map(\.corrects))
        let touched = Set(books.payments.map(\.invoiceIndex) + books.writeOffs.map(\.invoiceIndex)).union(credited)
        let open = books.invoices.indices.filter {
            books.invoices[$0].status == .sent && books.invoices[$0].kind == .invoice && !touched.contains(Int32($0))
        }
        return try #require(open.dropFirst(skipping).first.map { books.invoices[$0] })
    }

    /// The build's line of contexts (a read-only main context on the fetched store, a private child) with a change
    /// pending in the child: a client renamed. The child's books are the store's, with only that name changed.
    @Test(.temporaryFolder) @MainActor func aPendingClientChangeKeepsEverySchema2Field() async throws {
        let folder = try TemporaryFolder.current
        let (path, read) = try Self.sample(in: folder)
        try await Self.expectRenamingAClientChangesOnlyItsName(path: path, read: read, client: 2)
    }

    /// Renames client `client` in a private child of a read-only main context on the store at `path` (the build's
    /// line of contexts); the child's books are `read` with only that name changed.
    @MainActor
    static func expectRenamingAClientChangesOnlyItsName(path: String, read: Books, client: Int) async throws {
        let child = PrivateContext(parent: MainContext(store: try BooksStore(path: path), readOnly: true))
        let number = read.clients[client].number
        let seen = try await child.perform { context in
            try #require(try context.fetch(Client.self).first { $0.number == number }).setValue(.text("Renamed"), forKey: "name")
            return try context.books()
        }
        var expected = read
        expected.clients[client].name = "Renamed"
        Self.expectSame(seen, expected)
    }

    /// A v1 store's books through a context with a change pending are read as v1 books: each paid invoice with one
    /// payment of its whole amount on its paid date, no status, kind or taxes.
    @Test(.temporaryFolder) @MainActor func aV1StoresPendingChangeIsReadAsV1() async throws {
        let folder = try TemporaryFolder.current
        let path = folder.path("books.sqlite")
        try StoreFixture.make(at: path, sql: StoreFixture.small)
        let read = try BooksStore(path: path).books
        #expect(read.schemaVersion == 1 && !read.payments.isEmpty)
        try await Self.expectRenamingAClientChangesOnlyItsName(path: path, read: read, client: 0)
    }

    /// Only a payment pending (no client or invoice changed): the child's books hold it, and the invoice it settles
    /// has that payment's day as its settled date.
    @Test(.temporaryFolder) @MainActor func aPendingPaymentAloneIsInTheBooks() async throws {
        let folder = try TemporaryFolder.current
        let (path, read) = try Self.sample(in: folder)
        let open = try Self.untouched(read)
        let main = MainContext(store: try BooksStore(path: path), readOnly: true)
        let child = PrivateContext(parent: main)
        let seen = try await child.perform { context in
            let invoice = try #require(try context.fetch(Invoice.self).first { $0.identifier == open.identifier })
            let payment = try context.insert(Payment.self)
            try payment.setValue(.integer(Int64(open.due.dayNumber)), forKey: "paidOn")
            try payment.setValue(.integer(open.amount), forKey: "amount")
            try payment.setValue(.text("card"), forKey: "method")
            try payment.setObject(invoice, forKey: "invoice")
            return try context.books()
        }
        #expect(seen.payments.count == read.payments.count + 1)
        let settled = try #require(seen.invoices.first { $0.identifier == open.identifier })
        #expect(settled.paid == open.due)
        #expect(seen.paymentDetails.contains(PaymentDetails(method: "card", reference: "")))
    }

    /// Every kind of pending v2 change in a root context on the store file (as an import makes them): a new client
    /// with a draft invoice and its tax line, a payment, a write-off, a payment deleted, an invoice voided, a credit
    /// note applied. The context's books equal the books the store reads once the context saved them.
    @Test(.temporaryFolder) func theBooksOfPendingChangesAreTheBooksReadAfterSavingThem() async throws {
        let folder = try TemporaryFolder.current
        let (path, read) = try Self.sample(in: folder)
        let paid = try Self.untouched(read), writtenOff = try Self.untouched(read, skipping: 1)
        let voided = try Self.untouched(read, skipping: 2), credited = try Self.untouched(read, skipping: 3)
        let instalments = try #require(
            Dictionary(grouping: read.payments, by: \.invoiceIndex).first { $0.value.count > 1 }.map { read.invoices[Int($0.key)].identifier })
        let context = PrivateContext(store: try SQLiteStore(path: path))
        let seen = try await context.perform { context in
            let invoices = Dictionary(uniqueKeysWithValues: try context.fetch(Invoice.self).map { ($0.identifier, $0) })
            func day(_ date: CalendarDate, plus days: Int = 0) -> Value { .integer(Int64(date.adding(days: days).dayNumber)) }

            let client = try context.insert(Client.self)
            try client.setValue(.text("C-NEW"), forKey: "number")
            try client.setValue(.text("Neu & Söhne"), forKey: "name")
            let draft = try context.insert(Invoice.self)
            for (key, value): (String, Value) in [
                ("identifier", .text("INV-NEW-1")), ("amount", .integer(12_000)), ("net", .integer(10_000)), ("currency", .text("CHF")),
                ("issuedOn", day(paid.issued)), ("dueOn", day(paid.issued, plus: 30)), ("status", .text("draft")),
            ] { try draft.setValue(value, forKey: key) }
            try draft.setClient(client)
            let tax = try context.insert(TaxLine.self)
            for (key, value): (String, Value) in [("name", .text("MWST")), ("rate", .text("20")), ("amount", .integer(2_000))] {
                try tax.setValue(value, forKey: key)
            }
            try tax.setObject(draft, forKey: "invoice")

            let payment = try context.insert(Payment.self)
            try payment.setValue(day(paid.due), forKey: "paidOn")
            try payment.setValue(.integer(paid.amount), forKey: "amount")
            try payment.setValue(.text("SEPA-42"), forKey: "reference")
            try payment.setObject(invoices[paid.identifier], forKey: "invoice")

            let writeOff = try context.insert(WriteOff.self)
            try writeOff.setValue(day(writtenOff.due, plus: 200), forKey: "writtenOffOn")
            try writeOff.setValue(.integer(writtenOff.amount), forKey: "amount")
            try writeOff.setValue(.text("insolvent"), forKey: "reason")
            try writeOff.setObject(invoices[writtenOff.identifier], forKey: "invoice")

            try context.delete(try #require(invoices[instalments]?.payments.last))
            try invoices[voided.identifier]?.setValue(.text("void"), forKey: "status")

            let note = try context.insert(Invoice.self)
            for (key, value): (String, Value) in [
                ("identifier", .text("CN-NEW-1")), ("amount", .integer(credited.amount)), ("currency", .text(read.currencies[Int(credited.currencyIndex)].code)),
                ("issuedOn", day(credited.issued, plus: 5)), ("dueOn", day(credited.issued, plus: 5)), ("kind", .text("credit")),
                ("appliedOn", day(credited.issued, plus: 6)),
            ] { try note.setValue(value, forKey: key) }
            try note.setClient(try #require(invoices[credited.identifier]?.client))
            try note.setObject(invoices[credited.identifier], forKey: "corrects")

            let books = try context.books()
            try context.save()
            return books
        }
        let reread = try BooksStore(path: path).books
        #expect(reread.invoices.count == read.invoices.count + 2 && reread.payments.count == read.payments.count)
        #expect(reread.invoices.first { $0.identifier == voided.identifier }?.status == .void)
        #expect(reread.invoices.first { $0.identifier == credited.identifier }?.paid == credited.issued.adding(days: 6))
        Self.expectSame(seen, reread)
    }
}
