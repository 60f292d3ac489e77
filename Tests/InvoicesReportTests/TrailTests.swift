import Foundation
import InvoicesCore
@testable import InvoicesReport
import Testing

/// The trail file and its comparison (issue 32): the next build reads the file back line by line, so its order and
/// escaping must agree with the records whatever the keys hold.
struct TrailTests {
    static let day = CalendarDate(iso: "2025-03-01")!

    func payment(_ key: String, _ amount: String, reason: String = "") -> Trail.Record {
        Trail.Record(kind: .payment, key: key, date: Self.day, values: ["2025-03-01", amount, "bank\ttransfer", reason])
    }

    @Test func aTrailComparedWithItsOwnFileHasNoChangesWhateverTheKeysHold() throws {
        let keys = ["INV-1 payment 1", "INV-1 payment 10", "INV-1 payment 2", "A\\B payment 1", "A\tB payment 1", "A\nB payment 1",
                    "A]B payment 1", "Ä payment 1", "a payment 1", "", "\\", "\\\\t"]
        let trail = Trail(records: keys.map { payment($0, "1.00", reason: "line\nbreak \\ backslash") })
        #expect(try #require(trail.changes(sinceText: trail.text)).isEmpty)
        #expect(Trail(text: trail.text) == trail)
        #expect(trail.records.map(\.key).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } == trail.records.map(\.key))
    }

    @Test func addedChangedAndRemovedRecordsAreFoundWithTheirValues() throws {
        let before = Trail(records: [payment("INV-1 payment 1", "1.00"), payment("INV-2 payment 1", "2.00"), payment("INV\\3 payment 1", "3.00")])
        let after = Trail(records: [payment("INV-1 payment 1", "1.50"), payment("INV\\3 payment 1", "3.00"), payment("INV-4 payment 1", "4.00")])
        let changes = try #require(after.changes(sinceText: before.text, closedThrough: CalendarDate(iso: "2025-03-31")))
        #expect(changes.map(\.description) == [
            "INV-1 payment 1 amount: 1.00 → 1.50",
            "INV-2 payment 1 removed (was date 2025-03-01, amount 2.00, method bank\ttransfer)",
            "INV-4 payment 1 added (date 2025-03-01, amount 4.00, method bank\ttransfer)",
        ])
        #expect(changes.allSatisfy { $0.closed })
        #expect(after.changes(sinceText: "not a trail\n") == nil)
    }

    /// The build compares with the previous trail's file read a megabyte at a time, and writes the new one the same
    /// way (at 2,000,000 invoices the file is 600 MB): over several megabytes, with lines that run across the pieces
    /// and escapes in them, the file gives the same changes as the whole text, and the pieces make the text.
    @Test func aTrailFileReadAndWrittenInPiecesIsTheWholeText() throws {
        func trail(_ amount: (Int) -> String) -> Trail {
            Trail(records: (0..<40_000).map { payment("INV-\($0) payment 1", amount($0), reason: String(repeating: "x\\y\t", count: $0 % 23)) })
        }
        let before = trail { "\($0).00" }
        let after = trail { $0 % 9_973 == 0 ? "\($0).50" : "\($0).00" }
        var pieces: [Int] = []
        var written: [UInt8] = []
        try before.write(books: 42) { pieces.append($0.count); written.append(contentsOf: $0) }
        #expect(pieces.count >= 3, "\(pieces)")
        #expect(String(decoding: written, as: UTF8.self) == before.text(books: 42))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trail-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("trail")
        try Data(written).write(to: file)
        let fromFile = try #require(try after.changes(sinceFile: file))
        #expect(fromFile == after.changes(sinceText: before.text))
        #expect(fromFile.map(\.description) == [0, 9_973, 19_946, 29_919, 39_892].map { "INV-\($0) payment 1 amount: \($0).00 → \($0).50" }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(try #require(try before.changes(sinceFile: file)).isEmpty)
        #expect(try after.changes(sinceFile: folder.appendingPathComponent("none")) == nil)
    }

    /// The first line carries the books' fingerprint and, in 16 digits written in place, the hash of the lines
    /// after it (issue 41); a first line from before the hash, or without fingerprints, reads back with nil.
    @Test func theFirstLineReadsBackItsFingerprints() throws {
        let header = Trail.Header(books: 0xabc, body: 0x12)
        #expect(header.line == "invoices-trail 1 abc 0000000000000012")
        #expect(Trail.Header(line: Substring(header.line)) == header)
        #expect(Trail.Header(line: "invoices-trail 1 abc") == Trail.Header(books: 0xabc, body: nil))
        #expect(Trail.Header(line: "invoices-trail 1") == Trail.Header(books: nil, body: nil))
        #expect(Trail.Header(line: "invoices-trail 1 abc 12") == Trail.Header(books: 0xabc, body: nil), "a hash is always 16 digits")
        #expect(Trail.Header(line: "not a trail") == nil)
    }

    /// A previous trail whose line is longer than the trail's line budget (8 MB) is refused naming the file, the line
    /// and the limit (issue 41: one 2 MB line took 53 s); one just within it is compared as any other.
    @Test func aPreviousLineLongerThanTheBudgetIsRefusedAndOneWithinItIsCompared() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trail-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("trail")
        let trail = Trail(records: (0..<5_000).map { payment("INV-\($0) payment 1", "1.00") })
        let long = payment("INV-zz payment 1", "1.00", reason: String(repeating: "y", count: FileBudget.trailLine.bytes - 200))
        try Data(Trail(records: trail.records + [long]).text.utf8).write(to: file)
        let changes = try #require(try trail.changes(sinceFile: file))
        #expect(changes.map(\.description) == ["INV-zz payment 1 removed (was date 2025-03-01, amount 1.00, method bank\ttransfer, reference \(long.values[3]))"])

        var text = trail.text
        text += "payment\tzz\t" + String(repeating: "x", count: FileBudget.trailLine.bytes + (1 << 20)) + "\n"
        try Data(text.utf8).write(to: file)
        #expect {
            _ = try trail.changes(sinceFile: file)
        } throws: { error in
            (error as? RegularFile.Failure)?.description == "\(file.path): line 5002 is longer than the \(FileBudget.trailLine) that a trail line may have"
        }
    }

    /// Lines taken as they are (a reused run of the previous trail, ``Trail/LineReader/copy(to:into:)``) still count:
    /// a long line after them is refused naming its own line, not the lines read before the copy.
    @Test func aLongLineAfterCopiedLinesIsNamedByItsOwnLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trail-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("trail")
        let copied = (0..<2_000).map { "payment\tINV-\($0)\t1.00\n" }.joined()
        try Data(("invoices-trail 1\n" + copied + String(repeating: "x", count: 100) + "\n").utf8).write(to: file)
        var reader = Trail.LineReader(file: try #require(try RegularFile.ifPresent(file.path)), budget: FileBudget(bytes: 50, what: "a test line"))
        #expect(try reader.line() == "invoices-trail 1")
        var taken = 0
        try reader.copy(to: reader.offset + copied.utf8.count) { taken += $0.count }
        #expect(taken == copied.utf8.count)
        #expect {
            _ = try reader.line()
        } throws: { error in
            (error as? RegularFile.Failure)?.description.contains("line 2002 ") == true
        }
    }
}

/// The trail's order writes its sort keys into one run of bytes reserved once at its final size (the L peak: grown
/// by doubling, each growth held the old run beside the new one while it was copied).
struct TrailOrderKeysTests {
    /// Identifiers of one to many bytes a character, and invoices with up to 12 rows (places of two digits).
    static func invoices() -> (invoices: [InvoiceSnapshot], rows: [Int32]) {
        let day = CalendarDate(iso: "2025-03-01")!
        let names = ["INV-1", "Ä-2", "€uro-3", "😀-4", "", "A\tB\\C", String(repeating: "x", count: 300)]
        var invoices: [InvoiceSnapshot] = []
        for index in 0..<700 {
            invoices.append(InvoiceSnapshot(
                id: Int64(index + 1), identifier: names[index % names.count] + String(index), clientIndex: 0, currencyIndex: 0,
                amount: 100, issued: day, due: day, paid: nil, notes: ""))
        }
        // Rows sorted by invoice, as the books keep them: invoice i has i % 13 rows.
        let rows = invoices.indices.flatMap { index in [Int32](repeating: Int32(index), count: index % 13) }
        return (invoices, rows)
    }

    @Test func theKeysSizesAreWhatTheKeysAddUpTo() {
        let (invoices, rows) = Self.invoices()
        let places = TrailLines.places(rows)
        #expect(places.max() == 12)
        var written = TrailLines.Key()
        for (row, place) in zip(rows, places) { TrailLines.documentKey(invoices[Int(row)], " tax line ", place, &written) }
        #expect(TrailLines.documentKeyBytes(invoices, rows, " tax line ", places) == written.bytes.count)
        #expect(TrailLines.invoiceKeyBytes(invoices) == invoices.reduce(0) { $0 + $1.identifier.utf8.count })
        for number: Int32 in [0, 1, 9, 10, 99, 100, 12_345, .max, -1, -10, .min] {
            #expect(TrailLines.decimalDigits(number) == String(number).utf8.count, "\(number)")
        }
    }

    /// With the keys' size given, the run's capacity is the one reserved at that size: it never grew. Grown by
    /// appending (as the order wrote every kind's keys before, and the figures' still), its capacity is a doubling's.
    @Test func theKeysAreWrittenIntoOneRunReservedAtItsSize() {
        let (invoices, rows) = Self.invoices()
        let places = TrailLines.places(rows)
        let size = TrailLines.documentKeyBytes(invoices, rows, " payment ", places)
        var reserved = [UInt8]()
        reserved.reserveCapacity(size)
        func key(_ index: Int, _ key: inout TrailLines.Key) { TrailLines.documentKey(invoices[Int(rows[index])], " payment ", places[index], &key) }
        let (keys, ends) = TrailLines.keys(rows.count, bytes: size, key: key)
        #expect(keys.bytes.count == size && ends.last == size && ends.count == rows.count)
        #expect(keys.bytes.capacity == reserved.capacity, "reserved once")
        let (grown, _) = TrailLines.keys(rows.count, bytes: nil, key: key)
        #expect(grown.bytes == keys.bytes)
        #expect(grown.bytes.capacity != reserved.capacity, "appending alone grows past the size")
        // The order is the keys' bytes' order, as before.
        let order = TrailLines.order(rows.count, bytes: size, key: key)
        let texts = order.map { index -> [UInt8] in
            var one = TrailLines.Key()
            key(Int(index), &one)
            return one.bytes
        }
        #expect(zip(texts, texts.dropFirst()).allSatisfy { !$1.lexicographicallyPrecedes($0) })
    }
}
