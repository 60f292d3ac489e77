public import Foundation
public import InvoicesCore

extension Trail {
    /// A run of the trail file's bytes: the lines of a run of records (``Order``), known by the fingerprint of what
    /// they are made of (its key), at `offset` for `length` bytes.
    public typealias Piece = (key: UInt64, offset: Int, length: Int)

    /// What writing the trail in pieces gave: what changed since the previous trail (nil without one), where each
    /// piece of the new file is, and how many were taken from the previous file.
    public struct PiecesWritten {
        public var changes: [Change]?
        public var pieces: [Piece]
        public var reused: Int
    }

    /// Writes the trail file as ``write(books:comparingWith:closedThrough:into:)`` does (the same bytes, the same
    /// changes), in pieces: the records at the positions `runs` (of ``Order``, in order, covering them all), each run
    /// known by its key in `keys`. A run whose key is a piece of the previous file (`previousPieces`, as the build
    /// that wrote it recorded them) is taken from that file as it is: its lines are neither made nor compared, as
    /// they are the same in both. The lines of the other runs are made and compared with the previous file's lines
    /// that were not taken, in one pass over each file.
    ///
    /// Pieces are taken only when they cover the previous file's lines from its first line's end to its end, one
    /// after the other; and only in the order they have there. `observePrevious` is handed every byte of the
    /// previous file after its first line, in order: the caller checks that they are those the pieces were
    /// recorded for, and writes again without them when not.
    /// - Returns: The changes, the new file's pieces (one per run), and how many were taken.
    /// - Throws: As ``write(books:comparingWith:closedThrough:into:)``.
    public func write(
        books: UInt64, runs: [Range<Int>], keys: [UInt64], comparingWith previous: URL?, previousPieces: [Piece]?,
        closedThrough: CalendarDate?, observePrevious: @escaping (UnsafeRawBufferPointer) -> Void,
        into emit: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> PiecesWritten {
        precondition(runs.count == keys.count, "one key per run")
        guard let lines else { preconditionFailure("pieces are of the books' trail") }
        var merge: Merge<LineReader>?
        // Per run, the index of the previous piece it is taken from.
        var taken = [Int?](repeating: nil, count: runs.count)
        var oldPieces: [Piece] = []
        if let previous, let file = try RegularFile.ifPresent(previous.path, links: .refuse) {
            var reader = LineReader(file: file, budget: FileBudget.trailLine)
            if let first = try reader.line(), Self.isHeader(first) {
                if let pieces = previousPieces, Self.cover(pieces, from: reader.offset, to: file.size) {
                    oldPieces = pieces
                    var byKey: [UInt64: Int] = [:]
                    for (index, piece) in pieces.enumerated() { byKey[piece.key] = index }
                    var last = -1
                    for (run, key) in keys.enumerated() {
                        guard let index = byKey[key], index > last else { continue }
                        taken[run] = index
                        last = index
                    }
                    reader.observe = observePrevious
                    reader.limit = taken.lazy.compactMap { $0 }.first.map { pieces[$0].offset } ?? .max
                }
                merge = Merge(old: reader, closedThrough: closedThrough)
            }
        }

        var pieces: [Piece] = []
        pieces.reserveCapacity(runs.count)
        var reused = 0
        var buffer = Array((Header(books: books, body: 0).line + "\n").utf8)
        buffer.reserveCapacity((1 << 20) + 4096)
        var emitted = 0
        let budget = FileBudget.trailLine.bytes
        for (run, positions) in runs.enumerated() {
            let start = emitted + buffer.count
            if let index = taken[run], merge != nil {
                merge!.drain()
                if let failure = merge!.failure { throw failure }
                let piece = oldPieces[index]
                // The previous file's lines up to the piece were all read: it starts where they end.
                guard merge!.withOld({ $0.offset }) == piece.offset else { throw PreviousChanged() }
                try buffer.withUnsafeBytes(emit)
                emitted += buffer.count
                buffer.removeAll(keepingCapacity: true)
                let next = taken[(run + 1)...].lazy.compactMap { $0 }.first.map { oldPieces[$0].offset } ?? .max
                try merge!.withOld { old in
                    try old.copy(to: piece.offset + piece.length) { bytes in
                        try emit(bytes)
                        emitted += bytes.count
                    }
                    old.limit = next
                }
                guard emitted - start == piece.length else { throw PreviousChanged() }
                merge!.resume()
                reused += 1
            } else {
                try lines.forEach(in: positions) { line in
                    emitted += try Self.add(line, budget: budget, merge: &merge, to: &buffer, emit: emit)
                }
            }
            pieces.append((keys[run], start, emitted + buffer.count - start))
        }
        if !buffer.isEmpty { try buffer.withUnsafeBytes(emit) }
        let changes = merge?.finish()
        if let failure = merge?.failure { throw failure }
        return PiecesWritten(changes: changes, pieces: pieces, reused: reused)
    }

    /// Whether `pieces` follow one another from `start` to `end`.
    static func cover(_ pieces: [Piece], from start: Int, to end: Int) -> Bool {
        var offset = start
        for piece in pieces {
            guard piece.offset == offset, piece.length >= 0, piece.length <= end - offset else { return false }
            offset += piece.length
        }
        return offset == end
    }

    /// The previous trail file is not laid out as its pieces say (it changed since they were recorded): the caller
    /// writes the trail again without them.
    public struct PreviousChanged: Error, Sendable {}
}
