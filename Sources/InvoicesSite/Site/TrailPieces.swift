public import Foundation
public import InvoicesCore
public import InvoicesReport

/// The trail in pieces (docs/architecture.md, "The trail in pieces"): its records, in the file's order, are cut
/// into runs, each known by the fingerprint of what its lines are made of. The index of the pieces
/// (`.Output.trail-pieces` beside the output, for `Output`; written as ``ExportPieces`` writes the exports', one file
/// whose hash is that of the trail's lines after its first) says where each run of the previous trail is, so the
/// next build takes a run whose key did not change from that file instead of making and comparing its lines.
extension SiteWriter {
    /// Where the pieces of the trail at ``trailURL`` are (``ExportPieces``), beside it.
    var trailPiecesURL: URL {
        output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).trail-pieces")
    }

    /// A trail written to a temporary file beside ``trailURL`` (``stageTrail(books:report:fingerprint:comparingWith:closedThrough:reusing:)``).
    public struct StagedTrail: Sendable {
        /// The temporary file.
        public var path: String
        /// What changed since the previous trail; nil without one.
        public var changes: [Trail.Change]?
        /// How many runs of records were taken from the previous trail, and how many were made.
        public var reused: Int
        public var made: Int
        /// The new file's pieces, for the next build.
        var index: ExportPieces
    }

    /// Writes the trail of `books` with the figures of `report` (computed over every month) into a temporary file
    /// beside ``trailURL`` as ``stageTrail(_:books:comparingWith:closedThrough:)`` does, the same bytes and changes,
    /// but in pieces: with `reusing`, each run of records whose key is in the previous build's index (and whose file
    /// is still the one the index describes) is taken from the previous trail instead of made and compared.
    /// `orderMade` is called once the records' order is made, before any line is.
    /// - Throws: As ``stageTrail(_:books:comparingWith:closedThrough:)``.
    public func stageTrail(
        books: Books, report: Report, fingerprint: UInt64, comparingWith previous: URL?, closedThrough: CalendarDate?, reusing: Bool,
        orderMade: () -> Void = {}
    ) throws -> StagedTrail {
        let order = Trail.Order(books: books, report: report)
        orderMade()
        let trail = Trail(books: books, report: report, order: order)
        let (runs, keys) = SiteBuilder.Inputs.trailRuns(books, report, order)
        let name = trailURL.lastPathComponent
        let recorded = reusing && previous != nil ? ExportPieces.read(trailPiecesURL)?.files[name] : nil
        func write(_ recorded: ExportPieces.FileIndex?) throws -> StagedTrail? {
            var read = Fingerprint.Bytes()
            let (path, written, body) = try writeTrail { emit in
                try trail.write(
                    books: fingerprint, runs: runs, keys: keys, comparingWith: previous,
                    previousPieces: recorded?.pieces.map { ($0.key, $0.offset, $0.length) }, closedThrough: closedThrough,
                    observePrevious: { read.add($0) }, into: emit)
            }
            // Pieces were taken from a file that is not the one the index describes: written again without them.
            if written.reused > 0, read.value != recorded?.hash {
                unlink(path)
                return nil
            }
            let pieces = written.pieces.map { ExportPieces.Piece(key: $0.key, offset: $0.offset, length: $0.length) }
            return StagedTrail(
                path: path, changes: written.changes, reused: written.reused, made: runs.count - written.reused,
                index: ExportPieces(files: [name: ExportPieces.FileIndex(hash: body, pieces: pieces)]))
        }
        do {
            if let staged = try write(recorded) { return staged }
        } catch is Trail.PreviousChanged {}
        return try write(nil)!
    }

    /// Renames the trail ``stageTrail(books:report:fingerprint:comparingWith:closedThrough:reusing:)`` wrote into
    /// place, then writes its pieces' index: the next build compares with it, and takes its unchanged runs.
    public func commitTrail(_ staged: StagedTrail) throws(SiteWriteError) {
        try commitTrail(staged.path)
        // Without an index the next build makes every run: a failure here costs time, never correctness.
        try? staged.index.write(to: trailPiecesURL)
    }
}

extension SiteBuilder.Inputs {
    /// The trail's runs of records (positions of ``InvoicesReport/Trail/Order``) and their keys. A run ends with its
    /// kind, after a record whose identity (an invoice's identifier; a payment's, write-off's or tax line's invoice
    /// and place; a client's number, currency and month; a currency's tax and month) has a fingerprint that is a
    /// multiple of 64 (so a record added, removed or changed changes its own run's key, and the runs around it keep
    /// theirs), or once it holds 4,096 records. A run's key is a fingerprint of every value its lines show: per
    /// record its identity and, by kind, the invoice's kind, client number, status, days, currency, amounts, the
    /// identifier it corrects, the day it was applied and its notes; a payment's day, amount, method and reference;
    /// a write-off's day, amount and reason; a tax line's day, tax name and rate, net and tax; a month's figures; and
    /// the executable and the currencies with their decimals. The options are not in it: the trail does not show them.
    static func trailRuns(_ books: Books, _ report: Report, _ order: Trail.Order) -> (runs: [Range<Int>], keys: [UInt64]) {
        var base = Fingerprint()
        base.add(SiteBuilder.executableIdentity)
        base.add(books.currencies.count)
        for currency in books.currencies { base.add(currency.code); base.add(currency.minorUnitDigits) }
        let baseValue = base.value
        // Invoices read in place (`pointee`) here and below: a copy of one would retain and release its texts.
        let identifiers = books.invoices.withUnsafeBufferPointer { invoices in
            invoices.indices.map { index in
                var fingerprint = Fingerprint()
                fingerprint.add(invoices[index].identifier)
                return fingerprint.value
            }
        }
        // What `Fingerprint.add(_: String)` adds for each tax's name, worked out once, not once per tax line.
        let taxNames = books.taxes.map { tax in
            var name = tax.name
            return name.withUTF8 { Fingerprint.of(UnsafeRawBufferPointer($0)) }
        }
        let clientNumbers = books.clients.map { client in
            var fingerprint = Fingerprint()
            fingerprint.add(client.number)
            return fingerprint.value
        }
        var runs: [Range<Int>] = []
        var keys: [UInt64] = []
        var start = 0
        var key = Fingerprint(seed: baseValue)
        /// Ends the run before `end`.
        func cut(_ end: Int) {
            guard end > start else { return }
            runs.append(start..<end)
            keys.append(key.value)
            start = end
            key = Fingerprint(seed: baseValue)
        }
        /// Ends the run after `position` when `identity` anchors it or it is full.
        func record(_ position: Int, identity: UInt64) {
            if identity % 64 == 0 || position + 1 - start >= 4096 { cut(position + 1) }
        }
        func document(_ invoice: Int32, _ place: Int32) -> UInt64 {
            var identity = Fingerprint()
            identity.add(identifiers[Int(invoice)])
            identity.add(place)
            return identity.value
        }
        books.invoices.withUnsafeBufferPointer { invoices in
            for (kind, positions) in order.sections {
                let tag = Trail.Kind.allCases.firstIndex(of: kind) ?? 0
                for position in positions {
                    let row = position - positions.lowerBound
                    let identity: UInt64
                    key.add(tag + 1)
                    switch kind {
                    case .invoice:
                        let index = Int(order.invoices[row])
                        let invoice = invoices.baseAddress! + index
                        identity = identifiers[index]
                        key.add(identity)
                        key.add(Int(invoice.pointee.kind.rawValue))
                        key.add(clientNumbers[Int(invoice.pointee.clientIndex)])
                        key.add(Int(invoice.pointee.status.rawValue))
                        key.add(invoice.pointee.issued.dayNumber)
                        key.add(invoice.pointee.due.dayNumber)
                        key.add(Int(invoice.pointee.currencyIndex))
                        key.add(invoice.pointee.amount)
                        key.add(invoice.pointee.net)
                        let corrects = Int(invoice.pointee.corrects)
                        key.add(corrects >= 0 && corrects < identifiers.count ? identifiers[corrects] : 0)
                        key.add(invoice.pointee.applied) { $0.add($1.dayNumber) }
                        key.add(invoice.pointee.notes)
                    case .payment:
                        let index = Int(order.payments[row])
                        let payment = books.payments[index]
                        identity = document(payment.invoiceIndex, order.paymentPlaces[index])
                        key.add(identity)
                        key.add(payment.date.dayNumber)
                        key.add(payment.amount)
                        key.add(Int(invoices[Int(payment.invoiceIndex)].currencyIndex))
                        key.add(payment.details >= 0 ? books.paymentDetails[Int(payment.details)] : nil) { $0.add($1.method); $0.add($1.reference) }
                    case .writeOff:
                        let index = Int(order.writeOffs[row])
                        let writeOff = books.writeOffs[index]
                        identity = document(writeOff.invoiceIndex, order.writeOffPlaces[index])
                        key.add(identity)
                        key.add(writeOff.date.dayNumber)
                        key.add(writeOff.amount)
                        key.add(Int(invoices[Int(writeOff.invoiceIndex)].currencyIndex))
                        key.add(writeOff.reason)
                    case .taxLine:
                        let index = Int(order.taxLines[row])
                        let line = books.taxLines[index]
                        let invoice = invoices.baseAddress! + Int(line.invoiceIndex)
                        identity = document(line.invoiceIndex, order.taxLinePlaces[index])
                        key.add(identity)
                        key.add(invoice.pointee.issued.dayNumber)
                        key.add(Int(invoice.pointee.currencyIndex))
                        key.add(taxNames[Int(line.taxIndex)])
                        key.add(books.taxes[Int(line.taxIndex)].milliPercent)
                        key.add(line.net)
                        key.add(line.amount)
                    case .figures:
                        let entry = order.figures[row]
                        let totals = report.clients[Int(entry.client)]
                        let currency = totals.currencies[Int(entry.currency)]
                        let month = report.months[Int(entry.month)]
                        var fingerprint = Fingerprint()
                        fingerprint.add(clientNumbers[totals.clientIndex])
                        fingerprint.add(currency.currency.code)
                        fingerprint.add(month.year)
                        fingerprint.add(month.month)
                        identity = fingerprint.value
                        key.add(identity)
                        key.add(currency.currency.minorUnitDigits)
                        SiteBuilder.add(currency.months[Int(entry.month)], to: &key)
                    case .taxFigures:
                        let entry = order.taxFigures[row]
                        let totals = report.taxes[Int(entry.tax)]
                        let month = report.months[Int(entry.month)]
                        var fingerprint = Fingerprint()
                        fingerprint.add(totals.currency.code)
                        fingerprint.add(books.taxes[totals.taxIndex].name)
                        fingerprint.add(books.taxes[totals.taxIndex].milliPercent)
                        fingerprint.add(month.year)
                        fingerprint.add(month.month)
                        identity = fingerprint.value
                        key.add(identity)
                        key.add(totals.currency.minorUnitDigits)
                        SiteBuilder.add(totals.months[Int(entry.month)], to: &key)
                    }
                    record(position, identity: identity)
                }
                cut(positions.upperBound)
            }
        }
        return (runs, keys)
    }
}
