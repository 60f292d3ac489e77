internal import Foundation
internal import InvoicesCore
internal import InvoicesReport

/// Where each piece of the exports the last build wrote is, so the next build takes a piece whose inputs did not
/// change from the previous file instead of making it again (docs/architecture.md, "Exports in pieces").
///
/// An export is a head, pieces and a tail (``InvoicesReport/ExportLayout``): a piece per client in `report.json`,
/// `totals.csv` and `aging.csv`, a run of payments in `payments.csv`, a run of transactions in `books.journal` and
/// `books.beancount` (after a head made every build). Each piece has a key, the fingerprint of
/// everything its bytes are made from (a client's is ``SiteBuilder/Inputs/clients``, which holds the options, the
/// months and the executable too). The index (`.Output.pieces` beside the output, for `Output`) records, per file,
/// the fingerprint of the file's bytes and each piece's key, offset and length in it.
///
/// The previous file is the cache: nothing is stored twice. A piece is taken from it only when the previous
/// manifest records the file with the fingerprint the index names, and the file is still that one (its stamp
/// trusted as the manifest trusts it, ``SiteManifest/trusts(_:_:)``, else its bytes read and fingerprinted). So an
/// index that is older or newer than the site, edited, or written by a build that failed before its swap, can only
/// make pieces again, never put a stale piece into a file. The head and tail (the grand totals, the taxes) are made
/// on every build.
struct ExportPieces: Equatable {
    /// One piece of a written file: the fingerprint of its inputs, and where its bytes are in the file.
    struct Piece: Equatable {
        var key: UInt64
        var offset: Int
        var length: Int
    }

    /// A written file's pieces, valid for the file whose bytes have the fingerprint `hash`.
    struct FileIndex: Equatable {
        var hash: UInt64
        var pieces: [Piece]
    }

    /// By path in the site.
    var files: [String: FileIndex] = [:]

    static let header = "invoices-export-pieces 1"

    /// The index as text: the header, then per file (sorted by path) `F hash path`, then a `key offset length` line
    /// per piece (the fingerprints in hexadecimal).
    var text: String {
        var text = Self.header + "\n"
        for (path, file) in files.sorted(by: { $0.key < $1.key }) {
            text += "F \(SiteManifest.hex(file.hash)) \(SiteManifest.escape(path))\n"
            for piece in file.pieces { text += "\(SiteManifest.hex(piece.key)) \(piece.offset) \(piece.length)\n" }
        }
        return text
    }

    init(files: [String: FileIndex] = [:]) { self.files = files }

    /// Parses ``text``; nil when it is not an index of this version (every piece is then made).
    init?(text: String) {
        var text = text
        guard let files = text.withUTF8({ Self.parse(UnsafeRawBufferPointer($0)) }) else { return nil }
        self.files = files
    }

    /// The index's files, read byte by byte: a rebuild reads the exports' index (0.9 MB at S) and the trail's (0.3
    /// MB), and splitting them into lines and fields as texts was 3 % of a one-invoice rebuild at S. A piece's line
    /// is its key in hexadecimal, offset and length in decimal, one space between; anything else is no index.
    private static func parse(_ bytes: UnsafeRawBufferPointer) -> [String: FileIndex]? {
        let header = Array((Self.header + "\n").utf8)
        guard bytes.count >= header.count, bytes.last == 0x0A, header.withUnsafeBytes({ $0.elementsEqual(bytes.prefix(header.count)) })
        else { return nil }
        var files: [String: FileIndex] = [:]
        var current: (path: String, hash: UInt64)?
        var pieces: [Piece] = []
        var start = header.count
        while start < bytes.count {
            var end = start
            while bytes[end] != 0x0A { end += 1 }  // the last byte is a line feed
            defer { start = end + 1 }
            if end - start >= 2, bytes[start] == UInt8(ascii: "F"), bytes[start + 1] == UInt8(ascii: " ") {
                let line = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
                guard fields.count == 3, let hash = UInt64(fields[1], radix: 16) else { return nil }
                let path = SiteManifest.unescape(fields[2])
                guard PreviousFile.isConfined(path) else { return nil }
                if let current { files[current.path] = FileIndex(hash: current.hash, pieces: pieces) }
                current = (path, hash)
                pieces = []
                continue
            }
            var at = start
            guard current != nil, let key = number(bytes, &at, end, radix: 16), at < end, bytes[at] == 0x20 else { return nil }
            at += 1
            guard let offset = number(bytes, &at, end, radix: 10), at < end, bytes[at] == 0x20 else { return nil }
            at += 1
            guard let length = number(bytes, &at, end, radix: 10), at == end, offset <= UInt64(Int.max), length <= UInt64(Int.max),
                Int(offset) <= Int.max - Int(length)
            else { return nil }
            pieces.append(Piece(key: key, offset: Int(offset), length: Int(length)))
        }
        if let current { files[current.path] = FileIndex(hash: current.hash, pieces: pieces) }
        return files
    }

    /// The digits at `at` up to a space or `end` as a number in `radix` (10 or 16); nil for none or an overflow.
    private static func number(_ bytes: UnsafeRawBufferPointer, _ at: inout Int, _ end: Int, radix: UInt64) -> UInt64? {
        var value: UInt64 = 0
        let first = at
        while at < end, bytes[at] != 0x20 {
            let byte = bytes[at]
            let digit: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt64(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt64(byte - UInt8(ascii: "A")) + 10
            default: return nil
            }
            let (times, overflow) = value.multipliedReportingOverflow(by: radix)
            let (sum, carry) = times.addingReportingOverflow(digit)
            guard !overflow, !carry else { return nil }
            value = sum
            at += 1
        }
        return at > first ? value : nil
    }

    /// The index at `url`, or nil when there is none or it does not parse. Read as the manifest is: a regular
    /// file, no link followed, within ``InvoicesCore/FileBudget/manifest``.
    static func read(_ url: URL) -> ExportPieces? {
        guard let file = try? RegularFile(url.path, links: .refuse), let data = try? file.readAll(budget: .manifest) else { return nil }
        return ExportPieces(text: String(decoding: data, as: UTF8.self))
    }

    /// Writes the index to `url` atomically (a temporary file beside it, renamed over it).
    func write(to url: URL) throws(SiteWriteError) {
        try SiteManifest.replace(url, with: Data(text.utf8), what: "the exports' pieces")
    }
}

extension ExportPieces {
    /// The pieces of one previous file that can be taken as they are: the file is open, and it is the one the index
    /// describes (see ``ExportPieces``).
    final class Source {
        private let file: PreviousFile
        private var byKey: [UInt64: Piece] = [:]
        /// The previous manifest's entry of the file, and the manifest.
        let recorded: SiteManifest.File
        let manifest: SiteManifest
        /// The previous file's pieces, in the file's order.
        let pieces: [Piece]

        /// The previous file at `path` under `root`, when `index` describes it and `manifest` records it (in any
        /// unit) with the same fingerprint, and it still has those bytes; nil otherwise.
        init?(_ path: String, index: FileIndex?, manifest: SiteManifest?, root: String) {
            guard let index, let manifest,
                let recorded = manifest.units.values.lazy.flatMap(\.files).first(where: { $0.path == path }), recorded.hash == index.hash,
                let file = PreviousFile(path, under: root)
            else { return nil }
            var info = stat()
            guard fstat(file.descriptor, &info) == 0,
                manifest.trusts(recorded, info) || SiteManifest.verify(file.descriptor, size: recorded.size, hash: recorded.hash),
                index.pieces.allSatisfy({ $0.offset + $0.length <= recorded.size })
            else {
                file.close()
                return nil
            }
            self.file = file
            self.recorded = recorded
            self.manifest = manifest
            pieces = index.pieces
            for piece in index.pieces { byKey[piece.key] = piece }
        }

        /// Whether the previous file holds exactly what `layout` makes with `keys`: the same keys in the same
        /// order, each piece at the offset it would be written at, and the same head, separators and tail (read
        /// from the file and compared: the head is made on every build). A piece's bytes are those of any piece with
        /// its key, so the file is then the one a build would write, and is linked without its pieces being read.
        func holdsWhole(_ layout: ExportLayout, keys: [UInt64]) -> Bool {
            guard keys.count == pieces.count else { return false }
            var offset = layout.head.count
            for (index, piece) in pieces.enumerated() {
                if index > 0 { offset += layout.separator.count }
                guard piece.key == keys[index], piece.offset == offset else { return false }
                offset += piece.length
            }
            guard offset + layout.tail.count == recorded.size, bytes(at: 0, equal: layout.head),
                bytes(at: recorded.size - layout.tail.count, equal: layout.tail)
            else { return false }
            guard !layout.separator.isEmpty else { return true }
            return pieces.dropFirst().allSatisfy { bytes(at: $0.offset - layout.separator.count, equal: layout.separator) }
        }

        /// Whether the previous file's bytes at `offset` are `expected`.
        private func bytes(at offset: Int, equal expected: [UInt8]) -> Bool {
            guard !expected.isEmpty else { return true }
            bytesRead += expected.count
            var read = [UInt8](repeating: 0, count: expected.count)
            let count = read.withUnsafeMutableBytes { readFully(file.descriptor, into: $0, at: offset) }
            return count == expected.count && read == expected
        }

        deinit {
            file.close()
            scratch?.deallocate()
        }

        /// The previous file's descriptor, for the writer to know read bytes as the previous file's
        /// (``SiteStaging/write(_:reading:streaming:)``).
        var descriptor: Int32 { file.descriptor }

        private var scratch: UnsafeMutableRawBufferPointer?
        /// The bytes ``read(_:after:_:)`` read, so far.
        private(set) var bytesRead = 0

        /// Reads the piece `key` from the previous file, with the `separator` before it when the previous file has
        /// that separator there, and hands `body` the bytes read, the offset they were read at and whether they
        /// start with the separator. Returns false (and calls nothing) when there is no such piece or it cannot be
        /// read whole. The bytes are read into a buffer kept from piece to piece, once: the writer does not read
        /// them again to compare (no element-wise zero filling either, slow in a debug build; the journals' pieces
        /// are most of the exports' bytes).
        func read(_ key: UInt64, after separator: [UInt8], _ body: (_ bytes: UnsafeRawBufferPointer, _ offset: Int, _ separated: Bool) -> Void) -> Bool {
            guard let piece = byKey[key] else { return false }
            let before = piece.offset >= separator.count ? separator.count : 0
            let count = before + piece.length
            if scratch.map({ $0.count < count }) ?? true {
                scratch?.deallocate()
                scratch = .allocate(byteCount: max(count, 1 << 16), alignment: 16)
            }
            bytesRead += count
            guard let buffer = scratch, readFully(file.descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]), at: piece.offset - before) == count
            else { return false }
            let read = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            let separated = before > 0 && read.prefix(before).elementsEqual(separator)
            body(separated ? read : UnsafeRawBufferPointer(rebasing: read[before...]), separated ? piece.offset - before : piece.offset, separated)
            return true
        }
    }
}

extension SiteStaging {
    /// Writes `layout` at `path`, each piece taken from `previous` when it has the piece's key (`keys`, one per
    /// piece), else made; the file's bytes are the same either way. A piece taken is read once: the writer knows
    /// it for the previous file's bytes and does not read them again to compare.
    /// - Returns: The file's manifest entry, its pieces for the next build's index, and how many were taken.
    func write(
        _ path: String, layout: ExportLayout, keys: [UInt64], previous: ExportPieces.Source?
    ) throws(SiteWriteError) -> (file: SiteManifest.File, index: ExportPieces.FileIndex, reused: Int) {
        precondition(keys.count == layout.count, "one key per piece")
        // Every piece where the previous build wrote it, with the same head and tail: the previous file, linked.
        if let previous, previous.holdsWhole(layout, keys: keys), let kept = reuse([previous.recorded], from: previous.manifest) {
            recordPieces(reused: keys.count, made: 0)
            return (kept[0], ExportPieces.FileIndex(hash: kept[0].hash, pieces: previous.pieces), keys.count)
        }
        var pieces: [ExportPieces.Piece] = []
        pieces.reserveCapacity(keys.count)
        var reused = 0
        let file = try write(path, reading: previous?.descriptor) { emit in
            var bytes = layout.head
            var emitted = 0
            func flush() {
                bytes.withUnsafeBytes { emit($0, nil) }
                emitted += bytes.count
                bytes.removeAll(keepingCapacity: true)
            }
            for index in 0..<layout.count {
                let separator = index > 0 ? layout.separator : []
                let taken = previous?.read(keys[index], after: separator) { read, offset, separated in
                    // The made bytes before it go first, with the separator unless it was read with the piece.
                    if !separated { bytes.append(contentsOf: separator) }
                    if !bytes.isEmpty { flush() }
                    emit(read, offset)
                    emitted += read.count
                    let length = read.count - (separated ? separator.count : 0)
                    pieces.append(ExportPieces.Piece(key: keys[index], offset: emitted - length, length: length))
                }
                if taken == true {
                    reused += 1
                    continue
                }
                bytes.append(contentsOf: separator)
                let start = emitted + bytes.count
                layout.append(index, to: &bytes)
                pieces.append(ExportPieces.Piece(key: keys[index], offset: start, length: emitted + bytes.count - start))
                if bytes.count > 1 << 20 { flush() }
            }
            bytes.append(contentsOf: layout.tail)
            flush()
        }
        recordPieces(reused: reused, made: keys.count - reused)
        return (file, ExportPieces.FileIndex(hash: file.hash, pieces: pieces), reused)
    }
}

extension SiteBuilder.Inputs {
    /// The key of a piece of `file` made from inputs with the fingerprint `inputs`.
    static func pieceKey(_ file: String, _ inputs: UInt64) -> UInt64 {
        var fingerprint = Fingerprint(seed: inputs)
        fingerprint.add(file)
        return fingerprint.value
    }

    /// Per client (index in ``Books/clients``), a fingerprint of its number and name: what a row or transaction
    /// shows of its client.
    static func clientNameKeys(_ books: Books) -> [UInt64] {
        books.clients.map { client in
            var fingerprint = Fingerprint()
            fingerprint.add(client.number)
            fingerprint.add(client.name)
            return fingerprint.value
        }
    }

    /// `payments.csv`'s runs of payments and their keys. A run ends after the payments of an invoice whose
    /// identifier's fingerprint is a multiple of 16 (so a payment added or removed changes its own run, and the
    /// runs after it keep their keys), or once it holds 4,096 payments. A run's key is a fingerprint of what its rows
    /// show: each invoice's identifier, client number and name and currency, each payment's day, amount, method and
    /// reference, and ``base`` (the options, the currencies, the executable).
    func paymentRuns(_ books: Books) -> (runs: [Range<Int>], keys: [UInt64]) {
        let clientKeys = Self.clientNameKeys(books)
        var runs: [Range<Int>] = []
        var keys: [UInt64] = []
        var start = 0
        var key = Fingerprint(seed: base)
        var invoice: Int32 = -1
        var anchor = false
        for (index, payment) in books.payments.enumerated() {
            if payment.invoiceIndex != invoice {
                if index > start, anchor || index - start >= 4096 {
                    runs.append(start..<index)
                    keys.append(key.value)
                    start = index
                    key = Fingerprint(seed: base)
                }
                invoice = payment.invoiceIndex
                let snapshot = books.invoices[Int(invoice)]
                var identifier = Fingerprint()
                identifier.add(snapshot.identifier)
                anchor = identifier.value % 16 == 0
                key.add(UInt64(1))
                key.add(identifier.value)
                key.add(clientKeys[Int(snapshot.clientIndex)])
                key.add(Int(snapshot.currencyIndex))
            }
            key.add(UInt64(2))
            key.add(payment.date.dayNumber)
            key.add(payment.amount)
            key.add(payment.details >= 0 ? books.paymentDetails[Int(payment.details)] : nil) { $0.add($1.method); $0.add($1.reference) }
        }
        if books.payments.count > start {
            runs.append(start..<books.payments.count)
            keys.append(key.value)
        }
        return (runs, keys)
    }
}
